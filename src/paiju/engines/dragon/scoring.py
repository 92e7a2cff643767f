"""How a leftover (得分牌) scores: category, pair rank, points, the tie-breaking high tile.

The score key of rules §4 (compare lexicographically, larger wins):

* ``(0,)`` bust (no 6-tile chain);
* ``(1, points, high)`` points, ``high = 18 - single rank`` of the best leftover tile, 0 for a
  0-point hand unless ``zero_tiebreak``;
* ``(2, s)`` a bonus hand with ``specials`` (天王 4, 地王 3, 天杠 2, 地杠 1);
* ``(3, 17 - pair rank)`` a pair (至尊宝 has rank 1).

``key_code`` packs a key into one int with the same order, for the solver's tables.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from paiju.engines.dragon.rules import ScoringOptions
from paiju.engines.dragon.tiles import (
    BY_CODE,
    DAY,
    GEE_JOON,
    KIND_COUNT,
    SINGLE_RANK,
    TEEN,
    TILES,
    YUN,
    Kind,
)

Key = tuple[int, ...]
BUST: Key = (0,)

CATEGORY_NAMES = {0: "bust", 1: "points", 2: "bonus", 3: "pair"}

_MIXED_PAIRS: dict[frozenset[Kind], int] = {
    frozenset({BY_CODE["45"], BY_CODE["36"]}): 13,  # 杂九
    frozenset({BY_CODE["35"], BY_CODE["26"]}): 14,  # 杂八
    frozenset({BY_CODE["34"], BY_CODE["25"]}): 15,  # 杂七
    frozenset({BY_CODE["14"], BY_CODE["23"]}): 16,  # 杂五
}
_NINES = frozenset({BY_CODE["45"], BY_CODE["36"]})
_EIGHTS = frozenset({YUN, BY_CODE["35"], BY_CODE["26"]})


def pair_rank(a: Kind, b: Kind, pair_set: str) -> int | None:
    """The pair rank of §3.1 (1 = 至尊宝 .. 16 = 杂五), or ``None`` if ``a, b`` is no pair.

    ``pair_set`` limits which pairs count: ``paigow`` all 16, ``civil`` only the 11 identical
    civil pairs, ``civil+geejoon`` those and 至尊宝.
    """
    if a == b:
        return a + 2 if TILES[a].civil else None
    if {a, b} == GEE_JOON:
        return 1 if pair_set != "civil" else None
    if pair_set == "paigow":
        return _MIXED_PAIRS.get(frozenset({a, b}))
    return None


def bonus_rank(a: Kind, b: Kind) -> int:
    """天王 4, 地王 3, 天杠 2, 地杠 1 for 天/地 with a nine or an eight; 0 otherwise."""
    for top, other in ((a, b), (b, a)):
        if top in (TEEN, DAY):
            if other in _NINES:
                return 4 if top == TEEN else 3
            if other in _EIGHTS:
                return 2 if top == TEEN else 1
    return 0


def _values(kind: Kind, wild: bool) -> tuple[int, ...]:
    """The point values a tile may count for: its pips, or 3 or 6 for a wild Gee Joon."""
    if wild and kind in GEE_JOON:
        return (3, 6)
    return (TILES[kind].pips,)


def points(leftover: Sequence[Kind], opts: ScoringOptions) -> int:
    """The points of a 1- or 2-tile leftover (the best count when Gee Joon is wild)."""
    wild = opts.gee_joon_wild
    if len(leftover) == 1:
        values = _values(leftover[0], wild)
        return max(values) if opts.single_points == "raw" else max(v % 10 for v in values)
    a, b = leftover
    return max((x + y) % 10 for x in _values(a, wild) for y in _values(b, wild))


def single_value(kind: Kind, single_rank: str) -> int:
    """A tile's tie-break value, ``18 - single rank``; 0 for Gee Joon under ``geejoon_lowest``."""
    if single_rank == "geejoon_lowest" and kind in GEE_JOON:
        return 0
    return 18 - SINGLE_RANK[kind]


def leftover_key(leftover: Sequence[Kind], opts: ScoringOptions) -> Key:
    """The score key of a hand whose chain leaves ``leftover`` (1 or 2 tiles)."""
    if len(leftover) == 2:
        a, b = leftover
        rank = pair_rank(a, b, opts.pair_set)
        if rank is not None:
            return (3, 17 - rank)
        if opts.specials:
            bonus = bonus_rank(a, b)
            if bonus:
                return (2, bonus)
    elif len(leftover) != 1:
        raise ValueError(f"a leftover has 1 or 2 tiles, not {len(leftover)}")
    pts = points(leftover, opts)
    if pts == 0 and not opts.zero_tiebreak:
        return (1, 0, 0)
    return (1, pts, max(single_value(k, opts.single_rank) for k in leftover))


def category(key: Key) -> str:
    """``bust``, ``points``, ``bonus`` or ``pair``."""
    return CATEGORY_NAMES[key[0]]


def key_code(key: Key) -> int:
    """One int ordered like the key (for tables and sorting)."""
    code = key[0] * 10000
    if len(key) > 1:
        code += key[1] * 100
    if len(key) > 2:
        code += key[2]
    return code


@functools.cache
def leftover_tables(opts: ScoringOptions) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """``(single[k], pair[a][b])``: the ``key_code`` of every 1- and 2-tile leftover."""
    single = tuple(key_code(leftover_key((k,), opts)) for k in range(KIND_COUNT))
    pair = tuple(
        tuple(key_code(leftover_key((a, b), opts)) for b in range(KIND_COUNT))
        for a in range(KIND_COUNT)
    )
    return single, pair


def compare(a: Key, b: Key) -> int:
    """1 if ``a`` wins, -1 if ``b`` wins, 0 for a tie (a copy)."""
    return (a > b) - (a < b)
