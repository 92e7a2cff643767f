"""The conformance suite every registered engine must pass (OpenSpiel's random-simulation
test is the model): random legal play to the end of a hand, over many seeds.

Each variant supplies ``tests/conformance/adapter_<variant>.py`` with
``hidden_leaks(engine, state) -> list[str]``: the places where some seat's view shows a
tile or card that seat may not see (empty when there is no leak).
"""

from __future__ import annotations

import copy
import importlib
import json
import random
from typing import Any

import pytest

from paiju.core.errors import GameError, NotYourTurn
from paiju.core.rng import SeededRng
from paiju.engines.base import Engine, MatchInfo, get_engine, variants

SEEDS = range(200)
MAX_STEPS = 5000


def _first_hand(engine: Engine[Any, Any], seed: int) -> tuple[Any, dict[str, Any]]:
    options = engine.normalize_options({})
    match = MatchInfo(hand=0, totals=(0,) * engine.seat_count(options))
    return engine.initial_state(options, SeededRng(f"conf/{seed}").derive("0"), match), options


def _pick(engine: Engine[Any, Any], state: Any, chooser: random.Random) -> tuple[int, Any]:
    seats = sorted(engine.to_act(state))
    assert seats, "a non-terminal state must wait for some seat"
    seat = chooser.choice(seats)
    actions = sorted(engine.legal_actions(state, seat), key=engine.format_action)
    assert actions, f"seat {seat} is to act but has no legal action"
    return seat, chooser.choice(actions)


def _leak_check(variant: str) -> Any:
    adapter = importlib.import_module(f"tests.conformance.adapter_{variant}")
    return adapter.hidden_leaks


def _play(engine: Engine[Any, Any], seed: int, *, checks: bool) -> tuple[Any, list[Any]]:
    state, _ = _first_hand(engine, seed)
    chooser = random.Random(seed)
    log: list[tuple[int, Any]] = []
    leaks = _leak_check(engine.name) if checks else None
    for _ in range(MAX_STEPS):
        if engine.is_terminal(state):
            return state, log
        if leaks is not None:
            assert leaks(engine, state) == []
        seat, action = _pick(engine, state, chooser)
        text = engine.format_action(action)
        assert engine.parse_action(text) == action, f"notation does not round-trip: {text}"
        before = copy.deepcopy(state) if checks else None
        step = engine.apply(state, seat, action)
        if before is not None:
            assert state == before, "apply mutated its input state"
            assert engine.version(step.state) > engine.version(state)
        log.append((seat, action))
        state = step.state
    pytest.fail(f"the hand did not end within {MAX_STEPS} actions")


@pytest.mark.parametrize("variant", variants())
@pytest.mark.parametrize("seed", SEEDS)
def test_random_legal_play_ends(variant: str, seed: int) -> None:
    engine = get_engine(variant)
    state, _ = _play(engine, seed, checks=True)
    assert engine.is_terminal(state)
    options = engine.normalize_options({})
    assert len(engine.scores(state)) == engine.seat_count(options)
    assert _leak_check(variant)(engine, state) == []
    json.dumps(engine.view(state, None))
    json.dumps(engine.carry(state))
    assert engine.to_act(state) == frozenset()


@pytest.mark.parametrize("variant", variants())
@pytest.mark.parametrize("seed", range(0, 200, 10))
def test_replaying_the_log_gives_the_same_game(variant: str, seed: int) -> None:
    engine = get_engine(variant)
    final, log = _play(engine, seed, checks=False)
    again, _ = _first_hand(engine, seed)
    first, _ = _first_hand(engine, seed)
    assert first == again, "the same seed must deal the same hand"
    for seat, action in log:
        again = engine.apply(again, seat, engine.parse_action(engine.format_action(action))).state
    assert again == final


@pytest.mark.parametrize("variant", variants())
def test_views_are_json_and_differ_only_by_seat(variant: str) -> None:
    engine = get_engine(variant)
    state, options = _first_hand(engine, 7)
    for seat in [None, *range(engine.seat_count(options))]:
        view = engine.view(state, seat)
        assert isinstance(view, dict)
        assert "legal" in view
        json.dumps(view)


@pytest.mark.parametrize("variant", variants())
@pytest.mark.parametrize("seed", range(5))
def test_seat_not_to_act_is_refused(variant: str, seed: int) -> None:
    """Somewhere in a hand a seat is idle (or has answered): it may not act and has no actions."""
    engine = get_engine(variant)
    state, options = _first_hand(engine, seed)
    chooser = random.Random(seed)
    checked = 0
    for _ in range(MAX_STEPS):
        if engine.is_terminal(state) or checked >= 3:
            break
        waiting = engine.to_act(state)
        idle = [s for s in range(engine.seat_count(options)) if s not in waiting]
        if idle:
            seat = min(waiting)
            action = sorted(engine.legal_actions(state, seat), key=engine.format_action)[0]
            with pytest.raises(NotYourTurn):
                engine.apply(state, idle[0], action)
            assert engine.legal_actions(state, idle[0]) == frozenset()
            checked += 1
        seat, action = _pick(engine, state, chooser)
        state = engine.apply(state, seat, action).state
    assert checked, "no state of the hand had an idle seat"


@pytest.mark.parametrize("variant", variants())
def test_unknown_options_are_refused(variant: str) -> None:
    engine = get_engine(variant)
    with pytest.raises(GameError) as info:
        engine.normalize_options({"no_such_option": 1})
    assert info.value.code == "invalid_options"
