"""Both stores keep the same records; SQLite keeps them across a reopen."""

from __future__ import annotations

from pathlib import Path

import pytest

from paiju.persistence.memory import MemoryStore
from paiju.persistence.sqlite import SqliteStore
from paiju.persistence.store import RoomRecord, Store, write
from paiju.table.effects import ActionRecord, HandRecord, RoomStatus


def room(room_id: str = "r1", created_at: float = 1.0) -> RoomRecord:
    return RoomRecord(
        room_id, "race", {"seats": 2}, "seed", {"bot_delay": 0.0}, created_at, totals=[0, 0]
    )


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    return MemoryStore() if request.param == "memory" else SqliteStore(tmp_path / "db.sqlite3")


def test_rooms_actions_hands_and_status_round_trip(store: Store) -> None:
    store.create_room(room())
    with pytest.raises(ValueError):
        store.create_room(room())
    write(store, "r1", ActionRecord(0, 1, 0, "go", "player", 3))
    write(store, "r1", ActionRecord(0, 2, 1, "add 1", "timeout", 4))
    write(store, "r1", HandRecord(0, (1, -1), (1, -1)))
    write(store, "r1", RoomStatus("hand_over", (1, -1), ({"seat": 0, "kind": "human"},)))
    assert [a.action for a in store.actions("r1")] == ["go", "add 1"]
    assert store.actions("r1")[1] == ActionRecord(0, 2, 1, "add 1", "timeout", 4)
    assert store.hands("r1") == [HandRecord(0, (1, -1), (1, -1))]
    got = store.get_room("r1")
    assert got is not None and got.phase == "hand_over" and got.totals == [1, -1]
    assert got.options == {"seats": 2}
    assert store.get_room("nope") is None


def test_rooms_are_listed_oldest_first(store: Store) -> None:
    store.create_room(room("b", 2.0))
    store.create_room(room("a", 3.0))
    store.create_room(room("c", 1.0))
    assert [r.room_id for r in store.list_rooms()] == ["c", "b", "a"]


def test_tokens_are_found_and_revoked_per_seat_or_room(store: Store) -> None:
    store.create_room(room())
    store.save_token("h0", "r1", 0)
    store.save_token("h1", "r1", 1)
    assert store.find_token("h0") == ("r1", 0)
    store.revoke_tokens("r1", 0)
    assert store.find_token("h0") is None and store.find_token("h1") == ("r1", 1)
    store.revoke_tokens("r1")
    assert store.find_token("h1") is None


def test_sqlite_keeps_everything_across_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "var" / "paiju.sqlite3"
    first = SqliteStore(path)
    first.create_room(room())
    first.append_action("r1", ActionRecord(0, 1, 0, "go", "player", 3))
    first.save_token("h0", "r1", 0)
    first.close()
    again = SqliteStore(path)
    assert [r.room_id for r in again.list_rooms()] == ["r1"]
    assert again.actions("r1")[0].action == "go"
    assert again.find_token("h0") == ("r1", 0)
    journal = again._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert journal == "wal"
    again.close()
