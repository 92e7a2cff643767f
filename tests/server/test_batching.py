"""Frames a room queues for one connection together leave in one write to the socket, in
order and intact; the writer takes them from the outbox as one batch. An idle connection
(outbox, waiting writer, the library's connection object) stays small."""

from __future__ import annotations

import asyncio
import gc
import sys
import tracemalloc

import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve

from paiju.server import protocol as p
from paiju.server.intake import SlicedIntake, send_frames
from paiju.server.sessions import Outbox
from tests.server.client import Client
from tests.server.conftest import running
from tests.server.transports import count_writes

FRAMES = [
    b'{"type":"event","n":1}',
    b'{"type":"state","view":"' + b"x" * 70_000 + b'"}',  # several TCP segments
    b'{"type":"event","n":3,"text":"\xe4\xb8\xad"}',
]


@pytest.mark.parametrize("compression", ["deflate", None])
async def test_a_batch_is_one_write_and_arrives_in_order(compression: str | None) -> None:
    writes: list[bytes] = []

    async def handler(connection: ServerConnection) -> None:
        counting = count_writes(connection)
        await send_frames(connection, FRAMES)
        counting.counting = False  # (the close's own write is not the batch's)
        writes.extend(counting.writes)
        await connection.wait_closed()

    async with serve(handler, "127.0.0.1", 0, create_connection=SlicedIntake,
                     compression=compression) as server:
        port = server.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}/", compression=compression,
                           max_size=None) as ws:
            received = [await asyncio.wait_for(ws.recv(decode=False), 5) for _ in FRAMES]
    assert received == FRAMES
    assert len(writes) == 1


def test_the_writer_takes_every_frame_up_to_a_marker() -> None:
    box = Outbox(max_frames=10, max_bytes=10_000)
    called: list[str] = []
    box.put(b"a")
    box.put(b"b")
    box.mark(lambda: called.append("m"))
    box.put(b"c")
    assert box.take() == [b"a", b"b"]
    assert called == []  # a and b are not written yet
    assert box.take() == [b"c"]
    assert called == ["m"]
    assert (box.count, box.bytes) == (0, 0)
    assert box.take() is None


def test_with_no_marker_the_writer_takes_the_whole_box_and_it_starts_over_empty() -> None:
    box = Outbox(max_frames=3, max_bytes=10_000)
    for frame in (b"a", b"bb", b"ccc"):
        assert box.put(frame)
    assert not box.put(b"d")  # full
    taken = box.take()
    assert taken == [b"a", b"bb", b"ccc"]
    assert (box.count, box.bytes, box.frames) == (0, 0, [])
    assert box.take() is None
    for frame in (b"d", b"e", b"f"):  # the whole room again, in a list of its own
        assert box.put(frame)
    assert taken == [b"a", b"bb", b"ccc"]
    assert box.take() == [b"d", b"e", b"f"]


def test_a_marker_last_is_called_at_the_take_after_the_frames_before_it() -> None:
    box = Outbox(max_frames=10, max_bytes=10_000)
    called: list[str] = []
    box.put(b"a")
    box.mark(lambda: called.append("m"))
    assert box.take() == [b"a"]
    assert called == []  # a is not written yet
    assert box.take() is None
    assert called == ["m"]
    assert (box.count, box.bytes, box.frames) == (0, 0, [])


def test_markers_between_and_after_frames_are_each_called_after_the_frames_before_them() -> None:
    box = Outbox(max_frames=10, max_bytes=10_000)
    called: list[str] = []
    box.put(b"a")
    box.mark(lambda: called.append("m1"))
    box.put(b"bb")
    box.mark(lambda: called.append("m2"))
    assert box.take() == [b"a"]
    assert called == []
    assert (box.count, box.bytes) == (1, 2)
    assert box.take() == [b"bb"]
    assert called == ["m1"]
    box.put(b"c")  # queued after m2: m2 is called before it is written
    assert box.take() == [b"c"]
    assert called == ["m1", "m2"]
    assert (box.count, box.bytes, box.frames) == (0, 0, [])


def test_an_outbox_wakes_its_writer_when_something_is_queued_or_it_ends() -> None:
    box = Outbox(max_frames=10, max_bytes=10_000)
    woken: list[str] = []
    box.waker = lambda: woken.append("w")
    box.mark(lambda: None)  # nothing queued: called at once, nothing to write
    assert woken == []
    box.put(b"a")
    assert woken == ["w"]
    box.end()
    assert woken == ["w", "w"]


def writing() -> list[asyncio.Task[object]]:
    """The writer tasks running."""
    names = [(t, getattr(t.get_coro(), "__qualname__", "")) for t in asyncio.all_tasks()]
    return [t for t, name in names if name.endswith(("._write", "._writer"))]


async def test_an_idle_connection_has_no_writer_task() -> None:
    """Thousands of connections sit idle: a writer task waiting on each was 1.2 KiB more."""
    async with running() as server:
        client = await Client.open(server.port)
        await client.send({"type": "ping", "nonce": "n"})
        await client.expect("pong")
        async with asyncio.timeout(5):
            while writing():  # the pong's writer ends once it is sent
                await asyncio.sleep(0.001)
        await client.send({"type": "ping", "nonce": "again"})  # a writer starts when needed
        assert (await client.expect("pong"))["nonce"] == "again"
        await client.close()


async def test_an_idle_outbox_is_small() -> None:
    """Thousands of connections sit idle: their outboxes are part of what paiju adds to the
    library's own memory per connection."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        boxes = [Outbox(max_frames=10, max_bytes=10_000) for _ in range(200)]
        each = (tracemalloc.get_traced_memory()[0] - before) / len(boxes)
    finally:
        tracemalloc.stop()
    assert each < 300  # a deque and an asyncio.Event per box made it over 3,000 bytes


async def test_a_connection_keeps_the_library_s_compact_instance_dict() -> None:
    """What paiju adds to the library's connection lives in slots: added to its instance
    dict after ``__init__``, they made that dict one of its own (1.5 KiB more each)."""
    async with running() as server:
        client = await Client.open(server.port)
        assert server._server is not None
        (connection,) = server._server.connections
        assert connection.log_id  # the session's id, set once the handshake was accepted
        assert sys.getsizeof(connection.__dict__) < 800
        await client.close()


async def test_an_idle_reader_keeps_no_message_it_carried_out() -> None:
    async with running() as server:
        client = await Client.open(server.port)
        await client.send({"type": "ping", "nonce": "n"})
        await client.expect("pong")
        gc.collect()
        assert not [o for o in gc.get_objects() if isinstance(o, p.Ping)]
        await client.close()


async def test_an_idle_connection_waits_for_its_writes_in_a_list_not_a_deque() -> None:
    """An empty deque is a 600-byte block for the connection's life; the library only
    appends, removes and walks these waiters (tests/security/test_slow_and_many.py makes
    them wait)."""
    async with running() as server:
        client = await Client.open(server.port)
        assert server._server is not None
        (connection,) = server._server.connections
        assert connection.drain_waiters == [] and isinstance(connection.drain_waiters, list)
        await client.close()


def test_a_marker_left_alone_is_called_and_what_it_queues_is_taken() -> None:
    box = Outbox(max_frames=10, max_bytes=10_000)
    called: list[str] = []
    box.put(b"a")
    box.mark(lambda: (called.append("m"), box.put(b"late")))
    assert box.take() == [b"a"]
    assert box.frames != [] and box.count == 0  # the marker alone is left
    assert box.take() == [b"late"]
    assert called == ["m"]
    assert (box.count, box.bytes, box.frames) == (0, 0, [])
    assert box.take() is None
