"""Fan counting (算番) for MCR: the 81 fans, the five principles and the exclusions (不计).

``evaluate(ctx)`` returns the best-scoring arrangement of a complete hand, or None when the
tiles do not form a complete hand. It does not apply the 8-fan minimum; callers compare
``FanResult.total_without_flowers`` with 8.

The counting follows the reading rules/mcr.md records for the oracle (the Botzone calculator),
fan for fan and tie-break for tie-break, except that one melded plus one concealed kong is
Melded Kong + Concealed Kong unless ``kong_pair_five`` asks for 明暗杠. Modules:
``fans_table`` (ids, names, points), ``fans_shape`` / ``fans_regular`` (arrangements and their
fans), ``fans_sets`` (chow and pung combinations), ``fans_special`` (the special forms),
``fans_adjust`` (hand-wide fans, waits and the exclusions).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from typing import NamedTuple

from paiju.engines.mcr import fans_table as F
from paiju.engines.mcr.fans_adjust import CHOW, FLAGS, KONG, PUNG
from paiju.engines.mcr.fans_regular import HandInfo, Set, base_table, score_division
from paiju.engines.mcr.fans_shape import (
    GROUP_KEYS,
    MASK,
    RECORDS,
    group_divisions,
    group_unique_wait,
    groups_of,
)
from paiju.engines.mcr.fans_special import (
    honors_and_knitted,
    knitted_straight,
    nine_gates,
    seven_pairs,
    thirteen_orphans,
)
from paiju.engines.mcr.fans_table import (
    FLOWER_TILES,
    PURE_TRIPLE_CHOW,
    SEVEN_PAIRS,
    TRIPLE_PUNG,
)
from paiju.engines.mcr.hand import Pack
from paiju.engines.mcr.tiles import Tile


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything the fan count needs (the judge's input, as ints).

    ``hand`` is the concealed part *before* the win tile (13 - 3*len(packs) tiles);
    ``fourth_tile`` = 和绝张 hint, ``about_kong`` = replacement tile (self-drawn) or robbing the
    kong (discard), ``wall_last`` = last tile of the wall; winds are 0..3 = E S W N.
    ``kong_pair_five`` selects the "concealed kong and melded kong = 5" reading (明暗杠).
    """

    packs: tuple[Pack, ...]
    hand: tuple[Tile, ...]
    win_tile: Tile
    flowers: int = 0
    self_drawn: bool = False
    fourth_tile: bool = False
    about_kong: bool = False
    wall_last: bool = False
    seat_wind: int = 0
    prevalent_wind: int = 0
    kong_pair_five: bool = False


class FanResult(NamedTuple):
    """A scored hand: ``fans`` = (english_name, points_each, count) in table order.

    ``total`` includes flowers; ``total_without_flowers`` is what the 8-fan minimum checks.
    """

    fans: tuple[tuple[str, int, int], ...]
    total: int
    total_without_flowers: int


def evaluate(ctx: WinContext) -> FanResult | None:
    """Score the best arrangement of the hand; None if it is not a complete hand.

    Raises ValueError when the tile count is wrong (hand + 3 per pack must be 13) or a tile is
    not a playing tile 0..33. The win flags are corrected as the oracle does: 和绝张 is dropped
    when the hand holds another copy of the win tile and forced when the packs hold three; a
    replacement-tile flag needs a kong in the packs, and a robbing-the-kong flag needs the win
    tile to be untouched. More than four copies of a tile are not rejected here (the judge
    rejects them).
    """
    if len(ctx.packs) > 4 or len(ctx.hand) + 3 * len(ctx.packs) != 13:
        raise ValueError("wrong tile count: hand must hold 13 - 3 * packs tiles")
    if not 0 <= ctx.win_tile < 34 or (ctx.hand and not 0 <= min(ctx.hand) <= max(ctx.hand) < 34):
        raise ValueError("tiles must be 0..33 (flowers are counted in 'flowers')")
    info = _hand_info(ctx)
    table = _best_table(info, len(ctx.hand))
    if table is None:
        return None
    flowers = ctx.flowers
    table[FLOWER_TILES] = flowers  # no fan count writes this slot
    fans = [
        _ONCE[i] if table[i] == 1 else (_NAMES[i], _POINTS[i], table[i])
        for i in compress(_IDS, table)
    ]
    total = 0
    for _name, points, n in fans:
        total += points * n
    without = total - flowers * _POINTS[FLOWER_TILES]
    return FanResult(tuple(fans), without + flowers, without)


_IDS, _NAMES, _POINTS = F.IDS, F.NAMES, F.POINTS
_ONCE = tuple((name, points, 1) for name, points in zip(_NAMES, _POINTS, strict=True))
"""Each fan's (name, points, 1) entry, shared: most fans count once."""


