"""A quiet rebuild from stored records (fake clock): the same game, decisions that keep their
remaining time (never less than the grace), nothing done twice or skipped, versions above
everything sent before, and no view built on the way."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from paiju.table.commands import Act, Join, Ready, SendSeed
from paiju.table.effects import ActionRecord, Effect, Persist, Send
from paiju.table.records import Record
from paiju.table.restore import Rebuild
from paiju.table.table import HAND_OVER, PLAYING, Table, TableSettings
from tests.table.fake_engine import FirstLegalBot, RaceEngine, RaceState

SETTINGS = TableSettings(timers={"claim": 20.0, "turn": 30.0}, bot_delay=0.5,
                         between_hands=3.0, restore_grace=15.0)


class CountingViews(RaceEngine):
    """Counts the views it builds."""

    views = 0

    def view(self, state: RaceState, seat: int | None) -> Any:
        CountingViews.views += 1
        return super().view(state, seat)


def new_table(engine: RaceEngine | None = None, settings: TableSettings = SETTINGS) -> Table:
    engine = engine or RaceEngine()
    return Table("r", engine, engine.normalize_options({"hands": 3, "target": 9}), "s33d",
                 settings, lambda seat, level: FirstLegalBot())


def records(effects: list[Effect]) -> list[Record]:
    return [e.record for e in effects if isinstance(e, Persist)]


def rebuilt(effects: list[Effect], now: float, remaining: Mapping[int, float],
            engine: RaceEngine | None = None) -> Table:
    table = new_table(engine)
    rebuild = Rebuild(table)
    for record in records(effects):
        rebuild.apply(record)
    rebuild.finish(now, remaining)
    return table


def started() -> tuple[Table, list[Effect]]:
    table = new_table()
    effects = table.handle(None, Join("ann"), 0.0) + table.handle(None, Join("bob"), 0.0)
    effects += table.handle(0, SendSeed(0, "ann"), 0.0)
    effects += table.handle(0, Ready(), 0.0) + table.handle(1, Ready(), 0.0)
    return table, effects


def test_a_decision_keeps_its_remaining_time_across_a_restart() -> None:
    table, effects = started()
    effects += table.handle(1, Act(table.shown_version(1), "go"), 4.0)
    assert table.decisions.waiting[0].deadline == 20.0  # ann asked at 0 with 20 s
    last = [e for e in effects if isinstance(e, Persist)][-1]
    assert last.deadlines == {0: 20.0}
    # The server dies at 2 s past the last record and comes back; the table's clock is
    # another one now (100), the wall clock says 6 s are left.
    again = rebuilt(effects, 100.0, {0: 20.0 - 6.0 - 8.0})  # 6 s left
    assert again.decisions.waiting[0].deadline == 115.0  # the grace: at least 15 s
    longer = rebuilt(effects, 100.0, {0: 18.0})
    assert longer.decisions.waiting[0].deadline == 118.0  # 18 s left: kept


def test_nothing_fires_twice_and_nothing_is_skipped() -> None:
    table, effects = started()
    effects += table.handle(1, Act(table.shown_version(1), "go"), 1.0)
    # ann's vote times out at 20; the timeout is stored, then the server dies at once
    effects += table.tick(20.0)
    timeouts = [r for r in records(effects) if isinstance(r, ActionRecord)
                and r.source == "timeout"]
    assert len(timeouts) == 1
    again = rebuilt(effects, 50.0, {})
    assert again.state == table.state and again.seq == table.seq
    assert 0 not in again.decisions.waiting or again.state.phase == "play"
    # the decision open after the timeout is played once, at its (fresh) deadline
    seat = next(iter(again.decisions.waiting))
    deadline = again.decisions.waiting[seat].deadline
    assert deadline is not None and deadline >= 50.0 + 15.0
    assert again.tick(deadline - 0.001) == []
    done = again.tick(deadline)
    acted = [r for r in records(done) if isinstance(r, ActionRecord)]
    assert [(r.seat, r.seq) for r in acted] == [(seat, table.seq + 1)]


def test_versions_start_above_everything_sent_before() -> None:
    table, effects = started()
    effects += table.handle(1, Act(table.shown_version(1), "go"), 1.0)
    sent = [e.message["version"] for e in effects if isinstance(e, Send)]
    again = rebuilt(effects, 10.0, {})
    resent = again.resend(10.0)
    assert {e.to for e in resent if isinstance(e, Send)} >= {0, 1}
    assert min(e.message["version"] for e in resent if isinstance(e, Send)) > max(sent)


def test_a_rebuild_builds_no_view_and_a_waiting_room_keeps_its_version() -> None:
    engine = CountingViews()
    table = new_table(engine)
    effects = table.handle(None, Join("ann"), 0.0) + table.handle(0, Ready(), 0.0)
    effects += table.handle(0, Ready(False), 0.0) + table.handle(0, Ready(), 0.0)
    before = max(e.message["version"] for e in effects if isinstance(e, Send))
    CountingViews.views = 0
    again = rebuilt(effects, 1.0, {}, CountingViews())
    assert CountingViews.views == 0
    assert again.version > before and again.seats[0].ready


def test_snapshot_and_tail_rebuild_the_same_table_as_every_record() -> None:
    table, effects = started()
    now = 0.0
    while table.hand < 2 or table.seq < 14:
        for seat in sorted(table.decisions.waiting):
            legal = sorted(table.engine.legal_actions(table.state, seat))
            effects += table.handle(seat, Act(table.shown_version(seat), legal[0]), now)
        if table.phase == HAND_OVER:
            now += 3.0
            effects += table.tick(now)
    assert table.phase == PLAYING
    stored = records(effects)
    last_snapshot = max(i for i, r in enumerate(stored) if r.kind == "snapshot")
    tail = new_table()
    rebuild = Rebuild(tail)
    for record in stored[last_snapshot:]:
        rebuild.apply(record)
    rebuild.finish(now, {})
    full = rebuilt(effects, now, {})
    for again in (tail, full):
        assert (again.hand, again.state, again.totals, again.hand_scores, again.seq) == (
            table.hand, table.state, table.totals, table.hand_scores, table.seq
        )


class CountingApplies(RaceEngine):
    """Counts the actions it applies."""

    applied = 0

    def apply(self, state: RaceState, seat: int, action: str) -> Any:
        CountingApplies.applied += 1
        return super().apply(state, seat, action)


def test_a_restore_from_a_state_snapshot_replays_at_most_one_action() -> None:
    table, effects = started()
    now = 0.0
    for _ in range(5):
        seat = min(table.decisions.waiting)
        legal = sorted(table.engine.legal_actions(table.state, seat))
        effects += table.handle(seat, Act(table.shown_version(seat), legal[0]), now)
    stored = records(effects)
    snapshots = [r for r in stored if r.kind == "snapshot" and r.state is not None]
    assert [s.seq for s in snapshots] == [2, 4]  # every second action of the hand
    last = max(i for i, r in enumerate(stored) if r.kind == "snapshot")
    CountingApplies.applied = 0
    again = new_table(CountingApplies())
    rebuild = Rebuild(again)
    for record in stored[last:]:
        rebuild.apply(record)
    rebuild.finish(now, {})
    assert CountingApplies.applied == 1
    assert (again.state, again.seq, again.version >= table.version) == (
        table.state, table.seq, True
    )


def test_a_deal_due_when_the_server_stopped_is_made_after_the_restart() -> None:
    table, effects = started()
    stored = records(effects)
    # the server stopped right after the snapshot that precedes the first deal
    cut = next(i for i, r in enumerate(stored) if r.kind == "snapshot")
    again = new_table()
    rebuild = Rebuild(again)
    for record in stored[: cut + 1]:
        rebuild.apply(record)
    rebuild.finish(5.0, {})
    assert again.next_deadline() is not None
    again.tick(5.0)
    assert again.phase == PLAYING and again.state == table.state
    assert again.match.dealt_seeds == table.match.dealt_seeds  # ann's seed kept


@pytest.mark.parametrize("every", [3, 4])
def test_a_rarer_snapshot_restores_the_same_table_after_any_action(every: int) -> None:
    # A server set to snapshot every ``every`` actions: stopped after any action of a hand,
    # its room comes back from the last snapshot and at most ``every - 1`` actions.
    settings = TableSettings(timers={"claim": 20.0, "turn": 30.0}, bot_delay=0.5,
                             between_hands=3.0, restore_grace=15.0, snapshot_every=every)
    engine = RaceEngine()
    table = new_table(engine, settings)
    effects = table.handle(None, Join("ann"), 0.0) + table.handle(None, Join("bob"), 0.0)
    effects += table.handle(0, Ready(), 0.0) + table.handle(1, Ready(), 0.0)
    hand, played = table.hand, 0
    while table.phase == PLAYING and table.hand == hand:
        seat = min(table.decisions.waiting)
        legal = sorted(table.engine.legal_actions(table.state, seat))
        effects += table.handle(seat, Act(table.shown_version(seat), legal[0]), 0.0)
        played += 1
        stored = records(effects)
        snapshots = [r.seq for r in stored if r.kind == "snapshot" and r.state is not None]
        assert snapshots == list(range(every, played + 1, every))
        last = max(i for i, r in enumerate(stored) if r.kind == "snapshot")
        CountingApplies.applied = 0
        again = new_table(CountingApplies(), settings)
        rebuild = Rebuild(again)
        for record in stored[last:]:
            rebuild.apply(record)
        rebuild.finish(1.0, {})
        assert CountingApplies.applied == (played % every if snapshots else played)
        assert (again.state, again.seq, again.phase) == (table.state, table.seq, table.phase)
        assert sorted(again.decisions.waiting) == sorted(table.decisions.waiting)
    assert played >= every + 1


def test_a_shengji_room_snapshotted_every_4_restores_after_any_action() -> None:
    # Shengji rooms snapshot every 4 actions by default (``snapshot_every_by_variant``):
    # stopped after any action of a real hand (bids, the kitty, plays), a room comes back from
    # its last snapshot and at most 3 actions, equal to the table that played them.
    from paiju.engines.registry import get_engine

    settings = TableSettings(timers={}, bot_delay=0.5, between_hands=3.0,
                             restore_grace=15.0, snapshot_every=4)

    def shengji_table() -> Table:
        engine = get_engine("shengji")
        return Table("sj", engine, engine.normalize_options({}), "s33d", settings,
                     lambda seat, level: FirstLegalBot())

    table = shengji_table()
    effects: list[Effect] = []
    for seat in range(4):
        effects += table.handle(None, Join(f"p{seat}"), 0.0)
    for seat in range(4):
        effects += table.handle(seat, Ready(), 0.0)
    played = 0
    while table.phase == PLAYING and played < 60:
        seat = min(table.decisions.waiting)
        engine = table.engine
        legal = sorted(engine.format_action(a) for a in engine.legal_actions(table.state, seat))
        effects += table.handle(seat, Act(table.shown_version(seat), legal[-1]), 0.0)
        played += 1
        stored = records(effects)
        last = max(i for i, r in enumerate(stored) if r.kind == "snapshot")
        assert sum(r.kind == "action" for r in stored[last:]) <= 3  # what a restore replays
        again = shengji_table()
        rebuild = Rebuild(again)
        for record in stored[last:]:
            rebuild.apply(record)
        rebuild.finish(1.0, {})
        assert (again.state, again.seq, again.phase) == (table.state, table.seq, table.phase)
        assert sorted(again.decisions.waiting) == sorted(table.decisions.waiting)
    assert played == 60  # bids, the kitty and tricks were all played and restored
