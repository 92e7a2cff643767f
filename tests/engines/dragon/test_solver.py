"""The exact solver against the brute force of ``brute.py``, and hand-picked hands."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.engines.dragon.rules import ScoringOptions
from paiju.engines.dragon.scoring import leftover_key
from paiju.engines.dragon.solver import (
    Solution,
    arrangements,
    best_key,
    canonical_chain,
    chainable,
    lay_chain,
    solve,
)
from paiju.engines.dragon.tiles import BY_CODE, Kind, kind_of
from tests.engines.dragon.brute import brute_arrangements, brute_best
from tests.engines.dragon.strategies import all_options, hands
from tests.scale import examples


def hand_of(codes: str) -> tuple[Kind, ...]:
    return tuple(sorted(BY_CODE[c] for c in codes.split()))


def assert_valid(hand: tuple[Kind, ...], sol: Solution, opts: ScoringOptions) -> None:
    """The solution is a real arrangement of ``hand`` that scores its key."""
    if sol.key == (0,):
        assert sol.chain == () and Counter(sol.leftover) == Counter(hand)
        return
    assert len(sol.chain) in (6, 7)
    assert all(a[1] == b[0] for a, b in pairwise(sol.chain))
    used = [kind_of(f"{a}{b}") for a, b in sol.chain] + list(sol.leftover)
    assert Counter(used) == Counter(hand)
    assert leftover_key(sol.leftover, opts) == sol.key


@settings(max_examples=examples(150), deadline=None)
@given(hand=hands, opts=all_options)
def test_solver_matches_brute_force(hand: tuple[Kind, ...], opts: ScoringOptions) -> None:
    sol = solve(hand, opts)
    assert sol.key == brute_best(hand, opts)
    assert_valid(hand, sol, opts)


@settings(max_examples=examples(40), deadline=None)
@given(hand=hands)
def test_arrangements_match_brute_force(hand: tuple[Kind, ...]) -> None:
    found = arrangements(hand)
    assert set(found) == brute_arrangements(hand)
    # bust <=> no 6-line: every 7-line contains a 6-line
    lengths = {len(chain) for chain, _ in found}
    assert 7 not in lengths or 6 in lengths
    assert (solve(hand).key == (0,)) == (not found)


@pytest.mark.parametrize(
    ("codes", "key", "leftover"),
    [
        # no chain possible: four pips of doubles and one connector
        ("66 66 44 55 55 33 33 46", (0,), None),
        ("11 11 22 22 33 33 44 44", (0,), None),
        # the best needs a 7-chain: 45 alone (9) beats every 2-tile leftover
        ("66 13 22 56 16 15 45 23", (1, 9, 6), "45"),
        # a pair reachable only through one chain
        ("55 33 33 56 45 26 14 23", (3, 10), "33 33"),
        # 至尊宝
        ("33 22 46 26 24 14 23 12", (3, 16), "24 12"),
        # holding a pair does not mean leaving it: 15 15 cannot be left
        ("11 33 22 56 15 15 25 23", None, None),
    ],
)
def test_hand_picked(codes: str, key: tuple[int, ...] | None, leftover: str | None) -> None:
    hand = hand_of(codes)
    sol = solve(hand)
    assert sol.key == brute_best(hand, ScoringOptions())
    assert_valid(hand, sol, ScoringOptions())
    if key is not None:
        assert sol.key == key
    if leftover is not None:
        assert sol.leftover == hand_of(leftover)
    if key == (0,):
        assert arrangements(hand) == frozenset()


def test_the_pair_is_reachable_through_exactly_one_chain() -> None:
    hand = hand_of("55 33 33 56 45 26 14 23")
    leaving_pair = [a for a in arrangements(hand) if a[1] == hand_of("33 33")]
    assert len(leaving_pair) == 1


def test_a_held_pair_that_cannot_be_left() -> None:
    hand = hand_of("11 33 22 56 15 15 25 23")
    assert solve(hand).key[0] != 3
    assert all(leftover != hand_of("15 15") for _, leftover in arrangements(hand))


def test_the_7_chain_is_the_only_way_to_the_best() -> None:
    hand = hand_of("66 13 22 56 16 15 45 23")
    best = solve(hand).key
    assert all(
        len(chain) == 7
        for chain, left in arrangements(hand)
        if leftover_key(left, ScoringOptions()) == best
    )


@pytest.mark.parametrize(
    ("codes", "opts", "key"),
    [
        # 至尊宝 is no pair with pair_set civil: the best is 22 + 14, 9 with 板凳 high
        ("33 22 46 26 24 14 23 12", ScoringOptions(pair_set="civil"), (1, 9, 11)),
        ("33 22 46 26 24 14 23 12", ScoringOptions(pair_set="civil+geejoon"), (3, 16)),
    ],
)
def test_options_change_the_best(codes: str, opts: ScoringOptions, key: tuple[int, ...]) -> None:
    hand = hand_of(codes)
    assert solve(hand, opts).key == key == brute_best(hand, opts)


@pytest.mark.parametrize(
    ("codes", "ok"),
    [
        ("66 66", True),
        ("66 11", False),
        ("66 16 11", True),
        ("16 16 16", True),
        ("12 23 34 45 56 16", True),
        ("12 34 56", False),
        ("11 12 22 33", False),
    ],
)
def test_chainable(codes: str, ok: bool) -> None:
    kinds = [BY_CODE[c] for c in codes.split()]
    assert chainable(kinds) is ok
    if ok:
        laid = lay_chain(kinds)
        assert all(a[1] == b[0] for a, b in pairwise(laid))
        assert Counter(kind_of(f"{a}{b}") for a, b in laid) == Counter(kinds)
    else:
        with pytest.raises(ValueError):
            lay_chain(kinds)


def test_best_key_agrees_with_solve() -> None:
    hand = hand_of("66 13 22 56 16 15 45 23")
    assert best_key(hand) == solve(hand).key


@settings(max_examples=300, deadline=None)
@given(chain=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), max_size=8))
def test_a_canonical_chain_is_the_smaller_of_its_two_readings(chain: list[tuple[int, int]]) -> None:
    """Read from whichever end reads smaller, though the reverse is built only on a tie of the
    first tiles' readings."""
    backward = tuple((right, left) for left, right in reversed(chain))
    assert canonical_chain(chain) == min(tuple(chain), backward)
