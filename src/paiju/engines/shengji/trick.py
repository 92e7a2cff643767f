"""The trick winner: only plays of the lead's shape, all in the led suit or all trumps, can
win; a later play replaces the current winner only if it *defeats* it (ties keep the first).

Option ``throw_evaluation`` (how a multi-component play is compared):
``all`` (default): a one-to-one matching of same-shaped components in which every new
component is strictly higher (sorted pairing is optimal); ``largest_component``: compare the
highest component of the largest shape first, ties going to the next shape (singles are
ignored when larger shapes exist); ``highest``: compare only the highest card.
A tractor or pair is compared by its lowest card; any trump component beats any plain one.
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.engines.shengji.order import TrumpContext
from paiju.engines.shengji.shapes import Shape, Unit, carvings, effective_suit, parse_units

EVALUATIONS = ("all", "largest_component", "highest")
Key = tuple[bool, int]


def _unit_key(unit: Unit, ctx: TrumpContext) -> Key:
    return ctx.key(unit.cards[0])[0], unit.low


def defeats(
    new: Sequence[Unit], old: Sequence[Unit], ctx: TrumpContext, evaluation: str = "all"
) -> bool:
    """Whether the carving ``new`` beats ``old`` (same shapes) under ``evaluation``."""
    if evaluation == "highest":
        top_new = max(ctx.key(c) for u in new for c in u.cards)
        top_old = max(ctx.key(c) for u in old for c in u.cards)
        return top_new > top_old
    groups_new = _by_shape(new, ctx)
    groups_old = _by_shape(old, ctx)
    if evaluation == "largest_component":
        shapes = sorted(groups_old, key=lambda s: (-s[0] * s[1], -s[1]))
        if len(shapes) > 1:
            shapes = [s for s in shapes if s != (1, 1)]
        for shape in shapes:
            a, b = max(groups_new[shape]), max(groups_old[shape])
            if a != b:
                return a > b
        return False
    return all(
        all(x > y for x, y in zip(sorted(groups_new[s]), sorted(groups_old[s]), strict=True))
        for s in groups_old
    )


def _by_shape(units: Sequence[Unit], ctx: TrumpContext) -> dict[Shape, list[Key]]:
    groups: dict[Shape, list[Key]] = {}
    for unit in units:
        groups.setdefault(unit.shape, []).append(_unit_key(unit, ctx))
    return groups


def best_carving(
    play: Sequence[str],
    lead_units: Sequence[Unit],
    suit: str,
    current: Sequence[Unit],
    ctx: TrumpContext,
    evaluation: str = "all",
) -> list[Unit] | None:
    """A carving of ``play`` into the lead's shape that defeats ``current``, else ``None``."""
    play_suit = effective_suit(play, ctx)
    if play_suit is None or play_suit not in (suit, "T"):
        return None
    if len(play) != sum(u.size for u in lead_units):
        return None
    shapes = [u.shape for u in lead_units]
    best: list[Unit] | None = None
    best_keys: list[Key] = []
    for carving in carvings(play, shapes, ctx):
        if defeats(carving, current, ctx, evaluation):
            keys = sorted((_unit_key(u, ctx) for u in carving), reverse=True)
            if best is None or keys > best_keys:
                best, best_keys = carving, keys
    return best


def trick_winner(
    plays: Sequence[Sequence[str]],
    ctx: TrumpContext,
    evaluation: str = "all",
    min_length: int = 2,
    lead_units: Sequence[Unit] | None = None,
) -> int:
    """Index (in play order) of the play that wins the trick; ``plays[0]`` is the lead.

    ``lead_units`` overrides the lead's parse (e.g. the forced part of a failed throw).
    """
    units = list(lead_units) if lead_units is not None else parse_units(plays[0], ctx, min_length)
    suit = ctx.suit_of(units[0].cards[0])
    winner, current = 0, units
    for index in range(1, len(plays)):
        carving = best_carving(plays[index], units, suit, current, ctx, evaluation)
        if carving is not None:
            winner, current = index, carving
    return winner
