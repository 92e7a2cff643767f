"""How many seats a secret poll asked must not show in anything a viewer receives.

Under MCR's default ``claim_prompts = "eligible"`` only the seats that can claim a discard
are asked, each answer a new engine state. The view once carried the engine's own version,
which grew by exactly the number of seats asked, so every player and spectator could count
the hands able to claim the tile. Here the same claim window is played twice through a
table, once with one asked seat fewer (same public facts, one hand less able to claim):
what a spectator and a seat that was not asked receive — state messages, events, their
counts, order and versions — must be identical.

Diu's polls ask seats in secret too (the call round, the 丢 re-ask): there each answer that
does not settle the poll must send nothing to anybody but the answering seat and the seats it
makes the poll ask next (which learn of their own decision, nothing more).
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import replace
from typing import Any

from paiju.engines.base import Engine
from paiju.engines.mcr.engine import McrEngine
from paiju.engines.mcr.state import McrState
from paiju.engines.registry import get_engine
from paiju.table.commands import Act, Join, Ready
from paiju.table.effects import SPECTATORS, Send
from paiju.table.table import Table, TableSettings
from tests.conformance.games import game


def humans(engine: Engine[Any, Any], options: dict[str, Any], seed: str) -> Table:
    """A table of human seats that has dealt its first hand."""
    table = Table("r", engine, options, seed, TableSettings(timers={}), lambda s, lvl: None)  # type: ignore[arg-type,return-value]
    for seat in range(engine.seat_count(options)):
        table.handle(None, Join(f"p{seat}"), 0.0)
    for seat in range(engine.seat_count(options)):
        table.handle(seat, Ready(), 0.0)
    return table


def received(table: Table, state: McrState, answers: list[tuple[int, str]]) -> dict[Any, list[Any]]:
    """Put ``state`` on ``table``, let the seats answer, and collect what each viewer gets."""
    table.state = state
    table.decisions.waiting.clear()
    table._refresh(1.0)
    table._broadcast_states(1.0)  # everyone has been shown the window: now the answers
    seen: dict[Any, list[Any]] = defaultdict(list)
    for seat, text in answers:
        for effect in table.handle(seat, Act(table.shown_version(seat), text), 2.0):
            if isinstance(effect, Send):
                seen[effect.to].append(effect.message)
    return seen


def windows_with_two_asked() -> list[McrState]:
    """Claim windows of random MCR hands where at least two seats are asked (no hu among
    their options, so that every asked seat passing closes the window the same way)."""
    found = []
    for seed in range(40):
        for step in game("mcr", seed).steps:
            window = step.state.window
            if window is None or len(window.options) < 2 or window.wins or window.responses:
                continue
            found.append(step.state)
    return found


def without_seat(state: McrState, seat: int) -> McrState:
    """The same window with ``seat`` not asked (its hand could not claim the tile)."""
    assert state.window is not None
    options = tuple(o for o in state.window.options if o[0] != seat)
    return replace(state, window=replace(state.window, options=options))


def test_how_many_seats_a_claim_window_asks_does_not_show() -> None:
    engine = McrEngine()
    options = engine.normalize_options({})
    windows = windows_with_two_asked()
    assert len(windows) >= 10
    for state in windows:
        assert state.window is not None
        asked = [seat for seat, _ in state.window.options]
        dropped = asked[-1]
        others = [s for s in range(4) if s not in asked]  # the discarder, maybe one more
        both = received(humans(engine, options, "w"), state, [(s, "pass") for s in asked])
        fewer = received(
            humans(engine, options, "w"),
            without_seat(state, dropped),
            [(s, "pass") for s in asked if s != dropped],
        )
        for viewer in [SPECTATORS, *others]:
            assert both[viewer] == fewer[viewer], f"viewer {viewer} can count the asked seats"
        assert both[SPECTATORS], "the window's end is sent to the spectators"


def in_secret_stage(state: Any) -> bool:
    """A diu poll stage whose questions are secret (who is asked, what they answer)."""
    return state.phase == "poll" and state.poll.stage in ("call", "reask", "reopen")


def poll_of(state: Any) -> tuple[Any, ...]:
    """What tells one poll from the next: the card, how many were drawn, how many are dead."""
    return state.card, state.drawn, len(state.dead), state.poll and state.poll.by


def test_a_secret_answer_in_a_diu_poll_reaches_nobody_else() -> None:
    engine = get_engine("diu")
    options = engine.normalize_options({})
    checked = 0
    for seed in range(20):
        table = humans(engine, options, f"diu/{seed}")
        chooser = random.Random(seed)
        for _ in range(400):
            if table.state is None or engine.is_terminal(table.state):
                break
            waiting = sorted(table.decisions.waiting)
            seat = chooser.choice(waiting)
            legal = sorted(engine.legal_actions(table.state, seat), key=engine.format_action)
            text = engine.format_action(chooser.choice(legal))
            secret = seat not in engine.public_to_act(table.state)
            before, asked = table.state, engine.to_act(table.state)
            effects = table.handle(seat, Act(table.shown_version(seat), text), 1.0)
            same_poll = in_secret_stage(table.state) and poll_of(table.state) == poll_of(before)
            if secret and in_secret_stage(before) and same_poll:
                told = {e.to for e in effects if isinstance(e, Send)}
                newly = engine.to_act(table.state) - asked
                assert told <= {seat, *newly}, f"seat {seat}'s secret answer reached {told}"
                checked += 1
    assert checked > 50
