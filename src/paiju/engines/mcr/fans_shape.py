"""Fast shape analysis for fan counting, memoised per suit.

A hand splits into four independent groups (characters, bamboo, dots, honors). Every
question fan counting asks about shape -- all the ways to split the tiles into sets and a pair,
and the tiles the hand waited on -- is answered per group and combined, and the per-group
answers are memoised on the group's 9 (or 7) counts, which repeat constantly. The results
equal the direct recursive search in ``fans_regular.divisions`` / ``fans_adjust.is_unique_wait``
(including their order), which the tests check.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import product
from struct import Struct
from typing import Final

from paiju.engines.mcr.fans_adjust import CHOW, PAIR, PUNG, PUNG_FAN, TRAITS
from paiju.engines.mcr.fans_table import DRAGON_PUNG, PUNG_OF_TERMINALS_OR_HONORS
from paiju.engines.mcr.hand import CACHE_LIMIT

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
Split = tuple[
    tuple[int, ...],
    _Packs,
    int,
    tuple[int, ...],
    tuple[int, ...],
    int,
    int,
    int,
    int,
    int,
    int,
    int,
]
"""One group's split into concealed sets (and maybe the pair), with what scoring needs of it:

(set keys ascending, sets as packs, pair tile or -1, chow middle tiles, pung tiles, trait
counters (``fans_adjust.TRAITS``, the pair included), 箭刻 count, 幺九刻 count, and four tile
masks: tiles inside a chow, chow end tiles, chow middle tiles, pung tiles).
"""
_Split = Split

S_KEYS: Final = 0
S_PACKS: Final = 1
S_PAIR: Final = 2
S_CHOWS: Final = 3
S_PUNGS: Final = 4
S_TRAITS: Final = 5
S_DRAGONS: Final = 6
S_TERMINALS: Final = 7
S_COVER: Final = 8
S_ENDS: Final = 9
S_MIDS: Final = 10
S_PUNG_MASK: Final = 11


Group = tuple[bytes, tuple[_Split, ...], int, int]
"""What fan counting needs of one group's counts, memoised: (key, splits, shape, mask).

``shape`` bit 0: the tiles split into sets only; bit 1: into sets and one pair (both can hold).
``mask``: bit t set for every tile t the group holds (whole-hand tile numbers).
"""

KEY: Final = 0
SPLITS: Final = 1
SHAPE: Final = 2
MASK: Final = 3

_R0: dict[bytes, Group] = {}
_R1: dict[bytes, Group] = {}
_R2: dict[bytes, Group] = {}
_R3: dict[bytes, Group] = {}
_RECORDS = (_R0, _R1, _R2, _R3)
_WAITS: tuple[dict[bytes, tuple[frozenset[int], frozenset[int]]], ...] = ({}, {}, {}, {})

GROUP_KEYS = Struct("9s9s9s7s").unpack
"""34 counts (bytes-like) -> the four groups' counts as bytes keys, in one C call."""


def _record(g: int, key: bytes) -> Group:
    """Group ``g``'s facts for counts ``key``, computed on first use."""
    table = _RECORDS[g]
    got = table.get(key)
    if got is None:
        if len(table) >= CACHE_LIMIT:
            table.clear()
        base = _BASES[g]
        raw = group_splits(tuple(key), base)
        splits = tuple(_split(sets, pair) for sets, pair in raw)
        shape = any(p < 0 for _s, p in raw) | any(p >= 0 for _s, p in raw) << 1
        mask = sum(1 << (base + i) for i, n in enumerate(key) if n)
        got = table[key] = (key, splits, shape, mask)
    return got


