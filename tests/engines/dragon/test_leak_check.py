"""The conformance leak check for dragon catches the leaks it is there for."""

from __future__ import annotations

from typing import Any

from paiju.core.rng import ScriptedRng
from paiju.engines.base import MatchInfo
from paiju.engines.dragon.conformance import hidden_leaks
from paiju.engines.dragon.engine import DragonEngine
from paiju.engines.dragon.state import DragonState
from paiju.engines.dragon.tiles import tile_code


class LeakyEngine(DragonEngine):
    """Shows seat 1's tiles to everyone."""

    def view(self, state: DragonState, seat: int | None) -> dict[str, Any]:
        view = super().view(state, seat)
        view["peek"] = [tile_code(k) for k in state.hands[1]]
        return view


class LeakySubmission(DragonEngine):
    """Shows what seat 2 submitted to the other seats."""

    def view(self, state: DragonState, seat: int | None) -> dict[str, Any]:
        view = super().view(state, seat)
        other = state.submissions[2]
        if other is not None and seat != 2:
            view["players"][2]["what"] = self.format_action(other)
        return view


def deal(engine: DragonEngine) -> DragonState:
    opts = engine.normalize_options({})
    return engine.initial_state(opts, ScriptedRng(), MatchInfo(0, (0,) * 4))


def test_an_honest_engine_has_no_leaks() -> None:
    engine = DragonEngine()
    assert hidden_leaks(engine, deal(engine)) == []


def test_a_shown_hand_is_caught() -> None:
    engine = LeakyEngine()
    leaks = hidden_leaks(engine, deal(engine))
    assert leaks and all("peek" in leak for leak in leaks)


def test_a_shown_submission_is_caught() -> None:
    engine = LeakySubmission()
    state = deal(engine)
    state = engine.apply(state, 2, engine.timeout_action(state, 2)).state
    assert any("what" in leak for leak in hidden_leaks(engine, state))
