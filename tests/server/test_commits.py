"""Group commit: the rooms' records of one loop turn go to the store in one transaction, and
each room sends what they describe only once that transaction holds them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from paiju.engines.registry import get_engine
from paiju.persistence.memory import MemoryStore
from paiju.persistence.sqlite import SqliteStore
from paiju.persistence.store import Appended, Store
from paiju.server.commits import GroupCommit
from paiju.server.errors import StorageFailed
from paiju.server.room import Room
from paiju.table.effects import Effect, Send
from paiju.table.records import RoomStatus
from paiju.table.table import Table, TableSettings
from tests.persistence.writer import created, write_effects


class Counting(SqliteStore):
    """A SQLite store that records the rooms of each group commit, and can refuse one room's
    records or a whole transaction."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.commits: list[list[str]] = []
        self.refuse: str | None = None
        self.broken = False

    def append_groups(
        self, groups: Sequence[tuple[str, Sequence[Appended]]]
    ) -> list[Exception | None]:
        if self.broken:
            raise OSError("disk I/O error")
        self.commits.append([room_id for room_id, _ in groups])
        errors = super().append_groups([g for g in groups if g[0] != self.refuse])
        return [OSError("disk full") if g[0] == self.refuse else errors.pop(0) for g in groups]


class Member:
    """A seat's connection that notes how many entries of its room were stored when each
    frame reached it."""

    def __init__(self, store: Store, room_id: str) -> None:
        self.store, self.room_id = store, room_id
        self.stored_when_sent: list[int] = []

    def send_frame(self, frame: bytes) -> None:
        self.stored_when_sent.append(len(self.store.entries(self.room_id)))

    def left_room(self, room_id: str) -> None:
        pass

    def when_written(self, done: Callable[[], None]) -> None:
        done()


def open_room(store: Store, room_id: str, commits: GroupCommit) -> tuple[Room, Member]:
    engine = get_engine("race")
    options = engine.normalize_options({})
    table = Table(room_id, engine, options, "s", TableSettings(timers={}),
                  lambda s, lv: None)  # type: ignore[arg-type,return-value]
    write_effects(store, room_id, table.open_room(created(room_id, options=options)))
    room = Room(table, store, commits=commits)
    member = Member(store, room_id)
    room.members[0] = {member}
    room.start()
    return room, member


def status_then_send(table: Table, now: float) -> tuple[int, list[Effect]]:
    """A change that stores one record and sends seat 0 a message about it."""
    record = table._persist(RoomStatus("waiting", (0, 0), (), table.version))
    return table.ledger.next_n, [record, Send(0, table.snapshot(0, now))]


async def test_rooms_changed_in_one_turn_share_one_commit_and_send_after_it(
    tmp_path: Path,
) -> None:
    store = Counting(tmp_path / "db.sqlite3")
    commits = GroupCommit(store)
    rooms = [open_room(store, f"r{n}", commits) for n in range(3)]
    stored = await asyncio.gather(*(room.call(status_then_send) for room, _ in rooms))
    assert stored == [3, 3, 3]  # two entries when opened, the status
    assert store.commits == [["r0", "r1", "r2"]]
    # Each member's message left only once its room's record was in the store.
    assert [member.stored_when_sent for _, member in rooms] == [[3], [3], [3]]
    for room, _ in rooms:
        await room.stop()


async def test_a_room_whose_records_fail_is_told_alone_and_undone(tmp_path: Path) -> None:
    store = Counting(tmp_path / "db.sqlite3")
    commits = GroupCommit(store)
    good, seen = open_room(store, "good", commits)
    bad, _ = open_room(store, "bad", commits)

    async def rebuild(now: float) -> Table:
        return bad.table  # the table as the disk holds it is not the point here

    bad._rebuild = rebuild
    store.refuse = "bad"
    results = await asyncio.gather(good.call(status_then_send), bad.call(status_then_send),
                                   return_exceptions=True)
    assert results[0] == 3 and isinstance(results[1], StorageFailed)
    assert store.commits == [["good", "bad"]]
    assert len(store.entries("good")) == 3 and len(store.entries("bad")) == 2
    assert seen.stored_when_sent == [3]
    for room in (good, bad):
        await room.stop()


async def test_a_failed_transaction_fails_every_room_in_it(tmp_path: Path) -> None:
    store = Counting(tmp_path / "db.sqlite3")
    commits = GroupCommit(store)
    store.broken = True
    futures = [commits.write(room_id, []) for room_id in ("a", "b")]
    for future in futures:
        with pytest.raises(OSError, match="disk I/O error"):
            await future


async def test_a_store_without_group_writes_is_written_room_by_room() -> None:
    class Refusing(MemoryStore):
        def append_many(self, room_id: str, items: Sequence[Appended]) -> None:
            if room_id == "bad":
                raise OSError("disk full")
            super().append_many(room_id, items)

    commits = GroupCommit(Refusing())
    good, bad = commits.write("good", []), commits.write("bad", [])
    assert await good >= 0.0
    with pytest.raises(OSError, match="disk full"):
        await bad
