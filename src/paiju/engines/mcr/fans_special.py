"""Fans of the special forms: seven pairs (七对) and seven shifted pairs (连七对), thirteen
orphans (十三幺), lesser / greater honors and knitted tiles (全不靠 / 七星不靠), knitted
straight + set + pair (组合龙) and nine gates (九莲宝灯).

Each function returns a fan count table, or None when the hand is not of that form.
"""

from __future__ import annotations

from paiju.engines.mcr import fans_table as F
from paiju.engines.mcr.fans_adjust import (
    CHOW,
    KONG,
    Flags,
    add_range_fans,
    add_suit_fans,
    add_tile_hog,
    add_trait_fans,
    add_wait_fan,
    add_win_flags,
    add_wind_pung,
    final_adjust,
    is_dragon,
    is_honor,
    is_terminal,
    is_unique_wait,
    is_wind,
    rank,
    suit,
)
from paiju.engines.mcr.fans_regular import HandInfo
from paiju.engines.mcr.fans_shape import fast_divisions, fast_unique_wait
from paiju.engines.mcr.fans_table import (
    ALL_CHOWS,
    ALL_SIMPLES,
    ALL_TYPES,
    CONCEALED_HAND,
    CONCEALED_KONG,
    DRAGON_PUNG,
    FULLY_CONCEALED_HAND,
    GREATER_HONORS_AND_KNITTED_TILES,
    KNITTED_STRAIGHT,
    LESSER_HONORS_AND_KNITTED_TILES,
    MELDED_KONG,
    NINE_GATES,
    NO_HONORS,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_STRAIGHT,
    SELF_DRAWN,
    SEVEN_PAIRS,
    SEVEN_SHIFTED_PAIRS,
    SHORT_STRAIGHT,
    SINGLE_WAIT,
    THIRTEEN_ORPHANS,
    TILE_HOG,
    TWO_CONCEALED_PUNGS,
)
from paiju.engines.mcr.hand import KNITTED_STRAIGHTS
from paiju.engines.mcr.tiles import TERMINALS_AND_HONORS


def _seven_shifted(standing: bytes, s: int) -> bool:
    """连七对: seven consecutive pairs of suit ``s``."""
    if s > 2:
        return False
    ranks = [r for r in range(9) if standing[s * 9 + r]]
    if len(ranks) != 7 or any(standing[s * 9 + r] != 2 for r in ranks):
        return False
    return ranks[-1] - ranks[0] == 6


_PARITY = bytes(n % 2 for n in range(256))
"""bytes.translate table: each count to its parity."""


def seven_pairs(info: HandInfo) -> list[int] | None:
    """七对 (with suit, trait, range and Tile Hog fans) or 连七对 (+ 断幺 for 2-8)."""
    st = info.standing
    if sum(st) != 14 or 1 in st.translate(_PARITY):
        return None
    table = F.new_table()
    s = suit(info.win)
    if _seven_shifted(st, s):
        table[SEVEN_SHIFTED_PAIRS] = 1
        if st[s * 9] == 0 and st[s * 9 + 8] == 0:
            table[ALL_SIMPLES] = 1
        add_win_flags(info.flags, table)
        return table
    table[SEVEN_PAIRS] = 1
    add_suit_fans(info.mask, table)
    add_trait_fans(info.mask, table)
    add_range_fans(info.mask, table)
    add_tile_hog(st, 0, table)
    add_win_flags(info.flags, table)
    final_adjust(table)
    return table


def honors_and_knitted(info: HandInfo) -> list[int] | None:
    """全不靠 / 七星不靠 (+ 组合龙 when all nine knitted tiles are there)."""
    if info.distinct != 14 or info.fixed:
        return None
    u = _distinct_tiles(info)
    if len(u) != 14:
        return None
    suited = [t for t in u if not is_honor(t)]
    if not 7 <= len(suited) <= 9:
        return None
    if not any(set(suited) <= set(ks) for ks in KNITTED_STRAIGHTS):
        return None
    table = F.new_table()
    if len(suited) == 7:
        table[GREATER_HONORS_AND_KNITTED_TILES] = 1
    else:
        table[LESSER_HONORS_AND_KNITTED_TILES] = 1
        if len(suited) == 9:
            table[KNITTED_STRAIGHT] = 1
    add_win_flags(info.flags, table)
    return table


def thirteen_orphans(info: HandInfo) -> list[int] | None:
    """十三幺: only itself and the win flags."""
    if info.fixed or _distinct_tiles(info) != TERMINALS_AND_HONORS_SORTED:
        return None
    table = F.new_table()
    table[THIRTEEN_ORPHANS] = 1
    add_win_flags(info.flags, table)
    return table


TERMINALS_AND_HONORS_SORTED = tuple(sorted(TERMINALS_AND_HONORS))


