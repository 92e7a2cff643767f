"""Fast waits (听牌) for the engine's per-discard bookkeeping.

Same answer as ``hand.waits`` but it tries fewer tiles: a tile can complete the regular
four-sets-and-a-pair shape only next to (within two ranks of) a held tile of its suit, or as a
copy of a held honor. The special forms are tried on every tile only when the hand is close to
one of them (thirteen orphans or honors-and-knitted one tile away, or eight of the nine tiles of
a knitted straight present).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from paiju.engines.mcr.hand import (
    KNITTED_STRAIGHTS,
    honors_and_knitted_shanten,
    is_complete_counts,
    thirteen_orphans_shanten,
)
from paiju.engines.mcr.tiles import NUM_KINDS, TERMINALS_AND_HONORS, Tile, counts

_ORPHANS = frozenset(TERMINALS_AND_HONORS)
_KNITTED_MASKS = tuple(sum(1 << t for t in ks) for ks in KNITTED_STRAIGHTS)


def _neighbours(c: Sequence[int]) -> set[Tile]:
    out: set[Tile] = set()
    for t in range(27):
        if c[t]:
            base = t - t % 9
            out.update(range(max(base, t - 2), min(base + 9, t + 3)))
    out.update(t for t in range(27, NUM_KINDS) if c[t])
    return out


def _suited_mask(hand: Sequence[Tile]) -> int:
    """A bit per suited tile kind present in ``hand``."""
    present = 0
    for t in hand:
        if t < 27:
            present |= 1 << t
    return present


def _near_knitted_straight(present: int) -> bool:
    """Whether 8 or more of some knitted straight's 9 tiles are present (a necessary
    condition for a knitted-straight form one tile away)."""
    if present.bit_count() < 8:
        return False
    for mask in _KNITTED_MASKS:  # noqa: SIM110 (a loop: ``any`` over a generator costs more)
        if (mask & present).bit_count() >= 8:
            return True
    return False


def _near_special(hand: Sequence[Tile], c: Sequence[int], packs: int) -> bool:
    """Whether a special form could be one tile away (so every tile must be tried)."""
    if packs > 1:
        return False
    present = _suited_mask(hand)
    if _near_knitted_straight(present):
        return True
    if packs == 1:
        return False
    # Cheap necessary conditions first: thirteen orphans needs 12+ terminal/honor tiles,
    # honors-and-knitted needs 13 distinct tiles.
    if sum(1 for t in hand if t in _ORPHANS) >= 12 and thirteen_orphans_shanten(c) <= 0:
        return True
    # Honors and knitted tiles: 13 distinct tiles, the suited ones inside one knitted straight.
    return (
        len(set(hand)) == len(hand)
        and any(present & ~mask == 0 for mask in _KNITTED_MASKS)
        and honors_and_knitted_shanten(c) <= 0
    )


SETS, SETS_AND_PAIR, BROKEN = 0, 1, 2


#: Entries kept by the memos of one suit's counts (``suit_class``, ``_suit_growth``). Their
#: keys are a suit's nine counts: some 405,000 can occur, most of them rarely, so a server
#: that runs for weeks would in the end keep nearly all of them (~70 MB) if nothing were
#: let go. Play comes back to a few thousand again and again: 120,000 actions of level-1
#: bots met 28,700 distinct suits, and the most recent 16,384 answered 98% of the asks of
#: the next 20,000 actions.
SUIT_MEMO = 16384


@lru_cache(maxsize=SUIT_MEMO)
def suit_class(c: tuple[int, ...]) -> int:
    """How one suit's 9 counts split: only sets, sets and one pair (将), or neither."""
    total = sum(c)
    if total % 3 == 0:
        return SETS if _sets(list(c)) else BROKEN
    if total % 3 == 2:
        for p in range(9):
            if c[p] >= 2:
                work = list(c)
                work[p] -= 2
                if _sets(work):
                    return SETS_AND_PAIR
    return BROKEN


def _sets(c: list[int]) -> bool:
    """Greedy pung-first split into sets (exact: see ``hand._sets_only``); destroys ``c``."""
    for i in range(9):
        n = c[i] % 3
        if n:
            if i > 6 or c[i + 1] < n or c[i + 2] < n:
                return False
            c[i + 1] -= n
            c[i + 2] -= n
    return True


def _honor_class(n: int) -> int:
    return SETS if n in (0, 3) else SETS_AND_PAIR if n == 2 else BROKEN


#: ``_honor_class`` of each count 0..4 of an honor kind.
_HONOR_CLASSES = tuple(_honor_class(n) for n in range(5))


