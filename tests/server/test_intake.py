"""What a client sends reaches the library a slice at a time: a short read with nothing waiting
as it is, a long one in ``SLICE``-sized slices, anything behind what waits after it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.connection import Connection
from websockets.asyncio.server import ServerConnection, serve
from websockets.frames import Frame, Opcode

from paiju.server.intake import SLICE, SlicedIntake

Check = Callable[[SlicedIntake, list[bytes]], Awaitable[None]]


def client_frame(payload: bytes) -> bytes:
    """A binary frame as a client sends it (masked)."""
    return Frame(Opcode.BINARY, payload).serialize(mask=True, extensions=[])


async def feeding(monkeypatch: pytest.MonkeyPatch, check: Check) -> None:
    """Run ``check`` on a server connection whose bytes handed to the library are recorded
    (the client's own frames are fed by ``check``, straight to ``data_received``)."""
    handed: list[bytes] = []
    original = Connection.data_received

    def recording(self: Connection, data: bytes) -> None:
        handed.append(data)
        original(self, data)

    failures: list[BaseException] = []

    async def handler(connection: ServerConnection) -> None:
        assert isinstance(connection, SlicedIntake)
        handed.clear()
        try:
            await check(connection, handed)
        except BaseException as exc:  # reported by the test, not lost in the handler
            failures.append(exc)

    monkeypatch.setattr(Connection, "data_received", recording)
    async with serve(handler, "127.0.0.1", 0, create_connection=SlicedIntake,
                     compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}/", compression=None) as ws:
            await asyncio.wait_for(ws.wait_closed(), 5)
    if failures:
        raise failures[0]


async def test_a_short_read_with_nothing_waiting_is_handed_over_as_it_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def check(connection: SlicedIntake, handed: list[bytes]) -> None:
        data = client_frame(b"hello")
        connection.data_received(data)
        assert len(handed) == 1 and handed[0] is data  # not a copy
        assert not connection.backlog
        assert await connection.recv(decode=False) == b"hello"

    await feeding(monkeypatch, check)


async def test_a_long_read_is_handed_over_in_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    async def check(connection: SlicedIntake, handed: list[bytes]) -> None:
        payload = bytes(range(256)) * 12  # 3 KiB: three slices and a bit
        data = client_frame(payload)
        connection.data_received(data)
        assert [len(chunk) for chunk in handed] == [SLICE, SLICE, SLICE, len(data) - 3 * SLICE]
        assert b"".join(handed) == data and not connection.backlog
        assert await connection.recv(decode=False) == payload

    await feeding(monkeypatch, check)


async def test_a_read_while_the_queue_is_full_or_behind_others_waits_its_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def check(connection: SlicedIntake, handed: list[bytes]) -> None:
        first, second = client_frame(b"first"), client_frame(b"second")
        connection.recv_messages.paused = True  # the library's queue is full
        connection.data_received(first)
        assert handed == [] and connection.backlog == first
        connection.recv_messages.paused = False
        connection.data_received(second)  # short, but behind what waits: after it
        assert b"".join(handed) == first + second and not connection.backlog
        assert await connection.recv(decode=False) == b"first"
        assert await connection.recv(decode=False) == b"second"

    await feeding(monkeypatch, check)


async def test_a_read_after_the_connection_closed_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def check(connection: SlicedIntake, handed: list[bytes]) -> None:
        await connection.close()
        handed.clear()
        connection.data_received(client_frame(b"late"))
        assert handed == [] and not connection.backlog

    await feeding(monkeypatch, check)
