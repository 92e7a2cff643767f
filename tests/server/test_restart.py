"""Rooms live in SQLite: a restarted server restores a match in progress and its seat tokens."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from paiju.engines.registry import get_engine, make_bot
from paiju.persistence.memory import MemoryStore
from paiju.persistence.sqlite import SqliteStore
from paiju.server import rooms as rooms_module
from paiju.server.app import PaijuServer
from paiju.server.protocol import AdminRequest
from paiju.server.room import Room
from paiju.server.rooms import RoomManager, TimedBot
from paiju.table.commands import Join, Ready
from paiju.table.effects import ActionRecord, Effect
from paiju.table.ledger import Ledger
from paiju.table.records import record_body
from paiju.table.table import Table
from tests.server.client import Client
from tests.server.conftest import make_config


async def test_a_match_survives_a_server_restart(tmp_path: Path) -> None:
    db = tmp_path / "paiju.sqlite3"
    first = PaijuServer(make_config(), SqliteStore(db), "admin-token-1")
    await first.start()
    room = first.rooms.create("race", bots=1, bot_level=0, options={"hands": 2, "target": 9})
    client = await Client.open(first.port)
    await client.send({"type": "join", "room": room.room_id, "name": "ann"})
    token = (await client.expect("joined"))["token"]
    await client.send({"type": "ready"})
    state = await client.until_state(lambda s: s["phase"] == "playing" and s["you"] in s["to_act"])
    await client.send({"type": "act", "version": state["version"], "action": "go"})
    state = await client.until_state(lambda s: s["view"]["phase"] == "play")
    before = first.rooms.get(room.room_id).table
    expected = (before.hand, before.state, before.totals)
    await first.stop()

    second = PaijuServer(make_config(), SqliteStore(db), "admin-token-2")
    await second.start()
    try:
        restored = second.rooms.get(room.room_id).table
        assert (restored.hand, restored.state, restored.totals) == expected
        assert restored.seats[0].kind == "human" and restored.seats[0].connected is False
        again = await Client.open(second.port)
        await again.send({"type": "resume", "room": room.room_id, "token": token})
        assert (await again.expect("joined"))["seat"] == 0
        resumed = await again.expect("state")
        assert resumed["phase"] == "playing" and resumed["view"]["phase"] == "play"
        await again.close()
    finally:
        await second.stop()


async def test_rooms_whose_records_do_not_verify_are_refused_and_the_others_come_up(
    tmp_path: Path,
) -> None:
    db = tmp_path / "paiju.sqlite3"
    first = PaijuServer(make_config(), SqliteStore(db), "admin-token-1")
    await first.start()

    def seat_and_start(table: Table, now: float) -> tuple[None, list[Effect]]:
        effects = table.handle(None, Join("ann"), now)
        return None, effects + table.handle(0, Ready(), now)

    rooms = []
    for _ in range(3):
        room = first.rooms.create("race", bots=1, bot_level=0)
        await room.call(seat_and_start)
        rooms.append(room.room_id)
    await first.stop()
    corrupt = SqliteStore(db)
    # A record that links to the chain but does not replay (the rules refuse it).
    ledger = Ledger.after(corrupt.entries(rooms[1])[-1].entry)
    bad = ActionRecord(0, 10**6, 0, "add 2", "player", 10**6)
    corrupt.append(rooms[1], bad, ledger.append(bad.kind, record_body(bad)), {})
    # A record changed behind the chain's back.
    corrupt._db.execute(
        "UPDATE entries SET body = replace(body, 'ann', 'eve') WHERE room_id = ? AND n = 2",
        (rooms[2],),
    )
    corrupt.close()
    second = PaijuServer(make_config(), SqliteStore(db), "admin-token-2")
    await second.start()
    try:
        # The record that does not replay is refused at restore; the one changed before the
        # last snapshot, by the whole-chain check that follows once the port is open.
        assert second.verified is not None
        await second.verified
        assert list(second.rooms.rooms) == [rooms[0]]
        assert set(second.rooms.damaged) == {rooms[1], rooms[2]}
        assert second.rooms.damaged[rooms[2]] == "record 2: its hash does not match its contents"
        listing = await second.admin.command(AdminRequest(type="admin", command="list"))
        phases = {row["room"]: row["phase"] for row in listing}
        assert phases[rooms[1]] == phases[rooms[2]] == "damaged"
        assert phases[rooms[0]] == "playing"
    finally:
        await second.stop()


async def test_the_collector_is_off_while_rooms_are_restored_and_back_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "paiju.sqlite3"
    first = PaijuServer(make_config(), SqliteStore(db), "admin-token-1")
    await first.start()
    first.rooms.create("race", bots=1, bot_level=0)
    first.rooms.create("race", bots=1, bot_level=0)
    await first.stop()

    second = PaijuServer(make_config(), SqliteStore(db), "admin-token-2")
    seen: list[bool] = []
    restore = second.rooms.restore

    def watched(room_id: str) -> Room:
        seen.append(gc.isenabled())
        if len(seen) == 1:
            raise RuntimeError("a room that cannot be loaded")  # skipped; the next comes up
        return restore(room_id)

    monkeypatch.setattr(second.rooms, "restore", watched)
    assert gc.isenabled()
    await second.start()
    try:
        assert seen == [False, False]
        assert len(second.rooms.rooms) == 1
        assert gc.isenabled()
    finally:
        await second.stop()


def test_a_collector_turned_off_before_the_restore_stays_off(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "paiju.sqlite3")
    server = PaijuServer(make_config(), store, "admin-token-1")
    gc.disable()
    try:
        assert server.rooms.restore_all() == 0
        assert not gc.isenabled()
    finally:
        gc.enable()


async def test_a_restored_rooms_bots_are_made_only_when_first_needed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "paiju.sqlite3"
    first = PaijuServer(make_config(), SqliteStore(db), "admin-token-1")
    await first.start()
    room = first.rooms.create("race", bots=1, bot_level=0)
    await room.call(lambda table, now: (None, table.handle(None, Join("ann"), now)))
    await first.stop()

    made: list[int] = []

    def counted(variant: str, level: int, rng: Any) -> Any:
        made.append(level)
        return make_bot(variant, level, rng)

    monkeypatch.setattr(rooms_module, "make_bot", counted)
    second = PaijuServer(make_config(), SqliteStore(db), "admin-token-2")
    await second.start()
    try:
        bot = second.rooms.get(room.room_id).table.bots[1]
        assert made == []  # the room waits for ann: its bot has nothing to do yet
        assert isinstance(bot, TimedBot)
        assert bot.bot is bot.bot and made == [0]  # made once, when first asked for
    finally:
        await second.stop()


async def test_presets_are_checked_against_their_variants_when_first_needed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "odd.toml").write_text('variant = "race"\n[options]\nno_such_option = 1\n')
    checked: list[str] = []

    def counted(variant: str) -> Any:
        checked.append(variant)
        return get_engine(variant)

    monkeypatch.setattr(rooms_module, "get_engine", counted)
    manager = RoomManager(make_config(rooms_dir=str(tmp_path)), MemoryStore())
    assert checked == []  # a start loads no variant for the presets
    with capture_logs() as logs:
        assert "odd" not in manager.presets and "dragon" in manager.presets
    assert sorted(set(checked)) == ["diu", "dragon", "mcr", "race", "shengji"]
    assert [e["preset"] for e in logs if e["event"] == "preset_skipped"] == ["odd"]
    with pytest.raises(ValueError, match="is not a folder"):  # unreadable: refused at once
        RoomManager(make_config(rooms_dir=str(tmp_path / "missing")), MemoryStore())


async def test_a_start_restores_the_open_rooms_without_reading_the_others(tmp_path: Path) -> None:
    db = tmp_path / "paiju.sqlite3"
    first = PaijuServer(make_config(), SqliteStore(db), "admin-token-1")
    await first.start()
    waiting = first.rooms.create("race", bots=1, bot_level=0)
    finished = first.rooms.create("race", bots=1, bot_level=0)
    closed = first.rooms.create("race", bots=1, bot_level=0)
    await first.rooms.close(closed.room_id, "done")
    await first.stop()
    store = SqliteStore(db)
    store._db.execute("UPDATE rooms SET phase = 'finished' WHERE room_id = ?",
                      (finished.room_id,))
    # Were the finished or the closed room read, their records would not verify.
    store._db.execute("DELETE FROM entries WHERE room_id IN (?, ?)",
                      (finished.room_id, closed.room_id))
    read: list[str] = []
    restore_entries = store.restore_entries

    def counted(room_id: str) -> Any:
        read.append(room_id)
        return restore_entries(room_id)

    store.restore_entries = counted  # type: ignore[method-assign]
    # Nor are their summaries read and parsed, to be skipped (every room ever stored).
    store.list_rooms = lambda: pytest.fail("every room was listed")  # type: ignore[method-assign]
    second = PaijuServer(make_config(), store, "admin-token-2")
    try:
        assert second.rooms.restore_all() == 1
        assert read == [waiting.room_id] and list(second.rooms.rooms) == [waiting.room_id]
        assert second.rooms.damaged == {}
    finally:
        await second.rooms.shutdown()
        store.close()
