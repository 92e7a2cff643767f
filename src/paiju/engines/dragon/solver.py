"""The exact solver: the best arrangement of any 8-tile hand, and every valid arrangement.

A chain (龙) of tiles laid end to end with equal touching halves is a trail in the multigraph
whose vertices are the pips 1..6 and whose edges are the tiles (a double is a loop). Using a
given multiset of tiles as one chain is possible exactly when that multigraph has an Euler
trail: its edges are connected and it has 0 or 2 vertices of odd degree. So instead of
searching orderings, the solver

1. lists the distinct leftovers (1 tile or 2 tiles, at most 8 + 28) of the hand,
2. sorts them by their score key (a table lookup per option set),
3. returns the first whose complement passes the Euler test (parity and connectivity are
   bitmask operations on a 21-bit kind set; the connectivity of the 15 non-double edges is
   cached per edge mask, at most 2**15 entries),
4. and lays that chain out with a depth-first walk from an odd pip.

Step 3 is exact: the hand's score depends only on the leftover, and every leftover whose
complement passes the test can be left by a real chain (and no other can). The tests check
it against a brute force over every subset, order and orientation. ``solve_cached`` adds a
memo on the sorted hand for the engine and bots, where the same hand is asked for again.

``arrangements`` enumerates every valid arrangement (for ``legal_actions``): for each
leftover that passes the test, every trail from the lower odd pip (or from every pip of a
closed chain), canonicalised so a chain and its reverse count once. The trails of a multiset
are kept for the hand's other leftovers, which share most of their tiles. The views' legal
lists are walked by ``listing``, which names the leftovers ``listed_best`` picks from.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from paiju.engines.dragon.rules import DEFAULT_SCORING, ScoringOptions
from paiju.engines.dragon.scoring import BUST, Key, leftover_key, leftover_tables
from paiju.engines.dragon.tiles import KIND_COUNT, TILES, Kind

#: A tile as laid in a chain: (left pips, right pips).
Laid = tuple[int, int]

_LOW = tuple(t.low - 1 for t in TILES)
_HIGH = tuple(t.high - 1 for t in TILES)
_PARITY = tuple(0 if t.double else (1 << (t.low - 1)) | (1 << (t.high - 1)) for t in TILES)
_LOOP = tuple((1 << (t.low - 1)) if t.double else 0 for t in TILES)
# Each non-double kind is one of the 15 edges between distinct pips: its bit in an edge mask.
_EDGE_KINDS = tuple(k for k in range(KIND_COUNT) if not TILES[k].double)
_EDGE_BIT = tuple(0 if TILES[k].double else 1 << _EDGE_KINDS.index(k) for k in range(KIND_COUNT))
# A kind's bit in a kind-set mask: its edge bit (0-14), or 15 + pip for a double, so that
# ``mask & _EDGES`` is the edge mask and ``mask >> 15`` the pips that carry a double.
_BIT = tuple(_EDGE_BIT[k] | _LOOP[k] << 15 for k in range(KIND_COUNT))
_EDGES = (1 << 15) - 1
_PARITY_OK = tuple(bin(m).count("1") in (0, 2) for m in range(64))


@dataclass(frozen=True)
class Solution:
    """An optimal arrangement: its score key, the chain as laid, and the leftover kinds.

    A bust hand has ``key == (0,)``, an empty chain and all 8 tiles as its leftover.
    """

    key: Key
    chain: tuple[Laid, ...]
    leftover: tuple[Kind, ...]


@functools.cache
def _component(edge_mask: int) -> int:
    """The vertex mask of the edges in ``edge_mask`` if they are connected, else -1."""
    edges = [k for i, k in enumerate(_EDGE_KINDS) if edge_mask >> i & 1]
    if not edges:
        return 0
    reach = (1 << _LOW[edges[0]]) | (1 << _HIGH[edges[0]])
    grown = True
    while grown:
        grown = False
        for k in edges:
            ends = (1 << _LOW[k]) | (1 << _HIGH[k])
            if ends & reach and ends & ~reach:
                reach |= ends
                grown = True
    touched = 0
    for k in edges:
        touched |= (1 << _LOW[k]) | (1 << _HIGH[k])
    return reach if reach == touched else -1


def _connected(mask: int) -> bool:
    """Whether the tiles of kind-set ``mask`` touch one another as one connected figure."""
    comp = _component(mask & _EDGES)
    loops = mask >> 15
    if comp == 0:
        return loops & (loops - 1) == 0  # only doubles: all on one pip
    return comp > 0 and loops & ~comp == 0


def chainable(kinds: Sequence[Kind]) -> bool:
    """Whether all of ``kinds`` (a non-empty multiset) can be laid as one chain."""
    parity = mask = 0
    for k in kinds:
        parity ^= _PARITY[k]
        mask |= _BIT[k]
    return bool(kinds) and _PARITY_OK[parity] and _connected(mask)


@functools.cache
def _order_tables(
    opts: ScoringOptions,
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Sort codes of every leftover: ``key code << 10 | a << 5 | b`` (``b = 31``: one tile).

    Sorting these ints puts the best leftover first and decodes back to its tiles.
    """
    single, pair = leftover_tables(opts)
    singles = tuple(single[a] << 10 | a << 5 | 31 for a in range(KIND_COUNT))
    pairs = tuple(
        tuple(pair[a][b] << 10 | a << 5 | b for b in range(KIND_COUNT)) for a in range(KIND_COUNT)
    )
    return singles, pairs