def _split(sets: tuple[tuple[int, int], ...], pair: int) -> Split:
    chows = tuple(t for k, t in sets if k == CHOW)
    pungs = tuple(t for k, t in sets if k != CHOW)
    traits = sum(TRAITS[k][t] for k, t in sets) + (TRAITS[PAIR][pair] if pair >= 0 else 0)
    return (
        tuple(_key(s) for s in sets),
        tuple((k, t, False) for k, t in sets),
        pair,
        chows,
        pungs,
        traits,
        sum(1 for t in pungs if PUNG_FAN[t] == DRAGON_PUNG),
        sum(1 for t in pungs if PUNG_FAN[t] == PUNG_OF_TERMINALS_OR_HONORS),
        _bits({t + d for t in chows for d in (-1, 0, 1)}),
        _bits({t - 1 for t in chows} | {t + 1 for t in chows}),
        _bits(set(chows)),
        _bits(set(pungs)),
    )


def _bits(tiles: set[int]) -> int:
    return sum(1 << t for t in tiles)


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
    return [
        fixed + c0[S_PACKS] + c1[S_PACKS] + c2[S_PACKS] + c3[S_PACKS] + ((PAIR, _pair(c), False),)
        for c in group_combos(groups, 4 - len(fixed))
        for c0, c1, c2, c3 in (c,)
    ]


Combo = tuple[Split, Split, Split, Split]
"""One split per group: an arrangement of the concealed tiles into sets and one pair."""


def _pair(c: Combo) -> int:
    return max(c[0][S_PAIR], c[1][S_PAIR], c[2][S_PAIR], c[3][S_PAIR])


def group_combos(groups: tuple[Group, Group, Group, Group], need: int) -> list[Combo]:
    """Every arrangement of ``need`` concealed sets and a pair, in ``divisions`` order."""
    g0, g1, g2, g3 = groups[0][SPLITS], groups[1][SPLITS], groups[2][SPLITS], groups[3][SPLITS]
    if len(g0) == 1 and len(g1) == 1 and len(g2) == 1 and len(g3) == 1:
        candidates: Iterable[Combo] = ((g0[0], g1[0], g2[0], g3[0]),)  # the common case
    else:
        candidates = product(g0, g1, g2, g3)
    found = []
    for c in candidates:
        c0, c1, c2, c3 = c
        pairs = (c0[S_PAIR] >= 0) + (c1[S_PAIR] >= 0) + (c2[S_PAIR] >= 0) + (c3[S_PAIR] >= 0)
        n = len(c0[S_PACKS]) + len(c1[S_PACKS]) + len(c2[S_PACKS]) + len(c3[S_PACKS])
        if pairs == 1 and n == need:
            found.append(c)
    if len(found) > 1:
        # groups cover ascending tile ranges: the concatenated keys give the oracle's order
        found.sort(key=lambda c: c[0][S_KEYS] + c[1][S_KEYS] + c[2][S_KEYS] + c[3][S_KEYS])
    return found


def _shape_of(g: int, key: bytes) -> int:
    return _record(g, key)[SHAPE]


def _waits_of(g: int, key: bytes) -> tuple[frozenset[int], frozenset[int]]:
    """Tiles that make group ``g`` sets-only, and tiles that make it sets + a pair."""
    got = _WAITS[g].get(key)
    if got is None:
        if len(_WAITS[g]) >= CACHE_LIMIT:
            _WAITS[g].clear()
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
        got = (frozenset(to_sets), frozenset(to_pair))
        _WAITS[g][key] = got
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
            out |= _waits_of(g, groups[g][KEY])[1]  # the tile completes this group with the pair
        elif others_sets == 2 and others_pair == 1:
            out |= _waits_of(g, groups[g][KEY])[0]  # the tile completes this group's sets
    return out


def seven_pairs_wait_tile(hand: Sequence[int]) -> int:
    """The oracle's seven-pairs wait of 13 tiles (-1 if not waiting on seven pairs)."""
    c = list(hand)
    if c.count(2) + c.count(3) + 2 * c.count(4) != 6:
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
    key = bytearray(groups[g][KEY])
    key[win - _BASES[g]] -= 1
    before = list(groups)
    before[g] = _record(g, bytes(key))
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
