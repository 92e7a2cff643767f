"""Combination recognition (rules §2.3): every shape, with and without 听用, and the options."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.engines.diu.combos import (
    ComboRules,
    Take,
    available_calls,
    classify,
    diu_pairs,
    is_complete,
    is_meld3,
    takes_for,
)
from tests.scale import examples

Z = ComboRules()
ZW = ComboRules(wild_in_chi=True)
NO_UP = ComboRules(allow_upgrade=False)
RUNS_ONLY = ComboRules(chi_shapes=("run",))
POKER = ComboRules(profile="poker54", chi_shapes=("run",))
CHUAN = ComboRules(profile="chuanpai84", chi_shapes=("same_total",))


@pytest.mark.parametrize(
    ("rules", "cards", "expected"),
    [
        (Z, ["s1", "s2", "s3"], "chi"),  # run
        (Z, ["b8", "b9", "b10"], "chi"),
        (Z, ["s2", "s7", "s10"], "chi"),  # 二七十
        (Z, ["b2", "b7", "b10"], "chi"),  # 贰柒拾
        (Z, ["s4", "s4", "b4"], "chi"),  # 大小搭
        (Z, ["s4", "b4", "b4"], "chi"),
        (Z, ["s9", "s10", "b1"], None),  # no wrap, no case mix
        (Z, ["s1", "s2", "b3"], None),
        (Z, ["s2", "s7", "b10"], None),
        (Z, ["s1", "s2", "W"], None),  # 听用 not in 吃 by default
        (ZW, ["s1", "s2", "W"], "chi"),
        (ZW, ["s1", "W", "W"], None),  # at most one 听用 in a 吃
        (RUNS_ONLY, ["s2", "s7", "s10"], None),
        (RUNS_ONLY, ["s4", "s4", "b4"], None),
        (Z, ["s5", "s5", "s5"], "hard_dui"),
        (Z, ["s5", "s5", "W"], "kuai"),
        (Z, ["s5", "W", "W"], None),
        (Z, ["s5", "s5", "W", "W"], "kuai_shui"),
        (Z, ["s5", "s5", "s5", "W"], "ying_shui"),
        (Z, ["s5", "s5", "s5", "s5"], "ying_shui"),  # natural four = 硬水
        (Z, ["s5", "W", "W", "W"], None),
        (Z, ["s5", "s5", "b5", "W"], None),
        (POKER, ["H3", "H4", "H5"], "chi"),
        (POKER, ["H3", "S4", "H5"], None),
        (POKER, ["H12", "H13", "H1"], None),
        (CHUAN, ["p16", "p25", "p34"], "chi"),  # all total 7
        (CHUAN, ["p16", "p25", "p33"], None),
        (CHUAN, ["p33", "p33", "p33"], "hard_dui"),
    ],
)
def test_classify(rules: ComboRules, cards: list[str], expected: str | None) -> None:
    assert classify(rules, cards) == expected


def test_takes_by_call() -> None:
    hand = ["s1", "s2", "s4", "s5", "b3", "s3", "s3", "s3", "W", "W", "b9"]
    takes = takes_for(Z, "s3", hand)
    assert takes["chi"] == (
        Take(("s1", "s2")),
        Take(("s2", "s4")),
        Take(("s3", "b3")),
        Take(("s4", "s5")),
    )
    assert takes["kuai"] == (Take(("s3", "W")),)
    assert takes["kuai_shui"] == (Take(("s3", "W", "W")),)
    assert takes["hard_dui"] == (Take(("s3", "s3")),)
    assert set(takes["ying_shui"]) == {Take(("s3", "s3", "s3")), Take(("s3", "s3", "W"))}


def test_no_wild_no_wild_calls() -> None:
    takes = takes_for(Z, "s3", ["s3", "s3", "s9", "b1"])
    assert set(takes) == {"hard_dui"}


def test_claimed_wild() -> None:
    takes = takes_for(Z, "W", ["s3", "s3", "s3", "W", "b1"])
    assert takes["kuai"] == (Take(("s3", "s3")),)
    assert takes["kuai_shui"] == (Take(("s3", "s3", "W")),)
    assert takes["ying_shui"] == (Take(("s3", "s3", "s3")),)
    assert "chi" not in takes and "hard_dui" not in takes


def test_wild_in_chi_takes() -> None:
    takes = takes_for(ZW, "s3", ["s4", "W", "b9"])
    assert Take(("s4", "W")) in takes["chi"]
    assert "chi" not in takes_for(Z, "s3", ["s4", "W", "b9"])


def test_take_must_leave_a_card() -> None:
    assert takes_for(Z, "s3", ["s3", "s3"]) == {}
    assert set(takes_for(Z, "s3", ["s3", "s3", "b1"])) == {"hard_dui"}


def test_upgrade_exposed_meld() -> None:
    melds = [("s7", "s7", "s7"), ("s3", "s3", "W"), ("s1", "s2", "s3")]
    assert takes_for(Z, "s3", ["b1", "b2"], melds)["ying_shui"] == (Take((), 1),)
    assert takes_for(Z, "s7", ["b1", "b2"], melds)["ying_shui"] == (Take((), 0),)
    assert takes_for(NO_UP, "s3", ["b1", "b2"], melds) == {}


@pytest.mark.parametrize(
    ("rules", "cards", "expected"),
    [
        (Z, [], True),
        (Z, ["s1", "s2", "s3", "b2", "b7", "b10", "s5", "s5", "b5"], True),
        (Z, ["s1", "s2", "s3", "s3", "s3", "s3"], True),  # run + 硬对
        (Z, ["s1", "s1", "s1", "s2", "s2", "s2", "s3", "s3", "s3"], True),
        (Z, ["s4", "s4", "W", "b9", "b9", "b9"], True),  # 筷 + 硬对
        (Z, ["s4", "W", "W", "b9", "b9", "b9"], False),  # x W W is no meld
        (Z, ["s4", "s5", "W"], False),
        (ZW, ["s4", "s5", "W"], True),
        (Z, ["s1", "s2"], False),
        (Z, ["s1", "s2", "s4"], False),
        (Z, ["W", "W", "W"], False),
        (POKER, ["H1", "H2", "H3", "S9", "S9", "W"], True),
    ],
)
def test_is_complete(rules: ComboRules, cards: list[str], expected: bool) -> None:
    assert is_complete(rules, cards) is expected


def test_diu_pairs() -> None:
    # s3 with s1 s2 (吃) leaves b2 b7 b10 + s5 s5 W (筷): complete.
    hand = ["s1", "s2", "b2", "b7", "b10", "s5", "s5", "W"]
    assert diu_pairs(Z, "s3", hand) == (("s1", "s2"),)
    # 丢 with a 筷: s5 + s5 W, rest s1 s2 s3 + b2 b7 b10.
    hand2 = ["s1", "s2", "s3", "b2", "b7", "b10", "s5", "W"]
    assert diu_pairs(Z, "s5", hand2) == (("s5", "W"),)
    # 丢 with a 硬对.
    assert diu_pairs(Z, "b9", ["b9", "b9"]) == (("b9", "b9"),)
    # A claimed 听用 completes a pair into a 筷.
    assert diu_pairs(Z, "W", ["b9", "b9"]) == (("b9", "b9"),)
    # Hand size not 2 mod 3: never.
    assert diu_pairs(Z, "s3", ["s1", "s2", "b1"]) == ()
    # Rest incomplete.
    assert diu_pairs(Z, "s3", ["s1", "s2", "b1", "b5", "b9"]) == ()


def test_available_calls() -> None:
    hand = ["s1", "s2", "b2", "b7", "b10", "s5", "s5", "W"]
    calls = available_calls(Z, "s3", hand, (), chi_right=True, diu_ok=True)
    assert calls == ("chi", "diu")
    assert available_calls(Z, "s3", hand, (), chi_right=False, diu_ok=False) == ()
    calls = available_calls(Z, "s5", hand, (), chi_right=True, diu_ok=True)
    assert calls == ("kuai", "hard_dui", "ying_shui")  # s5 + s5 s5 W is a 硬水


def brute_complete(rules: ComboRules, cards: list[str]) -> bool:
    """Reference: try every 3-card meld holding the first card, recursively."""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    for i in range(len(rest)):
        for j in range(i + 1, len(rest)):
            if is_meld3(rules, [first, rest[i], rest[j]]):
                left = [c for k, c in enumerate(rest) if k not in (i, j)]
                if brute_complete(rules, left):
                    return True
    return False


def brute_takes(rules: ComboRules, card: str, hand: list[str]) -> dict[str, set[tuple[str, ...]]]:
    """Reference: every 2- and 3-card selection of the hand that classifies with ``card``
    (leaving a card to discard), by call."""
    expected: dict[str, set[tuple[str, ...]]] = {}
    for size in (2, 3):
        for combo in itertools.combinations(sorted(hand), size):
            call = classify(rules, [card, *combo])
            if call is not None and len(hand) - size >= 1:
                expected.setdefault(call, set()).add(tuple(sorted(combo)))
    return expected


def found_takes(rules: ComboRules, card: str, hand: list[str]) -> dict[str, set[tuple[str, ...]]]:
    """``takes_for`` in the reference's form."""
    return {
        call: {tuple(sorted(t.cards)) for t in takes}
        for call, takes in takes_for(rules, card, hand).items()
    }


