"""Fan adjustments shared by every hand form: suits, tile traits, ranges, win flags, winds,
waits and the "不计" exclusions (final pass).

These functions mutate a fan count table (see ``fans_table``) in place; they are the building
blocks of ``fans_regular`` and ``fans_special``. Tiles are ints as in ``tiles``.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import NamedTuple

from paiju.engines.mcr.fans_table import (
    ALL_CHOWS,
    ALL_EVEN_PUNGS,
    ALL_FIVE,
    ALL_GREEN,
    ALL_HONORS,
    ALL_PUNGS,
    ALL_SIMPLES,
    ALL_TERMINALS,
    ALL_TERMINALS_AND_HONORS,
    ALL_TYPES,
    BIG_FOUR_WINDS,
    BIG_THREE_DRAGONS,
    BIG_THREE_WINDS,
    CLOSED_WAIT,
    CONCEALED_HAND,
    DOUBLE_PUNG,
    DRAGON_PUNG,
    EDGE_WAIT,
    FOUR_CONCEALED_PUNGS,
    FOUR_KONGS,
    FOUR_PURE_SHIFTED_PUNGS,
    FULL_FLUSH,
    FULLY_CONCEALED_HAND,
    HALF_FLUSH,
    LAST_TILE,
    LAST_TILE_CLAIM,
    LAST_TILE_DRAW,
    LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    LOWER_FOUR,
    LOWER_TILES,
    MELDED_HAND,
    MIDDLE_TILES,
    NO_HONORS,
    ONE_VOIDED_SUIT,
    OUT_WITH_REPLACEMENT_TILE,
    OUTSIDE_HAND,
    PREVALENT_WIND,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_TERMINAL_CHOWS,
    REVERSIBLE_TILES,
    ROBBING_THE_KONG,
    SEAT_WIND,
    SELF_DRAWN,
    SINGLE_WAIT,
    THREE_SUITED_TERMINAL_CHOWS,
    TILE_HOG,
    TWO_DRAGONS_PUNGS,
    UPPER_FOUR,
    UPPER_TILES,
)

_GREEN = frozenset({10, 11, 12, 14, 16, 32})
"""绿一色 tiles: bamboo 2 3 4 6 8 and the green dragon."""

_REVERSIBLE = frozenset({18, 19, 20, 21, 22, 25, 26, 10, 12, 13, 14, 16, 17, 33})
"""推不倒 tiles: dots 1234589, bamboo 245689, white dragon."""

WRAP = 65535
"""A count taken below zero wraps like the oracle's unsigned 16-bit counters (see waits)."""

CHOW, PUNG, KONG, PAIR = 1, 2, 3, 4


class Flags(NamedTuple):
    """The corrected win flags (see ``fans.evaluate`` for the corrections)."""

    self_drawn: bool
    last_tile: bool
    about_kong: bool
    wall_last: bool


FLAGS = tuple(Flags(*(bool(code >> i & 1) for i in range(4))) for code in range(16))
"""Every Flags value, by code self_drawn + 2 last_tile + 4 about_kong + 8 wall_last."""


def is_suited(t: int) -> bool:
    return t < 27


def is_wind(t: int) -> bool:
    return 27 <= t <= 30


def is_dragon(t: int) -> bool:
    return 31 <= t <= 33


def is_honor(t: int) -> bool:
    return t >= 27


def is_terminal(t: int) -> bool:
    return t < 27 and t % 9 in (0, 8)


def rank(t: int) -> int:
    return t % 9 + 1


def suit(t: int) -> int:
    return t // 9 if t < 27 else 3


def add_win_flags(flags: Flags, table: list[int]) -> None:
    """和绝张, 妙手回春, 海底捞月, 杠上开花, 抢杠和, 自摸 from the corrected flags."""
    if flags.last_tile:
        table[LAST_TILE] = 1
    if flags.self_drawn:
        table[SELF_DRAWN] = 1
        if flags.wall_last:
            table[LAST_TILE_DRAW] = 1
            table[SELF_DRAWN] = 0
        if flags.about_kong:
            table[OUT_WITH_REPLACEMENT_TILE] = 1
            table[SELF_DRAWN] = 0
    else:
        if flags.wall_last:
            table[LAST_TILE_CLAIM] = 1
        if flags.about_kong:
            table[ROBBING_THE_KONG] = 1
            table[LAST_TILE] = 0


def _mask(tiles: set[int] | frozenset[int] | range) -> int:
    return sum(1 << t for t in tiles)


