"""Hand analysis (和牌判定): complete hands of every MCR form, waits (听牌) and shanten (向听数).

``concealed`` always means the tiles in the hand (手牌), not the exposed packs (副露). A hand
with ``n`` exposed packs holds ``13 - 3n`` concealed tiles between turns and ``14 - 3n`` when
complete; a kong still counts as one pack of 3 here.

Forms and when they are available:

* four sets + pair (基本和型): any number of packs;
* seven pairs (七对, a four-of-a-kind counts as two pairs), thirteen orphans (十三幺),
  lesser / greater honors and knitted tiles (全不靠 / 七星不靠): no packs;
* knitted straight (组合龙) + one set + pair: at most one pack (the set may be the pack).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from struct import Struct

from paiju.engines.mcr.tiles import NUM_KINDS, TERMINALS_AND_HONORS, Tile, counts

PACK_KINDS = ("CHI", "PENG", "GANG")

KNITTED_STRAIGHTS: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(sorted(perm[start] * 9 + start + 3 * k for start in range(3) for k in range(3)))
    for perm in permutations(range(3))
)
"""The six knitted straights (组合龙): 147 / 258 / 369 spread over the three suits."""


@dataclass(frozen=True, slots=True)
class Pack:
    """An exposed (or concealed-kong) set, in the judge's Botzone convention.

    ``kind`` is "CHI", "PENG" or "GANG"; ``tile`` is the middle tile for CHI; ``offer`` is 1..3
    (for CHI: which of the three tiles was claimed; for PENG/GANG: the supplier, 1 = left 上家,
    2 = opposite, 3 = right 下家) and 0 only for a concealed kong (暗杠).
    """

    kind: str
    tile: Tile
    offer: int

    @property
    def concealed(self) -> bool:
        """True for a concealed kong (offer 0); every other pack is melded."""
        return self.offer == 0

    def tiles(self) -> tuple[Tile, ...]:
        """The tiles of the pack (a kong gives four)."""
        if self.kind == "CHI":
            return (self.tile - 1, self.tile, self.tile + 1)
        if self.kind == "PENG":
            return (self.tile,) * 3
        return (self.tile,) * 4


def packs_for(concealed_len: int) -> int:
    """Number of exposed packs implied by a concealed part of ``concealed_len`` tiles."""
    return (14 - concealed_len) // 3 if concealed_len % 3 == 2 else (13 - concealed_len) // 3


# --------------------------------------------------------------------------- completeness


def _sets_only(c: list[int]) -> bool:
    """True if the 34 counts split into pungs and chows only (destroys ``c``).

    Greedy is exact: at the lowest tile, three identical chows use the same tiles as three
    pungs, so taking pungs first never loses a decomposition.
    """
    for base in (0, 9, 18):
        for i in range(base, base + 9):
            n = c[i]
            if n == 0:
                continue
            n %= 3
            if n:
                if i > base + 6 or c[i + 1] < n or c[i + 2] < n:
                    return False
                c[i + 1] -= n
                c[i + 2] -= n
    return all(c[i] % 3 == 0 for i in range(27, NUM_KINDS))


def is_regular_complete(c: Sequence[int]) -> bool:
    """Four-sets-and-a-pair shape (any number of sets) for 34 counts summing to 3n+2."""
    for p in range(NUM_KINDS):
        if c[p] >= 2:
            work = list(c)
            work[p] -= 2
            if _sets_only(work):
                return True
    return False


def is_seven_pairs(c: Sequence[int]) -> bool:
    """Seven pairs (七对) on 14 tiles; four of a kind counts as two pairs."""
    return sum(c) == 14 and all(n % 2 == 0 for n in c)


def is_thirteen_orphans(c: Sequence[int]) -> bool:
    """Thirteen orphans (十三幺): one of each terminal and honor plus a second of one."""
    return (
        sum(c) == 14
        and all(c[t] >= 1 for t in TERMINALS_AND_HONORS)
        and all(c[t] == 0 for t in range(NUM_KINDS) if t not in TERMINALS_AND_HONORS)
    )


def honors_and_knitted(c: Sequence[int]) -> int:
    """0 if not honors-and-knitted (全不靠), else the number of honors (5, 6 or 7 = 七星不靠)."""
    if sum(c) != 14 or any(n > 1 for n in c):
        return 0
    for ks in KNITTED_STRAIGHTS:
        allowed = set(ks)
        if all(c[t] == 0 for t in range(27) if t not in allowed):
            return sum(c[27:34])
    return 0


def knitted_straight_rest(c: Sequence[int]) -> list[tuple[Tile, ...]]:
    """The knitted straights (组合龙) fully present in ``c`` (each returned at most once)."""
    return [ks for ks in KNITTED_STRAIGHTS if all(c[t] >= 1 for t in ks)]


def is_knitted_straight_complete(c: Sequence[int]) -> bool:
    """Knitted straight + set + pair (14 tiles) or knitted straight + pair (11 tiles)."""
    total = sum(c)
    if total not in (11, 14):
        return False
    for ks in knitted_straight_rest(c):
        work = list(c)
        for t in ks:
            work[t] -= 1
        if is_regular_complete(work):
            return True
    return False


CACHE_LIMIT = 1 << 18
"""Memo tables are cleared when they reach this many entries (bounded memory on a server)."""

# Facts of one group (a suit's 9 counts, or the 7 honor counts), packed into one int so that
# the four groups of a hand combine with three additions (every field is wide enough that
# the sum never carries into the next one).
_PAIRED = 1  # bits 0-2: groups that split into sets and one pair
_BROKEN = 1 << 3  # bits 3-5: groups that split into neither
_SIZE = 6  # bits 6-13: tiles in the group
_DISTINCT = 14  # bits 14-19: different tiles in the group
_ODD = 1 << 20  # bits 20-22: groups with an odd count (or one above 4)
_FULL = 23  # bits 23-31: knitted patterns fully present, 3 bits per suit
_COVER = 32  # bits 32-40: knitted patterns covering the whole suit, 3 bits per suit
_OVER = 1 << 41  # bits 41-43: groups with a count above 4
_SIMPLE = 1 << 44  # bits 44-46: groups holding a tile other than a terminal or honor
_SHAPE_FIELDS = 0o77


def _group_facts(key: bytes, suit: int) -> int:
    """The packed facts of one group; ``suit`` 0-2 places the knitted bits, 3 = honors."""
    honors = suit == 3
    # a size above 63 only happens with a count above 4, which no form accepts anyway
    facts = len(key) - key.count(0) << _DISTINCT | min(sum(key), 63) << _SIZE
    if max(key) > 4:
        facts |= _OVER | _BROKEN
    else:
        shape = group_shape(list(key), honors)
        if shape != 1:
            facts |= _PAIRED if shape == 2 else _BROKEN
    if 1 in key.translate(_ODD_OR_OVER):
        facts |= _ODD
    if not honors:
        present = int(key.translate(_PRESENT), 2)  # bit 8 - i: tile i is held
        if present & 0b011111110:
            facts |= _SIMPLE
        facts |= _KNIT_BITS[present] << 3 * (2 - suit)
    return facts


# bytes.translate tables: counts to "is it odd or above 4", and to "0"/"1" digits
_ODD_OR_OVER = bytes(1 if n % 2 or n > 4 else 0 for n in range(256))
_PRESENT = b"0" + b"1" * 255


def _knit_bits(present: int) -> int:
    """Knitted facts of a suit held as ``present`` (bit 8 - i = tile i), unshifted."""
    held = [present >> (8 - i) & 1 for i in range(9)]
    out = 0
    for k in range(3):
        if all(held[k + 3 * j] for j in range(3)):
            out |= 1 << (_FULL + k)
        if all(not held[i] for i in range(9) if i % 3 != k):
            out |= 1 << (_COVER + k)
    return out


_KNIT_BITS = tuple(_knit_bits(p) for p in range(512))


_F0: dict[bytes, int] = {}
_F1: dict[bytes, int] = {}
_F2: dict[bytes, int] = {}
_F3: dict[bytes, int] = {}
_FACTS = (_F0, _F1, _F2, _F3)
"""Packed facts per group (characters, bamboo, dots, honors), filled on first use."""


_GROUPS = Struct("9s9s9s7s").unpack
"""34 counts (any bytes-like object) -> the four groups' counts as bytes keys, in one C call."""


