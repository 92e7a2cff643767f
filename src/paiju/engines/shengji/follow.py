"""Following (跟牌): suit first, then the lead's shape "as fully as the hand allows" (饱满).

A *requirement* is a tuple of tractor lengths, a number of pairs and a number of singles.
The lead's requirement list runs from its own shape (strictest) to all singles (loosest);
each component is loosened in turn as rbtying's ``subsequent_decomposition_ordering`` does:
the component with the most looser forms left is loosened first. A follower holding more
cards of the led suit than the lead has must play a set that meets the first requirement
its in-suit cards *could* meet. A tractor of ``k`` pairs loosens through every split of its
pairs into shorter tractors and pairs (most paired cards first, longer pieces first), e.g.
3-tractor -> 2-tractor + pair -> 3 pairs -> 2-tractor + 2 singles -> 2 pairs + 2 singles ->
pair + 4 singles -> 6 singles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb
from operator import gt

from paiju.core.errors import IllegalAction
from paiju.engines.shengji.cards import card_points, remove_cards
from paiju.engines.shengji.order import TrumpContext
from paiju.engines.shengji.shapes import Shape, Unit, can_carve, pair_tokens, token_counts


@dataclass(frozen=True)
class Requirement:
    """Tractors (by pair count, longest first), loose pairs and singles that a play must hold."""

    tractors: tuple[int, ...]
    pairs: int
    singles: int

    def rule(self) -> str:
        """The error code naming what a play failed to meet."""
        if self.tractors:
            return "must_follow_tractor"
        return "must_follow_pair" if self.pairs else "must_follow_suit"


def _partitions(total: int, largest: int) -> Iterator[tuple[int, ...]]:
    """Partitions of ``total`` into parts <= ``largest``, lexicographically descending."""
    if total == 0:
        yield ()
        return
    for part in range(min(total, largest), 0, -1):
        for rest in _partitions(total - part, part):
            yield (part, *rest)


@lru_cache(maxsize=64)
def unit_decompositions(shape: Shape, min_length: int) -> tuple[Requirement, ...]:
    """The looser forms of one component, strictest first (the component itself first)."""
    width, length = shape
    if width == 1:
        return (Requirement((), 0, 1),)
    forms: list[Requirement] = []
    for kept in range(length, -1, -1):
        for parts in _partitions(kept, length):
            if any(1 < p < min_length for p in parts):
                continue
            tractors = tuple(p for p in parts if p > 1)
            forms.append(Requirement(tractors, parts.count(1), 2 * (length - kept)))
    return tuple(forms)


def _merge(forms: Sequence[Requirement]) -> Requirement:
    tractors = tuple(sorted((t for f in forms for t in f.tractors), reverse=True))
    return Requirement(tractors, sum(f.pairs for f in forms), sum(f.singles for f in forms))


@lru_cache(maxsize=256)
def requirements(shapes: tuple[Shape, ...], min_length: int) -> tuple[Requirement, ...]:
    """The requirement list of a lead with component ``shapes``, strictest first."""
    lists = [unit_decompositions(s, min_length) for s in shapes]
    index = [0] * len(lists)
    out = [_merge([lists[i][0] for i in range(len(lists))])]
    while True:
        remaining = [len(lists[i]) - 1 - index[i] for i in range(len(lists))]
        best = max(range(len(lists)), key=lambda i: remaining[i], default=-1)
        if best < 0 or remaining[best] == 0:
            break
        index[best] += 1
        out.append(_merge([lists[i][index[i]] for i in range(len(lists))]))
    return tuple(out)


def meets(cards: Sequence[str], req: Requirement, ctx: TrumpContext) -> bool:
    """Whether ``cards`` (enough of them) can be carved to hold ``req``'s tractors and pairs."""
    if not req.tractors:  # loose pairs need only as many pair tokens (``can_carve``)
        return req.pairs == 0 or pair_count(cards) >= req.pairs
    return can_carve(token_counts(cards, ctx), req.tractors, req.pairs)


def pair_count(cards: Sequence[str]) -> int:
    """The number of pair tokens in ``cards``: distinct cards held at least twice (one token
    per card name, as ``token_counts`` counts them), without placing them by value."""
    return len({c for c in cards if cards.count(c) >= 2})


def follow_error(
    lead_units: Sequence[Unit],
    suit: str,
    hand: Sequence[str],
    play: Sequence[str],
    ctx: TrumpContext,
    *,
    min_length: int = 2,
    format_draw: bool = True,
) -> IllegalAction | None:
    """Why ``play`` (from ``hand``, the whole hand before it) may not follow; ``None`` if it may.

    Codes: ``wrong_card_count``, ``card_not_in_hand``, ``must_follow_suit``,
    ``must_follow_tractor``, ``must_follow_pair``.
    """
    position = FollowPosition(lead_units, suit, hand, ctx, min_length, format_draw)
    return position.error(play)