SUIT_MASKS = (_mask(range(0, 9)), _mask(range(9, 18)), _mask(range(18, 27)))
HONOR_MASK = _mask(range(27, 34))
WIND_MASK = _mask(range(27, 31))
DRAGON_MASK = _mask(range(31, 34))
TERMINAL_MASK = _mask({0, 8, 9, 17, 18, 26})
GREEN_MASK = _mask(_GREEN)
REVERSIBLE_MASK = _mask(_REVERSIBLE)
RANK_MASKS = tuple(_mask({r, r + 9, r + 18}) for r in range(9))
"""RANK_MASKS[r - 1]: the three suited tiles of rank r."""
LOW_RANKS = RANK_MASKS[0] | RANK_MASKS[1] | RANK_MASKS[2] | RANK_MASKS[3]
HIGH_RANKS = RANK_MASKS[5] | RANK_MASKS[6] | RANK_MASKS[7] | RANK_MASKS[8]
MID_RANKS = RANK_MASKS[3] | RANK_MASKS[4] | RANK_MASKS[5]
ALL_MASK = (1 << 34) - 1


def add_suit_fans(mask: int, table: list[int]) -> None:
    """无字, 缺一门, 混一色, 清一色, 五门齐 from the mask of distinct tiles."""
    has_honor = bool(mask & HONOR_MASK)
    if not has_honor:
        table[NO_HONORS] = 1
    missing = (not mask & SUIT_MASKS[0]) + (not mask & SUIT_MASKS[1]) + (not mask & SUIT_MASKS[2])
    if missing == 1:
        table[ONE_VOIDED_SUIT] = 1
    elif missing == 2:
        if has_honor:
            table[HALF_FLUSH] = 1
        else:
            table[FULL_FLUSH] = 1
            table[NO_HONORS] = 0
    elif missing == 0 and mask & WIND_MASK and mask & DRAGON_MASK:
        table[ALL_TYPES] = 1


def add_trait_fans(mask: int, table: list[int]) -> None:
    """断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九."""
    outside = TERMINAL_MASK | HONOR_MASK
    simples = not mask & outside
    if simples:
        table[ALL_SIMPLES] = 1
    if not mask & ~REVERSIBLE_MASK:
        table[REVERSIBLE_TILES] = 1
    if not mask & ~GREEN_MASK:
        table[ALL_GREEN] = 1
    if simples:
        return
    if not mask & ~HONOR_MASK:
        table[ALL_HONORS] = 1
    elif not mask & ~TERMINAL_MASK:
        table[ALL_TERMINALS] = 1
    elif not mask & ~outside:
        table[ALL_TERMINALS_AND_HONORS] = 1


def add_range_fans(mask: int, table: list[int]) -> None:
    """大于五, 小于五, 全大, 全中, 全小 (suited tiles only)."""
    if mask & HONOR_MASK:
        return
    if not mask & ~LOW_RANKS:
        table[LOWER_FOUR if mask & RANK_MASKS[3] else LOWER_TILES] = 1
    elif not mask & ~HIGH_RANKS:
        table[UPPER_FOUR if mask & RANK_MASKS[5] else UPPER_TILES] = 1
    elif not mask & ~MID_RANKS:
        table[MIDDLE_TILES] = 1


def add_tile_hog(merged: Sequence[int], kongs: int, table: list[int]) -> None:
    """四归一: kinds with all four tiles in the hand, not counting kongs."""
    table[TILE_HOG] = list(merged).count(4) - kongs


def add_wind_pung(tile: int, prevalent: int, seat: int, table: list[int]) -> None:
    """圈风刻 / 门风刻 replace the pung's 幺九刻 unless a bigger fan already removed it."""
    deducted = bool(
        table[BIG_THREE_WINDS]
        or table[ALL_TERMINALS_AND_HONORS]
        or table[ALL_HONORS]
        or table[LITTLE_FOUR_WINDS]
    )
    delta = tile - 27
    if delta == prevalent:
        table[PREVALENT_WIND] = 1
        if not deducted:
            table[PUNG_OF_TERMINALS_OR_HONORS] -= 1
    if delta == seat:
        table[SEAT_WIND] = 1
        if seat != prevalent and not deducted:
            table[PUNG_OF_TERMINALS_OR_HONORS] -= 1


