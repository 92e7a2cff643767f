"""The table state machine with a fake clock (``now`` is a plain number)."""

from __future__ import annotations

from typing import Any

import pytest

from paiju.core.errors import GameError, MalformedAction, NotYourTurn, StaleVersion
from paiju.table.commands import Act, Close, Connected, Join, Leave, Ready, Start
from paiju.table.effects import SPECTATORS, ActionRecord, Effect, HandRecord, Persist, Send
from paiju.table.errors import NotSeated, RoomFull, SeatTaken, WrongPhase
from paiju.table.restore import Rebuild
from paiju.table.table import FINISHED, HAND_OVER, PLAYING, WAITING, Table, TableSettings
from tests.table.fake_engine import FirstLegalBot, RaceEngine

SETTINGS = TableSettings(timers={"claim": 5.0, "turn": 10.0}, bot_delay=1.0, between_hands=3.0)


def make_table(settings: TableSettings = SETTINGS, **options: Any) -> Table:
    engine = RaceEngine()
    return Table(
        "r1",
        engine,
        engine.normalize_options(options),
        "seed",
        settings,
        lambda seat, level: FirstLegalBot(),
    )


def seated_and_playing(now: float = 0.0) -> Table:
    table = make_table()
    table.handle(None, Join("ann"), now)
    table.handle(None, Join("bob"), now)
    table.handle(0, Ready(), now)
    table.handle(1, Ready(), now)
    assert table.phase == PLAYING
    return table


def sends(effects: list[Effect], to: int) -> list[dict[str, Any]]:
    return [e.message for e in effects if isinstance(e, Send) and e.to == to]


def test_join_fills_seats_in_order_and_refuses_a_full_room() -> None:
    table = make_table()
    table.handle(None, Join("ann"), 0.0)
    assert table.last_joined == 0
    with pytest.raises(SeatTaken):
        table.handle(None, Join("bob", seat=0), 0.0)
    with pytest.raises(SeatTaken):
        table.handle(None, Join("bob", seat=7), 0.0)
    table.handle(None, Join("bob"), 0.0)
    with pytest.raises(RoomFull):
        table.handle(None, Join("cy"), 0.0)


def test_match_starts_when_every_seat_is_taken_and_ready() -> None:
    table = make_table()
    table.handle(None, Join("ann"), 0.0)
    table.handle(0, Ready(), 0.0)
    assert table.phase == WAITING
    table.handle(None, Join("bob"), 0.0)
    effects = table.handle(1, Ready(), 0.0)
    assert table.phase == PLAYING
    state_for_0 = [m for m in sends(effects, 0) if m["type"] == "state"][-1]
    assert state_for_0["to_act"] == [0]  # who else votes is not public
    assert state_for_0["view"]["secret"] == table.state.secret[0]
    spectator = [m for m in sends(effects, SPECTATORS) if m["type"] == "state"][-1]
    assert spectator["view"]["secret"] is None


def test_each_seat_gets_only_its_own_view() -> None:
    table = seated_and_playing()
    table.handle(0, Act(table.shown_version(0), "go"), 1.0)
    effects = table.handle(1, Act(table.shown_version(1), "go"), 1.0)
    for seat in (0, 1):
        states = [m for m in sends(effects, seat) if m["type"] == "state"]
        assert states and all(s["view"]["secret"] == table.state.secret[seat] for s in states)


def test_simultaneous_answers_against_the_same_version_are_both_accepted() -> None:
    table = seated_and_playing()
    asked = {seat: table.shown_version(seat) for seat in (0, 1)}
    table.handle(0, Act(asked[0], "go"), 1.0)
    assert table.shown_version(1) == asked[1]  # seat 1 was shown nothing new
    table.handle(1, Act(asked[1], "go"), 1.0)
    assert table.state.phase == "play"


def test_an_action_against_an_older_decision_is_stale_and_changes_nothing() -> None:
    table = seated_and_playing()
    old = {seat: table.shown_version(seat) for seat in (0, 1)}
    table.handle(0, Act(old[0], "go"), 1.0)
    table.handle(1, Act(old[1], "go"), 1.0)
    before = (table.version, table.state)
    mover = table.state.turn
    with pytest.raises(StaleVersion):
        table.handle(mover, Act(old[mover], "add 1"), 2.0)
    with pytest.raises(StaleVersion):
        table.handle(mover, Act(table.shown_version(mover) + 1, "add 1"), 2.0)
    assert (table.version, table.state) == before


def test_out_of_turn_malformed_and_illegal_actions_change_nothing() -> None:
    table = seated_and_playing()
    table.handle(0, Act(table.shown_version(0), "go"), 1.0)
    table.handle(1, Act(table.shown_version(1), "go"), 1.0)
    idle = 1 - table.state.turn
    before = (table.version, table.state, table.seq)
    for seat, text, error in [
        (idle, "add 1", NotYourTurn),
        (table.state.turn, "add nine", MalformedAction),
        (table.state.turn, "go", GameError),
    ]:
        with pytest.raises(error):
            table.handle(seat, Act(table.shown_version(seat), text), 2.0)
        assert (table.version, table.state, table.seq) == before


def test_acting_before_the_start_or_without_a_seat_is_refused() -> None:
    table = make_table()
    table.handle(None, Join("ann"), 0.0)
    with pytest.raises(WrongPhase):
        table.handle(0, Act(table.shown_version(0), "go"), 0.0)
    with pytest.raises(NotSeated):
        table.handle(None, Ready(), 0.0)