def best_leftover(
    hand: Sequence[Kind], opts: ScoringOptions = DEFAULT_SCORING
) -> tuple[Kind, ...] | None:
    """The leftover of an optimal arrangement of an 8-tile hand; ``None`` if the hand is bust.

    Leftovers are tried best first; the first whose complement passes the Euler test wins.
    """
    counts = [0] * KIND_COUNT
    parity = mask = 0
    for k in hand:
        counts[k] += 1
        parity ^= _PARITY[k]
        mask |= _BIT[k]
    kinds = sorted(set(hand))
    # gone[k]: the bit that vanishes from the kind set when one tile of kind k is left out
    gone = [0] * KIND_COUNT
    singles, pairs = _order_tables(opts)
    order = [singles[a] for a in kinds]
    for i, a in enumerate(kinds):
        row = pairs[a]
        if counts[a] > 1:
            order.append(row[a])
        else:
            gone[a] = _BIT[a]
        order += [row[b] for b in kinds[i + 1 :]]
    order.sort(reverse=True)
    for code in order:
        a, b = code >> 5 & 31, code & 31
        if b == 31:
            p, rest = parity ^ _PARITY[a], mask & ~gone[a]
        elif a == b:
            p, rest = parity, mask & ~_BIT[a]
        else:
            p, rest = parity ^ _PARITY[a] ^ _PARITY[b], mask & ~(gone[a] | gone[b])
        if _PARITY_OK[p] and _connected(rest):
            return (a,) if b == 31 else (a, b)
    return None


def _walk(v: int, counts: list[int], left: int, laid: list[Laid]) -> bool:
    """Extend ``laid`` from pip ``v`` until it uses every counted tile; False if stuck."""
    if not left:
        return True
    for k, w in _INCIDENT[v]:
        if counts[k]:
            counts[k] -= 1
            laid.append(PAIRS[v + 1][w + 1])
            if _walk(w, counts, left - 1, laid):
                return True
            laid.pop()
            counts[k] += 1
    return False


def lay_chain(kinds: Sequence[Kind]) -> tuple[Laid, ...]:
    """One chain using every tile of ``kinds``; ``ValueError`` if there is none.

    The tiles pass the Euler test, so a depth-first walk from an odd pip (any pip when all
    are even) finds a chain after little backtracking.
    """
    if not chainable(kinds):
        raise ValueError("these tiles cannot form one chain")
    return _lay(kinds)


def _lay(kinds: Sequence[Kind]) -> tuple[Laid, ...]:
    """``lay_chain`` for tiles already known to pass the Euler test."""
    counts = [0] * KIND_COUNT
    parity = 0
    for k in kinds:
        counts[k] += 1
        parity ^= _PARITY[k]
    start = (parity & -parity).bit_length() - 1 if parity else _LOW[kinds[0]]
    laid: list[Laid] = []
    _walk(start, counts, len(kinds), laid)
    return tuple(laid)


def listed_best(
    leftovers: Iterable[tuple[Kind, ...]], opts: ScoringOptions = DEFAULT_SCORING
) -> tuple[Kind, ...] | None:
    """``best_leftover`` of a hand from every leftover whose other tiles lay a chain (those
    its legal list names): the one ``best_leftover`` would try first, by the same sort
    codes."""
    singles, pairs = _order_tables(opts)
    best: tuple[Kind, ...] | None = None
    top = -1
    for leftover in leftovers:
        code = singles[leftover[0]] if len(leftover) == 1 else pairs[leftover[0]][leftover[1]]
        if code > top:
            best, top = leftover, code
    return best


def solve(
    hand: Sequence[Kind],
    opts: ScoringOptions = DEFAULT_SCORING,
    leftovers: Iterable[tuple[Kind, ...]] | None = None,
) -> Solution:
    """An optimal arrangement of an 8-tile hand under ``opts`` (exact). ``leftovers``, every
    leftover of the hand whose other tiles lay a chain when the caller has them (see
    ``listed_best``), spares testing every leftover again."""
    leftover = best_leftover(hand, opts) if leftovers is None else listed_best(leftovers, opts)
    if leftover is None:
        return Solution(BUST, (), tuple(sorted(hand)))
    rest = list(hand)
    for k in leftover:
        rest.remove(k)
    return Solution(_leftover_key(leftover, opts), _lay(rest), leftover)


