"""Rooms live in SQLite: a restarted server restores a match in progress and its seat tokens."""

from __future__ import annotations

from pathlib import Path

from paiju.persistence.sqlite import SqliteStore
from paiju.server.app import PaijuServer
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
