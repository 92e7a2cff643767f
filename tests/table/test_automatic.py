"""Bots and timeouts that fail: the room neither stalls nor forgets what already happened."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.dragon import listing
from paiju.engines.registry import get_engine, make_bot
from paiju.table.commands import Act, Join, Ready, Start
from paiju.table.effects import ActionRecord, Incident, Persist
from paiju.table.table import HAND_OVER, PLAYING, Table, TableFailed, TableSettings
from tests.table.fake_engine import RaceEngine, RaceState

SETTINGS = TableSettings(timers={"claim": 5.0, "turn": 10.0}, bot_delay=1.0, between_hands=3.0)


def crashing_table(engine: RaceEngine) -> Table:
    options = engine.normalize_options({})
    return Table("r", engine, options, "s", SETTINGS, lambda seat, level: CrashingBot())


class CrashingBot:
    def choose(self, view: Mapping[str, Any]) -> str:
        raise KeyError("legal")  # a bot bug, not a rule refusal


def test_a_bot_that_crashes_is_replaced_by_the_timeout_action() -> None:
    engine = RaceEngine()
    table = crashing_table(engine)
    table.handle(None, Start(), 0.0)
    effects = table.tick(1.0)
    sources = [
        e.record.source
        for e in effects
        if isinstance(e, Persist) and isinstance(e.record, ActionRecord)
    ]
    assert sources == ["bot_fallback", "bot_fallback"]
    assert table.state.phase == "play"
    # Not swallowed: each failure comes out as an incident with the bot's traceback.
    incidents = [e for e in effects if isinstance(e, Incident)]
    assert [(i.kind, i.seat) for i in incidents] == [("bot_failed", 0), ("bot_failed", 1)]
    assert all("KeyError: 'legal'" in i.error and "in choose" in i.error for i in incidents)


class BrokenTimeout(RaceEngine):
    def timeout_action(self, state: RaceState, seat: int) -> str:
        if seat == 1:
            raise RuntimeError("engine bug")
        return super().timeout_action(state, seat)


def test_a_failing_timeout_keeps_the_effects_of_what_was_already_done() -> None:
    engine = BrokenTimeout()
    table = crashing_table(engine)
    table.handle(None, Join("ann"), 0.0)
    table.handle(None, Join("bob"), 0.0)
    table.handle(0, Ready(), 0.0)
    table.handle(1, Ready(), 0.0)
    assert table.phase == PLAYING
    with pytest.raises(TableFailed) as info:
        table.tick(5.0)
    done = [
        e.record
        for e in info.value.effects
        if isinstance(e, Persist) and isinstance(e.record, ActionRecord)
    ]
    assert [(r.seat, r.action, r.source) for r in done] == [(0, "go", "timeout")]
    assert table.seq == 1  # the table did take that action: its record must reach the log


def test_the_operator_summary_shows_only_publicly_known_waiting_seats() -> None:
    engine = RaceEngine()
    table = crashing_table(engine)
    table.handle(None, Join("ann"), 0.0)
    table.handle(None, Join("bob"), 0.0)
    table.handle(0, Ready(), 0.0)
    table.handle(1, Ready(), 0.0)
    table.handle(0, Act(table.shown_version(0), "go"), 1.0)
    # Who still has to answer a secret poll (who may claim a discard) is not shown.
    assert table.summary()["to_act"] == []


def bot_room(level: int) -> Table:
    """A dragon room of four bots of ``level``, started and dealt."""
    engine = get_engine("dragon")
    options = engine.normalize_options({})
    table = Table("r", engine, options, "s", SETTINGS,
                  lambda seat, lv: make_bot("dragon", level, SeededRng(f"bot/{seat}")))
    table.handle(None, Start(), 0.0)
    return table


def played_by(table: Table, now: float) -> list[str]:
    return [
        e.record.source
        for e in table.tick(now)
        if isinstance(e, Persist) and isinstance(e.record, ActionRecord)
    ]


def test_dragon_bots_that_do_not_read_legal_do_not_have_it_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bots are handed ``bot_view``: the level-1 bot answers with ``best``, so none of the
    four hands has every arrangement listed (a room of bots used to list them all at each
    deal, and again for every room restored after a restart)."""
    listed: list[tuple[int, ...]] = []
    work_out = listing.legal_notation

    def counted(hand: tuple[int, ...]) -> list[str]:
        listed.append(hand)
        return work_out(hand)

    monkeypatch.setattr(listing, "legal_notation", counted)
    table = bot_room(1)
    assert played_by(table, 1.0) == ["bot"] * 4
    assert table.phase == HAND_OVER
    assert listed == []


def test_a_dragon_bot_that_reads_legal_still_gets_the_list() -> None:
    """Level 0 picks among ``legal``: it is written for it when read, and its picks are
    accepted (no fallback to the timeout action)."""
    table = bot_room(0)
    assert played_by(table, 1.0) == ["bot"] * 4
