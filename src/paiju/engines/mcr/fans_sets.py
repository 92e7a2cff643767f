"""Fans of set combinations (套算): two, three and four chows or pungs.

Chow functions take middle tiles, pung functions pung tiles, both sorted where it matters.
The chow-pair fans follow the non-identical and account-once principles (不得相同 /
套算一次) as the oracle implements them: see ``_limit_pair_fans``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations_with_replacement

from paiju.engines.mcr.fans_adjust import is_suited, rank, suit
from paiju.engines.mcr.fans_table import (
    BIG_FOUR_WINDS,
    BIG_THREE_DRAGONS,
    BIG_THREE_WINDS,
    DOUBLE_PUNG,
    FOUR_PURE_SHIFTED_CHOWS,
    FOUR_PURE_SHIFTED_PUNGS,
    MIXED_DOUBLE_CHOW,
    MIXED_SHIFTED_CHOWS,
    MIXED_SHIFTED_PUNGS,
    MIXED_STRAIGHT,
    MIXED_TRIPLE_CHOW,
    PURE_DOUBLE_CHOW,
    PURE_SHIFTED_CHOWS,
    PURE_SHIFTED_PUNGS,
    PURE_STRAIGHT,
    PURE_TRIPLE_CHOW,
    QUADRUPLE_CHOW,
    SHORT_STRAIGHT,
    TRIPLE_PUNG,
    TWO_DRAGONS_PUNGS,
    TWO_TERMINAL_CHOWS,
)


def _same_suit(*ts: int) -> bool:
    s = suit(ts[0])
    return all(suit(t) == s for t in ts)


def _mixed(a: int, b: int, c: int) -> bool:
    return suit(a) != suit(b) and suit(a) != suit(c) and suit(b) != suit(c)


def _shifted_1_unordered(a: int, b: int, c: int) -> bool:
    r = sorted((a, b, c))
    return r[0] + 1 == r[1] and r[1] + 1 == r[2]


def two_chows_fan(a: int, b: int) -> int:
    """一般高 / 喜相逢 / 连六 / 老少副 for two chows (middle tiles)."""
    if suit(a) != suit(b):
        return MIXED_DOUBLE_CHOW if rank(a) == rank(b) else 0
    if abs(a - b) == 3:
        return SHORT_STRAIGHT
    if {rank(a), rank(b)} == {2, 8}:
        return TWO_TERMINAL_CHOWS
    if a == b:
        return PURE_DOUBLE_CHOW
    return 0


def three_chows_fan(a: int, b: int, c: int) -> int:
    """3-chow fans for sorted middle tiles."""
    if _mixed(a, b, c):
        ra, rb, rc = rank(a), rank(b), rank(c)
        if _shifted_1_unordered(ra, rb, rc):
            return MIXED_SHIFTED_CHOWS
        if ra == rb == rc:
            return MIXED_TRIPLE_CHOW
        if sorted((ra, rb, rc)) == [2, 5, 8]:
            return MIXED_STRAIGHT
        return 0
    if not _same_suit(a, b, c):
        return 0
    if a + 3 == b and b + 3 == c:
        return PURE_STRAIGHT
    if (a + 2 == b and b + 2 == c) or (a + 1 == b and b + 1 == c):
        return PURE_SHIFTED_CHOWS
    if a == b == c:
        return PURE_TRIPLE_CHOW
    return 0


def _limit_pair_fans(fans: Sequence[int], max_cnt: int, table: list[int]) -> None:
    """Account once (套算一次): keep at most ``max_cnt`` chow-pair fans, trimming repeats
    first, from Two Terminal Chows back to Pure Double Chow (memoised: a few fan ids)."""
    key = (*fans, max_cnt)
    have = _LIMITS.get(key)
    if have is None:
        have = _LIMITS[key] = _limit(fans, max_cnt)
    (
        table[PURE_DOUBLE_CHOW],
        table[MIXED_DOUBLE_CHOW],
        table[SHORT_STRAIGHT],
        table[TWO_TERMINAL_CHOWS],
    ) = have


def _limit(fans: Sequence[int], max_cnt: int) -> tuple[int, int, int, int]:
    order = (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS)
    have = [sum(1 for f in fans if f == o) for o in order]
    cnt = sum(have)
    limit = 1
    while cnt > max_cnt and limit >= 0:
        idx = 4
        while cnt > max_cnt and idx > 0:
            idx -= 1
            while have[idx] > limit and cnt > max_cnt:
                have[idx] -= 1
                cnt -= 1
        limit -= 1
    return have[0], have[1], have[2], have[3]


_LIMITS: dict[tuple[int, ...], tuple[int, int, int, int]] = {}
"""``_limit`` by (pair fans..., max_cnt): at most 5**6 * 4 keys."""


def four_chows(m: Sequence[int], table: list[int]) -> None:
    """Fans of four chows (sorted middle tiles)."""
    a, b, c, d = m
    if a // 9 == d // 9 and (  # sorted suited tiles: one suit when the ends share it
        (a + 2 == b and b + 2 == c and c + 2 == d) or (a + 1 == b and b + 1 == c and c + 1 == d)
    ):
        table[FOUR_PURE_SHIFTED_CHOWS] = 1
        return
    if a == b == c == d:
        table[QUADRUPLE_CHOW] = 1
        return
    for x, y, z, extra in ((a, b, c, d), (a, b, d, c), (a, c, d, b), (b, c, d, a)):
        fan = CHOWS3[x * 1156 + y * 34 + z]
        if fan:
            table[fan] = 1
            found = {CHOWS2[x * 34 + extra], CHOWS2[y * 34 + extra], CHOWS2[z * 34 + extra]}
            for more in _PAIR_ORDER:  # the one pair fan the 4th chow adds, by preference
                if more in found:
                    table[more] = 1
                    break
            return
    ab, ac, ad = CHOWS2[a * 34 + b], CHOWS2[a * 34 + c], CHOWS2[a * 34 + d]
    bc, bd, cd = CHOWS2[b * 34 + c], CHOWS2[b * 34 + d], CHOWS2[c * 34 + d]
    # one pair fan fewer for each chow that forms none with the other three
    alone = (not (ab or ac or ad)) + (not (ab or bc or bd)) + (not (ac or bc or cd))
    max_cnt = 3 - alone - (not (ad or bd or cd))
    if max_cnt > 0:
        _limit_pair_fans((ab, ac, ad, bc, bd, cd), max_cnt, table)


_PAIR_ORDER = (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS)


def three_chows(m: Sequence[int], table: list[int]) -> None:
    """Fans of three chows (sorted middle tiles): a 3-chow fan, else at most two pair fans."""
    a, b, c = m
    fan = CHOWS3[a * 1156 + b * 34 + c]
    if fan:
        table[fan] = 1
        return
    pairs = [CHOWS2[a * 34 + b], CHOWS2[a * 34 + c], CHOWS2[b * 34 + c]]
    if any(pairs):
        _limit_pair_fans(pairs, 2, table)


def two_pungs_fan(a: int, b: int) -> int:
    """双同刻 / 双箭刻."""
    if a < 27 and b < 27:
        return DOUBLE_PUNG if a % 9 == b % 9 else 0
    return TWO_DRAGONS_PUNGS if a >= 31 and b >= 31 else 0


_THREE_WINDS = {(27, 28, 29), (27, 28, 30), (27, 29, 30), (28, 29, 30)}


def three_pungs_fan(a: int, b: int, c: int) -> int:
    """3-pung fans for sorted tiles."""
    if is_suited(a) and is_suited(b) and is_suited(c):
        if _mixed(a, b, c):
            ra, rb, rc = rank(a), rank(b), rank(c)
            if _shifted_1_unordered(ra, rb, rc):
                return MIXED_SHIFTED_PUNGS
            if ra == rb == rc:
                return TRIPLE_PUNG
            return 0
        if _same_suit(a, b, c) and a + 1 == b and b + 1 == c:
            return PURE_SHIFTED_PUNGS
        return 0
    if (a, b, c) in _THREE_WINDS:
        return BIG_THREE_WINDS
    if (a, b, c) == (31, 32, 33):
        return BIG_THREE_DRAGONS
    return 0


def four_pungs(m: Sequence[int], table: list[int]) -> None:
    """Fans of four pungs (sorted tiles)."""
    a, b, c, d = m
    if a + 1 == b and b + 1 == c and c + 1 == d and d < 27 and a // 9 == d // 9:
        table[FOUR_PURE_SHIFTED_PUNGS] = 1
        return
    if a == 27 and b == 28 and c == 29 and d == 30:
        table[BIG_FOUR_WINDS] = 1
        return
    for x, y, z, free in ((a, b, c, d), (a, b, d, c), (a, c, d, b), (b, c, d, a)):
        fan = PUNGS3[x * 1156 + y * 34 + z]
        if fan:
            table[fan] = 1
            more = PUNGS2[x * 34 + free] or PUNGS2[y * 34 + free] or PUNGS2[z * 34 + free]
            if more:
                table[more] += 1
            return
    for fan in (
        PUNGS2[a * 34 + b],
        PUNGS2[a * 34 + c],
        PUNGS2[a * 34 + d],
        PUNGS2[b * 34 + c],
        PUNGS2[b * 34 + d],
        PUNGS2[c * 34 + d],
    ):
        if fan:
            table[fan] += 1


def three_pungs(m: Sequence[int], table: list[int]) -> None:
    """Fans of three pungs (sorted tiles): a 3-pung fan, else every pair."""
    a, b, c = m
    fan = PUNGS3[a * 1156 + b * 34 + c]
    if fan:
        table[fan] = 1
        return
    for fan in (PUNGS2[a * 34 + b], PUNGS2[a * 34 + c], PUNGS2[b * 34 + c]):
        if fan:
            table[fan] += 1


# Every combination fan above is a pure function of a few tiles: tabulated once at import
# (a*34 + b for pairs, a*1156 + b*34 + c for sorted triples) so that scoring is look-ups.


def _tabulate3(fn: Callable[[int, int, int], int], tiles: Sequence[int]) -> list[int]:
    out = [0] * 34**3
    for a, b, c in combinations_with_replacement(tiles, 3):
        out[a * 1156 + b * 34 + c] = fn(a, b, c)
    return out


CHOWS2 = tuple(two_chows_fan(a, b) for a in range(34) for b in range(34))
PUNGS2 = tuple(two_pungs_fan(a, b) for a in range(34) for b in range(34))
CHOWS3 = _tabulate3(three_chows_fan, [t for t in range(27) if 0 < t % 9 < 8])
PUNGS3 = _tabulate3(three_pungs_fan, range(34))