def _distinct_tiles(info: HandInfo) -> tuple[int, ...]:
    """The different tiles of a hand without packs, ascending."""
    return tuple(t for t in range(34) if info.standing[t])


def nine_gates(info: HandInfo) -> list[int] | None:
    """九莲宝灯 (1112345678999 + any tile of the suit), plus what the win decomposes into."""
    st, win = info.standing, info.win
    if info.fixed or win >= 27:
        return None
    base = win - win % 9
    r = rank(win)
    want = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    want[r - 1] += 1
    if any(st[base + i] != want[i] for i in range(9)) or sum(st) != 14:
        return None
    table = F.new_table()
    table[NINE_GATES] = 1
    if r in (1, 9):
        table[PURE_STRAIGHT] = 1
        table[TILE_HOG] = 1
    elif r in (2, 8):
        table[TWO_CONCEALED_PUNGS] = 1
        table[SHORT_STRAIGHT] = 1
        table[PUNG_OF_TERMINALS_OR_HONORS] = 1
    elif r == 5:
        table[TWO_CONCEALED_PUNGS] = 1
        table[PUNG_OF_TERMINALS_OR_HONORS] = 1
    else:
        table[SHORT_STRAIGHT] = 1
    add_win_flags(info.flags, table)
    return table


def knitted_straight(info: HandInfo) -> list[int] | None:
    """组合龙 + one set + pair (the set may be the one exposed pack)."""
    st = info.standing
    if len(info.fixed) > 1:
        return None
    mask = info.mask
    for ks, m in _KNITTED:
        if mask & m == m and all(st[t] for t in ks):
            body = ks
            break
    else:
        return None
    if max(st) < 2:
        return None
    rest = list(st)
    for t in body:
        rest[t] -= 1
    found = [d[3:] for d in fast_divisions(rest, _BODY_PLACEHOLDER + info.fixed)]
    if len(found) != 1:
        return None
    extra, pair_pack = found[0]
    pair = pair_pack[1]
    table = F.new_table()
    table[KNITTED_STRAIGHT] = 1
    _extra_set_fans(info, extra, pair, table)
    add_win_flags(info.flags, table)
    kind, _tile, melded = extra
    if melded:
        if kind == KONG:
            table[MELDED_KONG] = 1
    else:
        if kind == KONG:
            table[CONCEALED_KONG] = 1
        if info.flags.self_drawn:
            table[FULLY_CONCEALED_HAND] = 1
            table[SELF_DRAWN] = 0
        else:
            table[CONCEALED_HAND] = 1
    _knitted_wait(info, body, rest, (extra, pair_pack), table)
    final_adjust(table)
    return table


_KNITTED = tuple((ks, sum(1 << t for t in ks)) for ks in KNITTED_STRAIGHTS)
"""Each knitted straight with its tile mask, for a quick test before the exact one."""

_BODY_PLACEHOLDER = ((0, 0, False),) * 3
"""The knitted body stands for three sets when the rest is split into a set and a pair."""


def _extra_set_fans(
    info: HandInfo, extra: tuple[int, int, bool], pair: int, table: list[int]
) -> None:
    """Fans of the fourth set and the pair next to a knitted straight."""
    kind, tile, _melded = extra
    total = info.merged
    if kind == CHOW:
        if not is_honor(pair):
            table[ALL_CHOWS] = 1
        if total[pair] == 4:
            table[TILE_HOG] = 1
        return
    if is_honor(tile):
        if is_wind(tile):
            table[PUNG_OF_TERMINALS_OR_HONORS] = 1
            add_wind_pung(tile, info.prevalent_wind, info.seat_wind, table)
            if is_dragon(pair):
                table[ALL_TYPES] = 1
        else:
            table[DRAGON_PUNG] = 1
            if is_wind(pair):
                table[ALL_TYPES] = 1
        return
    if is_terminal(tile):
        table[PUNG_OF_TERMINALS_OR_HONORS] = 1
    if not is_honor(pair):
        table[NO_HONORS] = 1
    if kind != KONG and total[tile] == 4:
        table[TILE_HOG] = 1


def _knitted_wait(
    info: HandInfo,
    body: tuple[int, ...],
    rest: list[int],
    packs: tuple[tuple[int, int, bool], ...],
    table: list[int],
) -> None:
    """Wait fans with a knitted straight (the MIL reading: waits inside the body count)."""
    win = info.win
    if not info.fixed:
        # the memoised check needs the win tile among the rest; when it sits in the body the
        # direct search reproduces the oracle's wrapped count
        unique = fast_unique_wait(rest, 4, win) if rest[win] else is_unique_wait(rest, 4, win)
        if unique:
            add_wait_fan(packs, win, table)
    elif win not in body or info.standing[win] == 3:
        table[SINGLE_WAIT] = 1


__all__ = [
    "Flags",
    "honors_and_knitted",
    "knitted_straight",
    "nine_gates",
    "seven_pairs",
    "thirteen_orphans",
]
