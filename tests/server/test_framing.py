"""The server frames its text messages itself (``paiju.server.intake``): byte for byte what
websockets would have written, read back by a real websockets client, compressed or not, at
the lengths where the header changes; never after the library's close frame; with the
library's own path when the extension keeps a context. The writer runs from one callback after
the room's turn, with no task unless the socket stops taking bytes."""

from __future__ import annotations

import asyncio
import os
import random
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode

from paiju.server.compression import LEVEL, MEMORY_LEVEL, SMALL, Deflater, SmallAsIs, deflate
from paiju.server.config import ServerConfig
from paiju.server.intake import SlicedIntake, framing, header, send_frames, text_frames
from paiju.server.link import Links, Writer
from paiju.server.sessions import Session
from paiju.server.throttle import LogLimiter
from tests.server.transports import count_writes

#: Lengths where a frame's header changes (7, 16 and 64 bits of length).
BOUNDARIES = [0, 1, 125, 126, 127, 65535, 65536, 65537]


def text(length: int, seed: int = 0) -> bytes:
    """``length`` random lower-case letters: deflate cannot shrink them much (by a sixth)."""
    return bytes(random.Random(seed).choices(b"abcdefghijklmnopqrstuvwxyz", k=length))


def library_frame(data: bytes, extension: SmallAsIs | None) -> bytes:
    """What websockets itself writes for ``data`` as a server's text message."""
    return Frame(Opcode.TEXT, data).serialize(
        mask=False, extensions=[extension] if extension else []
    )


def shared_extension(window: int = 12) -> SmallAsIs:
    extension = SmallAsIs(True, True, window, window, {"level": LEVEL, "memLevel": MEMORY_LEVEL})
    extension.deflater = Deflater(window)
    return extension


@pytest.mark.parametrize("length", BOUNDARIES)
def test_a_header_is_the_library_s(length: int) -> None:
    frame = Frame(Opcode.TEXT, b"x" * length)
    assert header(0x81, length) + frame.data == frame.serialize(mask=False)
    # A deflated message's: the same with RSV1 (the library sets it only through its
    # extension; the compressed frames below are compared with its output whole).
    assert header(0xC1, length) == bytes([0xC1]) + header(0x81, length)[1:]


def deflated_to(target: int) -> bytes:
    """A message whose deflated payload is exactly ``target`` bytes long."""
    deflater = Deflater(12)
    # Deflated: a few bytes, then ~3/4 (lower-case letters only: ISA-L's fastest level, with
    # its fixed code table, barely shrinks a wider alphabet, and a message that does not
    # shrink goes out as it is).
    letters = random.Random(target).choices(b"abcdefghijklmnopqrstuvwxyz", k=target * 2)
    source = b" " * SMALL + bytes(letters)
    low, high = SMALL, len(source)
    while low < high:  # the shortest prefix deflating to at least ``target``
        middle = (low + high) // 2
        if len(deflater.message(source[:middle])) < target:
            low = middle + 1
        else:
            high = middle
    for end in range(low, low + 64):
        if len(deflater.message(source[:end])) == target:
            return source[:end]
    raise AssertionError(f"no prefix deflates to {target} bytes")


COMPRESSED = [deflated_to(n) for n in (125, 126, 65535, 65536)]


@pytest.mark.parametrize("compressed", [False, True])
def test_frames_are_the_bytes_the_library_writes(compressed: bool) -> None:
    messages = [text(n, seed=n) for n in [*BOUNDARIES, SMALL - 1, SMALL, 3000]]
    if compressed:
        messages += COMPRESSED
    extension = shared_extension() if compressed else None
    deflater = extension.deflater if extension else None
    expected = b"".join(library_frame(m, extension) for m in messages)
    assert text_frames(messages, deflater) == expected
    if compressed:  # the compressed lengths hit the header's boundaries
        lengths = [len(library_frame(m, extension)) for m in COMPRESSED]
        headers = [n - len(Deflater(12).message(m))
                   for n, m in zip(lengths, COMPRESSED, strict=True)]
        assert headers == [2, 4, 4, 10]


