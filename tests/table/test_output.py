"""Whom a table builds states for: only viewers a message can reach. A seat whose person is
not connected and the spectators while nobody watches are built no view and sent nothing;
each keeps its version and what it was last shown, so the first state it is sent once it is
back moves its version on by exactly one."""

from __future__ import annotations

from collections import Counter
from typing import Any

from paiju.table.commands import Act, Connected, Join, Ready
from paiju.table.effects import SPECTATORS, Effect, Send
from paiju.table.table import Table, TableSettings
from tests.table.fake_engine import FirstLegalBot, RaceEngine, RaceState


class ViewsBySeat(RaceEngine):
    """Counts the views it builds, per viewer (``None``: a spectator)."""

    def __init__(self) -> None:
        self.built: Counter[int | None] = Counter()

    def view(self, state: RaceState, seat: int | None) -> Any:
        self.built[seat] += 1
        return super().view(state, seat)


def started(seats: int = 3) -> tuple[Table, ViewsBySeat]:
    engine = ViewsBySeat()
    options = engine.normalize_options({"seats": seats, "target": 50})
    table = Table("r", engine, options, "out", TableSettings(timers={}),
                  lambda seat, level: FirstLegalBot())
    for seat in range(seats):
        table.handle(None, Join(f"p{seat}"), 0.0)
    for seat in range(seats):
        table.handle(seat, Ready(), 0.0)
    for seat in range(seats):  # every seat votes: the turns begin
        table.handle(seat, Act(table.shown_version(seat), "go"), 0.0)
    return table, engine


def sent_to(effects: list[Effect]) -> list[int]:
    return [e.to for e in effects if isinstance(e, Send) and e.message["type"] == "state"]


def play_turn(table: Table) -> list[Effect]:
    seat = next(iter(table.decisions.waiting))
    return table.handle(seat, Act(table.shown_version(seat), "add 1"), 1.0)


def test_a_disconnected_seat_is_built_no_view_and_sent_nothing() -> None:
    table, engine = started()
    table.handle(2, Connected(False), 1.0)
    engine.built.clear()
    effects = play_turn(table) + play_turn(table)
    assert engine.built[2] == 0
    assert 2 not in {e.to for e in effects if isinstance(e, Send)}
    assert sorted(set(sent_to(effects))) == [SPECTATORS, 0, 1]


def test_a_seat_that_is_back_gets_one_state_its_version_one_higher() -> None:
    table, _ = started()
    before = table.shown_version(2)
    table.handle(2, Connected(False), 1.0)
    for _ in range(3):
        play_turn(table)
    assert table.shown_version(2) == before
    back = table.handle(2, Connected(True), 2.0)
    states = [e.message for e in back if isinstance(e, Send) and e.to == 2]
    assert len(states) == 1
    assert states[0]["version"] == before + 1 == table.shown_version(2)
    assert states[0]["view"]["total"] == table.state.total


def test_spectators_are_built_nothing_while_nobody_watches() -> None:
    table, engine = started()
    watching = False
    table.watched = lambda: watching
    engine.built.clear()
    effects = play_turn(table)
    assert engine.built[None] == 0
    assert SPECTATORS not in {e.to for e in effects if isinstance(e, Send)}
    shown = table.shown_version(SPECTATORS)
    watching = True
    effects = play_turn(table)
    spectators = [e.message for e in effects if isinstance(e, Send) and e.to == SPECTATORS]
    assert [m["type"] for m in spectators] == ["event", "state"]
    assert spectators[-1]["version"] == shown + 1
    assert engine.built[None] == 1


def test_a_rebuilt_table_shows_connected_only_the_seats_still_connected() -> None:
    table, _ = started()
    for slot in table.seats:
        slot.connected = False  # what a rebuild from the store shows
    resent = table.resend(3.0, [0, 2])
    assert [slot.connected for slot in table.seats] == [True, False, True]
    assert sorted(sent_to(resent)) == [SPECTATORS, 0, 2]
    assert sorted(sent_to(play_turn(table))) == [SPECTATORS, 0, 2]


def test_a_seats_client_seed_is_in_its_own_state_only() -> None:
    from paiju.table.commands import SendSeed

    engine = RaceEngine()
    options = engine.normalize_options({"seats": 3, "target": 50})
    table = Table("r", engine, options, "out", TableSettings(timers={}),
                  lambda seat, level: FirstLegalBot())
    for seat in range(3):
        table.handle(None, Join(f"p{seat}"), 0.0)
    effects = table.handle(1, SendSeed(0, "ann's dice"), 0.0)
    deals = {e.to: e.message["deal"] for e in effects
             if isinstance(e, Send) and e.message["type"] == "state"}
    assert list(deals) == [1] and deals[1]["seed"] == "ann's dice"  # nobody else hears of it
    others = [table.snapshot(seat, 0.0)["deal"] for seat in (0, 2, None)]
    assert [deal["seed"] for deal in others] == [None, None, None]
    assert {deal["commitment"] for deal in others} == {deals[1]["commitment"]}


