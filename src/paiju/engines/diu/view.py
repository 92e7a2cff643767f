"""What one seat (or a spectator) sees: JSON data with ``legal`` and nothing it may not see.

Hidden: other seats' concealed hands (counted), the undrawn stock (counted; with
``prefetch_mode = "encrypted"`` the delivered part as sealed blobs), other seats' calls during
a poll (a seat sees only its own), who else is asked to call or re-asked (``to_act`` lists
only ``public_to_act`` and the viewer itself), supplement cards drawn by others, the prefetch
secret. Revealed at the end: every hand and the 丢.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paiju.core.seats import Seat
from paiju.engines.diu import arbitration as arb
from paiju.engines.diu.flow import legal, public_to_act, question
from paiju.engines.diu.notation import format_action
from paiju.engines.diu.schema import (
    DiuView,
    LastView,
    PolledCardView,
    PrefetchView,
    ResultView,
    SealedView,
    TableRulesView,
)
from paiju.engines.diu.sealed import card_key, delivered
from paiju.engines.diu.state import DiuState

ROLES = "ABCD"
TIMERS = {"call": "claim", "reask": "claim", "take": "turn", "diu_pick": "turn", "discard": "turn"}


def role_of(state: DiuState, seat: Seat) -> str:
    """A, B, C (active, in turn order) or D (闲家)."""
    return ROLES[(seat - state.head) % state.config.players]


def timer_kind(state: DiuState, seat: Seat) -> str | None:
    """``claim`` for a polled seat (15 s), ``turn`` for its own action (20 s), else None."""
    return TIMERS.get(question(state, seat))


def build_view(
    state: DiuState, seat: Seat | None, shared_of: Callable[[DiuState], Shared] | None = None
) -> DiuView:
    """The view of ``seat`` (``None``: a spectator); ``legal`` is always complete.

    A copy of the spectator's view of the state (``public_parts``, built once per state when
    ``shared_of`` remembers it: the engine's ``LastOf``) with the seat's own keys set:
    copying a dict keeps its keys' order, and setting a key it has keeps that key's place.
    The values are shared by the views, which are only read (encoded, digested)."""
    shared = (shared_of or public_parts)(state)
    view: DiuView = shared.copy()  # type: ignore[assignment]  # every key, in order
    if seat is None:
        return view
    asked = question(state, seat)
    view["seat"] = seat
    if asked and seat not in shared["to_act"]:
        view["to_act"] = sorted((*shared["to_act"], seat))  # the viewer itself is asked (A12)
    view["asked"] = asked
    view["timer"] = TIMERS.get(asked)
    view["hand"] = list(state.hands[seat])
    view["my_call"] = _my_call(state, seat)
    if asked:
        view["legal"] = _legal(state, seat)
    if "prefetch" in view:
        view["prefetch"] = _prefetch(state, seat)
    return view


#: A spectator's view of a state, keys in the view's order: a seat's view is a copy with its
#: own keys set (``build_view``).
Shared = dict[str, Any]


def public_parts(state: DiuState, before: tuple[DiuState, Shared] | None = None) -> Shared:
    """The view of a spectator: no seat, nothing asked, no hand, no call, no legal actions.
    ``before``: an earlier state and its spectator view, whose parts are kept where this
    state holds the very same fields (the values are only read): the options and roles
    last the hand, the melds, dead cards and last outcome change only now and then."""
    cfg = state.config
    shown: Shared = {}
    same_config = same_seats = same_melds = same_dead = same_last = False
    if before is not None:  # identical fields: equal parts (identity implies equality)
        earlier, shown = before
        same_config = earlier.config is cfg
        same_seats = same_config and earlier.head == state.head and earlier.active is state.active
        same_melds = earlier.melds is state.melds
        same_dead = same_config and earlier.dead is state.dead
        same_last = same_config and earlier.last is state.last
    view: Shared = {
        "variant": "diu",
        "hand_no": state.hand_no,
        "seat": None,
        "players": cfg.players,
        "table": shown["table"] if same_config else _table_rules(state),
        "roles": (
            shown["roles"] if same_seats else [role_of(state, s) for s in range(cfg.players)]
        ),
        "active": shown["active"] if same_seats else list(state.active),
        "idle": state.idle,
        "phase": state.phase,
        "to_act": sorted(public_to_act(state)),
        "asked": "",
        "timer": None,
        "hand": None,
        "hand_counts": [len(h) for h in state.hands],
        "melds": (shown["melds"] if same_melds else [[list(m) for m in ms] for ms in state.melds]),
        "dead": (
            shown["dead"] if same_dead else list(state.dead) if cfg.dead_card_visible else None
        ),
        "dead_count": len(state.dead),
        "stock_count": len(state.stock) - state.drawn,
        "card": _polled_card(state),
        "my_call": None,
        "last": shown["last"] if same_last else _last(state),
        "legal": [],
        "legal_complete": True,
    }
    if state.phase == "over":
        view["result"] = _result(state)
    if cfg.prefetch_mode == "encrypted":
        view["prefetch"] = _prefetch(state, None)
    return view


class SpectatorViews:
    """The spectator view (``public_parts``) of the last state asked, for one table's
    engine (its viewers are shown each state in a row), built with the parts of the state
    before that it shares."""

    __slots__ = ("_shared", "_state")

    def __init__(self) -> None:
        self._state: DiuState | None = None
        self._shared: Shared = {}

    def __call__(self, state: DiuState) -> Shared:
        if state is not self._state:
            before = (self._state, self._shared) if self._state is not None else None
            self._shared = public_parts(state, before)
            self._state = state
        return self._shared


def _table_rules(state: DiuState) -> TableRulesView:
    """The options a client (or bot) needs to read hands: deck and combination rules."""
    cfg = state.config
    return {
        "deck_profile": cfg.deck_profile,
        "wild_count": cfg.wild_count,
        "chi_shapes": list(cfg.combo.chi_shapes),
        "wild_in_chi": cfg.combo.wild_in_chi,
        "natural_four_level": cfg.combo.natural_four_level,
        "diu_requires_complete_hand": cfg.combo.diu_requires_complete_hand,
        "diu_min_points": cfg.combo.diu_min_points,
        "poll_mode": "parallel" if cfg.poll.parallel else "sequential",
        "offer_calls": "above_standing" if cfg.offer_above_standing else "hand",
        "silent_seats": "skip" if cfg.skip_silent_seats else "ask",
    }


def _last(state: DiuState) -> LastView:
    """The last public outcome; a dead card is not repeated when dead cards are hidden (A7)."""
    last = dict(state.last)
    out = LastView()
    if "dead" in last:
        out["dead"] = last["dead"] if state.config.dead_card_visible else None
    if "take" in last:
        out["take"], out["seat"], out["claim"] = last["take"], last["seat"], last["claim"]
    return out


def _legal(state: DiuState, seat: Seat | None) -> list[str]:
    """The seat's legal actions in notation, sorted (none for a spectator)."""
    if seat is None:
        return []
    return sorted(format_action(a) for a in legal(state, seat))