def test_timeouts_fire_at_the_deadline_and_not_before() -> None:
    table = seated_and_playing(now=100.0)
    assert table.next_deadline() == 105.0  # the claim timer of the simultaneous vote
    assert table.tick(104.999) == []
    effects = table.tick(105.0)
    records = [e.record for e in effects if isinstance(e, Persist)]
    timeouts = [r for r in records if isinstance(r, ActionRecord)]
    assert [r.source for r in timeouts] == ["timeout", "timeout"]
    assert table.state.phase == "play"
    assert table.next_deadline() == 115.0  # a turn timer starts when the seat is asked


def test_a_seat_that_acts_gets_a_fresh_deadline_for_its_next_decision() -> None:
    table = seated_and_playing(now=0.0)
    table.tick(5.0)
    mover = table.state.turn
    table.handle(mover, Act(table.shown_version(mover), "add 1"), 7.0)
    assert table.next_deadline() == 17.0


def test_bots_fill_empty_seats_and_play_a_whole_match_through_tick() -> None:
    table = make_table(hands=3)
    table.handle(None, Join("ann"), 0.0)
    table.handle(None, Start(), 0.0)
    assert table.seats[1].kind == "bot"
    now, persisted = 0.0, []
    for _ in range(500):
        deadline = table.next_deadline()
        if deadline is None:
            break
        now = deadline
        persisted += [e.record for e in table.tick(now) if isinstance(e, Persist)]
    assert table.phase == FINISHED
    hands = [r for r in persisted if isinstance(r, HandRecord)]
    assert [h.hand for h in hands] == [0, 1, 2]
    assert sum(table.totals) == 0
    sources = {r.source for r in persisted if isinstance(r, ActionRecord)}
    # ann never answers: her timer answers for her, twice, then the trustee plays her seat
    assert sources == {"bot", "timeout", "trustee"}


def test_a_finished_hand_stays_on_view_until_the_next_deal() -> None:
    table = make_table(hands=2)
    table.handle(None, Start(), 0.0)
    now = 0.0
    while table.phase == PLAYING:
        now = table.next_deadline() or now
        table.tick(now)
    assert table.phase == HAND_OVER
    assert table.next_deadline() == now + 3.0
    table.tick(now + 3.0)
    assert table.phase == PLAYING and table.hand == 1


def test_leaving_mid_match_keeps_the_seat_in_trustee_mode() -> None:
    table = seated_and_playing()
    table.handle(0, Leave(), 0.5)
    assert table.seats[0].kind == "human" and table.seats[0].away
    assert table.snapshot(1, 0.5)["seats"][0]["trustee"] is True
    assert table.next_deadline() == 1.5  # the trustee answers after its delay


def test_connection_changes_are_shown_and_keep_pending_decisions() -> None:
    table = seated_and_playing()
    asked_at = table.shown_version(1)
    table.handle(1, Connected(False), 0.5)
    assert table.snapshot(0, 0.5)["seats"][1]["connected"] is False
    table.handle(1, Act(asked_at, "go"), 0.6)


def test_a_closed_room_refuses_everything() -> None:
    table = seated_and_playing()
    table.handle(None, Close("bye"), 1.0)
    assert table.next_deadline() is None
    with pytest.raises(WrongPhase):
        table.handle(0, Act(table.shown_version(0), "go"), 2.0)


def test_restore_rebuilds_a_match_in_progress_from_its_records() -> None:
    table = make_table(hands=3)
    table.handle(None, Join("ann"), 0.0)
    effects = table.handle(None, Start(), 0.0)
    now = 0.0
    while table.hand < 1 or table.seq < 8:
        now = table.next_deadline() or now
        effects += table.tick(now)
    records = [e.record for e in effects if isinstance(e, Persist)]
    again = make_table(hands=3)
    rebuild = Rebuild(again)
    for record in records:
        rebuild.apply(record)
    rebuild.finish(50.0, {})
    assert (again.hand, again.state, again.totals) == (table.hand, table.state, table.totals)
    assert again.version > max(r.version for r in records)
    assert again.seats[1].kind == "bot" and again.seats[0].connected is False


def test_only_public_waiting_seats_are_shown_to_others() -> None:
    table = seated_and_playing()
    assert table.snapshot(0, 0.0)["to_act"] == [0]
    assert table.snapshot(1, 0.0)["to_act"] == [1]
    assert table.snapshot(None, 0.0)["to_act"] == []
    table.handle(0, Act(table.shown_version(0), "go"), 1.0)
    assert table.snapshot(0, 1.0)["to_act"] == []  # seat 0 cannot tell whether 1 still votes
    table.handle(1, Act(table.shown_version(1), "go"), 1.0)
    mover = table.state.turn
    assert table.snapshot(None, 1.0)["to_act"] == [mover]  # turns are public
    assert table.snapshot(1 - mover, 1.0)["to_act"] == [mover]


def test_a_secret_answer_sends_nothing_to_seats_that_cannot_see_it() -> None:
    table = seated_and_playing()
    asked_1 = table.shown_version(1)
    effects = table.handle(0, Act(table.shown_version(0), "go"), 1.0)
    assert [m["type"] for m in sends(effects, 1)] == []  # seat 1 learns nothing, not even a bump
    assert sends(effects, SPECTATORS) == []
    assert [m["type"] for m in sends(effects, 0)] == ["state"]  # seat 0's own legal list changed
    assert table.shown_version(1) == asked_1
    table.handle(1, Act(asked_1, "go"), 1.0)
    assert table.state.phase == "play"


def test_a_program_seat_is_public_and_survives_the_store() -> None:
    from paiju.table.seats import SeatSlot

    slot = SeatSlot(kind="human", name="ada", program=True)
    assert slot.public(0)["program"] is True and slot.public(0)["kind"] == "human"
    assert SeatSlot.from_stored(slot.stored(0)).program is True
    assert SeatSlot.from_stored({"kind": "human", "name": "old"}).program is False