def _hand_facts(parts: tuple[bytes, ...]) -> int:
    """Sum of the four groups' facts, memoising the missing ones."""
    total = 0
    for g, part in enumerate(parts):
        table = _FACTS[g]
        facts = table.get(part)
        if facts is None:
            if len(table) >= CACHE_LIMIT:
                table.clear()
            facts = table[part] = _group_facts(part, g)
        total += facts
    return total


def group_shape(c: list[int], honors: bool) -> int:
    """1 if one group's counts split into sets only, 2 if into sets and one pair, else 0.

    Any counts (no four-copy cap). Sets take 3 tiles, so the tile count mod 3 says which
    of the two can hold: 0 -> sets only, 2 -> with a pair, 1 -> neither.
    """
    rest = sum(c) % 3
    if rest == 0:
        return 1 if sets_only(c, honors) else 0
    if rest == 2:
        for i, n in enumerate(c):
            if n >= 2:
                c[i] = n - 2
                ok = sets_only(c, honors)
                c[i] = n
                if ok:
                    return 2
    return 0


def sets_only(c: Sequence[int], honors: bool) -> bool:
    """True if one group's counts split into pungs and chows only (any counts; greedy is
    exact, see ``_sets_only``)."""
    if honors:
        return all(n % 3 == 0 for n in c)
    w = [*c, 0, 0]
    for i in range(9):
        n = w[i] % 3
        if n:
            if w[i + 1] < n or w[i + 2] < n:
                return False
            w[i + 1] -= n
            w[i + 2] -= n
    return True


