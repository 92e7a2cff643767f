"""Per-seat views: what a client at ``seat`` (``None``: a spectator) may see, as JSON.

Private: each hand (only its owner sees it; others see counts), the kitty as dealt (only
the landlord, from the moment it is taken), the cards buried so far (only the seat that
buried them, the ``exchanger``: the landlord or, under ``kitty_theft``, the last thief);
the buried cards are shown to everyone once the hand is over. Public: bids,
flipped kitty cards, every played card and trick, failed throws with the attempted cards
(the blocker only under ``reveal_throw_blocker``), points, levels; in Finding Friends the
friend card and, once it is played, the friend (``landlord_team`` is the public side).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from operator import attrgetter
from typing import Any

from paiju.engines.shengji.cards import LEVEL_NAME
from paiju.engines.shengji.order import TrumpContext
from paiju.engines.shengji.play import final_points
from paiju.engines.shengji.schema import (
    BidView,
    FriendView,
    PlayView,
    ResultView,
    ShengjiView,
    ThrowFailureView,
    TrickView,
)
from paiju.engines.shengji.state import ShengjiState, ThrowFailure, Trick

#: Every view of a state as a spectator sees it, keys in the view's order: a viewer's view
#: is a copy with its own keys set (``build_view``).
Shared = dict[str, Any]


def build_view(
    state: ShengjiState,
    seat: int | None,
    legal: list[str],
    legal_complete: bool,
    to_act: Iterable[int],
    scores: tuple[int, ...],
    shared_of: Callable[[ShengjiState], Shared] | None = None,
) -> ShengjiView:
    """The JSON view; ``legal`` is the seat's sorted legal actions in notation, all of them
    when ``legal_complete``.

    What every viewer sees alike (``public_parts``) is built once per state when
    ``shared_of`` remembers it (the engine's ``LastOf``, built with the same ``to_act``),
    and each view is a copy of it with the viewer's own keys set: copying a dict keeps its
    keys' order, and setting a key it has keeps that key's place. The values are shared by
    the views, which are only read (encoded, digested)."""
    shared = shared_of(state) if shared_of is not None else public_parts(state, to_act)
    view: ShengjiView = shared.copy()  # type: ignore[assignment]  # every key, in order
    if seat is not None:
        view["seat"] = seat
        view["legal"] = legal
        view["legal_complete"] = legal_complete
        view["hand"] = list(_in_trump_order(state.hands[seat], state.ctx))
    holder = state.exchanger if state.exchanger is not None else state.landlord
    if state.phase == "over" or (seat is not None and seat == state.landlord and state.kitty):
        view["kitty"] = list(state.kitty) if seat == state.landlord else []
    if state.phase == "over" or (seat is not None and seat == holder and state.kitty):
        view["buried"] = list(state.buried)
    if state.phase == "over":
        view["result"] = ResultView(
            attacker_points=final_points(state),
            kitty_bonus=state.kitty_bonus,
            scores=list(scores),
            levels_after=[LEVEL_NAME[v] for v in state.new_levels or state.levels],
            next_landlord=state.next_landlord,
            match_winner=list(state.match_seats) if state.match_seats else state.match_winner,
        )
    return view


@lru_cache(maxsize=8192)
def _in_trump_order(hand: tuple[str, ...], ctx: TrumpContext) -> tuple[str, ...]:
    # A hand is shown in every state until its seat plays: put in order once, not per state.
    return tuple(sorted(hand, key=ctx.display_order))


def public_parts(
    state: ShengjiState,
    to_act: Iterable[int],
    before: tuple[ShengjiState, Shared] | None = None,
) -> Shared:
    """The view of a spectator (no seat, no legal actions, no hand). ``before``: an earlier
    state and its spectator view, whose parts are kept where this state has the same fields
    (the values are only read): the options and bids do not change in play, and a hand only
    adds tricks and failed throws."""
    earlier, shown = before if before is not None else (None, {})
    same_options = earlier is not None and earlier.options == state.options
    failures: tuple[tuple[ThrowFailure, ...], list[ThrowFailureView]] = ((), [])
    if earlier is not None and same_options:  # a failure's view shows an option
        failures = earlier.failures, shown["throw_failures"]
    return {
        "variant": "shengji",
        "phase": state.phase,
        "seat": None,
        "to_act": sorted(to_act),
        "legal": [],
        "legal_complete": True,
        "options": shown["options"] if same_options else dict(state.options),
        "hand_no": state.hand_no,
        "levels": [LEVEL_NAME[v] for v in state.levels],
        "level": LEVEL_NAME[state.level],
        "landlord": state.landlord,
        "exchanger": state.exchanger,
        "declarers": _declarers(state),
        "landlord_team": sorted(state.landlord_team()) if state.landlord is not None else [],
        "friend": _friend(state),
        "trump_suit": state.trump_suit,
        "trump_set": state.trump_set,
        "bids": (
            shown["bids"]
            if earlier is not None and earlier.bids == state.bids
            else [BidView(seat=b.seat, cards=[b.card] * b.count) for b in state.bids]
        ),
        "flipped": list(state.flipped),
        "dealt": state.dealt,
        "hand_counts": [len(h) for h in state.hands],
        "hand": [],
        "leader": state.leader,
        "trick": [PlayView(seat=p.seat, cards=list(p.cards)) for p in state.trick],
        "lead_format": [[u.width, u.length] for u in state.lead_units],
        "tricks": _tricks(
            state.tricks, (earlier.tricks, shown["tricks"]) if earlier is not None else ((), [])
        ),
        "attacker_points": state.attacker_points,
        "penalty": state.penalty,
        "throw_failures": _failures(state, failures),
        "buried_count": len(state.buried),
    }


#: Every field ``public_parts`` reads, directly or through the state's methods and cached
#: values: two states equal in all of them have the same public parts but for ``to_act``.
PUBLIC_FIELDS = (
    "phase", "options", "hand_no", "levels", "level", "landlord", "exchanger", "friend",
    "friend_seen", "friend_seat", "trump_suit", "trump_set", "bids", "flipped", "dealt",
    "hands", "leader", "trick", "lead_units", "tricks", "attacker_points", "penalty",
    "failures", "buried",
)
_public_fields = attrgetter(*PUBLIC_FIELDS)


class SpectatorViews:
    """The spectator view (``public_parts``) of the last state asked, for one table's
    engine: its viewers are shown each state in a row. Kept from the state before when
    nothing public changed (a pass in a bidding window changes only who is to act): only
    ``to_act`` is set anew."""

    __slots__ = ("_public", "_shared", "_state", "_to_act")

    def __init__(self, to_act: Callable[[ShengjiState], Iterable[int]]) -> None:
        self._to_act = to_act
        self._state: ShengjiState | None = None
        self._public: tuple[Any, ...] = ()
        self._shared: Shared = {}

    def __call__(self, state: ShengjiState) -> Shared:
        if state is self._state:
            return self._shared
        public = _public_fields(state)
        if self._state is not None and public == self._public:
            shared = self._shared.copy()
            shared["to_act"] = sorted(self._to_act(state))
        elif self._state is not None:
            shared = public_parts(state, self._to_act(state), (self._state, self._shared))
        else:
            shared = public_parts(state, self._to_act(state))
        self._state, self._public, self._shared = state, public, shared
        return shared


def _tricks(
    tricks: tuple[Trick, ...], shown: tuple[tuple[Trick, ...], list[TrickView]]
) -> list[TrickView]:
    """The finished tricks' views: those of ``shown`` while its tricks begin these (a hand
    adds a trick every four plays; showing all 25 anew in every state was most of a late
    spectator view)."""
    before, views = shown
    kept = len(before) if tricks[: len(before)] == before else 0
    return views[:kept] + [
        TrickView(
            plays=[PlayView(seat=p.seat, cards=list(p.cards)) for p in t.plays],
            winner=t.winner,
            points=t.points,
        )
        for t in tricks[kept:]
    ]


def _declarers(state: ShengjiState) -> int | None:
    """The declaring team (0 or 1); ``None`` before a landlord and in Finding Friends."""
    if state.landlord is None or state.friends_mode:
        return None
    return state.declarers


def _friend(state: ShengjiState) -> FriendView | None:
    """The named friend card (public) and the seat that played it, once it has."""
    if state.friend is None:
        return None
    card, nth = state.friend
    return FriendView(cards=[card] * nth, seen=state.friend_seen, seat=state.friend_seat)


def _failures(
    state: ShengjiState, shown: tuple[tuple[ThrowFailure, ...], list[ThrowFailureView]]
) -> list[ThrowFailureView]:
    """The failed throws' views: those of ``shown`` (an earlier state's, under the same
    options) while its failures begin these, as the tricks' views are kept."""
    before, views = shown
    kept = len(before) if state.failures[: len(before)] == before else 0
    return views[:kept] + [_failure(f, state) for f in state.failures[kept:]]


def _failure(failure: ThrowFailure, state: ShengjiState) -> ThrowFailureView:
    out = ThrowFailureView(
        code="throw_blocked",
        seat=failure.seat,
        attempted=list(failure.attempted),
        forced=list(failure.forced),
        penalty=failure.penalty,
    )
    if state.opts["reveal_throw_blocker"]:
        out["blocker"] = failure.blocker
    return out
