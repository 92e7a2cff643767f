"""The level-1 discard procedure of the seed article, in its eight steps (A-G plus a fallback).

On a 3n+2 hand:

A. if a discard leaves the hand ready (听牌), make the one with the most waiting tiles;
B. drop an isolated tile two gaps away from any other (honors first, then from the ends in);
C. drop a tile one gap away from its nearest neighbour (e.g. the 1 of 1_3), ends first;
D. in a run of 4, 7, 10 or 13 connected tiles, drop the tile that leaves the best shape;
E. in a run of 3, 6, 9 or 12 that is not all sets: with a pair elsewhere, drop to keep a
   two-sided wait (233 -> drop a 3); without one, drop to keep the pair (233 -> drop the 2);
F. in a run of 2, 5, 8 or 11 that is not sets plus a pair, drop the tile that leaves the best
   shape (23445 -> drop the 5);
G. drop a tile from a pair.

"Best shape" is the lowest shanten of the whole hand. With five or more pairs and no melds,
the hand plays for seven pairs and drops a single tile first, as the article suggests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from paiju.engines.mcr.bot_read import shanten, without
from paiju.engines.mcr.ready import (
    BROKEN,
    ready_waits,
    regular_waits,
    specials_possible,
    suit_class,
)
from paiju.engines.mcr.tiles import Tile, counts, is_honor


def _end_distance(t: Tile) -> int:
    """0 for terminals, 4 for fives: the article scans from both ends inward."""
    return -1 if is_honor(t) else min(t % 9, 8 - t % 9)


def runs(hand: Sequence[Tile]) -> list[list[Tile]]:
    """Maximal runs of connected tiles: same suit, no rank gap; each honor kind alone."""
    c = counts(hand)
    out: list[list[Tile]] = []
    for suit in range(3):
        run: list[Tile] = []
        for t in range(suit * 9, suit * 9 + 9):
            if c[t]:
                run += [t] * c[t]
            elif run:
                out.append(run)
                run = []
        if run:
            out.append(run)
    out += [[t] * c[t] for t in range(27, 34) if c[t]]
    return out


def _sets_only(c: list[int]) -> bool:
    """Whether the counts split into pungs and chows (greedy from the lowest tile)."""
    c = list(c)
    for t in range(34):
        n = c[t] % 3
        if n and (is_honor(t) or t % 9 > 6 or c[t + 1] < n or c[t + 2] < n):
            return False
        if n:
            c[t + 1] -= n
            c[t + 2] -= n
    return True


def _complete(run: Sequence[Tile]) -> bool:
    c = counts(run)
    if len(run) % 3 == 0:
        return _sets_only(c)
    for p in set(run):
        if c[p] >= 2:
            c[p] -= 2
            if _sets_only(c):
                return True
            c[p] += 2
    return False


def _nearest_gap(c: Sequence[int], t: Tile) -> int:
    """Distance to the nearest other tile of the same suit (99 for none; 0 if paired)."""
    if c[t] >= 2:
        return 0
    if is_honor(t):
        return 99
    base = t - t % 9
    for d in (1, 2, 3, 4, 5, 6, 7, 8):
        if (t - d >= base and c[t - d]) or (t + d < base + 9 and c[t + d]):
            return d
    return 99


def step_ready(hand: Sequence[Tile], packs: int) -> Tile | None:
    """Step A: the discard that leaves the most waiting tiles, if any leaves the hand ready."""
    best: tuple[int, Tile] | None = None
    special = specials_possible(hand)
    c = counts(hand)
    suits = [tuple(c[s : s + 9]) for s in (0, 9, 18)]
    broken = [suit_class(x) == BROKEN for x in suits] + [c[t] in (1, 4) for t in range(27, 34)]
    total = sum(broken)
    for t in sorted(set(hand)):
        if not special:
            # Only the discarded tile's group changes; ready needs at most one broken group.
            if t < 27:
                grown = list(suits[t // 9])
                grown[t % 9] -= 1
                now = suit_class(tuple(grown)) == BROKEN
                group = t // 9
            else:
                now, group = c[t] - 1 in (1, 4), t - 24
            if total - broken[group] + now > 1:
                continue
            # No special form is near: the regular shape's waits are all the waits.
            c[t] -= 1
            n = len(regular_waits(c))
            c[t] += 1
        else:
            n = len(ready_waits(without(hand, t)))
        if n and (best is None or n > best[0]):
            best = (n, t)
    return best[1] if best else None


def _isolated(hand: Sequence[Tile], min_gap: int, max_gap: int) -> Tile | None:
    c = counts(hand)
    found = [t for t in set(hand) if min_gap <= _nearest_gap(c, t) <= max_gap]
    return min(found, key=lambda t: (_end_distance(t), t)) if found else None


def _shape_pick(hand: Sequence[Tile], packs: int, tiles: Sequence[Tile],
                prefer: Callable[[Tile], int] | None = None) -> Tile:
    """The tile of ``tiles`` whose discard leaves the lowest shanten (then ``prefer``, ends)."""
    def key(t: Tile) -> tuple[int, int, int, int]:
        return (shanten(without(hand, t), packs), prefer(t) if prefer else 0, _end_distance(t), t)

    return min(set(tiles), key=key)


def _run_step(hand: Sequence[Tile], packs: int, sizes: tuple[int, ...]) -> Tile | None:
    cands = [r for r in runs(hand) if len(r) in sizes and not _complete(r)]
    if not cands:
        return None
    tiles = [t for r in cands for t in r]
    return _shape_pick(hand, packs, tiles)


def _pair_rule_step(hand: Sequence[Tile], packs: int) -> Tile | None:
    """Step E, with the article's pair rule as the tie-break."""
    c = counts(hand)
    for run in runs(hand):
        if len(run) not in (3, 6, 9, 12) or _complete(run):
            continue
        inside = set(run)
        pair_elsewhere = any(c[t] >= 2 for t in range(34) if t not in inside)

        def prefer(t: Tile, pair_elsewhere: bool = pair_elsewhere) -> int:
            paired = c[t] >= 2
            return 0 if paired == pair_elsewhere else 1

        return _shape_pick(hand, packs, run, prefer)
    return None


def discard_level1(hand: Sequence[Tile], packs: int) -> Tile:
    """The tile the level-1 procedure discards from a 3n+2 ``hand`` with ``packs`` melds."""
    ready = step_ready(hand, packs)
    if ready is not None:
        return ready
    c = counts(hand)
    if packs == 0 and sum(1 for n in c if n >= 2) >= 5:
        single = _isolated(hand, 1, 99)
        if single is not None:
            return single
    steps: tuple[Callable[[], Tile | None], ...] = (
        lambda: _isolated(hand, 3, 99),
        lambda: _isolated(hand, 2, 2),
        lambda: _run_step(hand, packs, (4, 7, 10, 13)),
        lambda: _pair_rule_step(hand, packs),
        lambda: _run_step(hand, packs, (2, 5, 8, 11)),
    )
    for step in steps:
        tile = step()
        if tile is not None:
            return tile
    pairs = [t for t in set(hand) if c[t] >= 2]
    return _shape_pick(hand, packs, pairs or list(hand))
