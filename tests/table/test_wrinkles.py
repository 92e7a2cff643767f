"""Protocol wrinkles a client written from the docs ran into, each pinned down."""

from __future__ import annotations

import pytest

from paiju.table.commands import Act, Connected, Join, Ready
from paiju.table.effects import Persist, Send
from paiju.table.errors import AlreadyAnswered, WrongPhase
from paiju.table.records import ActionRecord
from paiju.table.table import FINISHED, Table, TableSettings
from tests.table.fake_engine import FirstLegalBot, RaceEngine


def voting_table(seats: int = 3) -> Table:
    engine = RaceEngine()
    table = Table(
        "r",
        engine,
        engine.normalize_options({"seats": seats, "hands": 1}),
        "seed",
        TableSettings(timers={"claim": 5.0, "turn": 10.0}, bot_delay=0.0, between_hands=0.0),
        lambda seat, level: FirstLegalBot(),
    )
    for name in ("ann", "bob", "cy")[:seats]:
        table.handle(None, Join(name), 0.0)
    for seat in range(seats):
        table.handle(seat, Ready(), 0.0)
    return table


def test_answering_a_simultaneous_decision_twice_says_already_answered() -> None:
    table = voting_table()
    version = table.shown_version(0)
    table.handle(0, Act(version, "go"), 1.0)
    for again in (version, table.shown_version(0)):  # with the old version or the newest
        with pytest.raises(AlreadyAnswered) as info:
            table.handle(0, Act(again, "go"), 1.0)
        assert info.value.code == "already_answered"


def test_already_answered_ends_with_the_decision() -> None:
    table = voting_table(seats=2)
    table.handle(0, Act(table.shown_version(0), "go"), 1.0)
    table.handle(1, Act(table.shown_version(1), "go"), 1.0)  # the vote is over: turns begin
    assert table.state.phase == "play"
    # Seat 0 now plays in turn; nothing of the vote lingers.
    table.handle(0, Act(table.shown_version(0), "add 1"), 2.0)
    assert table.seq == 3


def test_a_reconnection_gets_exactly_one_full_state() -> None:
    table = voting_table()
    table.handle(1, Connected(False), 1.0)
    effects = table.handle(1, Connected(True), 2.0)
    to_seat = [e for e in effects if isinstance(e, Send) and e.to == 1]
    assert len(to_seat) == 1 and to_seat[0].message["view"]["secret"] is not None
    assert to_seat[0].message["seats"][1]["connected"] is True


def test_a_reconnection_that_changes_nothing_still_gets_its_state() -> None:
    table = voting_table()  # seat 1 is already connected: nothing visible changes
    effects = table.handle(1, Connected(True), 2.0)
    assert [e.to for e in effects if isinstance(e, Send)] == [1]


def test_ready_after_the_match_says_it_is_over() -> None:
    table = voting_table(seats=2)
    now = 1.0
    while table.phase != FINISHED:
        now += 20.0
        table.tick(now)  # timeouts play both seats to the end
    with pytest.raises(WrongPhase, match="the match is over"):
        table.handle(0, Ready(), now)


def test_a_timed_out_seat_alone_is_told_what_was_played_for_it() -> None:
    table = voting_table(seats=2)
    table.handle(0, Act(table.shown_version(0), "go"), 1.0)
    effects = table.tick(6.0)  # seat 1's claim timer (5 s) ran out
    told = [
        e for e in effects if isinstance(e, Send) and e.message["type"] == "event"
        and e.message["event"]["kind"] == "timed_out"
    ]
    assert [(e.to, e.message["event"]["data"]) for e in told] == [
        (1, {"seat": 1, "action": "go"})
    ]
    first_state = next(i for i, e in enumerate(effects) if isinstance(e, Send)
                       and e.message["type"] == "state")
    assert effects.index(told[0]) < first_state  # the notice comes before the new state
    stored = next(i for i, e in enumerate(effects) if isinstance(e, Persist)
                  and isinstance(e.record, ActionRecord) and e.record.source == "timeout")
    assert stored < effects.index(told[0])  # and after the action is in the log
