"""Fast shape analysis for fan counting, memoised per suit.

A hand splits into four independent groups (characters, bamboo, dots, honors). Every
question fan counting asks about shape -- all the ways to split the tiles into sets and a pair,
and the tiles the hand waited on -- is answered per group and combined, and the per-group
answers are memoised on the group's 9 (or 7) counts (as bytes), which repeat constantly: one
record per group pattern (``Group``) holds the splits, the shape, the tiles held and, filled
on first use, the waits and the records one tile lower. The results equal the direct
recursive search in ``fans_regular.divisions`` / ``fans_adjust.is_unique_wait`` (including
their order), which the tests check.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from struct import Struct
from typing import Any, Final

from paiju.engines.mcr.fans_adjust import CHOW, PAIR, PUNG
from paiju.engines.mcr.hand import CACHE_LIMIT, group_shape

GroupSplit = tuple[tuple[tuple[int, int], ...], int]
"""((kind, tile), ...) sets of one group in ascending key order, and the pair tile or -1."""

_BASES = (0, 9, 18, 27)


@lru_cache(maxsize=CACHE_LIMIT)
def group_splits(c: tuple[int, ...], base: int) -> tuple[GroupSplit, ...]:
    """Every split of one group's counts into sets and at most one pair."""
    honors = base == 27
    out: list[GroupSplit] = []
    work = list(c)
    sets: list[tuple[int, int]] = []

    def rec(start: int, pair: int) -> None:
        i = start
        while i < len(work) and work[i] == 0:
            i += 1
        if i == len(work):
            out.append((tuple(sorted(sets, key=_key)), pair))
            return
        n = work[i]
        if n >= 3:
            work[i] -= 3
            sets.append((PUNG, base + i))
            rec(i, pair)
            sets.pop()
            work[i] += 3
        if not honors and i < 7 and work[i + 1] and work[i + 2]:
            work[i] -= 1
            work[i + 1] -= 1
            work[i + 2] -= 1
            sets.append((CHOW, base + i + 1))
            rec(i, pair)
            sets.pop()
            work[i] += 1
            work[i + 1] += 1
            work[i + 2] += 1
        if n >= 2 and pair < 0:
            work[i] -= 2
            rec(i, base + i)
            work[i] += 2

    rec(0, -1)
    return tuple(dict.fromkeys(out))


def _key(s: tuple[int, int]) -> int:
    """The oracle's set order: by first tile, a pung before the chow starting there."""
    kind, tile = s
    return 2 * (tile - 1) + 1 if kind == CHOW else 2 * tile


_Packs = tuple[tuple[int, int, bool], ...]
Split = tuple[tuple[int, ...], _Packs, int]
"""One group's split: set keys (ascending), the sets as packs, the pair tile or -1."""

Group = tuple[bytes, tuple[Split, ...], int, int, list[Any]]
"""What fan counting needs of one group's counts, memoised: (key, splits, shape, mask, lazy).

``shape`` bit 0: the tiles split into sets only; bit 1: into sets and one pair (never both:
the tile count mod 3 decides). ``mask``: bit t set for every tile t the group holds
(whole-hand tile numbers). ``lazy`` holds answers computed on first use: ``lazy[i]`` the
record with one tile i less, ``lazy[-1]`` the group's waits (see ``_waits_of``). A light
record (see ``_minus``) has no splits and mask 0: only its shape and waits are read.
"""

KEY: Final = 0
SPLITS: Final = 1
SHAPE: Final = 2
MASK: Final = 3
LAZY: Final = 4

_R0: dict[bytes, Group] = {}
_R1: dict[bytes, Group] = {}
_R2: dict[bytes, Group] = {}
_R3: dict[bytes, Group] = {}
RECORDS = (_R0, _R1, _R2, _R3)
"""Group records by counts, one table per group (characters, bamboo, dots, honors)."""

GROUP_KEYS = Struct("9s9s9s7s").unpack
"""34 counts (bytes-like) -> the four groups' counts as bytes keys, in one C call."""


