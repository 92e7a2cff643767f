"""Leak check for shengji views: a view may show a hand only to its owner, the dealt kitty
only to the landlord and the buried cards only to the seat that buried them (the
``exchanger``), or to everyone once the hand is over. ``to_act`` must not depend on hidden
cards: in a bidding window every seat that has not answered is asked."""

from __future__ import annotations

from typing import Any

from paiju.engines.shengji.engine import ShengjiEngine
from paiju.engines.shengji.state import ShengjiState

_PRIVATE_KEYS = ("kitty", "buried")


def hidden_leaks(engine: ShengjiEngine, state: ShengjiState) -> list[str]:
    """Every place a view shows a card its viewer may not see."""
    leaks: list[str] = []
    for seat in [None, 0, 1, 2, 3]:
        view: dict[str, Any] = engine.view(state, seat)
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
