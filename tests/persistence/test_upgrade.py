"""A database written by the release before the chain (main at 89d5626, kept as a fixture)
opens after the upgrade with its rooms, logs and tokens; its rooms resume and its old
records verify as pre-chain records."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from paiju.engines.registry import get_engine
from paiju.persistence.replay import replay_hands, room_log
from paiju.persistence.sqlite import SCHEMA_VERSION, SqliteStore
from paiju.persistence.verify import verify_room
from paiju.server.app import PaijuServer
from paiju.server.sessions import token_hash
from tests.server.client import Client
from tests.server.conftest import make_config

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "db_89d5626"
ROOMS: dict[str, dict[str, Any]] = json.loads((FIXTURE / "fixture.json").read_text())["rooms"]


@pytest.fixture
def old_db(tmp_path: Path) -> Path:
    db = tmp_path / "paiju.sqlite3"
    shutil.copy(FIXTURE / "paiju.sqlite3", db)
    return db


def test_the_old_database_opens_with_its_rooms_logs_and_tokens(old_db: Path) -> None:
    store = SqliteStore(old_db)
    assert store.schema_version == SCHEMA_VERSION == 1
    listed = {r.room_id: r for r in store.list_rooms()}
    assert set(listed) == {info["room"] for info in ROOMS.values()}
    for info in ROOMS.values():
        room = listed[info["room"]]
        assert room.scheme == "seeded-v0" and room.phase == info["summary"]["phase"]
        held = store.find_token(token_hash(info["token"]))
        assert held == (None if info.get("revoked") else (info["room"], info["seat"]))
        first = store.entries(info["room"])[0].entry
        assert first.kind == "room" and json.loads(first.body)["pre_chain"]["digest"]
    mid = ROOMS["dragon_mid"]["room"]
    assert len(store.legacy_actions(mid)) == 11
    store.close()
    assert SqliteStore(old_db).schema_version == 1  # a second open migrates nothing


@pytest.mark.parametrize("name", sorted(ROOMS))
def test_old_records_verify_as_pre_chain(old_db: Path, name: str) -> None:
    store = SqliteStore(old_db)
    verdicts = verify_room(store, ROOMS[name]["room"])
    assert all(v.ok for v in verdicts), [v.line() for v in verdicts]
    assert [v.check for v in verdicts] == ["chain", "pre-chain", "replay"]


def test_a_changed_old_record_is_found(old_db: Path) -> None:
    store = SqliteStore(old_db)
    room = ROOMS["dragon_mid"]["room"]
    store._db.execute("UPDATE actions SET seat = 3 WHERE room_id = ? AND seq = 2", (room,))
    verdicts = verify_room(store, room)
    assert not verdicts[-1].ok and verdicts[-1].record == 0
    assert "before the chain were changed" in verdicts[-1].detail


async def test_the_old_rooms_resume_with_versions_above_the_old_ones(old_db: Path) -> None:
    server = PaijuServer(make_config(timers={"arrange": 60.0, "turn": 60.0, "claim": 60.0}),
                         SqliteStore(old_db), "admin")
    await server.start()
    try:
        live = set(server.rooms.rooms)
        assert live == {ROOMS[n]["room"] for n in
                        ("dragon_mid", "mcr_mid", "dragon_waiting", "dragon_left")}
        # the restored game is the old log's game
        mid = ROOMS["dragon_mid"]
        table = server.rooms.get(mid["room"]).table
        log = room_log(server.store, mid["room"])
        assert log is not None
        last = list(replay_hands(get_engine("dragon"), table.options, table.seed, log.actions,
                                 log.deals, "seeded-v0"))[-1]
        assert (table.hand, table.state, list(table.totals)) == (2, last.final_state,
                                                                 mid["totals"])
        for name in ("dragon_mid", "mcr_mid", "dragon_waiting", "dragon_left"):
            info = ROOMS[name]
            seat, token = info.get("other_seat", info["seat"]), info.get(
                "other_token", info["token"])
            client = await Client.open(server.port)
            await client.send({"type": "resume", "room": info["room"], "token": token})
            assert (await client.expect("joined"))["seat"] == seat
            state = await client.expect("state")
            assert state["phase"] == info["phase"]
            assert state["version"] > info["last_version"]
            assert state["deal"]["scheme"] == "seeded-v0"
            await client.close()
        # the revoked token of the seat left mid-match stays revoked
        left = ROOMS["dragon_left"]
        client = await Client.open(server.port)
        await client.send({"type": "resume", "room": left["room"], "token": left["token"]})
        assert (await client.expect("error"))["code"] == "bad_token"
        await client.close()
    finally:
        await server.stop()
