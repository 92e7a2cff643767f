"""The views share what every viewer sees alike (built once per state) and stay exactly the
views built straightforwardly, viewer by viewer: the same JSON bytes, keys in the same order.

``plain_view`` is the builder as it was before the sharing, kept here as the reference."""

from __future__ import annotations

import random
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.diu.flow import public_to_act, question
from paiju.engines.diu.state import DiuState
from paiju.engines.diu.view import (
    _last,
    _legal,
    _my_call,
    _polled_card,
    _prefetch,
    _result,
    _table_rules,
    role_of,
    timer_kind,
)
from tests.engines.diu.helpers import ENGINE

OPTIONS = [
    {},
    {"players": 4, "poll_mode": "parallel"},
    {"prefetch_mode": "encrypted", "dead_card_visible": False},
]


def plain_view(state: DiuState, seat: int | None) -> dict[str, Any]:
    """Every key built for this viewer alone, in the view's order."""
    n = state.config.players
    shown = set(public_to_act(state))
    if seat is not None and question(state, seat):
        shown.add(seat)
    view: dict[str, Any] = {
        "variant": "diu",
        "hand_no": state.hand_no,
        "seat": seat,
        "players": n,
        "table": _table_rules(state),
        "roles": [role_of(state, s) for s in range(n)],
        "active": list(state.active),
        "idle": state.idle,
        "phase": state.phase,
        "to_act": sorted(shown),
        "asked": question(state, seat) if seat is not None else "",
        "timer": timer_kind(state, seat) if seat is not None else None,
        "hand": list(state.hands[seat]) if seat is not None else None,
        "hand_counts": [len(h) for h in state.hands],
        "melds": [[list(m) for m in ms] for ms in state.melds],
        "dead": list(state.dead) if state.config.dead_card_visible else None,
        "dead_count": len(state.dead),
        "stock_count": len(state.stock) - state.drawn,
        "card": _polled_card(state),
        "my_call": _my_call(state, seat),
        "last": _last(state),
        "legal": _legal(state, seat),
        "legal_complete": True,
    }
    if state.phase == "over":
        view["result"] = _result(state)
    if state.config.prefetch_mode == "encrypted":
        view["prefetch"] = _prefetch(state, seat)
    return view


def random_hand(options: dict[str, Any], seed: int) -> list[DiuState]:
    """Every state of a hand of random legal play."""
    opts = ENGINE.normalize_options(options)
    n = ENGINE.seat_count(opts)
    chooser = random.Random(seed)
    state = ENGINE.initial_state(opts, SeededRng(f"shared/{seed}"), MatchInfo(0, (0,) * n))
    states = [state]
    while not ENGINE.is_terminal(state):
        seat = chooser.choice(sorted(ENGINE.to_act(state)))
        listed = sorted(ENGINE.legal_actions(state, seat), key=ENGINE.format_action)
        state = ENGINE.apply(state, seat, chooser.choice(listed)).state
        states.append(state)
    return states


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), options=st.sampled_from(OPTIONS), order=st.randoms())
def test_views_equal_the_views_built_viewer_by_viewer(
    seed: int, options: dict[str, Any], order: random.Random
) -> None:
    for state in random_hand(options, seed):
        viewers: list[int | None] = [None, *range(state.config.players)]
        order.shuffle(viewers)  # whichever viewer comes first builds the shared part
        for seat in viewers:
            shown = orjson.dumps(ENGINE.view(state, seat))
            assert shown == orjson.dumps(plain_view(state, seat)), (state.phase, seat)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), options=st.sampled_from(OPTIONS), order=st.randoms())
def test_views_of_states_out_of_order_keep_nothing_of_the_state_before(
    seed: int, options: dict[str, Any], order: random.Random
) -> None:
    """The engine keeps parts of the spectator view of the state it viewed before (the
    options, roles, melds, dead cards, last outcome while the state holds the same ones): states of
    two hands viewed in any order, each right after an unrelated one, are still shown as
    built viewer by viewer."""
    states = random_hand(options, seed) + random_hand(options, seed + 1)
    order.shuffle(states)
    for state in states:
        for seat in (None, *range(state.config.players)):
            shown = orjson.dumps(ENGINE.view(state, seat))
            assert shown == orjson.dumps(plain_view(state, seat)), (state.phase, seat)
