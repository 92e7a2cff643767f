"""Trustee mode (托管): after timeouts, while a player is away, or on the operator's word, the
variant's bot plays a person's seat after a constant delay until they take it back."""

from __future__ import annotations

from typing import Any

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.registry import get_engine, make_bot
from paiju.table.commands import Act, Connected, Join, Leave, Ready, SetTrustee, TakeBack
from paiju.table.effects import ActionRecord, Effect, Persist
from paiju.table.errors import NotAPerson
from paiju.table.table import PLAYING, Table, TableSettings
from tests.table.fake_engine import FirstLegalBot, RaceEngine

SETTINGS = TableSettings(
    timers={"claim": 5.0, "turn": 10.0}, bot_delay=0.5, between_hands=3.0, trustee_after=2,
    trustee_delay=1.0,
)


def playing(settings: TableSettings = SETTINGS) -> Table:
    engine = RaceEngine()
    table = Table("r", engine, engine.normalize_options({"hands": 3, "target": 30}), "seed",
                  settings, lambda seat, level: FirstLegalBot())
    for name in ("ann", "bob"):
        table.handle(None, Join(name), 0.0)
    for seat in (0, 1):
        table.handle(seat, Ready(), 0.0)
    assert table.phase == PLAYING
    return table


def sources(effects: list[Effect]) -> list[tuple[int, str]]:
    return [(e.record.seat, e.record.source) for e in effects
            if isinstance(e, Persist) and isinstance(e.record, ActionRecord)]


def trustee_shown(table: Table, seat: int, to: int | None = None) -> bool:
    value: Any = table.snapshot(to, 0.0)["seats"][seat]["trustee"]
    return bool(value)


def test_two_timeouts_in_a_row_put_the_seat_in_trustee_mode() -> None:
    table = playing()
    table.handle(1, Act(table.shown_version(1), "go"), 0.0)  # bob votes; ann does not
    effects = table.tick(5.0)  # ann's vote times out
    assert sources(effects) == [(0, "timeout")]
    assert table.seats[0].timeouts == 1 and not table.seats[0].trustee
    # ann's turn (if hers) or bob's: play until ann's second decision times out
    now = 5.0
    while not table.seats[0].trustee:
        seat = next(iter(table.decisions.waiting))
        if seat == 1:
            table.handle(1, Act(table.shown_version(1), "add 1"), now)
        else:
            now = table.next_deadline() or now
            table.tick(now)
    assert table.seats[0].timeouts == 2
    assert trustee_shown(table, 0, to=1) and trustee_shown(table, 0, to=None)


def test_the_trustee_plays_after_a_constant_delay_and_acting_takes_the_seat_back() -> None:
    table = playing()
    table.handle(None, SetTrustee(0, True), 1.0)
    assert table.decisions.waiting[0].deadline == 2.0  # the trustee's delay from now
    effects = table.tick(2.0)
    assert sources(effects) == [(0, "trustee")]
    table.handle(1, Act(table.shown_version(1), "go"), 2.0)
    while 0 not in table.decisions.waiting:
        table.handle(1, Act(table.shown_version(1), "add 1"), 2.0)
    assert table.decisions.waiting[0].deadline == 3.0  # asked at 2.0, delay 1.0
    effects = table.handle(0, Act(table.shown_version(0), "add 2"), 2.5)
    assert sources(effects) == [(0, "player")]
    assert not table.seats[0].trustee and table.seats[0].timeouts == 0
    assert not trustee_shown(table, 0, to=1)


def test_take_back_restores_the_players_own_timer() -> None:
    table = playing()
    table.handle(None, SetTrustee(0, True), 1.0)
    assert table.decisions.waiting[0].deadline == 2.0
    table.handle(0, TakeBack(), 1.5)
    assert not table.seats[0].trustee
    assert table.decisions.waiting[0].deadline == 1.5 + 5.0  # the claim timer, fresh
    assert table.handle(0, TakeBack(), 1.6) == []  # nothing to take back


def test_an_operator_puts_a_seat_in_and_out_and_only_a_persons_seat() -> None:
    table = playing()
    table.handle(None, SetTrustee(1, True), 0.0)
    assert trustee_shown(table, 1, to=0)
    table.handle(None, SetTrustee(1, False), 0.0)
    assert not trustee_shown(table, 1, to=0)
    engine = RaceEngine()
    with_bot = Table("b", engine, engine.normalize_options({}), "s", SETTINGS,
                     lambda seat, level: FirstLegalBot())
    with_bot.handle(None, Join("ann"), 0.0)
    with_bot.add_bot(1, 1)
    for seat in (1, 5):
        with pytest.raises(NotAPerson):
            with_bot.handle(None, SetTrustee(seat, True), 0.0)


def test_a_player_who_drops_is_played_by_the_trustee_and_takes_the_seat_back_on_return() -> None:
    table = playing()
    table.handle(0, Connected(False), 1.0)
    assert table.seats[0].trustee and trustee_shown(table, 0, to=1)
    assert table.decisions.waiting[0].deadline == 2.0
    assert sources(table.tick(2.0)) == [(0, "trustee")]
    table.handle(0, Connected(True), 3.0)
    assert not table.seats[0].trustee and table.seats[0].connected


def test_a_player_who_leaves_mid_match_keeps_the_seat() -> None:
    table = playing()
    table.handle(0, Leave(), 1.0)
    slot = table.seats[0]
    assert (slot.kind, slot.name, slot.trustee, slot.away) == ("human", "ann", True, True)
    assert sources(table.tick(2.0)) == [(0, "trustee")]
    table.handle(0, Connected(True), 3.0)  # back with the token
    assert not table.seats[0].trustee and not table.seats[0].away


@pytest.mark.parametrize("seed", ["one", "two", "three"])
def test_the_trustee_waits_the_same_whatever_the_cards(seed: str) -> None:
    """The trustee's delay is a constant from the moment the seat is asked, whatever it
    holds: four shengji seats in trustee mode, dealt differently, each act exactly one delay
    after the tick that asked them, so every deadline falls on a whole second."""
    engine = get_engine("shengji")
    table = Table("s", engine, engine.normalize_options({}), seed, SETTINGS,
                  lambda seat, level: make_bot("shengji", level, SeededRng(seed).derive(str(seat))))
    for seat in range(4):
        table.handle(None, Join(f"p{seat}"), 0.0)
        table.handle(None, SetTrustee(seat, True), 0.0)
        table.handle(seat, Ready(), 0.0)
    times = []
    for _ in range(40):
        deadline = table.next_deadline()
        assert deadline is not None
        times.append(deadline)
        table.tick(deadline)
    assert times == [float(t) for t in range(1, 41)]
