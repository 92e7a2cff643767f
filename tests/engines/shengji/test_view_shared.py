"""The views share what every viewer sees alike (built once per state) and stay exactly the
views built straightforwardly, viewer by viewer: the same JSON bytes, keys in the same order.

``plain_view`` is the builder as it was before the sharing, kept here as the reference."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.shengji import actions as notation
from paiju.engines.shengji.cards import LEVEL_NAME
from paiju.engines.shengji.engine import ShengjiEngine
from paiju.engines.shengji.play import final_points
from paiju.engines.shengji.state import ShengjiState
from paiju.engines.shengji.view import _declarers, _failure, _friend

ENGINE = ShengjiEngine()
OPTIONS = [
    {},
    {"game_mode": "finding_friends"},
    {"kitty_theft": True, "reveal_throw_blocker": True},
]


def plain_view(state: ShengjiState, seat: int | None) -> dict[str, Any]:
    """Every key built for this viewer alone, in the view's order."""
    legal: list[str] = []
    complete = True
    to_act: Iterable[int] = ENGINE.to_act(state)
    if seat is not None and seat in to_act:
        listed = ENGINE.legal_actions(state, seat)
        complete = ENGINE.legal_complete(state, seat)
        legal = sorted(notation.format_action(a) for a in listed)
    ctx = state.ctx
    view: dict[str, Any] = {
        "variant": "shengji",
        "phase": state.phase,
        "seat": seat,
        "to_act": sorted(to_act),
        "legal": legal,
        "legal_complete": complete,
        "options": dict(state.options),
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
        "bids": [{"seat": b.seat, "cards": [b.card] * b.count} for b in state.bids],
        "flipped": list(state.flipped),
        "dealt": state.dealt,
        "hand_counts": [len(h) for h in state.hands],
        "hand": sorted(state.hands[seat], key=ctx.sort_key) if seat is not None else [],
        "leader": state.leader,
        "trick": [{"seat": p.seat, "cards": list(p.cards)} for p in state.trick],
        "lead_format": [[u.width, u.length] for u in state.lead_units],
        "tricks": [
            {
                "plays": [{"seat": p.seat, "cards": list(p.cards)} for p in t.plays],
                "winner": t.winner,
                "points": t.points,
            }
            for t in state.tricks
        ],
        "attacker_points": state.attacker_points,
        "penalty": state.penalty,
        "throw_failures": [_failure(f, state) for f in state.failures],
        "buried_count": len(state.buried),
    }
    holder = state.exchanger if state.exchanger is not None else state.landlord
    if state.phase == "over" or (seat is not None and seat == state.landlord and state.kitty):
        view["kitty"] = list(state.kitty) if seat == state.landlord else []
    if state.phase == "over" or (seat is not None and seat == holder and state.kitty):
        view["buried"] = list(state.buried)
    if state.phase == "over":
        view["result"] = {
            "attacker_points": final_points(state),
            "kitty_bonus": state.kitty_bonus,
            "scores": list(ENGINE.scores(state)),
            "levels_after": [LEVEL_NAME[v] for v in state.new_levels or state.levels],
            "next_landlord": state.next_landlord,
            "match_winner": list(state.match_seats) if state.match_seats else state.match_winner,
        }
    return view


def random_hand(options: dict[str, Any], seed: int) -> list[ShengjiState]:
    """Every state of a hand of random legal play."""
    opts = ENGINE.normalize_options(options)
    chooser = random.Random(seed)
    state = ENGINE.initial_state(opts, SeededRng(f"shared/{seed}"), MatchInfo(0, (0,) * 4))
    states = [state]
    while not ENGINE.is_terminal(state):
        seat = chooser.choice(sorted(ENGINE.to_act(state)))
        listed = sorted(ENGINE.legal_actions(state, seat), key=notation.format_action)
        state = ENGINE.apply(state, seat, chooser.choice(listed)).state
        states.append(state)
    return states


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), options=st.sampled_from(OPTIONS), order=st.randoms())
def test_views_equal_the_views_built_viewer_by_viewer(
    seed: int, options: dict[str, Any], order: random.Random
) -> None:
    viewers: list[int | None] = [None, 0, 1, 2, 3]
    for state in random_hand(options, seed):
        order.shuffle(viewers)  # whichever viewer comes first builds the shared part
        for seat in viewers:
            shown = orjson.dumps(ENGINE.view(state, seat))
            assert shown == orjson.dumps(plain_view(state, seat)), (state.phase, seat)
