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

from collections import Counter
from itertools import combinations

from paiju.engines.shengji.cards import CANON_ORDER, sort_cards
from paiju.engines.shengji.follow import legal_follows
from paiju.engines.shengji.play import follow_position
from paiju.engines.shengji.shapes import Unit, parse_units, runs
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
        counts = Counter(cards)
        out.update((c, c) for c in counts if counts[c] >= 2)
        for length in range(max(2, min_length), len(cards) // 2 + 1):
            found = False
            for members in runs(counts, length, ctx):
                found = True
                out.add(sort_cards(c for m in members for c in (m, m)))
            if not found:
                break
        units = parse_units(cards, ctx, min_length)
        if len(units) > 1:
            out.add(sort_cards(cards))
            out.update(_pairs_of(units))
    return out


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

    Follows are enumerated by ``legal_follows`` and then kept only if ``FollowPosition.error``
    (the rule of ``follow_error``, which ``apply`` validates with) accepts them, so the list
    can never offer a play that ``apply`` refuses: there is one legality, not two.
    ``legal_follows`` lists fewer than ``FOLLOW_LIMIT`` plays exactly when it did not cut the
    list.
    """
    if not state.trick:
        return frozenset(lead_candidates(state, seat)), False
    position = follow_position(state, seat)
    plays = legal_follows(
        state.lead_units,
        position.suit,
        state.hands[seat],
        state.ctx,
        min_length=state.opts["tractor_min_length"],
        format_draw=state.opts["draw_policy"] != "no_format_draw",
        limit=FOLLOW_LIMIT,
        order=CANON_ORDER,
    )
    listed = frozenset(p for p in plays if position.error(p) is None)
    return listed, len(plays) < FOLLOW_LIMIT