def add_wait_fan(packs: Sequence[tuple[int, int, bool]], win: int, table: list[int]) -> None:
    """边张 > 嵌张 > 单钓将 by where the win tile sits in the concealed sets (unique wait only)."""
    if table[MELDED_HAND] or table[FOUR_KONGS]:
        return
    edge = closed = single = False
    for kind, tile, _melded in packs:
        if kind == CHOW:
            if tile == win:
                closed = True
            elif tile + 1 == win or tile - 1 == win:
                edge = True
        elif kind == PAIR and tile == win:
            single = True
    if edge:
        table[EDGE_WAIT] = 1
    elif closed:
        table[CLOSED_WAIT] = 1
    elif single:
        table[SINGLE_WAIT] = 1


def _trait_bits(kind: int, tile: int) -> int:
    """One set's (or the pair's) share of 全带幺 (+1), 全带五 (+8) and 全双刻 (+64)."""
    if tile >= 27:
        return 1
    r = tile % 9 + 1
    if kind == CHOW:
        return (r in (2, 8)) + 8 * (r in (4, 5, 6))
    return (r in (1, 9)) + 8 * (r == 5) + 64 * (r in (2, 4, 6, 8))


TRAITS = tuple(tuple(_trait_bits(kind, t) for t in range(34)) for kind in range(5))
"""TRAITS[kind][tile], see ``_trait_bits`` (kind 0 unused)."""

PUNG_FAN = tuple(
    DRAGON_PUNG if t >= 31 else PUNG_OF_TERMINALS_OR_HONORS if t >= 27 or t % 9 in (0, 8) else 0
    for t in range(34)
)
"""The per-pung fan of each tile: 箭刻, 幺九刻 or none."""


# --------------------------------------------------------------------------- unique wait


def _pack_waits(c: list[int], out: set[int]) -> None:
    """Waits of the two-tile partial left in ``c`` (the lowest one found, as the oracle)."""
    for t in range(34):
        if c[t] < 1:
            continue
        if c[t] > 1:
            out.add(t)
            return
        if t < 27:
            r = rank(t)
            if r > 1 and c[t - 1]:
                if r < 9:
                    out.add(t + 1)
                if r > 2:
                    out.add(t - 2)
                return
            if r > 2 and c[t - 2]:
                out.add(t - 1)
                return


def _regular_waits(c: list[int], n: int, prev: int, out: set[int]) -> None:
    """Every tile the ``n`` tiles of ``c`` wait on in the regular shape (sets removed in order)."""
    if n == 1:
        for t in range(34):
            if c[t] == 1:
                out.add(t)
                break
        return
    if n == 4:
        for t in range(34):
            if c[t] >= 2:
                c[t] -= 2
                _pack_waits(c, out)
                c[t] += 2
    for t in range(34):
        if c[t] < 1:
            continue
        if c[t] > 2 and 2 * t > prev:
            c[t] -= 3
            _regular_waits(c, n - 3, 2 * t, out)
            c[t] += 3
        if t < 27 and rank(t) < 8 and c[t + 1] and c[t + 2] and 2 * t + 1 >= prev:
            c[t] -= 1
            c[t + 1] -= 1
            c[t + 2] -= 1
            _regular_waits(c, n - 3, 2 * t + 1, out)
            c[t] += 1
            c[t + 1] += 1
            c[t + 2] += 1


def _seven_pairs_wait(c: Sequence[int], out: set[int]) -> None:
    pairs = sum(1 if n in (2, 3) else 2 if n == 4 else 0 for n in c)
    if pairs == 6:
        for t in range(34):
            if c[t] in (1, 3):
                out.add(t)
                break


def is_unique_wait(standing: Sequence[int], n: int, win: int) -> bool:
    """True if the ``n`` tiles before the win (``standing`` holds the win tile) wait on one tile.

    Shape only: tiles that are all visible still count as waits. A count taken below zero
    wraps to 65535 as in the oracle (this happens for a win tile inside a knitted straight).
    """
    c = list(standing)
    c[win] = c[win] - 1 if c[win] else WRAP
    out: set[int] = set()
    if n == 13:
        _seven_pairs_wait(c, out)
    _regular_waits(c, n, -1, out)
    return len(out) == 1


# --------------------------------------------------------------------------- exclusions


def _zero(table: list[int], *fans: int) -> None:
    for f in fans:
        table[f] = 0