def test_each_viewer_gets_its_own_version_in_an_event_written_once() -> None:
    import orjson

    from paiju.engines.base import Event

    engine = RaceEngine()
    options = engine.normalize_options({"seats": 3, "target": 50})
    room = 'r"\\é'  # a room id JSON must escape
    table = Table(room, engine, options, "out", TableSettings(timers={}),
                  lambda seat, level: FirstLegalBot())
    for seat in range(3):
        table.handle(None, Join(f"p{seat}"), 0.0)
    table.handle(0, Ready(), 0.0)  # seat 0 has been shown more states than the others
    table.handle(1, Connected(False), 0.0)
    versions = {t: table.shown_version(t) for t in (0, 2, SPECTATORS)}
    assert len(set(versions.values())) > 1
    public = Event("added", {"seat": 0, "total": 3, "note": "é\n\""})
    private = Event("drawn", {"tile": 7}, audience=frozenset({2}))
    sends = [e for e in table._send_events((public, private)) if isinstance(e, Send)]
    assert [s.to for s in sends] == [0, 2, SPECTATORS, 2]  # seat 1 is not connected
    for send in sends:
        assert send.message == {"type": "event", "room": room, "version": versions[send.to],
                                "event": {"kind": send.message["event"]["kind"],
                                          "data": send.message["event"]["data"]}}
        assert send.frame == orjson.dumps(send.message)
    assert [s.message["event"]["kind"] for s in sends] == ["added"] * 3 + ["drawn"]
    table.watched = lambda: False
    quiet = table._send_events((public,))
    assert [e.to for e in quiet if isinstance(e, Send)] == [0, 2]
    table.handle(0, Connected(False), 0.0)
    table.handle(2, Connected(False), 0.0)
    assert table._send_events((public, private)) == []


def test_a_state_is_built_with_its_keys_and_its_deals_in_sorted_order() -> None:
    """The order a state is written in (sorted keys): built in it, the writing costs less.
    The seat with a client seed and the others alike, and the counters after the content."""
    from paiju.table.commands import SendSeed

    table, _ = started()
    effects = table.handle(1, SendSeed(table.seed_hand(), "ann's dice"), 0.0)
    states = [e.message for e in effects if isinstance(e, Send) and e.message["type"] == "state"]
    states += [table.snapshot(seat, 0.0) for seat in (0, 1, None)]
    assert [s["deal"]["seed"] for s in states] == ["ann's dice", None, "ann's dice", None]
    for message in states:
        content = list(message)[:-3]  # (the counters: added last, written first)
        assert list(message)[-3:] == ["version", "deadline_ms", "decision_version"]
        assert content == sorted(content)
        assert list(message["deal"]) == sorted(message["deal"])


class IntKeyedViews(RaceEngine):
    """Views with a dict whose keys are integers (orjson writes them only with its option
    for keys that are not strings) and text that JSON escapes."""

    def view(self, state: RaceState, seat: int | None) -> Any:
        return {"by_seat": {1: "b", 0: "a\n\u00e9"}, "total": state.total, "you": seat}


def test_each_state_is_written_as_its_content_with_sorted_keys() -> None:
    """A state's frame is put together from parts shared by every viewer and the viewer's
    own; it must be the bytes of its message with sorted keys, for every viewer: a seat
    asked in secret (its own ``to_act``), a seat with its own client seed, a spectator, a
    view with integer keys."""
    import orjson

    from paiju.table.commands import SendSeed
    from paiju.table.viewers import COUNTERS, SORTED

    for engine in (RaceEngine(), IntKeyedViews()):
        options = engine.normalize_options({"seats": 3, "target": 50})
        table = Table("r\u00e9", engine, options, "out", TableSettings(timers={}),
                      lambda seat, level: FirstLegalBot())
        effects: list[Effect] = []
        for seat in range(3):
            effects += table.handle(None, Join(f"p{seat}"), 0.0)
        effects += table.handle(1, SendSeed(0, "mine"), 0.0)
        for seat in range(3):
            effects += table.handle(seat, Ready(), 0.0)
        effects += table.handle(0, Act(table.shown_version(0), "go"), 0.0)  # 1, 2 still vote
        states = [e for e in effects if isinstance(e, Send) and e.message["type"] == "state"]
        assert {e.to for e in states} == {0, 1, 2, SPECTATORS}
        assert any(e.message["deal"]["seed"] == "mine" for e in states)
        assert any(e.message["to_act"] == [1] for e in states)  # asked in secret
        for send in states:
            content = {k: v for k, v in send.message.items() if k not in COUNTERS}
            assert send.frame is not None
            assert send.frame.endswith(orjson.dumps(content, option=SORTED)[1:])


def test_the_room_facts_are_shared_until_one_changes() -> None:
    """The seats and totals every viewer is shown are made once and reused from one state
    to the next while they stay the same; a seat that changes (a person drops) makes them
    anew, so no viewer is shown a seat as it was."""
    table, _ = started()
    first = table._common()["seats"]
    play_turn(table)
    assert table._common()["seats"] is first
    waiting = make_waiting()
    before = waiting._common()["seats"]
    # Before the match a person who drops changes nothing but the seat's ``connected``.
    effects = waiting.handle(2, Connected(False), 1.0)
    shown = [e.message["seats"] for e in effects
             if isinstance(e, Send) and e.message["type"] == "state"]
    assert shown and all(seats[2]["connected"] is False for seats in shown)
    assert before[2]["connected"] is True  # what was sent before is left as it was
    assert waiting.seats[2].trustee is False


def make_waiting() -> Table:
    engine = RaceEngine()
    table = Table("r", engine, engine.normalize_options({"seats": 3, "target": 50}), "out",
                  TableSettings(timers={}), lambda seat, level: FirstLegalBot())
    for seat in range(3):
        table.handle(None, Join(f"p{seat}"), 0.0)
    return table
