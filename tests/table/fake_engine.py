"""A tiny engine for table tests: every seat says "go" at once (a simultaneous decision),
then the seats take turns adding 1 or 2; whoever reaches the target wins the hand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, TypedDict

from paiju.core.errors import IllegalAction, InvalidOptions, MalformedAction
from paiju.core.rng import Rng
from paiju.engines.base import EngineDefaults, Event, MatchInfo, Step
from paiju.engines.variant import Variant


@dataclass(frozen=True)
class RaceState:
    seats: int
    target: int
    phase: str  # "vote", "play", "done"
    voted: frozenset[int]
    total: int
    turn: int
    winner: int | None
    version: int
    secret: tuple[int, ...]  # one private number per seat, to test views


class RaceView(TypedDict):
    phase: str
    total: int
    secret: int | None
    legal: list[str]
    legal_complete: bool


class AddedEvent(TypedDict):
    seat: int
    total: int


class RaceEngine(EngineDefaults[RaceState, str]):
    name = "race"

    def normalize_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(raw) - {"seats", "target", "hands"}
        if unknown:
            raise InvalidOptions(f"unknown options {sorted(unknown)}")
        return {"seats": 2, "target": 5, "hands": 2, **raw}

    def seat_count(self, options: Mapping[str, Any]) -> int:
        return int(options["seats"])

    def initial_state(self, options: Mapping[str, Any], rng: Rng, match: MatchInfo) -> RaceState:
        n = int(options["seats"])
        secret = tuple(rng.randbelow(1000) for _ in range(n))
        first = match.hand % n
        return RaceState(n, int(options["target"]), "vote", frozenset(), 0, first, None, 0, secret)

    def version(self, state: RaceState) -> int:
        return state.version

    def to_act(self, state: RaceState) -> frozenset[int]:
        if state.phase == "vote":
            return frozenset(range(state.seats)) - state.voted
        return frozenset({state.turn}) if state.phase == "play" else frozenset()

    def public_to_act(self, state: RaceState) -> frozenset[int]:
        """Who is voting is private (as who may claim a discard is in mahjong)."""
        return frozenset() if state.phase == "vote" else self.to_act(state)

    def legal_actions(self, state: RaceState, seat: int) -> frozenset[str]:
        if seat not in self.to_act(state):
            return frozenset()
        return frozenset({"go"}) if state.phase == "vote" else frozenset({"add 1", "add 2"})

    def refusal(self, state: RaceState, seat: int, action: str) -> IllegalAction:
        return IllegalAction(f"{action!r} is not legal now", code="not_legal_here")

    def apply(self, state: RaceState, seat: int, action: str) -> Step[RaceState]:
        action = self.check_action(state, seat, action)
        v = state.version + 1
        if state.phase == "vote":
            voted = state.voted | {seat}
            phase = "play" if len(voted) == state.seats else "vote"
            return Step(replace(state, voted=voted, phase=phase, version=v))
        total = state.total + int(action.split()[1])
        event = Event("added", AddedEvent(seat=seat, total=total))
        if total >= state.target:
            done = replace(state, total=total, phase="done", winner=seat, version=v)
            return Step(done, (event,))
        nxt = (state.turn + 1) % state.seats
        return Step(replace(state, total=total, turn=nxt, version=v), (event,))

    def view(self, state: RaceState, seat: int | None) -> RaceView:
        return RaceView(
            phase=state.phase,
            total=state.total,
            secret=state.secret[seat] if seat is not None else None,
            legal=sorted(self.legal_actions(state, seat)) if seat is not None else [],
            legal_complete=True,
        )

    def timeout_action(self, state: RaceState, seat: int) -> str:
        return "go" if state.phase == "vote" else "add 1"

    def timer_kind(self, state: RaceState, seat: int) -> str:
        return "claim" if state.phase == "vote" else "turn"

    def is_terminal(self, state: RaceState) -> bool:
        return state.phase == "done"

    def scores(self, state: RaceState) -> tuple[int, ...]:
        if state.winner is None:
            return (0,) * state.seats
        return tuple(state.seats - 1 if s == state.winner else -1 for s in range(state.seats))

    def carry(self, state: RaceState) -> dict[str, Any]:
        return {"last_winner": state.winner}

    def match_over(self, options: Mapping[str, Any], match: MatchInfo) -> bool:
        return match.hand >= int(options["hands"])

    def parse_action(self, text: str) -> str:
        if text not in ("go", "add 1", "add 2"):
            raise MalformedAction(f"cannot read {text!r}")
        return text

    def format_action(self, action: str) -> str:
        return action


class FirstLegalBot:
    def choose(self, view: Mapping[str, Any]) -> str:
        return str(view["legal"][-1])


#: The race variant, registered for the server and CLI tests by ``tests.conftest``.
VARIANT = Variant[RaceState, str](
    name="race",
    engine=RaceEngine,
    view=RaceView,
    events={"added": AddedEvent},
    error_codes={"not_legal_here": "an action the race does not allow now"},
)
