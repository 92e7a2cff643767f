"""The room's task between messages: when it ticks its table, how it writes to a local store."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import orjson
import pytest

from paiju.engines.registry import get_engine, make_bot
from paiju.persistence.memory import MemoryStore
from paiju.server.errors import RoomClosed
from paiju.server.feed import SpectatorFeed
from paiju.server.room import Room
from paiju.table.commands import Join
from paiju.table.effects import Effect, Persist, Send
from paiju.table.ledger import Entry
from paiju.table.records import ActionRecord
from paiju.table.table import FINISHED, PLAYING, Table, TableSettings
from tests.persistence.writer import created


class Clockwork:
    """A table as the room's housekeeping reads it: a deadline, and the ticks it was given."""

    room_id = "r"
    phase = PLAYING

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self.ticks: list[float] = []
        self.watched: Any = None

    def next_deadline(self) -> float | None:
        return self.deadline

    def tick(self, now: float) -> list[Effect]:
        self.ticks.append(now)
        return []


@pytest.mark.parametrize(
    ("deadline", "now", "ticked"),
    [
        (None, 1.0, False),  # nothing will ever be due
        (5.0, 4.999, False),  # not yet
        (5.0, 5.0, True),  # due as the deadline comes, as ``Table.tick`` takes it
        (5.0, 9.0, True),
        (float("-inf"), 0.0, True),  # a deal that is due at once
    ],
)
async def test_the_table_is_ticked_only_once_its_next_deadline_has_come(
    deadline: float | None, now: float, ticked: bool
) -> None:
    table = Clockwork(deadline)
    room = Room(table, MemoryStore())  # type: ignore[arg-type]
    assert await room._housekeeping(now) is False
    assert table.ticks == ([now] if ticked else [])


async def test_a_paused_room_is_not_ticked_even_when_a_deadline_has_come() -> None:
    table = Clockwork(0.0)
    room = Room(table, MemoryStore())  # type: ignore[arg-type]
    room.paused_since = 0.0
    await room._housekeeping(10.0)
    assert table.ticks == []


class Watching:
    """A room member that keeps its frames, noting what was stored when each arrived."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.frames: list[tuple[bytes, int]] = []

    def send_frame(self, frame: bytes) -> None:
        self.frames.append((frame, len(self.store.entries("r"))))

    def left_room(self, room_id: str) -> None:
        pass

    def when_written(self, done: Any) -> None:
        done()


async def test_a_local_store_is_written_before_the_sends_without_leaving_the_task() -> None:
    engine = get_engine("race")
    options = engine.normalize_options({"seats": 2})
    table = Table("r", engine, options, "s", TableSettings(), make_bot)
    store = MemoryStore()
    room = Room(table, store)
    member = Watching(store)
    room.members[0] = {member}  # type: ignore[arg-type]
    effects = table.open_room(created("r", variant="race", options=options))
    effects += table.handle(None, Join("ann"), 0.0)
    records = sum(isinstance(e, Persist) for e in effects)
    assert records and any(isinstance(e, Send) and e.to == 0 for e in effects)
    step = room.carry_out(effects)
    with pytest.raises(StopIteration):  # done in one step: no await on the way
        step.send(None)
    assert len(store.entries("r")) == records
    assert member.frames and all(stored == records for _, stored in member.frames)


async def test_a_call_queues_its_job_at_once_and_its_future_gives_the_result() -> None:
    room = Room(Clockwork(None), MemoryStore())  # type: ignore[arg-type]
    room.start()
    ran: list[float] = []

    def job(table: Any, now: float) -> tuple[str, list[Effect]]:
        ran.append(now)
        return "done", []

    answer = room.call(job)
    assert isinstance(answer, asyncio.Future)  # queued already, not a coroutine to start
    assert await answer == "done"
    assert len(ran) == 1
    await room.stop()


async def test_a_job_s_refusal_is_raised_by_awaiting_its_call() -> None:
    room = Room(Clockwork(None), MemoryStore())  # type: ignore[arg-type]
    room.start()

    def job(table: Any, now: float) -> tuple[None, list[Effect]]:
        raise RoomClosed("no")

    answer = room.call(job)
    with pytest.raises(RoomClosed, match="no"):
        await answer
    assert await room.call(lambda table, now: (1, [])) == 1  # the room goes on
    await room.stop()


async def test_a_call_to_a_stopped_room_is_refused_at_once() -> None:
    room = Room(Clockwork(None), MemoryStore())  # type: ignore[arg-type]
    room.start()
    await room.stop()
    with pytest.raises(RoomClosed):
        room.call(lambda table, now: (None, []))
    with pytest.raises(RoomClosed):
        room.call_async(lambda table, now: asyncio.sleep(0, (None, [])))


class Keeping:
    """A spectator that keeps the frames it was sent."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def send_frame(self, frame: bytes) -> None:
        self.frames.append(frame)

    def left_room(self, room_id: str) -> None:
        pass

    def when_written(self, done: Any) -> None:
        done()


