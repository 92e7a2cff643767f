"""Legal-action lists for bots and clients (``view["legal"]``), and whether they are complete.

Follows are enumerated exactly (the forced-follow rules) unless a position has
``FOLLOW_LIMIT`` or more of them, when the cheapest plays and the point-shedding plays are
kept and the list is marked incomplete. Leads cannot be listed in full (any subset of one
suit is a legal attempt), so the list holds every single, pair and tractor, and as throw
candidates, per suit, the whole holding and every union of two of its components; it is
always incomplete. Where a list is incomplete ``apply`` accepts every legal play, listed or
not (``ShengjiEngine.check_action``), judged by the same rule functions.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product

from paiju.engines.shengji.cards import CANON_ORDER, sort_cards
from paiju.engines.shengji.follow import legal_follows
from paiju.engines.shengji.shapes import Unit, pair_tokens, parse_units
from paiju.engines.shengji.state import ShengjiState

FOLLOW_LIMIT = 1500
THROW_PAIRS_LIMIT = 30


def lead_candidates(state: ShengjiState, seat: int) -> set[tuple[str, ...]]:
    """Singles, pairs, tractors and throw candidates from ``seat``'s hand, each in canonical
    order (``sort_cards``)."""
    ctx = state.ctx
    min_length = state.opts["tractor_min_length"]
    hand = state.hands[seat]
    out: set[tuple[str, ...]] = {(c,) for c in hand}
    by_suit: dict[str, list[str]] = {}
    for card in hand:
        by_suit.setdefault(ctx.suit_of(card), []).append(card)
    for cards in by_suit.values():
        tokens = pair_tokens(cards, ctx)
        out.update((c, c) for names in tokens.values() for c in names)
        for length in range(max(2, min_length), len(tokens) + 1):
            found = False
            for members in _runs(tokens, length):
                found = True
                out.add(sort_cards(c for m in members for c in (m, m)))
            if not found:
                break
        units = parse_units(cards, ctx, min_length)
        if len(units) > 1:
            out.add(sort_cards(cards))
            out.update(_pairs_of(units))
    return out


def _runs(tokens: dict[int, list[str]], length: int) -> Iterator[tuple[str, ...]]:
    """``shapes.runs`` of a suit's pair tokens (``pair_tokens``, worked out once per suit
    rather than once per tractor length): one pair per value over ``length`` consecutive
    values."""
    for start in sorted(tokens):
        if all(start + i in tokens for i in range(1, length)):
            yield from product(*(tokens[start + i] for i in range(length)))


def _pairs_of(units: list[Unit]) -> list[tuple[str, ...]]:
    out = []
    for a, b in combinations(units, 2):
        out.append(sort_cards(a.cards + b.cards))
        if len(out) >= THROW_PAIRS_LIMIT:
            break
    return out


def listed_plays(state: ShengjiState, seat: int) -> tuple[frozenset[tuple[str, ...]], bool]:
    """The cards of the listed ``play`` actions of the seat to play, each in canonical order
    (``make``'s), and whether they are all its plays.

    Follows are the plays ``legal_follows`` enumerates, each legal by construction: of the
    lead's size, from the hand, every card of the led suit held (or only such cards), and,
    when the hand must follow the lead's shape, built around the first requirement the hand
    meets (``follow._constructive``), which no stricter one the hand misses can refuse. They
    are not judged again by ``FollowPosition.error`` (the rule ``apply`` validates with;
    doing so was a seventh of a listing): the tests hold every listed follow of played
    hands, throws, tractors, void and trump follows among them, to a fresh ``follow_error``.
    ``legal_follows`` lists fewer than ``FOLLOW_LIMIT`` plays exactly when it did not cut the
    list.
    """
    if not state.trick:
        return frozenset(lead_candidates(state, seat)), False
    plays = legal_follows(
        state.lead_units,
        state.ctx.suit_of(state.lead_units[0].cards[0]),
        state.hands[seat],
        state.ctx,
        min_length=state.opts["tractor_min_length"],
        format_draw=state.opts["draw_policy"] != "no_format_draw",
        limit=FOLLOW_LIMIT,
        order=CANON_ORDER,
    )
    return frozenset(plays), len(plays) < FOLLOW_LIMIT