def _polled_card(state: DiuState) -> PolledCardView | None:
    if state.phase != "poll" or state.poll is None or state.card is None:
        return None
    return PolledCardView(card=state.card, source=state.poll.source, by=state.poll.by)


def _my_call(state: DiuState, seat: Seat | None) -> str | None:
    """The seat's own standing call in this poll (it never sees the others', A12)."""
    if seat is None or state.poll is None:
        return None
    if seat in state.picking:
        return "diu"
    return arb.own_claim(state.poll, seat)


def _result(state: DiuState) -> ResultView:
    winner = state.winner
    return {
        "reason": state.end_reason,
        "winner": winner,
        "card": state.card if winner is not None else None,
        "diu_cards": list(dict(state.diu_cards)[winner]) if winner is not None else None,
        "scores": list(state.final_scores),
        "hands": [list(h) for h in state.hands],
    }


def _prefetch(state: DiuState, seat: Seat | None) -> PrefetchView:
    """Sealed stock batches (S22): blobs up to the delivered mark, keys only of drawn cards
    this viewer saw drawn (open draws; its own supplement draws)."""
    cfg = state.config
    upto = delivered(state.drawn, len(state.stock), cfg.prefetch_batch, cfg.prefetch_refill_at)
    private = dict(state.private_draws)
    keys = {
        str(i): card_key(state.prefetch_secret, i)
        for i in range(state.drawn)
        if i not in private or (seat is not None and private[i] == seat)
    }
    sealed = [
        SealedView(i=i, nonce=state.sealed[i][0], blob=state.sealed[i][1], mac=state.sealed[i][2])
        for i in range(upto)
    ]
    return {"sealed": sealed, "keys": keys, "delivered": upto}
