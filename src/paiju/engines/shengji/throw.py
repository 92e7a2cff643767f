"""Throws (甩牌): a lead of several components is valid only if no other hand can beat any
component in the led suit; otherwise a forced component is played instead.

The server checks against the real hands at the moment of the lead. Trumps held by a
player void in a plain suit never block a plain-suit throw (only same-suit cards count).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paiju.engines.shengji.order import TrumpContext
from paiju.engines.shengji.shapes import Unit, token_counts

#: Values of option ``throw_fail_forced``.
FORCED_RULES = ("smallest_by_size_then_rank", "lowest_rank", "first_challenger")


@dataclass(frozen=True)
class ThrowResult:
    """``valid``; else the ``forced`` component and the index of the first blocking hand."""

    valid: bool
    forced: Unit | None = None
    blocker: int | None = None


def beats_unit(unit: Unit, suit: str, hand: Sequence[str], ctx: TrumpContext) -> bool:
    """Whether ``hand`` holds, in ``suit``, something that beats the thrown component.

    A single is beaten by any higher card, a pair by a higher pair, a tractor of ``k`` pairs
    by ``k`` consecutive pairs starting higher (a mere pair never beats a tractor).
    """
    cards = [c for c in hand if ctx.suit_of(c) == suit]
    if unit.width == 1:
        return any(ctx.value(c) > unit.low for c in cards)
    counts = token_counts(cards, ctx)
    return any(
        start > unit.low and all(counts.get(start + i, 0) > 0 for i in range(unit.length))
        for start in counts
    )


def check_throw(
    units: Sequence[Unit],
    suit: str,
    other_hands: Sequence[Sequence[str]],
    ctx: TrumpContext,
    rule: str = FORCED_RULES[0],
) -> ThrowResult:
    """Validity of a lead of ``units`` against the other hands (in play order from the leader).

    A lead of one component is always valid. ``rule`` picks the forced component:
    ``smallest_by_size_then_rank`` (fewest cards, then lowest), ``lowest_rank`` (lowest,
    then fewest cards) or ``first_challenger`` (the smallest component that the first hand
    in turn order able to beat anything can beat).
    """
    if len(units) <= 1:
        return ThrowResult(True)
    failing: list[tuple[int, Unit]] = [
        (i, u)
        for i, hand in enumerate(other_hands)
        for u in units
        if beats_unit(u, suit, hand, ctx)
    ]
    if not failing:
        return ThrowResult(True)
    first = failing[0][0]
    if rule == "first_challenger":
        pool = [u for i, u in failing if i == first]
        forced = min(pool, key=lambda u: (u.size, u.low))
    elif rule == "lowest_rank":
        forced = min((u for _, u in failing), key=lambda u: (u.low, u.size))
    else:
        forced = min((u for _, u in failing), key=lambda u: (u.size, u.low))
    blocker = next(i for i, u in failing if u == forced)
    return ThrowResult(False, forced, blocker)