def test_a_message_that_would_not_shrink_goes_out_as_it_is() -> None:
    """Bytes that deflate cannot shrink (ISA-L's fastest level would make them a quarter
    longer) are framed as they are, RSV1 clear, as the library's extension sends them."""
    noise = random.Random(7).randbytes(3000)
    assert Deflater(12).message(noise) is None
    framed = text_frames([noise], Deflater(12))
    assert framed == header(0x81, len(noise)) + noise
    assert framed == library_frame(noise, shared_extension())


@settings(max_examples=60, deadline=None)
@given(before=st.lists(st.binary(max_size=2000), max_size=5), message=st.binary(max_size=2000))
def test_a_message_s_frame_does_not_depend_on_what_was_framed_before(
    before: list[bytes], message: bytes
) -> None:
    """Another seat's messages, framed by the same shared compressor first, change nothing
    in this one's bytes (content or length)."""
    shared = Deflater(12)
    text_frames(before, shared)
    assert text_frames([message], shared) == text_frames([message], Deflater(12))


# ---------------------------------------------------------------- with a real client

@asynccontextmanager
async def connected(
    handler: Callable[[ServerConnection], Awaitable[None]], compression: str,
    client_extensions: Any = None, **client: Any,
) -> AsyncIterator[ClientConnection]:
    """A client of a server with paiju's connection class and ``compression`` setting,
    each of its connections handled by ``handler``."""
    async with serve(handler, "127.0.0.1", 0, create_connection=SlicedIntake,  # type: ignore[arg-type]
                     compression=None, extensions=deflate(compression)) as server:  # type: ignore[arg-type]
        port = server.sockets[0].getsockname()[1]
        options: dict[str, Any] = {"compression": "deflate", **client}
        if client_extensions is not None:
            options = {"compression": None, "extensions": client_extensions}
        async with connect(f"ws://127.0.0.1:{port}/", max_size=None, **options) as ws:
            yield ws


async def received_after(ws: ClientConnection, count: int) -> list[bytes]:
    return [await asyncio.wait_for(ws.recv(decode=False), 5) for _ in range(count)]


@pytest.mark.parametrize("compression", ["message", "off"])
async def test_a_client_reads_every_boundary_back(compression: str) -> None:
    messages = [text(n, seed=n) for n in BOUNDARIES] + COMPRESSED
    framed: list[object] = []
    seen: list[bool] = []

    async def handler(connection: ServerConnection) -> None:
        framed.append(framing(connection))
        await connection.recv()  # once the client records what it decodes
        await send_frames(connection, messages)
        await connection.wait_closed()

    async with connected(handler, compression) as ws:
        for extension in ws.protocol.extensions:
            decode = extension.decode

            def recorded(frame: Frame, *, max_size: int | None = None,
                         decode: Any = decode) -> Frame:
                if frame.opcode is Opcode.TEXT:  # not the close frame
                    seen.append(frame.rsv1)
                decoded: Frame = decode(frame, max_size=max_size)
                return decoded

            extension.decode = recorded  # type: ignore[method-assign]
        await ws.send("go")
        assert await received_after(ws, len(messages)) == messages
    # Framed here (with the shared compressor, or with none), not by the library.
    if compression == "off":
        assert framed == [None] and seen == []
    else:
        assert isinstance(framed[0], Deflater)
        assert seen == [len(m) >= SMALL for m in messages]


async def test_a_client_that_asks_for_a_smaller_window_reads_every_message() -> None:
    messages = [text(n, seed=n) for n in (300, 5000, 70000)]

    async def handler(connection: ServerConnection) -> None:
        deflater = framing(connection)
        assert isinstance(deflater, Deflater)
        await send_frames(connection, messages)
        await connection.wait_closed()

    smaller = [ClientPerMessageDeflateFactory(server_max_window_bits=9)]
    async with connected(handler, "message", smaller) as ws:
        assert await received_after(ws, len(messages)) == messages
        assert ws.response is not None
        assert "server_max_window_bits=9" in ws.response.headers["Sec-WebSocket-Extensions"]


async def test_with_the_context_kept_the_library_frames_the_messages() -> None:
    """Its compressor's context spans messages: frames made here would break it."""
    messages = [text(n, seed=n) for n in (300, 300, 5000)]
    framed: list[object] = []

    async def handler(connection: ServerConnection) -> None:
        framed.append(framing(connection))
        await send_frames(connection, messages)
        await connection.wait_closed()

    async with connected(handler, "context") as ws:
        assert await received_after(ws, len(messages)) == messages
    assert framed == [False]