def _record(g: int, key: bytes) -> Group:
    """Group ``g``'s facts for counts ``key``, computed on first use."""
    table = RECORDS[g]
    got = table.get(key)
    if got is None:
        if len(table) >= CACHE_LIMIT:
            table.clear()
        base = _BASES[g]
        raw = group_splits(tuple(key), base)
        splits = tuple(_split(sets, pair) for sets, pair in raw)
        shape = any(p < 0 for _s, p in raw) | any(p >= 0 for _s, p in raw) << 1
        mask = sum(1 << (base + i) for i, n in enumerate(key) if n)
        got = table[key] = (key, splits, shape, mask, [None] * (len(key) + 1))
    return got


def _split(sets: tuple[tuple[int, int], ...], pair: int) -> Split:
    return (tuple(_key(s) for s in sets), tuple((k, t, False) for k, t in sets), pair)


def groups_of(counts34: bytes | bytearray) -> tuple[Group, Group, Group, Group]:
    """The four groups' records of 34 counts (a count must fit in a byte)."""
    k0, k1, k2, k3 = GROUP_KEYS(counts34)
    try:  # plain subscripts on plain dicts: the fastest look-up there is
        return _R0[k0], _R1[k1], _R2[k2], _R3[k3]
    except KeyError:
        return _record(0, k0), _record(1, k1), _record(2, k2), _record(3, k3)


def fast_divisions(
    standing: Sequence[int], fixed: tuple[tuple[int, int, bool], ...]
) -> list[tuple[tuple[int, int, bool], ...]]:
    """Same list, same order as ``fans_regular.divisions`` (memoised per group)."""
    return group_divisions(groups_of(bytearray(standing)), fixed)


def group_divisions(
    groups: tuple[Group, Group, Group, Group], fixed: tuple[tuple[int, int, bool], ...]
) -> list[tuple[tuple[int, int, bool], ...]]:
    """``fast_divisions`` of the hand whose groups are ``groups``."""
    g0, g1, g2, g3 = groups[0][SPLITS], groups[1][SPLITS], groups[2][SPLITS], groups[3][SPLITS]
    need = 4 - len(fixed)
    if len(g0) == 1 and len(g1) == 1 and len(g2) == 1 and len(g3) == 1:
        # the common case: one split per group, so at most one division
        c0, c1, c2, c3 = g0[0], g1[0], g2[0], g3[0]
        pairs = (c0[2] >= 0) + (c1[2] >= 0) + (c2[2] >= 0) + (c3[2] >= 0)
        sets = c0[1] + c1[1] + c2[1] + c3[1]
        if pairs != 1 or len(sets) != need:
            return []
        pair = max(c0[2], c1[2], c2[2], c3[2])
        return [fixed + sets + ((PAIR, pair, False),)]
    found: list[tuple[tuple[int, ...], _Packs]] = []
    for c0, c1, c2, c3 in product(g0, g1, g2, g3):
        pairs = (c0[2] >= 0) + (c1[2] >= 0) + (c2[2] >= 0) + (c3[2] >= 0)
        if pairs != 1:
            continue
        sets = c0[1] + c1[1] + c2[1] + c3[1]
        if len(sets) != need:
            continue
        pair = max(c0[2], c1[2], c2[2], c3[2])
        # groups cover ascending tile ranges, so the sets are already in the oracle's order
        found.append((c0[0] + c1[0] + c2[0] + c3[0], fixed + sets + ((PAIR, pair, False),)))
    if len(found) > 1:
        found.sort(key=lambda f: f[0])
    return [packs for _k, packs in found]


def _shape_of(g: int, key: bytes) -> int:
    """A record's ``shape`` of group ``g``'s counts ``key``, without building the record."""
    record = RECORDS[g].get(key)
    if record is not None:
        return record[SHAPE]
    shapes = _SHAPES[g]
    got = shapes.get(key)
    if got is None:
        if len(shapes) >= CACHE_LIMIT:
            shapes.clear()
        got = shapes[key] = group_shape(list(key), g == 3)
    return got


_SHAPES: tuple[dict[bytes, int], ...] = ({}, {}, {}, {})
_LIGHT: tuple[dict[bytes, Group], ...] = ({}, {}, {}, {})


