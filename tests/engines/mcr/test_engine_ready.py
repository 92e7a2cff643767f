"""The engine's fast waits agree with ``hand.waits`` (the reference) on ready and unready hands."""

from __future__ import annotations

import random
import sys

import pytest

from paiju.engines.mcr.hand import KNITTED_STRAIGHTS, waits
from paiju.engines.mcr.ready import (
    NO_WAITS,
    _ready_waits,
    could_be_ready,
    ready_waits,
    sorted_hand_waits,
)
from paiju.engines.mcr.tiles import TERMINALS_AND_HONORS, Tile, full_set


def _regular(r: random.Random, sets: int) -> list[Tile]:
    while True:
        hand: list[Tile] = []
        for _ in range(sets):
            if r.random() < 0.5:
                hand += [r.randrange(34)] * 3
            else:
                suit, start = r.randrange(3), r.randrange(7)
                hand += [suit * 9 + start + k for k in range(3)]
        pair = r.randrange(34)
        hand += [pair, pair]
        if all(hand.count(t) <= 4 for t in set(hand)):
            return hand


def _specials(r: random.Random) -> list[list[Tile]]:
    orphans = [*TERMINALS_AND_HONORS, r.choice(TERMINALS_AND_HONORS)]
    knitted = [*r.choice(KNITTED_STRAIGHTS), *r.sample(range(27, 34), 5)]
    straight = [*r.choice(KNITTED_STRAIGHTS), *_regular(r, 1)]
    pairs = [t for t in r.sample(range(34), 7) for _ in range(2)]
    return [h for h in (orphans, knitted, straight, pairs) if all(h.count(t) <= 4 for t in h)]


def _hands(seed: int, count: int) -> list[list[Tile]]:
    """Complete hands minus one tile (ready), special forms minus one, and random hands."""
    r = random.Random(seed)
    out: list[list[Tile]] = []
    for _ in range(count):
        for sets in (4, 3, 2, 1, 0):
            hand = _regular(r, sets)
            hand.remove(r.choice(hand))
            out.append(hand)
        for hand in _specials(r):
            hand.remove(r.choice(hand))
            out.append(hand)
        wall = [t for t in full_set() if t < 34]
        r.shuffle(wall)
        out += [wall[:13], wall[:10]]
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_ready_waits_match_the_reference(seed: int) -> None:
    for hand in _hands(seed, 250):
        expected = waits(hand)
        assert ready_waits(hand) == expected, sorted(hand)
        if expected:
            assert could_be_ready(hand), sorted(hand)


def test_every_hand_that_is_not_ready_gets_the_one_empty_set() -> None:
    """A hand without waits (most hands) gets ``NO_WAITS`` itself, not an empty set of its
    own that every state and memo entry holding it would keep (216 bytes each)."""
    hands = [h for h in _hands(3, 40) if not waits(h)]
    assert len(hands) > 20
    for hand in hands:
        assert ready_waits(hand) is NO_WAITS
        assert sorted_hand_waits(tuple(sorted(hand))) is NO_WAITS
    assert not NO_WAITS and isinstance(NO_WAITS, frozenset)


def test_a_sorted_hand_has_the_waits_of_the_hand_and_the_memo_keeps_it_as_given() -> None:
    """``sorted_hand_waits`` answers as ``ready_waits`` of the same tiles in any order, and
    its memo keeps the very tuple it was given (a state's hand), not a copy beside it."""
    r = random.Random(4)
    for hand in _hands(4, 100):
        shuffled = list(hand)
        r.shuffle(shuffled)
        assert sorted_hand_waits(tuple(sorted(hand))) == ready_waits(shuffled)
    held = tuple(sorted(_hands(5, 1)[0]))
    _ready_waits.cache_clear()
    before = sys.getrefcount(held)
    sorted_hand_waits(held)
    assert sys.getrefcount(held) == before + 1  # the memo's key
    listed = list(held)
    _ready_waits.cache_clear()
    before = sys.getrefcount(listed)
    ready_waits(listed)
    assert sys.getrefcount(listed) == before  # (a sorted copy is the key)
