"""The engine's fast waits agree with ``hand.waits`` (the reference) on ready and unready hands."""

from __future__ import annotations

import random

import pytest

from paiju.engines.mcr.hand import KNITTED_STRAIGHTS, waits
from paiju.engines.mcr.ready import could_be_ready, ready_waits
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
