"""A brute-force dragon solver for the tests: no graph theory, just search.

For every choice of 6 or 7 of the hand's 8 tiles (by position, so the two copies of a civil
tile are tried separately) it tries every order and every orientation of those tiles,
extending a line only while the touching halves match; every line it completes is an
arrangement, and the best leftover over all of them is the hand's optimum.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from paiju.engines.dragon.rules import ScoringOptions
from paiju.engines.dragon.scoring import BUST, Key, leftover_key
from paiju.engines.dragon.tiles import TILES, Kind

Laid = tuple[int, int]


def _lines(tiles: Sequence[Kind], line: list[Laid], free: list[bool]) -> Iterator[list[Laid]]:
    if not any(free):
        yield list(line)
        return
    for i, kind in enumerate(tiles):
        if not free[i]:
            continue
        t = TILES[kind]
        for left, right in {(t.low, t.high), (t.high, t.low)}:
            if line and line[-1][1] != left:
                continue
            free[i] = False
            line.append((left, right))
            yield from _lines(tiles, line, free)
            line.pop()
            free[i] = True


def lines(tiles: Sequence[Kind]) -> Iterator[list[Laid]]:
    """Every line (order and orientation) using all of ``tiles``."""
    return _lines(tiles, [], [True] * len(tiles))


def splits(hand: Sequence[Kind]) -> Iterator[tuple[list[Kind], tuple[Kind, ...]]]:
    """Every (chain tiles, sorted leftover) choice of 6 or 7 tiles by position."""
    for size in (6, 7):
        for chosen in combinations(range(len(hand)), size):
            tiles = [hand[i] for i in chosen]
            rest = tuple(sorted(hand[i] for i in range(len(hand)) if i not in chosen))
            yield tiles, rest


def brute_best(hand: Sequence[Kind], opts: ScoringOptions) -> Key:
    """The best score key over every arrangement found by search (bust if none)."""
    best = BUST
    for tiles, rest in splits(hand):
        key = leftover_key(rest, opts)
        if key > best and next(lines(tiles), None) is not None:
            best = key
    return best


def brute_arrangements(hand: Sequence[Kind]) -> set[tuple[tuple[Laid, ...], tuple[Kind, ...]]]:
    """Every arrangement as (chain read from its smaller end, sorted leftover)."""
    found = set()
    for tiles, rest in splits(hand):
        for line in lines(tiles):
            forward = tuple(line)
            backward = tuple((r, left) for left, r in reversed(line))
            found.add((min(forward, backward), rest))
    return found
