"""Every store (memory, SQLite, Redis) keeps the same chain of entries; SQLite and Redis keep
them across a reopen; Redis fences every write of a cluster node by its lease."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from paiju.persistence.memory import MemoryStore
from paiju.persistence.redisstore import RedisStore
from paiju.persistence.sqlite import SqliteStore
from paiju.persistence.store import Store, hands
from paiju.table.records import ActionRecord, HandRecord, RoomStatus, Snapshot, record_body
from tests.persistence.writer import Writer, created


@pytest.fixture(params=["memory", "sqlite", "redis"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if request.param == "redis":
        return RedisStore(request.getfixturevalue("redis_url"))
    return MemoryStore() if request.param == "memory" else SqliteStore(tmp_path / "db.sqlite3")


def test_entries_round_trip_and_keep_the_summary(store: Store) -> None:
    writer = Writer(store, "r1")
    writer.add(created())
    with pytest.raises(ValueError):
        Writer(store, "r1").add(created())
    writer.add(ActionRecord(0, 1, 0, "go", "player", 3), {1: 1234.5})
    writer.add(HandRecord(0, (1, -1), (1, -1), 4))
    writer.add(RoomStatus("hand_over", (1, -1), ({"seat": 0, "kind": "human"},), 5))
    entries = store.entries("r1")
    assert [e.entry.kind for e in entries] == ["room", "action", "hand", "status"]
    assert [e.entry.n for e in entries] == [0, 1, 2, 3]
    assert entries[1].deadlines == {1: 1234.5}
    assert entries[2].entry.prev == entries[1].entry.hash
    assert all(e.entry.intact() for e in entries)
    assert hands(store, "r1") == [HandRecord(0, (1, -1), (1, -1))]
    got = store.get_room("r1")
    assert got is not None and got.phase == "hand_over" and got.totals == [1, -1]
    assert got.options == {"seats": 2} and got.scheme == "fair-v1"
    assert store.get_room("nope") is None


def test_a_restore_reads_entry_0_and_everything_from_the_last_snapshot(store: Store) -> None:
    writer = Writer(store, "r1")
    writer.add(created())
    writer.add(RoomStatus("waiting", (0, 0), (), 1))
    assert [e.entry.n for e in store.restore_entries("r1")] == [0, 1]
    for hand in range(2):
        writer.add(Snapshot(hand, (0, 0), {}, (), 0, 2 + hand, ()))
        writer.add(ActionRecord(hand, hand + 1, 0, "go", "player", 3 + hand))
    assert [e.entry.n for e in store.restore_entries("r1")] == [0, 4, 5]


def test_rooms_are_listed_oldest_first(store: Store) -> None:
    Writer(store, "b").add(created("b", 2.0))
    Writer(store, "a").add(created("a", 3.0))
    Writer(store, "c").add(created("c", 1.0))
    assert [r.room_id for r in store.list_rooms()] == ["c", "b", "a"]


def test_the_open_rooms_are_those_neither_finished_nor_closed_oldest_first(
    store: Store,
) -> None:
    writers = {}
    for room_id, at, phase in [("b", 2.0, "playing"), ("a", 3.0, "waiting"),
                               ("c", 1.0, "hand_over"), ("d", 0.5, "finished"),
                               ("e", 4.0, "closed"), ("f", 5.0, None)]:
        writer = writers[room_id] = Writer(store, room_id)
        writer.add(created(room_id, at))
        if phase is not None:
            writer.add(RoomStatus(phase, (0, 0), (), 1))
    assert store.open_rooms() == ["c", "b", "a", "f"]
    assert store.open_rooms() == [r.room_id for r in store.list_rooms()
                                  if r.phase not in ("finished", "closed")]
    writers["b"].add(RoomStatus("finished", (0, 0), (), 2))
    assert store.open_rooms() == ["c", "a", "f"]


def test_tokens_are_found_and_revoked_per_seat_or_room(store: Store) -> None:
    Writer(store, "r1").add(created())
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
    writer = Writer(first, "r1")
    writer.add(created())
    writer.add(ActionRecord(0, 1, 0, "go", "player", 3))
    first.save_token("h0", "r1", 0)
    first.close()
    again = SqliteStore(path)
    assert [r.room_id for r in again.list_rooms()] == ["r1"]
    assert again.entries("r1")[1].entry.data()["action"] == "go"
    assert again.find_token("h0") == ("r1", 0)
    assert again.schema_version == 1
    journal = again._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert journal == "wal"
    again.close()


def test_a_failed_write_leaves_nothing_behind(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "db.sqlite3")
    writer = Writer(store, "r1")
    writer.add(created())
    entry = writer.ledger.append("status", {"phase": "waiting"})
    record = RoomStatus("playing", (0, 0), (), 1)
    store.append("r1", record, entry, {})
    with pytest.raises(sqlite3.IntegrityError):  # the same entry number twice
        store.append("r1", RoomStatus("finished", (0, 0), (), 2), entry, {})
    got = store.get_room("r1")
    assert got is not None and got.phase == "playing"
    assert len(store.entries("r1")) == 2


def test_many_entries_are_appended_in_one_step(store: Store) -> None:
    writer = Writer(store, "r1")
    first = created()
    records = [first, ActionRecord(0, 1, 0, "go", "player", 3),
               RoomStatus("playing", (0, 0), (), 4)]
    items = [(r, writer.ledger.append(r.kind, record_body(r)), {1: 9.5}) for r in records]
    store.append_many("r1", items)
    assert [e.entry.kind for e in store.entries("r1")] == ["room", "action", "status"]
    assert store.entries("r1")[2].deadlines == {1: 9.5}
    got = store.get_room("r1")
    assert got is not None and got.phase == "playing"


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_a_batch_that_cannot_be_stored_whole_stores_nothing(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    store: Store = (RedisStore(request.getfixturevalue("redis_url")) if kind == "redis"
                    else SqliteStore(tmp_path / "db.sqlite3"))
    writer = Writer(store, "r1")
    writer.add(created())
    good = RoomStatus("playing", (0, 0), (), 1)
    entry = writer.ledger.append(good.kind, record_body(good))
    with pytest.raises(Exception, match=r"GAP|UNIQUE"):  # the same entry number twice
        store.append_many("r1", [(good, entry, {}), (good, entry, {})])
    assert store.last_entry("r1") == 0
    got = store.get_room("r1")
    assert got is not None and got.phase == "waiting"