# ---------------------------------------------------------------- the writer

def writer_of(connection: ServerConnection, **settings: Any) -> tuple[Links, Session, Writer]:
    async def dispatch(*_: Any) -> None:
        pass

    links = Links(ServerConfig(**settings), dispatch, LogLimiter(0))
    session = links.session(connection, "test")
    return links, session, Writer(links, connection, session)


def counting_writes(connection: ServerConnection) -> list[bytes]:
    return count_writes(connection).writes


async def test_a_turn_s_frames_leave_in_one_write_with_no_writer_task() -> None:
    tasks: list[int] = []

    async def handler(connection: ServerConnection) -> None:
        _, session, writer = writer_of(connection)
        writes = counting_writes(connection)
        loop = asyncio.get_running_loop()
        create_task = loop.create_task

        def counted(*args: Any, **kwargs: Any) -> Any:
            tasks.append(1)
            return create_task(*args, **kwargs)

        for _ in range(2):  # two turns
            loop.create_task = counted  # type: ignore[method-assign]
            session.send_frame(b'{"type":"event"}')
            session.send_frame(text(3000))
            await asyncio.sleep(0)  # the turn is over: the writer wrote both
            loop.create_task = create_task  # type: ignore[method-assign]
            assert writer.task is None
        assert len(writes) == 2
        await connection.wait_closed()

    async with connected(handler, "message") as ws:
        assert await received_after(ws, 4) == [b'{"type":"event"}', text(3000)] * 2
    assert tasks == []


async def test_nothing_is_written_after_the_close_frame() -> None:
    """Frames queued in the pass that closes the connection go out before the close frame
    or not at all; none after it."""
    outcome: list[bytes] = []

    async def handler(connection: ServerConnection) -> None:
        _, session, writer = writer_of(connection)
        writes = counting_writes(connection)
        session.send_frame(b'{"n":1}')  # flushed before the close's task runs
        closing = asyncio.get_running_loop().create_task(connection.close(4002, "bye"))
        session.send_frame(b'{"n":2}')
        await asyncio.sleep(0)
        session.send_frame(b'{"n":3}')  # the close frame went out: too late for this one
        session.outbox.end()
        await writer.done()
        await closing
        outcome.extend(writes)

    async with connected(handler, "message") as ws:
        assert await received_after(ws, 2) == [b'{"n":1}', b'{"n":2}']
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
        assert ws.close_code == 4002
    # One write for both frames, then the close frame, last (its first byte: FIN, opcode 8).
    assert outcome[0] == text_frames([b'{"n":1}', b'{"n":2}'], None)
    assert outcome[-1][0] == 0x88 and all(w[0] != 0x81 for w in outcome[1:])


async def test_a_socket_that_stops_taking_bytes_gets_a_writer_task_and_its_timeout() -> None:
    """Writes beyond the library's mark wait for the client in a task, timed by
    ``send_timeout``: the client that stopped reading is closed."""
    outcome: list[object] = []
    over = asyncio.Event()

    async def handler(connection: ServerConnection) -> None:
        _, session, writer = writer_of(connection, send_timeout=0.2, outbound_queue=10_000,
                                       outbound_queue_bytes=100_000_000)
        for _ in range(5000):
            session.send_frame(os.urandom(4000).hex().encode())  # deflates to ~4,500 bytes
            await asyncio.sleep(0)
            if writer.task is not None:
                break
        outcome.append(writer.task is not None)
        await connection.wait_closed()  # closed, then aborted: the close could not go out
        outcome.append(session.outbox.ended)
        over.set()

    async with connected(handler, "message", max_queue=1) as ws:
        await asyncio.wait_for(over.wait(), 10)  # the client read nothing
        ws.transport.abort()
    assert outcome == [True, True]


def test_deflate_reads_back_with_the_standard_zlib() -> None:
    """A client's inflater (the standard library's) reads a framed message's payload."""
    message = text(5000)
    frame = text_frames([message], Deflater(12))
    assert frame[0] == 0xC1 and frame[1] == 126
    payload = frame[4:]
    assert zlib.decompressobj(-12).decompress(payload + b"\x00\x00\xff\xff") == message