_KNIT_FIT = tuple(
    any(m >> (6 + a) & m >> (3 + b) & m >> c & 1 for a, b, c in permutations(range(3)))
    for m in range(512)
)
"""_KNIT_FIT[m0 << 6 | m1 << 3 | m2]: the three suits can take three different patterns."""


def is_complete_counts(c: Sequence[int]) -> bool:
    """Any MCR winning form for a concealed part given as 34 counts (3n+2 tiles).

    Works per group on memoised facts: four dictionary look-ups and a few bit tests per hand
    (this is the hot path of waits() and the bots). ``c`` may also be bytes or a bytearray.
    """
    # bytearray() takes a list much faster than bytes() does, and one unpack call slices it
    g0, g1, g2, g3 = _GROUPS(bytearray(c))
    try:  # plain subscripts on plain dicts: the fastest look-up there is
        s = _F0[g0] + _F1[g1] + _F2[g2] + _F3[g3]
    except KeyError:
        s = _hand_facts((g0, g1, g2, g3))
    if s & _SHAPE_FIELDS == _PAIRED:
        return True  # four sets + pair: one group holds the pair, the others sets only
    total = s >> _SIZE & 255
    if total != 14 and total != 11:
        return False
    distinct = s >> _DISTINCT & 63
    if total == 14:
        if distinct <= 7:
            return not s & 7 * _ODD  # seven pairs (no count above 4)
        if distinct == 14:
            return _KNIT_FIT[s >> _COVER & 511]  # honors and knitted tiles
        if distinct == 13 and not s & 7 * _SIMPLE:
            return True  # 13 different terminals and honors, one of them twice: 十三幺
    if distinct >= 9 and _KNIT_FIT[s >> _FULL & 511]:
        return not s & 7 * _OVER and is_knitted_straight_complete(c)
    return False


def is_complete(concealed: Sequence[Tile]) -> bool:
    """True if the concealed 3n+2 tiles, with n exposed packs, form a winning hand of any form.

    Special forms are only accepted when the pack count allows them (see the module docstring).
    The 8-fan minimum is not checked here (see ``fans.evaluate``). Flowers are ignored.
    """
    c = bytearray(42)
    for t in concealed:
        c[t] += 1
    return is_complete_counts(c[:NUM_KINDS])


def waits(concealed: Sequence[Tile]) -> frozenset[Tile]:
    """Every tile that completes the concealed 3n+1 tiles (听牌), by shape.

    A tile the hand already holds four times is left out (no fifth copy exists).
    """
    c = counts(concealed)
    if sum(c) % 3 != 1:
        return frozenset()
    # A regular or seven-pairs hand can only wait on a held tile or a suit neighbour; the
    # other forms are tried only when the hand is close enough to them to be ready.
    candidates: set[int] = set()
    for t in range(NUM_KINDS):
        if c[t]:
            candidates.add(t)
            if t < 27:
                r = t % 9
                candidates.update(t + d for d in (-2, -1, 1, 2) if 0 <= r + d <= 8)
    if 34 - c.count(0) >= 12 or any(sum(1 for t in ks if c[t]) >= 8 for ks in KNITTED_STRAIGHTS):
        candidates.update(range(NUM_KINDS))  # thirteen orphans, honors and knitted, 组合龙
    out = []
    for t in candidates:
        if c[t] >= 4:
            continue
        c[t] += 1
        if is_complete_counts(c):
            out.append(t)
        c[t] -= 1
    return frozenset(out)


# --------------------------------------------------------------------------- shanten


@lru_cache(maxsize=CACHE_LIMIT)
def _suit_options(c: tuple[int, ...], chows: bool) -> frozenset[tuple[int, int, int]]:
    """Pareto-best (sets, partials, pair) readings of one suit's counts.

    ``pair`` is 1 when one pair is reserved as the eye (将); other pairs count as partials.
    """
    i = 0
    while i < len(c) and c[i] == 0:
        i += 1
    if i == len(c):
        return frozenset({(0, 0, 0)})
    out: set[tuple[int, int, int]] = set()
    lst = list(c)

    def go(removed: list[tuple[int, int]], ds: int, dp: int, dpair: int) -> None:
        work = list(lst)
        for idx, n in removed:
            if idx >= len(work) or work[idx] < n:
                return
            work[idx] -= n
        for s, p, pr in _suit_options(tuple(work), chows):
            if pr + dpair <= 1:
                out.add((s + ds, p + dp, pr + dpair))

    n = c[i]
    if n >= 3:
        go([(i, 3)], 1, 0, 0)
    if n >= 2:
        go([(i, 2)], 0, 1, 0)
        go([(i, 2)], 0, 0, 1)
    if chows:
        go([(i, 1), (i + 1, 1), (i + 2, 1)], 1, 0, 0)
        go([(i, 1), (i + 1, 1)], 0, 1, 0)
        go([(i, 1), (i + 2, 1)], 0, 1, 0)
    go([(i, n)], 0, 0, 0)  # the rest of tile i is left isolated
    return _pareto(out)


