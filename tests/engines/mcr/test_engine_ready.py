"""The engine's fast waits agree with ``hand.waits`` (the reference) on ready and unready hands."""

from __future__ import annotations

import itertools
import random
import sys

import pytest

from paiju.engines.mcr.hand import KNITTED_STRAIGHTS, waits
from paiju.engines.mcr.ready import (
    NO_WAITS,
    SUIT_MEMO,
    _ready_waits,
    _suit_growth,
    could_be_ready,
    ready_waits,
    sorted_hand_waits,
    suit_class,
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


def test_the_memos_of_one_suit_keep_a_bounded_number_and_answer_as_computed_afresh() -> None:
    """A long-running server meets ever more of a suit's ~405,000 possible counts: the memos
    keyed by them let the oldest go, and an answer given again after its entry went is the
    same; waits built on them still match the reference."""
    suit_class.cache_clear()
    _suit_growth.cache_clear()
    suits = (c for c in itertools.product(range(5), repeat=9) if sum(c) <= 14)
    asked = list(itertools.islice(suits, SUIT_MEMO + 2000))  # more than either memo keeps
    first = [(suit_class(c), _suit_growth(c)) for c in asked]
    for memo in (suit_class, _suit_growth):
        info = memo.cache_info()
        assert info.maxsize is not None and info.currsize <= info.maxsize <= SUIT_MEMO
    assert suit_class.cache_info().currsize == SUIT_MEMO
    # The earliest entries were let go: asked again they are worked out afresh, the same.
    again = [(suit_class(c), _suit_growth(c)) for c in asked[:500]]
    assert again == first[:500]
    assert again == [(suit_class.__wrapped__(c), _suit_growth.__wrapped__(c)) for c in asked[:500]]
    assert {k for k, _ in first} == {0, 1, 2}  # (all three classes were among them)
    _ready_waits.cache_clear()
    for hand in _hands(7, 4):
        assert ready_waits(hand) == waits(hand)
