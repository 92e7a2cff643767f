"""Seat set-up by players while a room waits (bots in and out), and the rematch pointer."""

from __future__ import annotations

from typing import Any

import pytest

from paiju.core.errors import InvalidOptions
from paiju.table.commands import Act, AddBot, Join, OfferRematch, Ready, RemoveBot
from paiju.table.effects import Send
from paiju.table.errors import SeatTaken, WrongPhase
from paiju.table.table import FINISHED, PLAYING, WAITING, Table, TableSettings
from tests.table.fake_engine import FirstLegalBot, RaceEngine


def make_table(seats: int = 3, levels: tuple[int, ...] = (0, 1)) -> Table:
    engine = RaceEngine()

    def factory(seat: int, level: int) -> FirstLegalBot:
        if level not in levels:
            raise ValueError(f"race bots have levels {levels}, not {level}")
        return FirstLegalBot()

    return Table(
        "r1",
        engine,
        engine.normalize_options({"seats": seats, "hands": 1}),
        "seed",
        TableSettings(timers={"turn": 0.0}, bot_delay=0.0, between_hands=0.0),
        factory,
    )


def kinds(table: Table) -> list[str]:
    return [slot.kind for slot in table.seats]


def test_a_seated_player_adds_and_removes_bots_while_the_room_waits() -> None:
    table = make_table()
    table.handle(None, Join("ann"), 0.0)
    effects = table.handle(0, AddBot(2, 1), 0.0)
    assert kinds(table) == ["human", "empty", "bot"]
    shown = [e.message for e in effects if isinstance(e, Send) and e.to == 0]
    assert shown and shown[-1]["seats"][2]["kind"] == "bot"
    table.handle(0, RemoveBot(2), 0.0)
    assert kinds(table) == ["human", "empty", "empty"] and 2 not in table.bots


@pytest.mark.parametrize(
    ("command", "error"),
    [
        (AddBot(0, 1), SeatTaken),  # a human sits there
        (AddBot(3, 1), SeatTaken),  # no such seat
        (AddBot(-1, 1), SeatTaken),
        (RemoveBot(1), SeatTaken),  # empty, not a bot
        (RemoveBot(0), SeatTaken),  # a human, not a bot
        (RemoveBot(9), SeatTaken),
        (AddBot(1, 7), InvalidOptions),  # the variant has no such bot level
    ],
)
def test_bad_seat_changes_are_refused_and_change_nothing(command: Any, error: type) -> None:
    table = make_table()
    table.handle(None, Join("ann"), 0.0)
    table.handle(0, AddBot(2, 1), 0.0)
    before = (kinds(table), table.version, dict(table.bots))
    with pytest.raises(error):
        table.handle(0, command, 0.0)
    assert (kinds(table), table.version, dict(table.bots)) == before


def test_the_last_bot_starts_the_match_when_every_human_is_ready() -> None:
    table = make_table()
    table.handle(None, Join("ann"), 0.0)
    table.handle(0, Ready(), 0.0)
    table.handle(0, AddBot(1, 1), 0.0)
    assert table.phase == WAITING
    table.handle(0, AddBot(2, 0), 0.0)
    assert table.phase == PLAYING


def test_bots_cannot_be_changed_once_the_match_runs() -> None:
    table = make_table(seats=2)
    table.handle(None, Join("ann"), 0.0)
    table.handle(0, AddBot(1, 1), 0.0)
    table.handle(0, Ready(), 0.0)
    assert table.phase == PLAYING
    with pytest.raises(WrongPhase):
        table.handle(0, RemoveBot(1), 0.0)
    with pytest.raises(WrongPhase):
        table.handle(0, AddBot(1, 1), 0.0)


def test_a_rematch_is_offered_only_after_the_match_and_shown_to_everyone() -> None:
    table = make_table(seats=2)
    table.handle(None, Join("ann"), 0.0)
    table.handle(0, AddBot(1, 1), 0.0)
    with pytest.raises(WrongPhase):
        table.handle(None, OfferRematch("next"), 0.0)
    table.handle(0, Ready(), 0.0)
    now = 0.0
    while table.phase != FINISHED:  # ann answers with the first legal action, the bot ticks
        if 0 in table.engine.to_act(table.state):
            legal = sorted(table.engine.legal_actions(table.state, 0), key=str)
            text = table.engine.format_action(legal[0])
            table.handle(0, Act(table.shown_version(0), text), now)
        now += 1.0
        table.tick(now)
    effects = table.handle(None, OfferRematch("next"), now)
    states = [e.message for e in effects if isinstance(e, Send)]
    assert states and all(m["rematch"] == "next" for m in states)
    assert table.snapshot(None, now)["rematch"] == "next"