_cards = st.sampled_from(["s1", "s2", "s3", "s4", "b2", "b3", "b4", "s7", "s10", "b7", "b10", "W"])


@settings(max_examples=examples(200), deadline=None)
@given(cards=st.lists(_cards, min_size=3, max_size=9), wild_in_chi=st.booleans())
def test_is_complete_matches_brute_force(cards: list[str], wild_in_chi: bool) -> None:
    rules = ComboRules(wild_in_chi=wild_in_chi)
    cards = cards[: len(cards) - len(cards) % 3]
    assert is_complete(rules, cards) == brute_complete(rules, cards)


@settings(max_examples=examples(150), deadline=None)
@given(card=_cards, hand=st.lists(_cards, min_size=2, max_size=8), wild_in_chi=st.booleans())
def test_takes_and_diu_match_brute_force(card: str, hand: list[str], wild_in_chi: bool) -> None:
    rules = ComboRules(wild_in_chi=wild_in_chi)
    assert found_takes(rules, card, hand) == brute_takes(rules, card, hand)
    pairs = set()
    if (len(hand) - 2) % 3 == 0:
        for i, j in itertools.combinations(range(len(hand)), 2):
            rest = [c for k, c in enumerate(hand) if k not in (i, j)]
            if is_meld3(rules, [card, hand[i], hand[j]]) and brute_complete(rules, rest):
                pairs.add(tuple(sorted((hand[i], hand[j]))))
    assert {tuple(sorted(p)) for p in diu_pairs(rules, card, hand)} == pairs
