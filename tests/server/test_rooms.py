"""Rooms under stress: closed rooms, odd stored data, failing writes, hostile frames."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest

from paiju.core.errors import InvalidOptions
from paiju.persistence.memory import MemoryStore
from paiju.server.app import PaijuServer
from paiju.table.ledger import Entry
from paiju.table.records import ActionRecord, Record, RoomStatus
from tests.persistence.writer import Writer, created, write_effects
from tests.server.client import Client
from tests.server.conftest import ADMIN_TOKEN, make_config


async def joined(server: PaijuServer, room: str, name: str = "ann") -> Client:
    client = await Client.open(server.port)
    await client.send({"type": "join", "room": room, "name": name})
    await client.expect("joined")
    await client.expect("state")
    return client


async def test_a_client_left_in_a_closed_room_is_answered_and_can_leave(
    server: PaijuServer,
) -> None:
    room = server.rooms.create("race", options={"hands": 1})
    other = server.rooms.create("race", options={"hands": 1})
    ann = await joined(server, room.room_id)
    await server.rooms.close(room.room_id, "closed by the operator")
    await ann.until_state(lambda s: s["phase"] == "closed")
    await ann.send({"type": "ready"})
    assert (await ann.expect("error"))["code"] == "wrong_phase"
    await ann.send({"type": "leave"})
    assert (await ann.expect("left"))["room"] == room.room_id
    await ann.send({"type": "join", "room": other.room_id, "name": "ann"})
    assert (await ann.expect("joined"))["room"] == other.room_id
    await ann.close()


async def test_a_spectator_of_a_closed_room_can_still_talk_to_the_server(
    server: PaijuServer,
) -> None:
    room = server.rooms.create("race", options={"hands": 1})
    watcher = await Client.open(server.port)
    await watcher.send({"type": "join", "room": room.room_id, "spectate": True})
    await watcher.expect("joined")
    await server.rooms.close(room.room_id, "closed by the operator")
    await watcher.until_state(lambda s: s["phase"] == "closed")
    await watcher.send({"type": "leave"})
    assert (await watcher.expect("left"))["room"] == room.room_id
    await watcher.close()


async def test_odd_stored_rooms_do_not_stop_the_server_from_starting() -> None:
    store = MemoryStore()
    options = {"seats": 2, "target": 5, "hands": 1}
    empty = ({"kind": "empty"}, {"kind": "empty"})
    for room_id, variant, seats, at in [
        ("good", "race", empty, 1.0),
        ("gone", "nosuchvariant", empty, 2.0),
        ("wide", "race", tuple({"kind": "human", "name": f"p{i}"} for i in range(5)), 3.0),
        ("bots", "race", ({"kind": "bot", "bot_level": 7}, {"kind": "empty"}), 4.0),
    ]:
        writer = Writer(store, room_id)
        writer.add(created(room_id, at, variant, options))
        writer.add(RoomStatus("waiting", (0, 0), seats, 1))
    srv = PaijuServer(make_config(), store, "admin-token")
    await srv.start()
    try:
        assert list(srv.rooms.rooms) == ["good"]
    finally:
        await srv.stop()


class FailingStore(MemoryStore):
    """Refuses the next action write, as a full disk would."""

    fail_next = False

    def append(
        self, room_id: str, record: Record, entry: Entry, deadlines: Mapping[int, float]
    ) -> None:
        if self.fail_next and isinstance(record, ActionRecord):
            self.fail_next = False
            raise OSError("disk full")
        super().append(room_id, record, entry, deadlines)


async def test_a_failed_write_is_undone_answered_and_the_room_lives_on() -> None:
    store = FailingStore()
    srv = PaijuServer(make_config(), store, "admin-token")
    await srv.start()
    try:
        room = srv.rooms.create("race", options={"hands": 1})
        ann = await joined(srv, room.room_id, "ann")
        bob = await joined(srv, room.room_id, "bob")
        await ann.send({"type": "ready"})
        await bob.send({"type": "ready"})
        state = await ann.until_state(lambda s: s["phase"] == "playing")
        bob_before = await bob.until_state(lambda s: s["phase"] == "playing")
        before = await room.call(lambda table, now: ((table.version, table.ledger.head), []))
        store.fail_next = True
        await ann.send({"type": "act", "version": state["version"], "action": "go"})
        assert (await ann.expect("error"))["code"] == "storage_failed"
        # The table is what the disk holds: the refused vote is not in it, the chain head
        # is the last stored entry, and ann is asked again with a newer version.
        table = room.table
        assert table.ledger.head == store.entries(room.room_id)[-1].entry.hash
        assert table.ledger.head == before[1] and 0 in table.decisions.waiting
        again = await ann.until_state(lambda s: s["version"] > state["version"])
        assert 0 in again["to_act"]
        await ann.send({"type": "act", "version": again["version"], "action": "go"})
        bob_state = await bob.until_state(lambda s: s["version"] > bob_before["version"])
        await bob.send({"type": "act", "version": bob_state["version"], "action": "go"})
        await bob.until_state(lambda s: s["view"]["phase"] == "play")
        for c in (ann, bob):
            await c.close()
    finally:
        await srv.stop()


async def test_a_deeply_nested_frame_is_malformed_json_not_a_server_failure(
    server: PaijuServer,
) -> None:
    client = await Client.open(server.port)
    await client.send("[" * 20_000 + "]" * 20_000)
    assert (await client.expect("error"))["code"] == "malformed_json"
    await client.close()


async def test_a_deeply_nested_admin_request_gets_an_answer(server: PaijuServer) -> None:
    from websockets.asyncio.client import connect

    url = f"ws://127.0.0.1:{server.port}/admin"
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    async with connect(url, additional_headers=headers) as ws:
        await ws.send("[" * 20_000 + "]" * 20_000)
        reply = json.loads(await ws.recv())
        assert reply["ok"] is False and reply["code"] == "invalid_message"
        await ws.send(json.dumps({"type": "admin", "command": "list"}))
        assert json.loads(await ws.recv())["ok"] is True


async def test_a_tick_that_fails_keeps_what_it_did_and_is_retried_after_a_pause() -> None:
    from paiju.server.rooms import TICK_RETRY, Room
    from paiju.table.commands import Join, Ready
    from paiju.table.table import Table, TableSettings
    from tests.table.test_automatic import BrokenTimeout, CrashingBot

    engine = BrokenTimeout()
    options = engine.normalize_options({})
    store = MemoryStore()
    settings = TableSettings(timers={"claim": 5.0})
    table = Table("r", engine, options, "s", settings, lambda s, lv: CrashingBot())
    effects = table.open_room(created("r", options=options))
    for name in ("ann", "bob"):
        effects += table.handle(None, Join(name), 0.0)
    for seat in (0, 1):
        effects += table.handle(seat, Ready(), 0.0)
    write_effects(store, "r", effects)
    room = Room(table, store)
    await room._tick(5.0)
    actions = [e.entry.data() for e in store.entries("r") if e.entry.kind == "action"]
    assert [(a["seat"], a["source"]) for a in actions] == [(0, "timeout")]
    assert room.wake_at() == 5.0 + TICK_RETRY  # not 5.0 again: no busy loop


async def test_finished_rooms_do_not_count_against_max_rooms() -> None:
    from paiju.table.commands import Start
    from paiju.table.effects import Effect
    from paiju.table.table import FINISHED, Table

    srv = PaijuServer(make_config(max_rooms=1), MemoryStore(), "admin-token")
    await srv.start()
    try:
        room = srv.rooms.create("race", bot_level=0, options={"hands": 1})

        def start(table: Table, now: float) -> tuple[None, list[Effect]]:
            return None, table.handle(None, Start(0), now)

        await room.call(start)  # bots without delay finish the match in the tick that follows
        assert await room.call(lambda table, now: (table.phase, [])) == FINISHED
        assert srv.rooms.create("race").room_id in srv.rooms.rooms
    finally:
        await srv.stop()


async def test_a_spectator_cannot_act_and_a_left_seat_is_taken_back_with_its_token(
    server: PaijuServer,
) -> None:
    room = server.rooms.create("dragon", bots=3, bot_level=1, options={"hands": 2})
    watcher = await Client.open(server.port)
    await watcher.send({"type": "join", "room": room.room_id, "spectate": True})
    await watcher.expect("joined")
    for frame in ({"type": "act", "version": 0, "action": "go"}, {"type": "ready"}):
        await watcher.send(frame)
        assert (await watcher.expect("error"))["code"] == "not_seated"
    await watcher.close()
    ann = await Client.open(server.port)
    await ann.send({"type": "join", "room": room.room_id, "name": "ann"})
    token = (await ann.expect("joined"))["token"]
    await ann.send({"type": "ready"})
    await ann.until_state(lambda s: s["phase"] == "playing")
    await ann.send({"type": "leave"})
    await ann.expect("left")
    seat = room.table.seats[0]
    assert seat.kind == "human" and seat.trustee and seat.away
    await ann.send({"type": "resume", "room": room.room_id, "token": token})
    assert (await ann.expect("joined"))["seat"] == 0
    state = await ann.expect("state")
    assert state["seats"][0]["trustee"] is False and state["seats"][0]["connected"] is True
    await ann.close()


async def test_max_rooms_counts_exactly_the_loaded_rooms_that_wait_or_play() -> None:
    # The count is kept loosely and settled only at the limit: a room closed, unloaded
    # elsewhere (a cluster handing it over) or finished frees its place; a full server refuses.
    srv = PaijuServer(make_config(max_rooms=2), MemoryStore(), "admin-token")
    await srv.start()
    try:
        first = srv.rooms.create("race")
        second = srv.rooms.create("race")
        assert not srv.rooms.accepting()
        with pytest.raises(InvalidOptions, match="already has 2 active rooms"):
            srv.rooms.create("race")
        await srv.rooms.close(first.room_id, "test")
        assert srv.rooms.accepting()
        third = srv.rooms.create("race")
        assert not srv.rooms.accepting()
        srv.rooms.rooms.pop(second.room_id)  # as a cluster node does when the room moves on
        assert srv.rooms.accepting()
        srv.rooms.create("race")
        assert not srv.rooms.accepting()
        assert {third.room_id} < set(srv.rooms.rooms)
    finally:
        await srv.stop()


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({}, {"m": 4, "d": 2, "s": 4}),  # the defaults: MCR, shengji every 4, the rest 2
        ({"snapshot_every": 3}, {"m": 4, "d": 3, "s": 4}),  # the per-variant entry wins
        ({"snapshot_every_by_variant": {}}, {"m": 2, "d": 2, "s": 2}),
        ({"snapshot_every_by_variant": {"dragon": 0}}, {"m": 2, "d": 0, "s": 2}),
    ],
)
async def test_a_room_snapshots_as_often_as_its_variant_is_set_to(
    overrides: dict[str, object], expected: dict[str, int]
) -> None:
    store = MemoryStore()
    empty = tuple({"kind": "empty"} for _ in range(4))
    for room_id, variant, at in [("m", "mcr", 1.0), ("d", "dragon", 2.0), ("s", "shengji", 3.0)]:
        writer = Writer(store, room_id)
        writer.add(created(room_id, at, variant, {}))
        writer.add(RoomStatus("waiting", (0, 0, 0, 0), empty, 1))
    srv = PaijuServer(make_config(**overrides), store, "admin-token")
    await srv.start()
    try:
        every = {r: room.table.settings.snapshot_every for r, room in srv.rooms.rooms.items()}
        assert every == expected
    finally:
        await srv.stop()