def final_adjust(t: list[int]) -> None:
    """The "不计" exclusions applied after all fans of an arrangement are counted."""
    # The first block's triggers are rare big fans; when none is there it changes nothing
    # (it only clears fans, and the later steps read none of its triggers).
    if any(_BIG_TRIGGERS(t)):
        _big_fan_adjust(t)
    if t[BIG_THREE_WINDS] and not t[ALL_HONORS] and not t[ALL_TERMINALS_AND_HONORS]:
        t[PUNG_OF_TERMINALS_OR_HONORS] -= 3
    if t[REVERSIBLE_TILES]:
        t[ONE_VOIDED_SUIT] = 0
    if t[LAST_TILE_DRAW] or t[OUT_WITH_REPLACEMENT_TILE]:
        t[SELF_DRAWN] = 0
    if t[MELDED_HAND]:
        t[SINGLE_WAIT] = 0
    if t[TWO_DRAGONS_PUNGS]:
        t[DRAGON_PUNG] = 0
    if t[FULLY_CONCEALED_HAND]:
        t[SELF_DRAWN] = 0
    if t[ALL_CHOWS] or t[ALL_SIMPLES]:
        t[NO_HONORS] = 0


def _big_fan_adjust(t: list[int]) -> None:
    """The exclusions of fans 1-37, in the order the oracle applies them."""
    if t[BIG_FOUR_WINDS]:
        _zero(t, ALL_PUNGS, PUNG_OF_TERMINALS_OR_HONORS)
    if t[BIG_THREE_DRAGONS]:
        t[DRAGON_PUNG] = 0
    if t[ALL_GREEN]:
        _zero(t, HALF_FLUSH, ONE_VOIDED_SUIT)
    if t[FOUR_KONGS]:
        t[SINGLE_WAIT] = 0
    if t[ALL_TERMINALS]:
        # common practice: no Double Pung either (Triple Pung is kept)
        _zero(t, ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS, NO_HONORS)
        t[DOUBLE_PUNG] = 0
    if t[LITTLE_FOUR_WINDS]:
        t[PUNG_OF_TERMINALS_OR_HONORS] = 0
    if t[LITTLE_THREE_DRAGONS]:
        t[DRAGON_PUNG] = 0
    if t[ALL_HONORS]:
        _zero(t, ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS, ONE_VOIDED_SUIT)
    if t[FOUR_CONCEALED_PUNGS]:
        _zero(t, ALL_PUNGS, CONCEALED_HAND)
        if t[FULLY_CONCEALED_HAND]:
            t[FULLY_CONCEALED_HAND] = 0
            t[SELF_DRAWN] = 1
    if t[PURE_TERMINAL_CHOWS]:
        _zero(t, FULL_FLUSH, ALL_CHOWS, NO_HONORS)
    if t[FOUR_PURE_SHIFTED_PUNGS]:
        t[ALL_PUNGS] = 0
    if t[ALL_TERMINALS_AND_HONORS]:
        _zero(t, ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS)
    if t[ALL_EVEN_PUNGS]:
        _zero(t, ALL_PUNGS, ALL_SIMPLES, NO_HONORS)
    if t[UPPER_TILES]:
        t[NO_HONORS] = 0
    if t[MIDDLE_TILES]:
        _zero(t, ALL_SIMPLES, NO_HONORS)
    if t[LOWER_TILES]:
        t[NO_HONORS] = 0
    if t[THREE_SUITED_TERMINAL_CHOWS]:
        _zero(t, ALL_CHOWS, NO_HONORS)
    if t[ALL_FIVE]:
        _zero(t, ALL_SIMPLES, NO_HONORS)
    if t[UPPER_FOUR] or t[LOWER_FOUR]:
        t[NO_HONORS] = 0


_BIG_TRIGGERS = itemgetter(
    BIG_FOUR_WINDS,
    BIG_THREE_DRAGONS,
    ALL_GREEN,
    FOUR_KONGS,
    ALL_TERMINALS,
    LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    ALL_HONORS,
    FOUR_CONCEALED_PUNGS,
    PURE_TERMINAL_CHOWS,
    FOUR_PURE_SHIFTED_PUNGS,
    ALL_TERMINALS_AND_HONORS,
    ALL_EVEN_PUNGS,
    UPPER_TILES,
    MIDDLE_TILES,
    LOWER_TILES,
    THREE_SUITED_TERMINAL_CHOWS,
    ALL_FIVE,
    UPPER_FOUR,
    LOWER_FOUR,
)
"""The fans whose exclusions ``_big_fan_adjust`` applies (every ``if`` at its top level)."""