def _hand_info(ctx: WinContext) -> HandInfo:
    """Counts, corrected flags and the arrangement-independent fans of one evaluation."""
    win = ctx.win_tile
    counts = bytearray(34)
    for t in ctx.hand:
        counts[t] += 1
    counts[win] += 1
    k0, k1, k2, k3 = GROUP_KEYS(counts)
    try:  # ``groups_of``, inlined: this runs once per evaluation
        groups = _R0[k0], _R1[k1], _R2[k2], _R3[k3]
    except KeyError:
        groups = groups_of(counts)
    mask = groups[0][MASK] | groups[1][MASK] | groups[2][MASK] | groups[3][MASK]
    standing = bytes(counts)
    fixed: tuple[Set, ...] = ()
    merged = standing
    kongs = melded = 0
    if ctx.packs:
        sets = []
        for p in ctx.packs:
            t = p.tile
            kind = p.kind
            if kind == "CHI":
                counts[t - 1] += 1
                counts[t] += 1
                counts[t + 1] += 1
                mask |= 7 << (t - 1)
                sets.append((CHOW, t, p.offer != 0))
            else:
                n = _PUNG_SIZES[kind]  # KeyError on an unknown kind, as before
                counts[t] += n
                mask |= 1 << t
                kongs += n == 4
                sets.append((PUNG if n == 3 else KONG, t, p.offer != 0))
            melded += p.offer != 0
        fixed = tuple(sets)
        merged = bytes(counts)  # ``counts`` now holds the packs too
    hog = merged.count(4) - kongs
    packed_win = merged[win] - standing[win]  # copies of the win tile in the packs
    last_tile = ctx.fourth_tile
    if standing[win] != 1:
        last_tile = False
    if packed_win == 3:
        last_tile = True
    about_kong = ctx.about_kong
    if about_kong:
        # a replacement tile needs a kong; a robbed tile is the only copy the winner touches
        untouched = packed_win == 0 and standing[win] == 1
        about_kong = kongs > 0 if ctx.self_drawn else untouched
    code = ctx.self_drawn + 2 * last_tile + 4 * about_kong + 8 * ctx.wall_last
    return HandInfo(
        fixed,
        standing,
        merged,
        mask.bit_count(),
        mask,
        win,
        FLAGS[code],
        ctx.seat_wind,
        ctx.prevalent_wind,
        ctx.kong_pair_five,
        base_table(melded, hog, mask, code),
        groups,
    )


_R0, _R1, _R2, _R3 = RECORDS


_PUNG_SIZES = {"PENG": 3, "GANG": 4}


def _best_table(info: HandInfo, hand_len: int) -> list[int] | None:
    """Principle 4 (就高不就低): the best-scoring form and arrangement, oracle tie-breaks."""
    special: list[int] | None = None
    distinct = info.distinct
    # Each special form needs a given number of distinct tiles; check only the possible ones
    # (in the oracle's order: seven pairs, honors and knitted, thirteen orphans, knitted
    # straight, nine gates).
    if not info.fixed:
        if distinct <= 7:
            special = seven_pairs(info)
        elif distinct == 14:
            special = honors_and_knitted(info)
        elif distinct == 13:
            special = thirteen_orphans(info)
        if special is None and distinct >= 9:
            special = knitted_straight(info)
        if special is None and distinct == 9:
            special = nine_gates(info)
    elif len(info.fixed) == 1 and distinct >= 9:
        special = knitted_straight(info)
    is_pairs = bool(special and special[SEVEN_PAIRS])
    if special is not None and not is_pairs:
        return special
    found = group_divisions(info.groups, info.fixed)
    if not found:
        return special
    if special is None and len(found) == 1:
        packs = found[0]
        win = info.win
        # ``_unique_wait`` of one arrangement, inlined (the common case)
        if hand_len == 1:
            unique = True
        elif packs[-1][1] == win:  # the pair
            unique = group_unique_wait(info.groups, info.standing, hand_len, win)
        else:
            unique = False
            for kind, tile, _m in packs[len(info.fixed) : -1]:
                if kind == CHOW and tile - 1 <= win <= tile + 1:
                    unique = group_unique_wait(info.groups, info.standing, hand_len, win)
                    break
        return score_division(packs, info, unique)
    unique_wait = _unique_wait(info, found, hand_len)
    best = special
    best_points = F.table_points(special) if special else 0
    for packs in found:
        table = score_division(packs, info, unique_wait)
        points = F.table_points(table)
        if points > best_points:
            best, best_points = table, points
        elif points == best_points and (
            table[PURE_TRIPLE_CHOW] == 1 or is_pairs or table[TRIPLE_PUNG]
        ):
            best = table
    return best


def _unique_wait(info: HandInfo, found: list[tuple[Set, ...]], hand_len: int) -> bool:
    """Did the hand wait on one tile only? Only asked when some arrangement could score a
    wait fan: a concealed chow or the pair holding the win tile."""
    if hand_len == 1:
        return True  # a lone tile waits for its pair
    win = info.win
    nfixed = len(info.fixed)
    for packs in found:
        if packs[-1][1] == win:  # the pair
            return group_unique_wait(info.groups, info.standing, hand_len, win)
        for kind, tile, _m in packs[nfixed:-1]:
            if kind == CHOW and tile - 1 <= win <= tile + 1:
                return group_unique_wait(info.groups, info.standing, hand_len, win)
    return False