def test_a_wake_with_nothing_due_only_releases_the_spectators_held_messages() -> None:
    room = Room(Clockwork(50.0), MemoryStore(), feed=SpectatorFeed(delay=10.0))  # type: ignore[arg-type]
    spectator = Keeping()
    room.spectators.add(spectator)  # type: ignore[arg-type]
    notice = {"type": "notice", "room": "r", "kind": "operator", "text": "t"}
    room.feed.push(notice, 0.0)
    assert room._quiet(5.0)  # nothing due, nothing released yet
    assert spectator.frames == []
    assert room._quiet(10.0)
    assert [orjson.loads(frame) for frame in spectator.frames] == [notice]
    assert not room._quiet(50.0)  # the table's deadline: housekeeping ticks it


def test_a_wake_when_the_room_is_due_to_unload_is_not_quiet() -> None:
    table = Clockwork(None)
    room = Room(table, MemoryStore(), finished_grace=5.0)  # type: ignore[arg-type]
    table.phase = FINISHED  # type: ignore[assignment]
    assert room._quiet(0.0)  # the grace period starts
    assert room._quiet(4.9)
    assert not room._quiet(5.0)  # over: housekeeping unloads it


async def test_a_paused_room_s_wake_is_quiet_even_with_a_deadline_due() -> None:
    room = Room(Clockwork(0.0), MemoryStore())  # type: ignore[arg-type]
    room.paused_since = 0.0
    assert room._quiet(10.0)


class Counting(Clockwork):
    """A ``Clockwork`` that counts how often its deadline is read."""

    def __init__(self, deadline: float | None) -> None:
        super().__init__(deadline)
        self.reads = 0

    def next_deadline(self) -> float | None:
        self.reads += 1
        return self.deadline

    def tick(self, now: float) -> list[Effect]:
        self.deadline = None  # what was due is done
        return super().tick(now)


async def test_a_job_s_turn_reads_the_table_s_deadline_once() -> None:
    table = Counting(None)
    room = Room(table, MemoryStore())  # type: ignore[arg-type]
    room.start()
    for _ in range(3):
        assert await room.call(lambda table, now: (None, [])) is None
    await asyncio.sleep(0)  # the task finishes its last turn and waits again
    assert table.reads == 1 + 3  # the start, then once after each job
    await room.stop()


async def test_a_deadline_a_job_sets_is_kept_for_the_next_wait() -> None:
    table = Counting(None)
    room = Room(table, MemoryStore())  # type: ignore[arg-type]
    room.start()

    due: list[float] = []

    def job(table: Any, now: float) -> tuple[None, list[Effect]]:
        table.deadline = now + 0.01  # read once after the job: the room wakes for it
        due.append(table.deadline)
        return None, []

    await room.call(job)
    for _ in range(200):
        if table.ticks:
            break
        await asyncio.sleep(0.005)
    assert len(table.ticks) == 1 and table.ticks[0] >= due[0]
    await room.stop()


def test_records_without_deadlines_are_written_without_reading_the_clock() -> None:
    # No running loop: reading the room's clock would raise.
    room = Room(Clockwork(None), MemoryStore())  # type: ignore[arg-type]
    entry = Entry(1, "action", "{}", "p", "h")
    record = ActionRecord(0, 1, 0, "pass", "player", 3)
    assert room._items([Persist(record, entry), Persist(record, entry)]) == [
        (record, entry, {}), (record, entry, {}),
    ]


async def test_deadlines_are_written_as_wall_clock_times() -> None:
    room = Room(Clockwork(None), MemoryStore())  # type: ignore[arg-type]
    entry = Entry(1, "action", "{}", "p", "h")
    record = ActionRecord(0, 1, 0, "pass", "player", 3)
    (_, _, empty), (_, _, written) = room._items(
        [Persist(record, entry), Persist(record, entry, {2: room.now() + 30.0})])
    assert empty == {}
    assert list(written) == [2] and abs(written[2] - (time.time() + 30.0)) < 1.0


class Batches(MemoryStore):
    """A memory store that notes each write's records (one ``append_many`` each)."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[int]] = []

    def append_many(self, room_id: str, items: Any) -> None:
        self.batches.append([entry.n for _, entry, _ in items])
        super().append_many(room_id, items)


def _persist(n: int) -> Persist:
    return Persist(ActionRecord(0, n, 0, "pass", "player", n), Entry(n, "action", "{}", "p", "h"))


def _send(seat: int, text: str) -> Send:
    return Send(seat, {"type": "notice", "room": "r", "kind": "operator", "text": text})


async def test_runs_of_records_are_written_together_each_before_the_sends_after_it() -> None:
    store = Batches()
    table = Clockwork(None)
    table.engine = SimpleNamespace(name="race")  # type: ignore[attr-defined]
    room = Room(table, store)  # type: ignore[arg-type]
    member = Watching(store)
    room.members[0] = {member}  # type: ignore[arg-type]
    store.append_many("r", [(created("r"), Entry(0, "room", "{}", "", "h0"), {})])
    store.batches.clear()
    effects: list[Effect] = [
        _send(0, "a"), _persist(1), _send(0, "b"), _send(1, "nobody"), _persist(2),
        _persist(3), _send(0, "c"), _persist(4),
    ]
    await room.carry_out(effects)
    assert store.batches == [[1], [2, 3], [4]]
    assert [(orjson.loads(frame)["text"], stored) for frame, stored in member.frames] == [
        ("a", 1), ("b", 2), ("c", 4),  # (1 stored: the room's entry 0)
    ]
