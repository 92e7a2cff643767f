"""Complete hands of every form, waits and shanten."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.engines.mcr.hand import (
    Pack,
    group_shape,
    honors_and_knitted,
    is_complete,
    is_complete_counts,
    is_knitted_straight_complete,
    is_regular_complete,
    is_seven_pairs,
    is_thirteen_orphans,
    packs_for,
    shanten,
    waits,
)
from paiju.engines.mcr.tiles import counts, tile_code
from tests.engines.mcr.test_fans_cases import tiles
from tests.engines.mcr.test_oracle import random_case
from tests.scale import examples

COMPLETE = [
    ("W123 T456 B789 F111 J11", True),  # four sets + pair
    ("W11 W55 T22 T99 B33 B66 F44", True),  # seven pairs
    ("W1111 W55 T22 T99 B33 B66", True),  # four of a kind = two pairs
    ("W19 T19 B19 F1234 J1233", True),  # thirteen orphans
    ("W147 T258 B369 F12 J12 F3", True),  # lesser honors and knitted (with knitted straight)
    ("W147 T258 B3 F1234 J123", True),  # greater honors and knitted
    ("W147 T258 B369 W234 F11", True),  # knitted straight + set + pair
    ("W1112345678999 W5", True),  # nine gates is a regular shape
    ("W123 T456 B789 F11 J12", False),
    ("W147 T258 B369 F1234 J1", True),  # lesser honors and knitted, five honors
    ("W147 T258 B369 F123 J11", False),  # knitted straight + a pair but no fourth set
    ("W147 T258 B369 F11", True),  # 11 tiles: knitted straight + pair, one pack exposed
    ("W147 T258 B36 F111", False),
    ("W11 T111", True),  # three packs exposed
    ("W11", True),
    ("W12", False),
]


@pytest.mark.parametrize(("text", "expected"), COMPLETE)
def test_is_complete(text: str, expected: bool) -> None:
    assert is_complete(tiles(text)) is expected


def test_special_forms_need_a_concealed_hand() -> None:
    # 8 tiles = two packs exposed: seven-pairs-like or knitted shapes are not wins
    assert not is_complete(tiles("W11 W55 T22 T99"))
    assert not is_complete(tiles("W147 T258 B3 F1"))


def test_packs_for() -> None:
    assert [packs_for(n) for n in (14, 13, 11, 10, 2, 1)] == [0, 0, 1, 1, 4, 4]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("W1112345678999", "W1 W2 W3 W4 W5 W6 W7 W8 W9"),
        ("W19 T19 B19 F1234 J123", "W1 W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2 J3"),
        ("W123 T456 B789 F111 J1", "J1"),
        ("W123 T456 B789 F11 J11", "F1 J1"),
        ("W11 W55 T22 T99 B33 B66 F4", "F4"),
        ("W147 T258 B369 W23 F11", "W1 W4"),
        ("W1111 T456 B789 F111", ""),  # only a fifth W1 would complete it
        ("W123 T456 B789 F12 J1", ""),
    ],
)
def test_waits(text: str, expected: str) -> None:
    assert sorted(tile_code(t) for t in waits(tiles(text))) == sorted(expected.split())


def test_shanten_examples() -> None:
    assert shanten(tiles("W123 T456 B789 F111 J11"), 0) == -1
    assert shanten(tiles("W123 T456 B789 F111 J1"), 0) == 0
    assert shanten(tiles("W19 T19 B19 F1234 J123"), 0) == 0
    assert shanten(tiles("W147 T258 B369 F12 J12"), 0) == 0  # honors and knitted
    assert shanten(tiles("W11 W55 T22 T99 B33 B66 F4"), 0) == 0
    assert shanten(tiles("W11"), 4) == -1
    assert shanten(tiles("W1"), 4) == 0
    assert shanten(tiles("W147 T258 B369 F1"), 1) == 0  # knitted straight with one pack


@settings(max_examples=examples(150), deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=0, max_value=4))
def test_waits_complete_the_hand(rnd: random.Random, packs: int) -> None:
    wall = [t for t in range(34) for _ in range(4)]
    rnd.shuffle(wall)
    hand = wall[: 13 - 3 * packs]
    for t in waits(hand):
        assert is_complete([*hand, t])
    assert (shanten(hand, packs) == 0) >= bool(waits(hand))
    assert (shanten([*hand, wall[20]], packs) == -1) == is_complete([*hand, wall[20]])


def test_shanten_agrees_with_oracle() -> None:
    mahjong_gb = pytest.importorskip("MahjongGB")
    rng = random.Random(3)
    for _ in range(1500):
        wall = [t for t in range(34) for _ in range(4)]
        rng.shuffle(wall)
        packs = rng.randint(0, 4)
        hand = wall[: 13 - 3 * packs]
        fake_packs = tuple(("PENG", "F1", 1) for _ in range(packs))
        expected = mahjong_gb.MahjongShanten(fake_packs, tuple(tile_code(t) for t in hand))
        assert shanten(hand, packs) == expected, [tile_code(t) for t in hand]


def _reference_complete(c: list[int]) -> bool:
    """The plain, unmemoised checks the fast path must agree with."""
    if sum(c) % 3 != 2 or max(c) > 4:
        return False
    return (
        is_regular_complete(c)
        or (sum(c) == 14 and (is_seven_pairs(c) or is_thirteen_orphans(c)))
        or honors_and_knitted(c) >= 5
        or is_knitted_straight_complete(c)
    )


def test_fast_check_agrees_with_reference() -> None:
    rng = random.Random(11)
    for _ in range(6000):
        case = random_case(rng)
        hand = [*case["hand"], case["win_tile"]]
        if rng.random() < 0.5:
            hand[rng.randrange(len(hand))] = rng.randrange(34)
        c = counts(hand)
        assert is_complete_counts(c) == _reference_complete(c), hand


def test_fast_check_on_random_draws_and_inputs() -> None:
    # random draws of every size (mostly not complete), as a list, bytes and a bytearray
    rng = random.Random(12)
    wall = [t for t in range(34) for _ in range(4)]
    for _ in range(4000):
        c = counts(rng.sample(wall, rng.choice([2, 5, 8, 11, 14])))
        expected = _reference_complete(c)
        assert is_complete_counts(c) == expected, c
        assert is_complete_counts(bytes(c)) == expected
        assert is_complete_counts(bytearray(c)) == expected


@pytest.mark.parametrize(
    "text",
    ["W11111 W234 T456 B789", "W55555 W55 T22 B33 B66", "F11111 W123 T456 B789"],
)
def test_more_than_four_copies_never_complete(text: str) -> None:
    c = counts(tiles(text))
    assert not is_complete_counts(c)
    assert not _reference_complete(c)


def _brute_shape(c: list[int], honors: bool) -> int:
    """1 sets only / 2 sets and a pair / 0 neither, by trying every set at the lowest tile."""

    def sets(c: list[int]) -> bool:
        i = next((i for i, n in enumerate(c) if n), -1)
        if i < 0:
            return True
        if c[i] >= 3 and sets([*c[:i], c[i] - 3, *c[i + 1 :]]):
            return True
        if not honors and i < len(c) - 2 and c[i + 1] and c[i + 2]:
            w = list(c)
            w[i] -= 1
            w[i + 1] -= 1
            w[i + 2] -= 1
            return sets(w)
        return False

    if sets(c):
        return 1
    paired = any(n >= 2 and sets([*c[:i], n - 2, *c[i + 1 :]]) for i, n in enumerate(c))
    return 2 if paired else 0


def test_group_shape_matches_brute_force() -> None:
    rng = random.Random(13)
    for _ in range(3000):
        honors = rng.random() < 0.25
        c = [rng.choice([0, 0, 0, 1, 1, 2, 3, 4, 6]) for _ in range(7 if honors else 9)]
        assert group_shape(list(c), honors) == _brute_shape(c, honors), (c, honors)


def test_pack_tiles() -> None:
    assert Pack("CHI", 1, 2).tiles() == (0, 1, 2)
    assert Pack("PENG", 5, 1).tiles() == (5, 5, 5)
    assert Pack("GANG", 5, 0).tiles() == (5, 5, 5, 5) and Pack("GANG", 5, 0).concealed