def _minus(g: int, record: Group, i: int) -> Group:
    """The record of group ``g`` with one tile ``i`` (0-based in the group) taken out.

    Only its shape and waits are ever read, so unless the full record exists already a light
    one (no splits, no mask) is used, memoised in ``_LIGHT``.
    """
    got: Group | None = record[LAZY][i]
    if got is None:
        work = bytearray(record[KEY])
        work[i] -= 1
        key = bytes(work)
        got = RECORDS[g].get(key) or _LIGHT[g].get(key)
        if got is None:
            light = _LIGHT[g]
            if len(light) >= CACHE_LIMIT:
                light.clear()
            got = light[key] = (key, (), _shape_of(g, key), 0, [None] * (len(key) + 1))
        record[LAZY][i] = got
    return got


def _waits_of(g: int, record: Group) -> tuple[frozenset[int], frozenset[int]]:
    """Tiles that make group ``g`` sets-only, and tiles that make it sets + a pair."""
    got: tuple[frozenset[int], frozenset[int]] | None = record[LAZY][-1]
    if got is None:
        key = record[KEY]
        to_sets: list[int] = []
        to_pair: list[int] = []
        work = bytearray(key)
        for i in range(len(key)):
            work[i] += 1
            shape = _shape_of(g, bytes(work))
            work[i] -= 1
            if shape & 1:
                to_sets.append(_BASES[g] + i)
            if shape & 2:
                to_pair.append(_BASES[g] + i)
        got = record[LAZY][-1] = (frozenset(to_sets), frozenset(to_pair))
    return got


def regular_wait_tiles(hand: Sequence[int]) -> set[int]:
    """Tiles completing the 3n+1 concealed counts ``hand`` in the regular shape (no 4-copy cap)."""
    return _wait_tiles(groups_of(bytearray(hand)))


def _wait_tiles(groups: Sequence[Group]) -> set[int]:
    s0, s1, s2, s3 = shapes = (
        groups[0][SHAPE],
        groups[1][SHAPE],
        groups[2][SHAPE],
        groups[3][SHAPE],
    )
    n_sets = (s0 & 1) + (s1 & 1) + (s2 & 1) + (s3 & 1)
    n_pair = (s0 == 2) + (s1 == 2) + (s2 == 2) + (s3 == 2)  # a pair, and not sets only
    if n_sets + n_pair < 3:
        return set()  # two groups are broken: one tile cannot mend both
    out: set[int] = set()
    for g in range(4):
        shape = shapes[g]
        others_sets = n_sets - (shape & 1)
        others_pair = n_pair - (shape == 2)
        if others_sets == 3:
            out |= _waits_of(g, groups[g])[1]  # the tile completes this group with the pair
        elif others_sets == 2 and others_pair == 1:
            out |= _waits_of(g, groups[g])[0]  # the tile completes this group's sets
    return out


def seven_pairs_wait_tile(hand: Sequence[int]) -> int:
    """The oracle's seven-pairs wait of 13 tiles (-1 if not waiting on seven pairs)."""
    counts = hand if isinstance(hand, bytes | bytearray) else list(hand)
    if counts.count(2) + counts.count(3) + 2 * counts.count(4) != 6:
        return -1
    for t, n in enumerate(hand):
        if n in (1, 3):
            return t
    return -1


def fast_unique_wait(standing: Sequence[int], n: int, win: int) -> bool:
    """Same answer as ``fans_adjust.is_unique_wait`` when the win tile is in ``standing``."""
    return group_unique_wait(groups_of(bytearray(standing)), standing, n, win)


def group_unique_wait(
    groups: tuple[Group, Group, Group, Group], standing: Sequence[int], n: int, win: int
) -> bool:
    """``fast_unique_wait`` of ``standing`` whose groups are ``groups``: only the win tile's
    group changes when the win tile is taken out."""
    g = win // 9 if win < 27 else 3
    before = list(groups)
    before[g] = _minus(g, groups[g], win - _BASES[g])
    out = _wait_tiles(before)
    if len(out) > 1:
        return False
    if n == 13:
        hand = bytearray(standing)
        hand[win] -= 1
        t = seven_pairs_wait_tile(hand)
        if t >= 0:
            out.add(t)
    return len(out) == 1
