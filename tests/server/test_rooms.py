"""Rooms under stress: closed rooms, odd stored data, failing writes, hostile frames."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.server import ServerConnection

from paiju.persistence.memory import MemoryStore
from paiju.persistence.store import RoomRecord
from paiju.server.app import PaijuServer
from paiju.table.effects import ActionRecord
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
    good = RoomRecord("good", "race", {"seats": 2, "target": 5, "hands": 1}, "s", {}, 1.0)
    good.seats = [{"kind": "empty"}, {"kind": "empty"}]
    store.create_room(good)
    store.create_room(RoomRecord("gone", "nosuchvariant", {}, "s", {}, 2.0, phase="playing"))
    too_many = RoomRecord("wide", "race", {"seats": 2, "target": 5, "hands": 1}, "s", {}, 3.0)
    too_many.seats = [{"kind": "human", "name": f"p{i}"} for i in range(5)]
    store.create_room(too_many)
    bad_bot = RoomRecord("bots", "race", {"seats": 2, "target": 5, "hands": 1}, "s", {}, 4.0)
    bad_bot.seats = [{"kind": "bot", "bot_level": 7}, {"kind": "empty"}]
    store.create_room(bad_bot)
    srv = PaijuServer(make_config(), store, "admin-token")
    await srv.start()
    try:
        assert list(srv.rooms.rooms) == ["good"]
    finally:
        await srv.stop()


class FailingStore(MemoryStore):
    """Refuses the next action write, as a full disk would."""

    fail_next = False

    def append_action(self, room_id: str, record: ActionRecord) -> None:
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        super().append_action(room_id, record)


async def test_a_failed_write_answers_internal_error_and_the_room_lives_on() -> None:
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
        store.fail_next = True
        await ann.send({"type": "act", "version": state["version"], "action": "go"})
        assert (await ann.expect("error"))["code"] == "internal_error"
        await bob.send({"type": "ping", "nonce": 1})
        assert (await bob.expect("pong"))["nonce"] == 1
        bob_state = await bob.until_state(lambda s: s["phase"] == "playing")
        await bob.send({"type": "act", "version": bob_state["version"], "action": "go"})
        await bob.until_state(lambda s: s["decision_version"] is None)
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


def test_a_tick_that_fails_keeps_what_it_did_and_is_retried_after_a_pause() -> None:
    from paiju.server.rooms import TICK_RETRY, Room
    from paiju.table.commands import Join, Ready
    from paiju.table.table import Table, TableSettings
    from tests.table.test_automatic import BrokenTimeout, CrashingBot

    engine = BrokenTimeout()
    options = engine.normalize_options({})
    store = MemoryStore()
    store.create_room(RoomRecord("r", "race", options, "s", {}, 0.0))
    settings = TableSettings(timers={"claim": 5.0})
    table = Table("r", engine, options, "s", settings, lambda s, lv: CrashingBot())
    for name in ("ann", "bob"):
        table.handle(None, Join(name), 0.0)
    for seat in (0, 1):
        table.handle(seat, Ready(), 0.0)
    room = Room(table, store)
    room._tick(5.0)
    assert [(r.seat, r.source) for r in store.actions("r")] == [(0, "timeout")]
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


async def test_a_spectator_cannot_act_and_a_left_seat_cannot_be_resumed(
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
    await ann.send({"type": "resume", "room": room.room_id, "token": token})
    assert (await ann.expect("error"))["code"] == "bad_token"
    assert server.rooms.get(room.room_id).table.seats[0].kind == "bot"
    await ann.close()


async def test_shutdown_closes_every_connection_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """One client that does not read must not hold up the goodbye of all the others."""
    srv = PaijuServer(make_config(), MemoryStore(), "admin-token")
    await srv.start()
    clients = [await Client.open(srv.port) for _ in range(3)]
    in_flight = most = 0
    original = ServerConnection.close

    async def close(self: ServerConnection, code: int = 1000, reason: str = "") -> None:
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        for _ in range(5):
            await asyncio.sleep(0)
        try:
            await original(self, code, reason)
        finally:
            in_flight -= 1

    monkeypatch.setattr(ServerConnection, "close", close)
    await srv.stop()
    assert most == len(clients)


class TokenFailingStore(MemoryStore):
    """Refuses the next token write."""

    fail_next = False

    def save_token(self, token_hash: str, room_id: str, seat: int) -> None:
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        super().save_token(token_hash, room_id, seat)


async def test_a_join_whose_token_cannot_be_kept_leaves_the_seat_free() -> None:
    store = TokenFailingStore()
    srv = PaijuServer(make_config(), store, "admin-token")
    await srv.start()
    try:
        room = srv.rooms.create("race", options={"hands": 1})
        ann = await Client.open(srv.port)
        store.fail_next = True
        await ann.send({"type": "join", "room": room.room_id, "name": "ann", "seat": 0})
        assert (await ann.expect("error"))["code"] == "internal_error"
        assert room.table.seats[0].kind == "empty"  # no one holds a token for it
        await ann.send({"type": "join", "room": room.room_id, "name": "ann", "seat": 0})
        assert (await ann.expect("joined"))["seat"] == 0
        await ann.close()
    finally:
        await srv.stop()