def _pareto(opts: set[tuple[int, int, int]]) -> frozenset[tuple[int, int, int]]:
    """Drop readings dominated in sets, then sets+partials, for the same pair flag."""
    keep = set()
    for o in opts:
        if not any(
            q != o and q[2] == o[2] and q[0] >= o[0] and q[0] + q[1] >= o[0] + o[1] for q in opts
        ):
            keep.add(o)
    return frozenset(keep)


def regular_shanten(c: Sequence[int], packs: int) -> int:
    """Shanten of the four-sets-and-a-pair form (-1 = complete)."""
    need = 4 - packs
    groups = [
        _suit_options(tuple(c[0:9]), True),
        _suit_options(tuple(c[9:18]), True),
        _suit_options(tuple(c[18:27]), True),
        _honor_options(tuple(c[27:34])),
    ]
    best = 99
    combos: set[tuple[int, int, int]] = {(0, 0, 0)}
    for g in groups:
        combos = {
            (s + gs, p + gp, pr + gpr) for s, p, pr in combos for gs, gp, gpr in g if pr + gpr <= 1
        }
    for s, p, pr in combos:
        s = min(s, need)
        p = min(p, need - s)
        best = min(best, 2 * need - 2 * s - p - pr)
    return best


@lru_cache(maxsize=CACHE_LIMIT)
def _honor_options(c: tuple[int, ...]) -> frozenset[tuple[int, int, int]]:
    res: set[tuple[int, int, int]] = {(0, 0, 0)}
    for n in c:
        step = {(1, 0, 0)} if n >= 3 else ({(0, 1, 0), (0, 0, 1)} if n == 2 else {(0, 0, 0)})
        if n >= 3:
            step |= {(0, 1, 0), (0, 0, 1)}
        res = {
            (a + x, b + y, p + q) for a, b, p in res for x, y, q in step | {(0, 0, 0)} if p + q <= 1
        }
    return _pareto(res)


def seven_pairs_shanten(c: Sequence[int]) -> int:
    """Shanten of seven pairs (a four-of-a-kind gives two pairs)."""
    return 6 - min(7, sum(n // 2 for n in c))


def thirteen_orphans_shanten(c: Sequence[int]) -> int:
    """Shanten of thirteen orphans."""
    kinds = sum(1 for t in TERMINALS_AND_HONORS if c[t])
    pair = any(c[t] >= 2 for t in TERMINALS_AND_HONORS)
    return 13 - kinds - (1 if pair else 0)


def honors_and_knitted_shanten(c: Sequence[int]) -> int:
    """Shanten of lesser/greater honors and knitted tiles (14 distinct useful tiles)."""
    honors = sum(1 for t in range(27, NUM_KINDS) if c[t])
    best = max(sum(1 for t in ks if c[t]) for ks in KNITTED_STRAIGHTS)
    return 13 - min(14, honors + best)


def knitted_straight_shanten(c: Sequence[int], packs: int, bound: int = 99) -> int:
    """Shanten of knitted straight + set + pair (needs at most one pack).

    Straights missing too many tiles to beat ``bound`` are skipped (the answer is then only
    known to be >= ``bound``); the default bound computes the exact value.
    """
    if packs > 1:
        return 99
    best = bound
    for ks in KNITTED_STRAIGHTS:
        missing = sum(1 for t in ks if not c[t])
        if missing - 1 >= best:
            continue  # the rest of the hand can take off at most one more step
        work = list(c)
        for t in ks:
            if work[t]:
                work[t] -= 1
        best = min(best, missing + regular_shanten(work, packs + 3))
    return best


def shanten(concealed: Sequence[Tile], packs: int) -> int:
    """Minimum shanten over the forms available with ``packs`` exposed packs (-1 = complete).

    ``concealed`` has 13 - 3*packs (or one more) tiles. Per-suit readings are memoised, so
    repeated calls from bots are cheap.
    """
    c = counts(concealed)
    best = regular_shanten(c, packs)
    if packs <= 1:
        best = min(best, knitted_straight_shanten(c, packs, best))
    if packs == 0:
        best = min(
            best,
            seven_pairs_shanten(c),
            thirteen_orphans_shanten(c),
            honors_and_knitted_shanten(c),
        )
    return best
