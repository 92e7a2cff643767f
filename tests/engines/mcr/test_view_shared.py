"""The views share what they can (each seat's public part is built once per state, and a
seat's own view takes that part too unless a concealed kong of it is face down to the
others) and stay exactly the views built straightforwardly, viewer by viewer: the same JSON
bytes. Every dict of a view is built with its keys in sorted order (the order the table
writes them in, which then costs orjson less): written as they are, the engine's views are
the plain views written with sorted keys."""

from __future__ import annotations

import random
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.mcr.actions import format_action
from paiju.engines.mcr.engine import McrEngine
from paiju.engines.mcr.state import ANGANG_MELD, OVER, McrState
from paiju.engines.mcr.tiles import tile_code
from paiju.engines.mcr.view import (
    WIND_CODES,
    _codes,
    _facts,
    _last_discard,
    _player,
    _river,
    _visible_to_act,
    _winning_tiles,
    win_json,
)

ENGINE = McrEngine()


def plain_view(state: McrState, viewer: int | None) -> dict[str, Any]:
    """Every seat's part built for this viewer alone, in the view's order."""
    rules = state.rules
    to_act = ENGINE.to_act(state)
    legal = ENGINE.legal_actions(state, viewer) if viewer is not None else frozenset()
    view: dict[str, Any] = {
        "variant": "mcr",
        "options": {
            "multiple_win": rules.multiple_win,
            "concealed_and_melded_kong_5": rules.concealed_and_melded_kong_5,
            "min_fan": rules.min_fan,
            "rounds": rules.rounds,
            "claim_prompts": rules.claim_prompts,
        },
        "seat": viewer,
        "phase": state.phase,
        "hand_index": state.hand_index,
        "prevalent_wind": WIND_CODES[state.prevalent],
        "dealer": state.dealer,
        "order": list(state.order),
        "current": state.current,
        "to_act": _visible_to_act(state, viewer, to_act),
        "wall_count": len(state.wall),
        "players": [_player(state, s, viewer) for s in range(4)],
        "legal": sorted(format_action(a) for a in legal),
        "legal_complete": True,
        "last_discard": _last_discard(state),
    }
    if viewer is not None:
        view["hand"] = _codes(state.hands[viewer])
        view["winning_tiles"] = _winning_tiles(state, viewer)
        own_turn = state.current == viewer and state.drawn is not None and state.phase == "turn"
        view["drawn"] = tile_code(state.drawn) if own_turn and state.drawn is not None else None
    window = state.window
    if window is not None:
        mine = dict(window.responses).get(viewer) if viewer is not None else None
        view["claim"] = {
            "tile": tile_code(window.tile),
            "from": window.source,
            "kind": state.phase,
            "answered": format_action(mine) if mine is not None else None,
        }
    if state.phase == OVER:
        view["result"] = {
            "wins": [win_json(w) for w in state.wins],
            "scores": list(state.result),
            "exhaustive_draw": not state.wins,
        }
    return view


def random_hand(seed: int, chooser: random.Random) -> list[McrState]:
    """Every state of a hand of random legal play that takes every kong and claim it can (a
    concealed kong is what a seat's own part shows otherwise than the others')."""
    opts = ENGINE.normalize_options({})
    state = ENGINE.initial_state(opts, SeededRng(f"shared/{seed}"), MatchInfo(0, (0,) * 4))
    states = [state]
    while not ENGINE.is_terminal(state):
        seat = chooser.choice(sorted(ENGINE.to_act(state)))
        texts = sorted(format_action(a) for a in ENGINE.legal_actions(state, seat))
        eager = [t for t in texts if t.split()[0] in ("angang", "bugang", "gang", "peng")]
        text = chooser.choice(eager or texts)
        state = ENGINE.apply(state, seat, ENGINE.parse_action(text)).state
        states.append(state)
    return states


def check_views(states: list[McrState], order: random.Random) -> None:
    for state in states:
        viewers: list[int | None] = [None, 0, 1, 2, 3]
        order.shuffle(viewers)  # whichever viewer comes first builds the shared parts
        for seat in viewers:
            shown = orjson.dumps(ENGINE.view(state, seat))  # (as built: not sorted here)
            plain = orjson.dumps(plain_view(state, seat), option=orjson.OPT_SORT_KEYS)
            assert shown == plain, (state.phase, seat)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), order=st.randoms())
