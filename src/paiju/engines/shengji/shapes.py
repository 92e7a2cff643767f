"""Components of a play: singles, pairs (对子) and tractors (拖拉机).

With two decks a *pair* is two identical cards and a *tractor* is a run of pairs whose
values are consecutive in the trump context. A play is parsed greedily: maximal tractors
first (longest first, lowest first among equals), then pairs, then singles; with two
decks this split has the biggest largest component and its shape is unique.

A *pair token* is one identical pair at its value. At one value there can be several
tokens (``S3 S3`` and ``H3 H3`` when the level is 3), which are equal but never a pair
with each other and never consecutive.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from paiju.engines.shengji.order import TrumpContext

#: The shape of a component: (width, length): (1, 1) single, (2, 1) pair, (2, k) tractor.
Shape = tuple[int, int]


@dataclass(frozen=True, order=True)
class Unit:
    """One component: ``width`` copies at each of ``length`` consecutive values from ``low``."""

    width: int
    length: int
    low: int
    cards: tuple[str, ...]

    @property
    def size(self) -> int:
        """Number of cards."""
        return self.width * self.length

    @property
    def shape(self) -> Shape:
        """``(width, length)``."""
        return self.width, self.length


def effective_suit(cards: Iterable[str], ctx: TrumpContext) -> str | None:
    """The one effective suit of ``cards``; ``None`` if they are mixed or empty."""
    suits = {ctx.suit_of(c) for c in cards}
    return suits.pop() if len(suits) == 1 else None


def pair_tokens(cards: Iterable[str], ctx: TrumpContext) -> dict[int, list[str]]:
    """Value -> the distinct cards held at least twice at that value."""
    tokens: dict[int, list[str]] = {}
    for card, count in sorted(Counter(cards).items()):
        if count >= 2:
            tokens.setdefault(ctx.value(card), []).append(card)
    return tokens


def _longest_run(counts: dict[int, int]) -> tuple[int, int]:
    """(start, length) of the longest run of consecutive values with a token; lowest first."""
    best = (0, 0)
    for value in sorted(counts):
        if counts[value] <= 0 or counts.get(value - 1, 0) > 0:
            continue
        length = 1
        while counts.get(value + length, 0) > 0:
            length += 1
        if length > best[1]:
            best = (value, length)
    return best


def parse_units(cards: Sequence[str], ctx: TrumpContext, min_length: int = 2) -> list[Unit]:
    """Split same-suit ``cards`` into components, sorted by size then low value.

    The caller checks the suit. Tractors need ``min_length`` pairs (``tractor_min_length``).
    """
    tokens = pair_tokens(cards, ctx)
    counts = {v: len(names) for v, names in tokens.items()}
    left = Counter(cards)
    units: list[Unit] = []
    while True:
        start, length = _longest_run(counts)
        if length < max(min_length, 2):
            break
        members: list[str] = []
        for value in range(start, start + length):
            card = tokens[value][len(tokens[value]) - counts[value]]
            counts[value] -= 1
            members += [card, card]
            left[card] -= 2
        units.append(Unit(2, length, start, tuple(members)))
    for card in sorted(left):
        if left[card] >= 2:
            units.append(Unit(2, 1, ctx.value(card), (card, card)))
            left[card] -= 2
        if left[card] == 1:
            units.append(Unit(1, 1, ctx.value(card), (card,)))
    units.sort(key=lambda u: (u.size, u.low, u.cards))
    return units


def shape_of(units: Iterable[Unit]) -> tuple[Shape, ...]:
    """The multiset of component shapes, largest first."""
    return tuple(sorted((u.shape for u in units), key=lambda s: (-s[0] * s[1], -s[1])))


def is_tractor(cards: Sequence[str], ctx: TrumpContext, min_length: int = 2) -> bool:
    """Whether ``cards`` are exactly one tractor (one suit, one component of 2+ pairs)."""
    if effective_suit(cards, ctx) is None:
        return False
    units = parse_units(cards, ctx, min_length)
    return len(units) == 1 and units[0].width == 2 and units[0].length >= 2


def can_carve(counts: dict[int, int], tractors: Sequence[int], pairs: int) -> bool:
    """Whether disjoint tractors of the given lengths and ``pairs`` more pairs fit the tokens.

    ``counts`` maps value -> number of pair tokens there. Singles never constrain a carving
    of a set that has enough cards, so they are left to the caller.
    """
    if not tractors:
        return sum(counts.values()) >= pairs
    length, rest = tractors[0], tractors[1:]
    for start in sorted(counts):
        if all(counts.get(start + i, 0) > 0 for i in range(length)):
            for i in range(length):
                counts[start + i] -= 1
            ok = can_carve(counts, rest, pairs)
            for i in range(length):
                counts[start + i] += 1
            if ok:
                return True
    return False


def token_counts(cards: Iterable[str], ctx: TrumpContext) -> dict[int, int]:
    """Value -> number of pair tokens (see ``pair_tokens``)."""
    return {v: len(names) for v, names in pair_tokens(cards, ctx).items()}


def carvings(
    cards: Sequence[str], shapes: Sequence[Shape], ctx: TrumpContext
) -> Iterator[list[Unit]]:
    """Every way (by values) to carve ``cards`` into components of ``shapes``.

    ``shapes`` must account for exactly ``len(cards)`` cards. Yields lists of ``Unit`` in
    the order of ``shapes``. Components of one shape are placed in increasing order, so a
    carving is not repeated as a permutation of its like components.
    """
    order = sorted(range(len(shapes)), key=lambda i: -shapes[i][0] * shapes[i][1])
    yield from _carve(Counter(cards), [shapes[i] for i in order], order, ctx, {}, None)


def _carve(
    left: Counter[str],
    shapes: list[Shape],
    order: list[int],
    ctx: TrumpContext,
    done: dict[int, Unit],
    floor: tuple[Shape, tuple[str, ...]] | None,
) -> Iterator[list[Unit]]:
    if not shapes:
        yield [done[i] for i in sorted(done)]
        return
    (width, length), index = shapes[0], order[0]
    if width == 1:
        card = next(c for c in sorted(left) if left[c] > 0)
        left[card] -= 1
        done[index] = Unit(1, 1, ctx.value(card), (card,))
        yield from _carve(left, shapes[1:], order[1:], ctx, done, None)
        left[card] += 1
        del done[index]
        return
    for members in runs(left, length, ctx):
        if floor is not None and floor[0] == shapes[0] and members <= floor[1]:
            continue
        for card in members:
            left[card] -= 2
        pairs = tuple(c for card in members for c in (card, card))
        done[index] = Unit(2, length, ctx.value(members[0]), pairs)
        yield from _carve(left, shapes[1:], order[1:], ctx, done, (shapes[0], members))
        for card in members:
            left[card] += 2
        del done[index]


def runs(left: Counter[str], length: int, ctx: TrumpContext) -> Iterator[tuple[str, ...]]:
    """Every choice of one pair per value over ``length`` consecutive values."""
    tokens = pair_tokens([c for c, n in left.items() for _ in range(n)], ctx)
    for start in sorted(tokens):
        if all(start + i in tokens for i in range(length)):
            yield from _choices([tokens[start + i] for i in range(length)])


def _choices(options: list[list[str]]) -> Iterator[tuple[str, ...]]:
    if not options:
        yield ()
        return
    for card in options[0]:
        for rest in _choices(options[1:]):
            yield (card, *rest)
