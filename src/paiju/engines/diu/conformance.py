"""The diu conformance adapter. Leak check: every view shows exactly what its viewer may see
(rules §1.8, A12).

Structural: the view has a fixed key set; ``hand`` is the viewer's own hand (None for a
spectator); everything else that names cards is public (melds, dead cards, the polled card);
the result (every hand) only once the hand is over; ``my_call`` is the viewer's own call; the
prefetch carries only sealed blobs and the keys of cards this viewer saw drawn — never an
undrawn stock card in plain.
"""

from __future__ import annotations

import json
from typing import Any

from paiju.core.frozen import changed
from paiju.core.rng import Rng
from paiju.core.seats import Seat
from paiju.engines.diu import arbitration as arb
from paiju.engines.diu.cards import ALL_TOKENS, sort_cards
from paiju.engines.diu.state import DiuState
from paiju.engines.variant import Conformance

KEYS = {
    "variant",
    "hand_no",
    "seat",
    "players",
    "table",
    "roles",
    "active",
    "idle",
    "phase",
    "to_act",
    "asked",
    "timer",
    "hand",
    "hand_counts",
    "melds",
    "dead",
    "dead_count",
    "stock_count",
    "card",
    "my_call",
    "last",
    "legal",
    "legal_complete",
}


def _prefetch_leaks(state: Any, seat: int | None, pre: dict[str, Any]) -> list[str]:
    leaks = []
    private = dict(state.private_draws)
    for index in pre["keys"]:
        i = int(index)
        if i >= state.drawn:
            leaks.append(f"seat {seat}: key of undrawn stock card {i}")
        elif i in private and private[i] != seat:
            leaks.append(f"seat {seat}: key of seat {private[i]}'s supplement card {i}")
    for entry in pre["sealed"]:
        if set(entry) != {"i", "nonce", "blob", "mac"}:
            leaks.append(f"seat {seat}: sealed entry has fields {sorted(entry)}")
        if len(entry["blob"]) != 8 or entry["blob"] in ALL_TOKENS:
            leaks.append(f"seat {seat}: sealed entry {entry['i']} is plain")
    return leaks


def _seat_leaks(engine: Any, state: Any, seat: int | None) -> list[str]:
    view = engine.view(state, seat)
    extra = {"result"} if state.phase == "over" else set()
    if state.config.prefetch_mode == "encrypted":
        extra.add("prefetch")
    leaks: list[str] = []
    if set(view) != KEYS | extra:
        leaks.append(f"seat {seat}: unexpected view keys {sorted(set(view) ^ (KEYS | extra))}")
    own = None if seat is None else list(state.hands[seat])
    if view.get("hand") != own:
        leaks.append(f"seat {seat}: hand field is not the viewer's own hand")
    if view.get("melds") != [[list(m) for m in ms] for ms in state.melds]:
        leaks.append(f"seat {seat}: melds differ from the public melds")
    if view.get("dead") not in (None, list(state.dead)):
        leaks.append(f"seat {seat}: dead cards differ from the public dead cards")
    polled = view.get("card")
    if polled is not None and polled.get("card") != state.card:
        leaks.append(f"seat {seat}: polled card is not the card on the table")
    mine = None
    if seat is not None and state.poll is not None:
        mine = "diu" if seat in state.picking else arb.own_claim(state.poll, seat)
    if view.get("my_call") != mine:
        leaks.append(f"seat {seat}: my_call shows something other than its own call")
    if set(view.get("last", {})) - {"dead", "take", "seat", "claim"}:
        leaks.append(f"seat {seat}: last outcome has unexpected fields")
    public = set(engine.public_to_act(state)) | ({seat} if seat is not None else set())
    if set(view.get("to_act", [])) - public:
        leaks.append(f"seat {seat}: to_act shows who else is asked in a poll")
    if "prefetch" in view:
        leaks += _prefetch_leaks(state, seat, view["prefetch"])
    if state.prefetch_secret and state.prefetch_secret in json.dumps(view):
        leaks.append(f"seat {seat}: the hand's prefetch secret is in the view")
    return leaks


def hidden_leaks(engine: Any, state: Any) -> list[str]:
    """Every place a view shows a card its viewer may not see (empty when none)."""
    leaks: list[str] = []
    for seat in [None, *range(state.config.players)]:
        leaks += _seat_leaks(engine, state, seat)
    return leaks


def redeal_unseen(state: DiuState, viewer: Seat | None, rng: Rng) -> DiuState | None:
    """The other seats' concealed hands dealt again from their cards and the undrawn stock
    (same sizes; the stock only without sealed prefetch, whose blobs every viewer holds).

    A view may not depend on other hands at all, so only counts are kept. ``None`` once the
    hand is over (everything is revealed).
    """
    if state.phase == "over":
        return None
    others = [s for s in range(state.config.players) if s != viewer]
    pool = [c for s in others for c in state.hands[s]]
    sealed = state.config.prefetch_mode == "encrypted"
    stock = list(state.stock[state.drawn :]) if not sealed else []
    pool += stock
    rng.shuffle(pool)
    hands = list(state.hands)
    for seat in others:
        size = len(state.hands[seat])
        hands[seat], pool = sort_cards(pool[:size]), pool[size:]
    new_stock = state.stock if sealed else (*state.stock[: state.drawn], *pool)
    return changed(state, hands=tuple(hands), stock=new_stock)


CONFORMANCE = Conformance[DiuState](
    hidden_leaks=hidden_leaks,
    redeal_unseen=redeal_unseen,
    option_sets=(
        {"players": 4, "poll_mode": "parallel", "head_rotation": "winner"},
        {"deck_profile": "poker54"},
        {"deck_profile": "chuanpai84", "prefetch_mode": "encrypted"},
        {"offer_calls": "above_standing", "silent_seats": "skip", "diu_on_discard": True},
        {"forfeit_fallback": "reopen_after_forfeiter", "wild_in_chi": True, "chi_on_draw": "any"},
    ),
)
