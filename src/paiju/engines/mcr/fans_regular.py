"""Four-sets-and-a-pair (基本和型) arrangements and their fans.

``divisions`` lists every way to split the concealed tiles into sets and a pair, in a fixed
order (sets taken in ascending tile order, pung before chow), so that ties between equally
scored arrangements resolve the same way every time. ``score_division`` counts one
arrangement: per-set fans, chow and pung combinations with the non-identical and account-once
principles (不得相同 / 套算一次), then hand-wide fans and the exclusions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paiju.engines.mcr import fans_table as F
from paiju.engines.mcr.fans_adjust import (
    ALL_MASK,
    CHOW,
    DRAGON_MASK,
    FLAGS,
    GREEN_MASK,
    HIGH_RANKS,
    HONOR_MASK,
    KONG,
    LOW_RANKS,
    MID_RANKS,
    PAIR,
    PUNG,
    PUNG_FAN,
    RANK_MASKS,
    REVERSIBLE_MASK,
    SUIT_MASKS,
    TERMINAL_MASK,
    TRAITS,
    WIND_MASK,
    Flags,
    add_range_fans,
    add_suit_fans,
    add_trait_fans,
    add_wait_fan,
    add_win_flags,
    add_wind_pung,
    final_adjust,
    is_dragon,
    is_suited,
    is_wind,
    rank,
    suit,
)
from paiju.engines.mcr.fans_sets import (
    CHOWS2,
    PUNGS2,
    four_chows,
    four_pungs,
    three_chows,
    three_pungs,
)
from paiju.engines.mcr.fans_shape import Group
from paiju.engines.mcr.fans_table import (
    ALL_CHOWS,
    ALL_EVEN_PUNGS,
    ALL_FIVE,
    ALL_PUNGS,
    BIG_FOUR_WINDS,
    BIG_THREE_WINDS,
    CHICKEN_HAND,
    CONCEALED_HAND,
    CONCEALED_KONG,
    CONCEALED_KONG_AND_MELDED_KONG,
    FOUR_CONCEALED_PUNGS,
    FOUR_KONGS,
    FULLY_CONCEALED_HAND,
    LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    MELDED_HAND,
    MELDED_KONG,
    OUTSIDE_HAND,
    PURE_TERMINAL_CHOWS,
    QUADRUPLE_CHOW,
    SELF_DRAWN,
    THREE_CONCEALED_PUNGS,
    THREE_KONGS,
    THREE_SUITED_TERMINAL_CHOWS,
    TILE_HOG,
    TWO_CONCEALED_KONGS,
    TWO_CONCEALED_PUNGS,
    TWO_DRAGONS_PUNGS,
    TWO_MELDED_KONGS,
)
from paiju.engines.mcr.hand import CACHE_LIMIT

Set = tuple[int, int, bool]
"""(kind, tile, melded): kind CHOW/PUNG/KONG/PAIR, tile = middle tile for a chow."""


@dataclass(slots=True)
class HandInfo:
    """One evaluation's facts, computed once and shared by every arrangement (read-only by
    convention; a slots class because its fields are read many times per evaluation)."""

    fixed: tuple[Set, ...]
    standing: bytes  # 34 counts of the concealed tiles including the win tile
    merged: bytes  # 34 counts of the whole hand: standing plus the packs (a kong counts 4)
    distinct: int  # how many different tiles the whole hand has
    mask: int  # bit t set for every tile t in the hand (packs included)
    win: int
    flags: Flags
    seat_wind: int
    prevalent_wind: int
    kong_pair_five: bool
    base: tuple[int, ...]  # fans shared by every arrangement (see ``base_table``)
    groups: tuple[Group, Group, Group, Group]  # per-group shape records of ``standing``


# --------------------------------------------------------------------------- divisions


def divisions(standing: Sequence[int], fixed: tuple[Set, ...]) -> list[tuple[Set, ...]]:
    """Every split of ``standing`` into 4 - len(fixed) concealed sets plus a pair."""
    c = list(standing)
    need = 4 - len(fixed)
    out: list[tuple[Set, ...]] = []
    work: list[Set] = []

    def tail() -> None:
        pair = -1
        for t in range(34):
            n = c[t]
            if n == 0:
                continue
            if n != 2 or pair >= 0:
                return
            pair = t
        if pair >= 0:
            out.append(fixed + tuple(work) + ((PAIR, pair, False),))

    def rec(prev: int) -> None:
        if len(work) == need:
            tail()
            return
        leftover = False
        for t in range(34):
            n = c[t]
            if n == 0:
                continue
            if n > 2 and 2 * t > prev:
                c[t] -= 3
                work.append((PUNG, t, False))
                rec(2 * t)
                work.pop()
                c[t] += 3
            if t < 27 and t % 9 < 7 and c[t + 1] and c[t + 2] and 2 * t + 1 >= prev:
                c[t] -= 1
                c[t + 1] -= 1
                c[t + 2] -= 1
                work.append((CHOW, t + 1, False))
                rec(2 * t + 1)
                work.pop()
                c[t] += 1
                c[t + 1] += 1
                c[t + 2] += 1
            # Tiles passed over can only end up in the pair: one pair of one kind at most.
            if c[t] != 2 or leftover:
                return
            leftover = True

    if any(n >= 2 for n in c):
        rec(-1)
    return out


# --------------------------------------------------------------------------- one arrangement


_HIDDEN = {2: TWO_CONCEALED_PUNGS, 3: THREE_CONCEALED_PUNGS, 4: FOUR_CONCEALED_PUNGS}


def _kong_fans(
    concealed_pungs: int, melded_kongs: int, concealed_kongs: int, five: bool, table: list[int]
) -> None:
    """Kong fans and the concealed-pung fans (暗刻), with concealed kongs counted as 暗刻.

    Two concealed kongs alone do not also give Two Concealed Pungs (Two Concealed Kongs
    covers them); with three or four kongs the concealed kongs (plus a concealed pung for
    three kongs) set the concealed-pung fan, as the oracle does.
    """
    kongs = melded_kongs + concealed_kongs
    cp = concealed_pungs
    hidden = 0
    if kongs == 0:
        hidden = cp
    elif kongs == 1:
        table[MELDED_KONG if melded_kongs else CONCEALED_KONG] = 1
        hidden = cp if melded_kongs else (cp + 1 if cp >= 1 else 0)
    elif kongs == 2:
        if concealed_kongs == 0:
            table[TWO_MELDED_KONGS] = 1
            hidden = 2 if cp == 2 else 0
        elif concealed_kongs == 1:
            if five:
                table[CONCEALED_KONG_AND_MELDED_KONG] = 1
            else:
                table[MELDED_KONG] = 1
                table[CONCEALED_KONG] = 1
            hidden = cp + 1 if cp in (1, 2) else 0
        else:
            table[TWO_CONCEALED_KONGS] = 1
            hidden = cp + 2 if cp in (1, 2) else 0
    elif kongs == 3:
        table[THREE_KONGS] = 1
        if concealed_kongs == 1:
            hidden = 2 if cp > 0 else 0
        elif concealed_kongs >= 2:
            hidden = concealed_kongs + (0 if cp == 0 else 1)
    else:
        table[FOUR_KONGS] = 1
        hidden = concealed_kongs
    fan = _HIDDEN.get(hidden)
    if fan:
        table[fan] = 1


def base_table(melded: int, hog: int, mask: int, flags: int) -> tuple[int, ...]:
    """The fans every arrangement of the hand shares: win flags (``flags`` is an index of
    ``FLAGS``), concealment (``melded`` packs), suits, tile traits, ranges (from ``mask``, the
    tiles held) and ``hog`` Tile Hogs (a Quadruple Chow arrangement clears it again)."""
    features = (
        _FEATURES[0][mask & 511]
        | _FEATURES[1][mask >> 9 & 511]
        | _FEATURES[2][mask >> 18 & 511]
        | _FEATURES[3][mask >> 27]
    )
    # the table depends on the hand only through these few small numbers: memoise on them
    base = 3 * flags + (0 if melded == 0 else 2 if melded == 4 else 1)
    key = (features * 48 + base) * 8 + hog
    got = _BASE_TABLES.get(key)
    if got is None:
        table = list(_FLAG_BASES[base])
        for fan in _mask_fans(mask):
            table[fan] = 1
        table[TILE_HOG] = hog
        got = tuple(table)
        if 0 <= hog < 8:  # always, unless a tile is held more than four times
            if len(_BASE_TABLES) >= CACHE_LIMIT:
                _BASE_TABLES.clear()
            _BASE_TABLES[key] = got
    return got


def _flag_base(flags: Flags, concealment: int) -> tuple[int, ...]:
    """Win-flag and concealment fans; ``concealment`` 0 = no melded pack, 2 = all four."""
    table = [0] * F.NUM_FANS
    add_win_flags(flags, table)
    if concealment == 0:
        table[FULLY_CONCEALED_HAND if flags.self_drawn else CONCEALED_HAND] = 1
    elif concealment == 2:
        table[SELF_DRAWN if flags.self_drawn else MELDED_HAND] = 1
    elif flags.self_drawn:
        table[SELF_DRAWN] = 1
    return tuple(table)


_FLAG_BASES = tuple(_flag_base(flags, concealment) for flags in FLAGS for concealment in range(3))


def _mask_fans(mask: int) -> tuple[int, ...]:
    """The suit, trait and range fans of the tiles in ``mask`` (each is counted once)."""
    table = [0] * F.NUM_FANS
    add_suit_fans(mask, table)
    add_trait_fans(mask, table)
    add_range_fans(mask, table)
    assert all(n in (0, 1) for n in table)
    return tuple(fan for fan, n in enumerate(table) if n)


# The suit, trait and range fans only ask, of a few tile sets, whether the hand holds a tile
# of that set: these answers (one bit each) depend on the hand through them alone, so the
# fans are memoised on them. Each group's answers are tabulated for its 512 (128) masks.
_TESTS = (
    HONOR_MASK,
    *SUIT_MASKS,
    WIND_MASK,
    DRAGON_MASK,
    TERMINAL_MASK | HONOR_MASK,
    ALL_MASK & ~REVERSIBLE_MASK,
    ALL_MASK & ~GREEN_MASK,
    ALL_MASK & ~HONOR_MASK,
    ALL_MASK & ~TERMINAL_MASK,
    ALL_MASK & ~(TERMINAL_MASK | HONOR_MASK),
    ALL_MASK & ~LOW_RANKS,
    ALL_MASK & ~HIGH_RANKS,
    ALL_MASK & ~MID_RANKS,
    RANK_MASKS[3],
    RANK_MASKS[5],
)


def _features(mask: int) -> int:
    return sum(1 << i for i, test in enumerate(_TESTS) if mask & test)


_FEATURES = tuple(
    tuple(_features(m << base) for m in range(1 << size))
    for base, size in ((0, 9), (9, 9), (18, 9), (27, 7))
)
_BASE_TABLES: dict[int, tuple[int, ...]] = {}
"""Base tables by (features, flags, concealment, Tile Hogs): a few thousand at most."""


def score_division(packs: tuple[Set, ...], info: HandInfo, unique_wait: bool) -> list[int]:
    """The fan count table of one arrangement: ``info.fixed``, then the concealed sets (chows
    and pungs), then the pair, as ``divisions`` gives them."""
    table = list(info.base)
    chow_tiles: list[int] = []
    pung_tiles: list[int] = []
    hidden = hidden_win = 0  # concealed pungs and kongs, and those of the win tile
    win = info.win
    win_in_hidden_chow = False
    melded_kongs = concealed_kongs = 0
    pair = packs[-1][1]
    traits = TRAITS[PAIR][pair]
    nfixed = len(info.fixed)
    for kind, tile, melded in packs[:nfixed]:
        traits += TRAITS[kind][tile]
        if kind == CHOW:
            chow_tiles.append(tile)
            if not melded and tile - 1 <= win <= tile + 1:
                win_in_hidden_chow = True
        else:
            pung_tiles.append(tile)
            if not melded:
                hidden += 1
                hidden_win += tile == win
            if kind == KONG:
                if melded:
                    melded_kongs += 1
                else:
                    concealed_kongs += 1
            fan = PUNG_FAN[tile]
            if fan:
                table[fan] += 1
    # the concealed sets: chows and pungs, none melded
    for kind, tile, _m in packs[nfixed:-1]:
        traits += TRAITS[kind][tile]
        if kind == CHOW:
            chow_tiles.append(tile)
            if tile - 1 <= win <= tile + 1:
                win_in_hidden_chow = True
        else:
            pung_tiles.append(tile)
            hidden += 1
            hidden_win += tile == win
            fan = PUNG_FAN[tile]
            if fan:
                table[fan] += 1
    concealed_pungs = hidden - concealed_kongs
    # A discarded win tile that cannot sit in a concealed chow completes a melded pung.
    if not info.flags.self_drawn and not win_in_hidden_chow:
        concealed_pungs -= hidden_win

    if pung_tiles:
        if melded_kongs or concealed_kongs or concealed_pungs >= 2:  # else there is no such fan
            _kong_fans(concealed_pungs, melded_kongs, concealed_kongs, info.kong_pair_five, table)
        if len(pung_tiles) == 4 and not table[FOUR_KONGS] and not table[FOUR_CONCEALED_PUNGS]:
            table[ALL_PUNGS] = 1

    n_chows = len(chow_tiles)
    if n_chows == 4:
        chow_tiles.sort()
        if _three_suited_terminal_chows(chow_tiles, pair):
            table[THREE_SUITED_TERMINAL_CHOWS] = 1
        elif _pure_terminal_chows(chow_tiles, pair):
            table[PURE_TERMINAL_CHOWS] = 1
        else:
            four_chows(chow_tiles, table)
            if table[QUADRUPLE_CHOW]:
                table[TILE_HOG] = 0
    elif n_chows == 3:
        chow_tiles.sort()
        three_chows(chow_tiles, table)
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
        pung_tiles.sort()
        three_pungs(pung_tiles, table)
    else:
        pung_tiles.sort()
        four_pungs(pung_tiles, table)

    if n_chows == 4 or table[TWO_DRAGONS_PUNGS] or table[BIG_THREE_WINDS]:
        _pair_fans(pair, n_chows, table)
    # 全带幺 / 全带五 / 全双刻: every set and the pair (the counters are packed in ``traits``)
    if traits & 7 == 5:
        table[OUTSIDE_HAND] = 1
    elif traits >> 3 & 7 == 5:
        table[ALL_FIVE] = 1
    elif traits >> 6 == 5:
        table[ALL_EVEN_PUNGS] = 1
    if unique_wait:
        add_wait_fan(packs[nfixed:], win, table)
    final_adjust(table)
    if not table[BIG_FOUR_WINDS]:
        for tile in pung_tiles:
            if 27 <= tile <= 30:
                add_wind_pung(tile, info.prevalent_wind, info.seat_wind, table)
    if table.count(0) == F.NUM_FANS:
        table[CHICKEN_HAND] = 1
    return table


def _pair_fans(pair: int, chow_count: int, table: list[int]) -> None:
    """平和, and the pair turning 双箭刻 into 小三元 or 三风刻 into 小四喜."""
    if chow_count == 4:
        if is_suited(pair):
            table[ALL_CHOWS] = 1
        return
    if table[TWO_DRAGONS_PUNGS]:
        if is_dragon(pair):
            table[LITTLE_THREE_DRAGONS] = 1
            table[TWO_DRAGONS_PUNGS] = 0
        return
    if table[BIG_THREE_WINDS] and is_wind(pair):
        table[LITTLE_FOUR_WINDS] = 1
        table[BIG_THREE_WINDS] = 0


def _pure_terminal_chows(chows: Sequence[int], pair: int) -> bool:
    """一色双龙会: 123 123 789 789 + 55 in one suit."""
    if not is_suited(pair) or rank(pair) != 5:
        return False
    if any(suit(t) != suit(pair) for t in chows):
        return False
    ranks = sorted(rank(t) for t in chows)
    return ranks == [2, 2, 8, 8]


def _three_suited_terminal_chows(chows: Sequence[int], pair: int) -> bool:
    """三色双龙会: 123 + 789 in two suits, 55 in the third."""
    if not is_suited(pair) or rank(pair) != 5:
        return False
    others = {0, 1, 2} - {suit(pair)}
    if any(suit(t) == suit(pair) or rank(t) not in (2, 8) for t in chows):
        return False
    have = {(suit(t), rank(t)) for t in chows}
    return all((s, r) in have for s in others for r in (2, 8))
