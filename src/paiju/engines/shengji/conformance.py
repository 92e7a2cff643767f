"""The shengji conformance adapter.

Leak check: a view may show a hand only to its owner, the dealt kitty only to the landlord
and the buried cards only to the seat that buried them (the ``exchanger``), or to everyone
once the hand is over. ``to_act`` must not depend on hidden cards: in a bidding window every
seat that has not answered is asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.core.rng import Rng
from paiju.core.seats import Seat
from paiju.engines.base import Engine
from paiju.engines.shengji.cards import SEATS, sort_cards
from paiju.engines.shengji.state import ShengjiState, changed
from paiju.engines.variant import Conformance

_PRIVATE_KEYS = ("kitty", "buried")


def hidden_leaks(engine: Engine[ShengjiState, Any], state: ShengjiState) -> list[str]:
    """Every place a view shows a card its viewer may not see."""
    leaks: list[str] = []
    for seat in [None, 0, 1, 2, 3]:
        view: Mapping[str, Any] = engine.view(state, seat)
        own = sorted(state.hands[seat]) if seat is not None else []
        if sorted(view["hand"]) != own:
            leaks.append(f"seat {seat} sees a hand that is not its own")
        for key in ("hands", "deck"):
            if key in view:
                leaks.append(f"seat {seat} sees {key}")
        over = state.phase == "over"
        holder = state.exchanger if state.exchanger is not None else state.landlord
        owners = {"kitty": state.landlord, "buried": holder}
        for key in _PRIVATE_KEYS:
            if key in view and view[key] and not over and seat != owners[key]:
                leaks.append(f"seat {seat} sees the {key}")
        if over and seat != state.landlord and view.get("kitty"):
            leaks.append(f"seat {seat} sees the original kitty")
        if state.phase in ("deal", "theft") and view["to_act"]:
            answered = set(state.asked)
            if set(view["to_act"]) != {s for s in range(4) if s not in answered}:
                leaks.append(f"seat {seat} sees a bidding window that depends on the hands")
        for failure in view["throw_failures"]:
            if "blocker" in failure and not state.opts["reveal_throw_blocker"]:
                leaks.append(f"seat {seat} sees a throw's blocker")
    return leaks


def redeal_unseen(state: ShengjiState, viewer: Seat | None, rng: Rng) -> ShengjiState | None:
    """The other seats' hands dealt again from their cards (same sizes), and during the deal
    the cards still to be dealt shuffled too (the kitty among them).

    A view may not depend on other hands at all, so the redeal keeps only the counts, not
    what the public record implies (bids shown, suits a seat has shown void in). ``None``
    once the hand is over (everything is revealed).
    """
    if state.phase == "over":
        return None
    others = [s for s in range(SEATS) if s != viewer]
    pool = [c for s in others for c in state.hands[s]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for seat in others:
        size = len(state.hands[seat])
        hands[seat], pool = sort_cards(pool[:size]), pool[size:]
    deck = state.deck
    if state.phase == "deal":
        rest = list(deck[state.dealt :])
        rng.shuffle(rest)
        deck = (*deck[: state.dealt], *rest)
    return changed(state, hands=tuple(hands), deck=deck)


CONFORMANCE = Conformance[ShengjiState](
    hidden_leaks=hidden_leaks,
    redeal_unseen=redeal_unseen,
    option_sets=(
        {"kitty_theft": True, "bid_reinforcement": "overturn_or_while_winning"},
        {"game_mode": "finding_friends", "throw_penalty": "10_per_card"},
        {"draw_policy": "no_format_draw", "tractor_min_length": 3, "reveal_throw_blocker": True},
    ),
)