_leftover_key = functools.cache(leftover_key)


@functools.lru_cache(maxsize=8192)
def solve_cached(hand: tuple[Kind, ...], opts: ScoringOptions = DEFAULT_SCORING) -> Solution:
    """``solve`` memoised on the sorted hand (hands repeat in self-play and views)."""
    return solve(hand, opts)


def best_key(hand: Sequence[Kind], opts: ScoringOptions = DEFAULT_SCORING) -> Key:
    """The score key of an optimal arrangement."""
    leftover = best_leftover(hand, opts)
    return BUST if leftover is None else leftover_key(leftover, opts)


# --- every arrangement -------------------------------------------------------------------

_INCIDENT: tuple[tuple[tuple[Kind, int], ...], ...] = tuple(
    tuple(
        (k, _HIGH[k] if _LOW[k] == v else _LOW[k])
        for k in range(KIND_COUNT)
        if v in (_LOW[k], _HIGH[k])
    )
    for v in range(6)
)


#: A multiset of kinds as one int: two bits of count per kind (a kind has at most 2 copies).
_UNIT = tuple(1 << 2 * k for k in range(KIND_COUNT))

Chains = tuple[tuple[Laid, ...], ...]

#: Every laid tile's halves as one shared tuple (``PAIRS[left][right]``), and as a chain of
#: one tile: a dealt hand's dozens of chains hold the same few pairs, and a pair of its own
#: per laid tile was most of what a seat's list of arrangements kept alive.
PAIRS: tuple[tuple[Laid, ...], ...] = tuple(
    tuple((left, right) for right in range(7)) for left in range(7)
)
_STEPS: tuple[tuple[tuple[Laid], ...], ...] = tuple(
    tuple((pair,) for pair in row) for row in PAIRS
)


def _trails(v: int, tiles: int, memo: dict[tuple[int, int], Chains]) -> Chains:
    """Every trail from pip ``v`` that uses exactly the tiles of multiset ``tiles``.

    ``memo`` is shared by the leftovers of one hand: their complements differ by a tile or
    two, so the trails of what is left after the first few tiles are worked out once."""
    if not tiles:
        return ((),)
    found = memo.get((v, tiles))
    if found is not None:
        return found
    trails: list[tuple[Laid, ...]] = []
    for k, w in _INCIDENT[v]:
        if tiles >> 2 * k & 3:
            step = _STEPS[v + 1][w + 1]
            trails += [step + rest for rest in _trails(w, tiles - _UNIT[k], memo)]
    found = memo[(v, tiles)] = tuple(trails)
    return found


def canonical_chain(chain: Sequence[Laid]) -> tuple[Laid, ...]:
    """The chain read from the end whose reading is smaller (a chain and its reverse are one)."""
    forward = tuple(chain)
    if not forward:
        return forward
    left, right = forward[-1]
    if forward[0] < (right, left):  # the readings differ at their first tile: no need to
        return forward  # turn the whole chain round (most of a new hand's dozens of chains)
    backward = tuple(PAIRS[r][lf] for lf, r in reversed(forward))
    return min(forward, backward)


def _trail_starts(kinds: Sequence[Kind]) -> list[int]:
    """The pips to read every chain of ``kinds`` from: the lower odd-degree pip if any (an
    Euler trail runs between the two odd pips, so reading from one of them meets every chain
    once), else every pip it touches (a closed chain may be read from any of them)."""
    parity = 0
    for k in kinds:
        parity ^= _PARITY[k]
    if parity:
        return [(parity & -parity).bit_length() - 1]
    return sorted({p for k in kinds for p in (_LOW[k], _HIGH[k])})


def _leftovers(hand: Sequence[Kind]) -> set[tuple[Kind, ...]]:
    ordered = sorted(hand)
    out: set[tuple[Kind, ...]] = {(k,) for k in ordered}
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            out.add((a, b))
    return out


@functools.lru_cache(maxsize=4096)
def arrangements(hand: tuple[Kind, ...]) -> frozenset[tuple[tuple[Laid, ...], tuple[Kind, ...]]]:
    """Every valid arrangement ``(canonical chain, sorted leftover)`` of a sorted 8-tile hand.

    Empty exactly when the hand is bust. Copies of a civil tile are the same tile, so two
    chains that differ only by which copy is where are one arrangement.
    """
    found: set[tuple[tuple[Laid, ...], tuple[Kind, ...]]] = set()
    memo: dict[tuple[int, int], Chains] = {}
    for leftover in _leftovers(hand):
        rest = list(hand)
        for k in leftover:
            rest.remove(k)
        if not chainable(rest):
            continue
        tiles = sum(_UNIT[k] for k in rest)
        for v in _trail_starts(rest):
            trails = _trails(v, tiles, memo)
            found.update((canonical_chain(trail), leftover) for trail in trails)
    return frozenset(found)