def test_views_equal_the_views_built_viewer_by_viewer(seed: int, order: random.Random) -> None:
    check_views(random_hand(seed, order), order)


def face_down(state: McrState) -> bool:
    return state.phase != OVER and any(m.kind == ANGANG_MELD for ms in state.melds for m in ms)


def test_views_with_a_face_down_kong_equal_the_views_built_viewer_by_viewer() -> None:
    """Hands (found by their seeds) where a seat holds a concealed kong for a while."""
    for seed in (2, 16, 17):
        states = random_hand(seed, random.Random(seed))
        assert any(face_down(s) for s in states), "the seed no longer makes a concealed kong"
        check_views(states, random.Random(seed))


def test_a_seats_part_is_kept_from_the_last_state_while_its_inputs_stay_equal() -> None:
    """An action changes one or two seats' public parts: the others are the parts made for
    the state before (the same objects), and every part equals one made afresh."""
    engine = McrEngine()  # a memo of its own: the parts met are this test's only
    states = random_hand(7, random.Random(7))
    kept = 0
    before: list[Any] | None = None
    for state in states:
        engine.view(state, None)
        parts = list(engine._public.players)
        assert parts == [_player(state, s, None) for s in range(4)], state.phase
        if before is not None:
            kept += sum(part is old for part, old in zip(parts, before, strict=True))
        before = parts
    # most seats' parts are unchanged by most actions (not only by the last one)
    assert kept > 2 * len(states)
    assert states[-1].phase == OVER and all("hand" in part for part in before or [])


def test_a_river_grown_by_one_discard_keeps_the_codes_before_it() -> None:
    """A part's river codes: kept when the river is equal, the codes so far and the new one
    when one discard joined it, else written anew (a shorter or another river)."""
    codes = _codes((0, 9, 27))
    assert _river((0, 9, 27), (0, 9, 27), codes) is codes
    grown = _river((0, 9, 27, 33), (0, 9, 27), codes)
    assert grown == _codes((0, 9, 27, 33)) and grown is not codes
    assert codes == _codes((0, 9, 27))  # (the kept list is not changed in place)
    assert _river((0, 9), (0, 9, 27), codes) == _codes((0, 9))
    assert _river((0, 9, 28, 33), (0, 9, 27), codes) == _codes((0, 9, 28, 33))
    assert _river((1, 9, 27, 33), (0, 9, 27), codes) == _codes((1, 9, 27, 33))


def test_an_answer_in_a_claim_window_shows_in_its_seats_view_alone() -> None:
    """Under ``claim_prompts = "all"`` three seats are asked: once one has answered, its
    view's claim names the answer, every other viewer's claim (one shared part) does not."""
    engine = McrEngine()
    opts = engine.normalize_options({"claim_prompts": "all"})
    state = engine.initial_state(opts, SeededRng("claim/1"), MatchInfo(0, (0,) * 4))
    dealer = state.current
    state = engine.apply(state, dealer, sorted(engine.legal_actions(state, dealer))[0]).state
    asked = sorted(engine.to_act(state))
    assert len(asked) == 3 and dealer not in asked
    state = engine.apply(state, asked[0], engine.parse_action("pass")).state
    claims = {seat: engine.view(state, seat)["claim"] for seat in (None, 0, 1, 2, 3)}
    assert claims[asked[0]]["answered"] == "pass"
    others = [claims[seat] for seat in claims if seat != asked[0]]
    assert all(claim["answered"] is None for claim in others)
    assert all(claim == others[0] for claim in others)
    assert claims[asked[0]] | {"answered": None} == others[0]


def test_the_public_facts_are_kept_while_they_stay_equal() -> None:
    """The facts of a state (options, order, winds, marked discard, result) are those made
    afresh for it; while they stay equal they are the last state's, one object."""
    states = random_hand(11, random.Random(11))
    kept = 0
    last = None
    for state in states:
        facts = _facts(state, last)
        fresh = _facts(state)
        assert facts == fresh, state.phase
        kept += facts is last
        last = facts
    assert states[-1].phase == OVER and last is not None and last.result is not None
    assert 0 < kept < len(states) - 1
