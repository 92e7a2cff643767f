"""Scoring an arrangement from memoised per-group splits (the hot path of ``fans.evaluate``).

``score_combo`` gives the same table as ``fans_regular.score_division`` on the same
arrangement (the tests check it), but reads what each set contributes from the split records
of ``fans_shape`` and the pack facts of ``FixedFacts`` instead of walking the sets: chow and
pung tiles, trait counters, per-pung fans, and tile masks for the wait questions (only the win
tile's group can hold a set with the win tile in it).
"""

from __future__ import annotations

from paiju.engines.mcr.fans_adjust import add_wind_pung, final_adjust
from paiju.engines.mcr.fans_regular import (
    HandInfo,
    kong_fans,
    pair_fans,
    pure_terminal_chows,
    three_suited_terminal_chows,
)
from paiju.engines.mcr.fans_sets import (
    CHOWS2,
    PUNGS2,
    four_chows,
    four_pungs,
    three_chows,
    three_pungs,
)
from paiju.engines.mcr.fans_shape import (
    S_CHOWS,
    S_COVER,
    S_DRAGONS,
    S_ENDS,
    S_MIDS,
    S_PAIR,
    S_PUNG_MASK,
    S_PUNGS,
    S_TERMINALS,
    S_TRAITS,
    Combo,
)
from paiju.engines.mcr.fans_table import (
    ALL_EVEN_PUNGS,
    ALL_FIVE,
    ALL_PUNGS,
    BIG_FOUR_WINDS,
    BIG_THREE_WINDS,
    CHICKEN_HAND,
    CLOSED_WAIT,
    DRAGON_PUNG,
    EDGE_WAIT,
    FOUR_CONCEALED_PUNGS,
    FOUR_KONGS,
    MELDED_HAND,
    NUM_FANS,
    OUTSIDE_HAND,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_TERMINAL_CHOWS,
    QUADRUPLE_CHOW,
    SINGLE_WAIT,
    THREE_SUITED_TERMINAL_CHOWS,
    TILE_HOG,
    TWO_DRAGONS_PUNGS,
)


def win_group(win: int) -> int:
    """The group (0-2 suits, 3 honors) of a tile."""
    return win // 9 if win < 27 else 3


def wait_fan_possible(info: HandInfo, combos: list[Combo]) -> bool:
    """Some arrangement has the win tile in a concealed chow or as the pair (so a wait fan
    could score and the wait must be known)."""
    win = info.win
    g = win_group(win)
    return any(c[g][S_COVER] >> win & 1 or c[g][S_PAIR] == win for c in combos)


def score_combo(combo: Combo, info: HandInfo, unique_wait: bool) -> list[int]:
    """The fan count table of one arrangement: ``score_division`` of its sets."""
    c0, c1, c2, c3 = combo
    fixed = info.fixed_facts
    win = info.win
    cw = combo[win_group(win)]
    table = list(info.base)
    chow_tiles = fixed.chows + c0[S_CHOWS] + c1[S_CHOWS] + c2[S_CHOWS] + c3[S_CHOWS]
    pung_tiles = fixed.pungs + c0[S_PUNGS] + c1[S_PUNGS] + c2[S_PUNGS] + c3[S_PUNGS]
    pair = max(c0[S_PAIR], c1[S_PAIR], c2[S_PAIR], c3[S_PAIR])
    n = fixed.dragons + c0[S_DRAGONS] + c1[S_DRAGONS] + c2[S_DRAGONS] + c3[S_DRAGONS]
    if n:
        table[DRAGON_PUNG] += n
    n = fixed.terminals + c0[S_TERMINALS] + c1[S_TERMINALS] + c2[S_TERMINALS] + c3[S_TERMINALS]
    if n:
        table[PUNG_OF_TERMINALS_OR_HONORS] += n

    if pung_tiles:
        # concealed pungs: every pung of the splits; a discarded win tile that cannot sit in a
        # concealed chow completes a melded pung (or turns a concealed kong's count, as before)
        concealed_pungs = len(pung_tiles) - len(fixed.pungs)
        if not info.flags.self_drawn and not cw[S_COVER] >> win & 1:
            concealed_pungs -= (cw[S_PUNG_MASK] >> win & 1) + fixed.hidden.count(win)
        melded_kongs, concealed_kongs = fixed.melded_kongs, fixed.concealed_kongs
        if melded_kongs or concealed_kongs or concealed_pungs >= 2:
            kong_fans(concealed_pungs, melded_kongs, concealed_kongs, info.kong_pair_five, table)
        if len(pung_tiles) == 4 and not table[FOUR_KONGS] and not table[FOUR_CONCEALED_PUNGS]:
            table[ALL_PUNGS] = 1

    n_chows = len(chow_tiles)
    if n_chows == 4:
        chows = sorted(chow_tiles)
        if three_suited_terminal_chows(chows, pair):
            table[THREE_SUITED_TERMINAL_CHOWS] = 1
        elif pure_terminal_chows(chows, pair):
            table[PURE_TERMINAL_CHOWS] = 1
        else:
            four_chows(chows, table)
            if table[QUADRUPLE_CHOW]:
                table[TILE_HOG] = 0
    elif n_chows == 3:
        three_chows(sorted(chow_tiles), table)
    elif n_chows == 2:
        a, b = chow_tiles
        fan = CHOWS2[a * 34 + b] if a <= b else CHOWS2[b * 34 + a]
        if fan:
            table[fan] += 1
        a, b = pung_tiles
        fan = PUNGS2[a * 34 + b] if a <= b else PUNGS2[b * 34 + a]
        if fan:
            table[fan] += 1
    elif n_chows == 1:
        three_pungs(sorted(pung_tiles), table)
    else:
        four_pungs(sorted(pung_tiles), table)

    if n_chows == 4 or table[TWO_DRAGONS_PUNGS] or table[BIG_THREE_WINDS]:
        pair_fans(pair, n_chows, table)
    traits = fixed.traits + c0[S_TRAITS] + c1[S_TRAITS] + c2[S_TRAITS] + c3[S_TRAITS]
    if traits & 7 == 5:
        table[OUTSIDE_HAND] = 1
    elif traits >> 3 & 7 == 5:
        table[ALL_FIVE] = 1
    elif traits >> 6 == 5:
        table[ALL_EVEN_PUNGS] = 1
    if unique_wait and not table[MELDED_HAND] and not table[FOUR_KONGS]:
        # 边张 > 嵌张 > 单钓将, from the concealed sets of the win tile's group
        if cw[S_ENDS] >> win & 1:
            table[EDGE_WAIT] = 1
        elif cw[S_MIDS] >> win & 1:
            table[CLOSED_WAIT] = 1
        elif pair == win:
            table[SINGLE_WAIT] = 1
    final_adjust(table)
    if not table[BIG_FOUR_WINDS]:
        for tile in pung_tiles:
            if 27 <= tile <= 30:
                add_wind_pung(tile, info.prevalent_wind, info.seat_wind, table)
    if table.count(0) == NUM_FANS:
        table[CHICKEN_HAND] = 1
    return table