class FollowPosition:
    """One follower's position (the lead, its hand): ``error`` judges plays from it.

    What depends on the hand alone (its cards of the led suit, which requirement they could
    meet) is worked out once, so judging every enumerated follow of a position costs a
    fraction of as many ``follow_error`` calls; the rule is the one ``follow_error`` applies.
    """

    def __init__(
        self,
        lead_units: Sequence[Unit],
        suit: str,
        hand: Sequence[str],
        ctx: TrumpContext,
        min_length: int = 2,
        format_draw: bool = True,
    ) -> None:
        self.suit, self.ctx = suit, ctx
        self.size = sum(u.size for u in lead_units)
        self.held = Counter(hand)
        self.in_suit = [c for c in hand if ctx.suit_of(c) == suit]
        self._suited = frozenset(self.in_suit)  # the held cards' names of the led suit
        self.must_play = min(len(self.in_suit), self.size)
        formed = len(self.in_suit) > self.size and format_draw
        self.reqs = requirements(tuple(u.shape for u in lead_units), min_length) if formed else ()
        self._hand_meets: dict[Requirement, bool] = {}

    def error(self, play: Sequence[str]) -> IllegalAction | None:
        """Why ``play`` may not follow from this position; ``None`` if it may."""
        size, ctx = self.size, self.ctx
        if len(play) != size:
            return IllegalAction(f"play {size} cards", code="wrong_card_count")
        # A play is a few cards: counting each (with the C-level ``map``) is cheaper than a
        # Counter of them; a card not held is held 0 times.
        if any(map(gt, map(play.count, play), map(self.held.__getitem__, play))):
            return IllegalAction("those cards are not in the hand", code="card_not_in_hand")
        # Every card is held now, so a card is of the led suit exactly when it is one of the
        # hand's cards of that suit.
        if sum(map(self._suited.__contains__, play)) != self.must_play:
            return IllegalAction("follow the led suit first", code="must_follow_suit")
        for req in self.reqs:
            if meets(play, req, ctx):
                return None
            if self.hand_meets(req):
                must = f"the hand can and must play {_describe(req)}"
                return IllegalAction(must, code=req.rule())
        return None

    def hand_meets(self, req: Requirement) -> bool:
        """Whether the hand's cards of the led suit could meet ``req`` (asked once each)."""
        found = self._hand_meets.get(req)
        if found is None:
            found = self._hand_meets[req] = meets(self.in_suit, req, self.ctx)
        return found


def _describe(req: Requirement) -> str:
    parts = [f"a {t}-pair tractor" for t in req.tractors]
    if req.pairs:
        parts.append(f"{req.pairs} pair(s)")
    return " and ".join(parts) or "cards of the suit"


def multiset_combos(pool: Sequence[str], size: int) -> Iterator[tuple[str, ...]]:
    """Distinct sub-multisets of ``pool`` of ``size`` cards, in pool order."""
    counts = Counter(pool)
    kinds = list(dict.fromkeys(pool))
    yield from _combos(kinds, counts, 0, size, ())


def _combos(
    kinds: list[str], counts: Counter[str], start: int, size: int, acc: tuple[str, ...]
) -> Iterator[tuple[str, ...]]:
    if size == 0:
        yield acc
        return
    for i in range(start, len(kinds)):
        card = kinds[i]
        for take in range(min(counts[card], size), 0, -1):
            yield from _combos(kinds, counts, i + 1, size - take, acc + (card,) * take)