def regular_waits(c: list[int]) -> list[Tile]:
    """Tiles completing the four-sets-and-a-pair shape of 3n+1 counts ``c``."""
    suits = (tuple(c[0:9]), tuple(c[9:18]), tuple(c[18:27]))
    classes = [suit_class(suits[0]), suit_class(suits[1]), suit_class(suits[2])]
    classes += [_HONOR_CLASSES[n] for n in c[27:34]]
    if classes.count(BROKEN) > 1:
        return []  # (most hands: no one tile mends two groups)
    broken = [i for i, k in enumerate(classes) if k == BROKEN]
    pairs = classes.count(SETS_AND_PAIR)
    out = []
    for group in broken or range(len(classes)):
        before = classes[group]
        rest_pairs = pairs - (before == SETS_AND_PAIR)
        if rest_pairs > 1:
            continue
        if group < 3:
            for rank, after in _suit_growth(suits[group]):
                if rest_pairs + (after == SETS_AND_PAIR) == 1:
                    out.append(9 * group + rank)
        else:
            t = 24 + group
            after = _honor_class(c[t] + 1) if c[t] < 4 else BROKEN
            if after != BROKEN and rest_pairs + (after == SETS_AND_PAIR) == 1:
                out.append(t)
    return out


@lru_cache(maxsize=SUIT_MEMO // 4)  # (asked about 1 suit in 17 as often as ``suit_class``)
def _suit_growth(c: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(rank, class after adding it) for every rank whose addition leaves the suit unbroken."""
    out = []
    for rank in range(9):
        if c[rank] < 4:
            grown = list(c)
            grown[rank] += 1
            after = suit_class(tuple(grown))
            if after != BROKEN:
                out.append((rank, after))
    return tuple(out)


def specials_possible(hand: Sequence[Tile]) -> bool:
    """Whether ``hand`` (13 or 14 tiles' worth, with its packs) or any hand one tile smaller
    might be near a special form or seven pairs. Only necessary conditions, all monotone."""
    packs = (14 - len(hand)) // 3
    if packs > 1:
        return False
    present = _suited_mask(hand)
    if _near_knitted_straight(present):
        return True
    if packs == 1:
        return False
    distinct = len(set(hand))
    if distinct <= 8 or sum(1 for t in hand if t in _ORPHANS) >= 12:
        return True  # seven pairs, thirteen orphans
    # Honors and knitted tiles: 13+ distinct tiles, the suited ones (but one, for a hand one
    # tile bigger) inside a single knitted straight.
    if distinct < 13:
        return False
    for mask in _KNITTED_MASKS:  # noqa: SIM110 (as in ``_near_knitted_straight``)
        if (present & ~mask).bit_count() <= 1:
            return True
    return False


def regular_broken(c: Sequence[int]) -> int:
    """Groups (suits, honor kinds) not yet split into sets or sets and a pair (capped at 2)."""
    broken = 0
    for t in range(27, NUM_KINDS):
        if c[t] == 1 or c[t] == 4:
            broken += 1
            if broken > 1:
                return broken
    for s in range(0, 27, 9):
        if suit_class(tuple(c[s : s + 9])) == BROKEN:
            broken += 1
            if broken > 1:
                return broken
    return broken


def could_be_ready(hand: Sequence[Tile]) -> bool:
    """A cheap necessary condition for ``ready_waits(hand)`` to be non-empty (3n+1 tiles).

    One more tile changes one suit (or one honor), so the regular shape needs every other
    group already split into sets, or sets and a pair. Special forms are left to the full
    test whenever they might be near.
    """
    return regular_broken(counts(hand)) <= 1 or specials_possible(hand)


def ready_waits(hand: Sequence[Tile]) -> frozenset[Tile]:
    """Every tile that completes the 3n+1 ``hand`` (any form); a fifth copy is never a wait."""
    return _ready_waits(tuple(sorted(hand)))


def sorted_hand_waits(hand: tuple[Tile, ...]) -> frozenset[Tile]:
    """``ready_waits`` of a hand already held as a sorted tuple (as a state holds its hands):
    the memo keeps that tuple as its key rather than a sorted copy of it, which would live
    beside the state's own for as long as the entry does."""
    return _ready_waits(hand)


#: The waits of a hand that is not ready (most hands): one set for all, not one per hand
#: (each state and memo entry would keep an empty set of its own, 216 bytes).
NO_WAITS: frozenset[Tile] = frozenset()


@lru_cache(maxsize=8192)
def _ready_waits(hand: tuple[Tile, ...]) -> frozenset[Tile]:
    # Memoised: a bot weighing its discards and the engine applying the chosen one ask about
    # the same hands.
    c = counts(hand)
    packs = (13 - len(hand)) // 3
    out = set(regular_waits(c))
    if packs > 1 or not specials_possible(hand):
        return frozenset(out) if out else NO_WAITS
    if _near_special(hand, c, packs):
        candidates: Sequence[Tile] = range(NUM_KINDS)
    elif packs == 0 and len(set(hand)) <= 7:
        candidates = [t for t in range(NUM_KINDS) if c[t] % 2]  # seven pairs (七对)
    else:
        return frozenset(out) if out else NO_WAITS
    for t in candidates:
        if t in out or c[t] >= 4:
            continue
        c[t] += 1
        if is_complete_counts(c):
            out.add(t)
        c[t] -= 1
    return frozenset(out) if out else NO_WAITS
