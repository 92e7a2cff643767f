"""Random legal games for the conformance suite, played once and shared by its checks.

A game is its variant, options, seed and the actions chosen by a ``random.Random(seed)``
among the seats to act and their listed actions (OpenSpiel's random simulation). Games are
cached per process, so each check reads the same trajectory instead of replaying it.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

from paiju.core.rng import SeededRng
from paiju.engines.base import Engine, Event, MatchInfo
from paiju.engines.registry import get_variant
from paiju.engines.variant import Variant

MAX_STEPS = 5000

#: Seeds per variant: a fast set for every ``make test``, many more under the nightly profile.
NIGHTLY = os.environ.get("HYPOTHESIS_PROFILE") == "nightly"
SEEDS = range(200 if NIGHTLY else 12)


@dataclass(frozen=True)
class Step:
    """One move of a game: the state before it, who acted, what, and what it produced."""

    state: Any
    seat: int
    action: Any
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Game:
    """A whole hand: its steps and the final state."""

    variant: Variant[Any, Any]
    engine: Engine[Any, Any]
    options: dict[str, Any]
    steps: tuple[Step, ...]
    final: Any

    @property
    def seats(self) -> range:
        return range(self.engine.seat_count(self.options))

    def states(self) -> list[Any]:
        """Every state of the hand, the final one included."""
        return [s.state for s in self.steps] + [self.final]


def first_hand(engine: Engine[Any, Any], options: dict[str, Any], seed: int) -> Any:
    """Hand 0 of a match with ``seed``."""
    match = MatchInfo(hand=0, totals=(0,) * engine.seat_count(options))
    return engine.initial_state(options, SeededRng(f"conf/{seed}").derive("0"), match)


def choose(engine: Engine[Any, Any], state: Any, chooser: random.Random) -> tuple[int, Any]:
    """A seat to act and one of its listed actions, drawn from ``chooser``."""
    seats = sorted(engine.to_act(state))
    assert seats, "a hand that is not over must wait for some seat"
    seat = chooser.choice(seats)
    actions = sorted(engine.legal_actions(state, seat), key=engine.format_action)
    assert actions, f"seat {seat} is to act but has no legal action"
    return seat, chooser.choice(actions)


def play_hand(
    engine: Engine[Any, Any], state: Any, chooser: random.Random
) -> tuple[tuple[Step, ...], Any]:
    """Random legal play from ``state`` to the end of the hand: the steps, the final state."""
    steps: list[Step] = []
    for _ in range(MAX_STEPS):
        if engine.is_terminal(state):
            return tuple(steps), state
        seat, action = choose(engine, state, chooser)
        step = engine.apply(state, seat, action)
        steps.append(Step(state, seat, action, step.events))
        state = step.state
    raise AssertionError(f"the hand did not end within {MAX_STEPS} actions")


@cache
def game(variant: str, seed: int, options_json: str = "{}") -> Game:
    """The random game of ``variant`` under ``options_json`` (raw options as JSON)."""
    registered = get_variant(variant)
    engine = registered.engine()
    options = engine.normalize_options(json.loads(options_json))
    steps, final = play_hand(engine, first_hand(engine, options, seed), random.Random(seed))
    return Game(registered, engine, options, steps, final)


def sample(steps: tuple[Step, ...], every: int, seed: int) -> list[Step]:
    """Every ``every``-th step (offset by the seed), and always the first and the last."""
    picked = {0, len(steps) - 1, *range(seed % every, len(steps), every)}
    return [steps[i] for i in sorted(picked)]