def legal_follows(
    lead_units: Sequence[Unit],
    suit: str,
    hand: Sequence[str],
    ctx: TrumpContext,
    *,
    min_length: int = 2,
    format_draw: bool = True,
    limit: int = 1500,
    order: Callable[[str], int] | None = None,
) -> set[tuple[str, ...]]:
    """Legal follows as tuples sorted by ``order`` (a card's sort key; by name when
    ``None``); exact unless there are more than ``limit``.

    When a bound cuts the list, the cheapest plays (non-trump, pointless, low) are kept
    first, then plays shedding points, and for a void hand the all-trump plays of the
    lead's own shape (the ones that can win), so a bot still sees every kind.
    """
    size = sum(u.size for u in lead_units)
    in_suit = [c for c in hand if ctx.suit_of(c) == suit]
    if len(in_suit) <= size:
        rest = [c for c in hand if ctx.suit_of(c) != suit]
        every = _every(rest, size - len(in_suit), limit, order)
        if every is not None:  # the whole list: no cut, no trump plays added
            if not in_suit:
                return every
            return {tuple(sorted((*in_suit, *f), key=order)) for f in every}
        fill = _bounded(rest, size - len(in_suit), ctx, limit)
        out = {tuple(sorted(in_suit + list(f), key=order)) for f in fill}
        trumps = [c for c in hand if ctx.is_trump(c)]
        if len(fill) >= limit and not in_suit and len(trumps) >= size:
            shape = requirements(tuple(u.shape for u in lead_units), min_length)[0]
            out |= _constructive(trumps, shape, ctx, limit // 4, order)
        return out
    reqs = requirements(tuple(u.shape for u in lead_units), min_length) if format_draw else ()
    target = next((r for r in reqs if meets(in_suit, r, ctx)), None)
    if target is None or (not target.tractors and not target.pairs):
        every = _every(in_suit, size, limit, order)
        if every is not None:
            return every
        return {tuple(sorted(f, key=order)) for f in _bounded(in_suit, size, ctx, limit)}
    return _constructive(in_suit, target, ctx, limit, order)


def _cheap(card: str, ctx: TrumpContext) -> tuple[bool, bool, int, str]:
    return ctx.is_trump(card), card_points(card) > 0, ctx.value(card), card


def _every(
    pool: list[str], size: int, limit: int, order: Callable[[str], int] | None
) -> set[tuple[str, ...]] | None:
    """Every distinct ``size``-card play from ``pool``, each sorted by ``order``, if there are
    fewer than ``limit`` (``None`` else). ``_bounded`` would list them all then, and the
    order it lists them in, cheapest first, matters only for a cut; counted first (with two
    decks a card is held at most twice), they are listed by ``combinations`` of the sorted
    pool, whose repeats the set drops."""
    counts = Counter(pool).values()
    if any(n > 2 for n in counts):
        return None
    kinds, twice = len(counts), sum(n == 2 for n in counts)
    # j of the cards held twice are taken twice, the rest of the play once each.
    number = sum(
        comb(twice, j) * comb(kinds - j, size - 2 * j) for j in range(min(twice, size // 2) + 1)
    )
    if number >= limit:
        return None
    return set(combinations(sorted(pool, key=order), size))


def _bounded(pool: list[str], size: int, ctx: TrumpContext, limit: int) -> list[tuple[str, ...]]:
    cheap = sorted(pool, key=lambda c: _cheap(c, ctx))
    out = _first_combos(cheap, size, limit)
    if len(out) < limit:
        return out
    dump = sorted(pool, key=lambda c: (ctx.is_trump(c), -card_points(c), ctx.value(c), c))
    return out + _first_combos(dump, size, limit // 4 + 1)


def _first_combos(pool: list[str], size: int, count: int) -> list[tuple[str, ...]]:
    """The first ``count`` plays ``multiset_combos(pool, size)`` yields, in its order, built
    in a list: a cut list takes thousands, and each yield of the generator passes through
    one generator per card of the play. A kind is skipped, with all later kinds, once the
    cards from it on are too few to finish the play (those branches yield nothing)."""
    counts = Counter(pool)
    kinds = list(counts)
    room = [0] * (len(kinds) + 1)  # cards held of each kind from the i-th on
    for i in range(len(kinds) - 1, -1, -1):
        room[i] = room[i + 1] + counts[kinds[i]]
    out: list[tuple[str, ...]] = []
    taken: list[str] = []

    def walk(start: int, left: int) -> bool:
        """Adds the plays completing ``taken`` with ``left`` cards from ``kinds[start:]``;
        whether ``count`` plays are listed (stop)."""
        if left == 0:
            out.append(tuple(taken))
            return len(out) >= count
        for i in range(start, len(kinds)):
            if room[i] < left:
                return False
            card = kinds[i]
            for take in range(min(counts[card], left), 0, -1):
                taken.extend((card,) * take)
                done = walk(i + 1, left - take)
                del taken[-take:]
                if done:
                    return True
        return False

    if count > 0:
        walk(0, size)
    return out


def _constructive(
    in_suit: list[str],
    req: Requirement,
    ctx: TrumpContext,
    limit: int,
    order: Callable[[str], int] | None = None,
) -> set[tuple[str, ...]]:
    """Every play of ``in_suit`` cards holding ``req`` (bounded by ``limit``)."""
    out: set[tuple[str, ...]] = set()
    tokens = pair_tokens(in_suit, ctx)
    for paired in _token_sets(tokens, list(req.tractors), req.pairs):
        left = remove_cards(tuple(in_suit), [c for card in paired for c in (card, card)])
        assert left is not None
        for singles in multiset_combos(sorted(left), req.singles):
            play = [c for card in paired for c in (card, card)] + list(singles)
            out.add(tuple(sorted(play, key=order)))
            if len(out) >= limit:
                return out
    return out


def _token_sets(
    tokens: dict[int, list[str]], tractors: list[int], pairs: int
) -> Iterator[tuple[str, ...]]:
    """Card names whose pairs make the tractors and then ``pairs`` more pairs."""
    if tractors:
        length = tractors[0]
        for start in sorted(tokens):
            if not all(tokens.get(start + i) for i in range(length)):
                continue
            for pick in _pick_each([tokens[start + i] for i in range(length)]):
                rest = {v: [c for c in names if c not in pick] for v, names in tokens.items()}
                for more in _token_sets(rest, tractors[1:], pairs):
                    yield pick + more
        return
    names = sorted(c for cs in tokens.values() for c in cs)
    yield from combinations(names, pairs)


def _pick_each(options: list[list[str]]) -> Iterator[tuple[str, ...]]:
    if not options:
        yield ()
        return
    for card in options[0]:
        for rest in _pick_each(options[1:]):
            yield (card, *rest)
