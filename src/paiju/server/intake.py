"""What a client sends, fed to the websockets library a slice at a time; what it is sent,
written to the socket in one piece per batch.

permessage-deflate lets a few dozen bytes on the wire stand for a 64 KiB frame, and the
library decodes every frame of what it is handed at once, before its flow control (pause
reading when ``max_queue`` frames wait) can act: one 256 KiB read of such frames would become
gigabytes of decompressed text in the server. Handed over in slices, and not at all while the
library's queue is full, the frames waiting per connection stay bounded by that queue plus
one slice's worth; the rest waits here, still compressed, and the transport stops reading.

The other way, the library writes each frame it encodes to the transport on its own: one
system call (and one TCP segment) per frame. A room change that sends a connection several
frames (an event and a state) goes out as one write instead (``send_frames``).

Those data frames are framed here, not by the library (``write_frames``): its path per frame
(a ``Frame``, its checks, the extension's ``encode``, ``serialize`` into a ``BytesIO``, the
``send_context`` around it) was about a third of the server's cost of sending a message. A
server's text frame is simple: FIN and the opcode (RSV1 too when deflated), the length in 7,
16 or 64 bits, no mask, the payload. It is safe to write one beside the library because
    - only while the library's state is OPEN: it has sent no close frame, so the data
      frames are not written after one; once it has, the library's own path raises
      ``ConnectionClosed`` as before;
    - every write is whole and synchronous, and the library writes its own frames (pings,
      pongs, the close) to the transport at once, before returning to the loop (what it
      left in ``protocol.writes``, never anything in practice, is written first): frames
      cannot interleave;
    - the library keeps no state about outgoing data frames of its own unless a message is
      fragmented (never, here) or the deflate extension keeps its context between messages.
      Frames are framed here only with no extension, or with ``SmallAsIs`` compressing with
      the shared ``Deflater`` (each message alone, as the library's ``encode`` would with it);
      with the context kept ("context"), the library frames every message as before.
"""

from __future__ import annotations

import struct
from asyncio import BaseTransport
from collections.abc import Callable, Sequence
from typing import Literal

from websockets.asyncio.server import ServerConnection
from websockets.protocol import CLOSED, OPEN

from paiju.server.compression import SMALL, Deflater, SmallAsIs

#: Bytes handed to the library at a time. With the client's context reset per message
#: (the default ``compression``), deflate's best ratio is about 1:1000, so one slice decodes
#: to at most a megabyte or so.
SLICE = 1024


#: A text frame's first byte: FIN and the opcode; with RSV1, a deflated one's.
TEXT = 0x81
DEFLATED_TEXT = 0xC1
#: The two-byte headers of frames shorter than 126 bytes (most events), made once.
SHORT_TEXT = [bytes((TEXT, n)) for n in range(126)]
SHORT_DEFLATED = [bytes((DEFLATED_TEXT, n)) for n in range(126)]
MEDIUM = struct.Struct("!BBH")  # 126, then 16 bits of length
LONG = struct.Struct("!BBQ")  # 127, then 64 bits of length


def header(first: int, length: int) -> bytes:
    """The header of an unmasked frame whose first byte is ``first``, of ``length`` bytes."""
    if length < 126:
        return bytes((first, length))
    if length < 65536:
        return MEDIUM.pack(first, 126, length)
    return LONG.pack(first, 127, length)


def text_frames(frames: Sequence[bytes], deflater: Deflater | None) -> bytes:
    """``frames`` as text frames, one after the other, as the library would frame them with
    ``SmallAsIs`` compressing with ``deflater`` (a message shorter than ``SMALL``, or one
    that would not shrink, as it is; any other deflated alone, RSV1 set), or with no
    extension (``deflater`` ``None``)."""
    parts: list[bytes] = []
    for frame in frames:
        length = len(frame)
        payload = None if deflater is None or length < SMALL else deflater.message(frame)
        if payload is None:
            parts.append(SHORT_TEXT[length] if length < 126 else header(TEXT, length))
            parts.append(frame)
        else:
            length = len(payload)
            parts.append(SHORT_DEFLATED[length] if length < 126 else header(DEFLATED_TEXT, length))
            parts.append(payload)
    return b"".join(parts)


def framing(connection: ServerConnection) -> Deflater | Literal[False] | None:
    """How messages to ``connection`` are framed here: with the extension's shared
    ``Deflater``, with none (``None``: no extension), or not here (``False``: the extension
    keeps a context, or is not ours; see the module's docstring)."""
    extensions = connection.protocol.extensions
    if not extensions:
        return None
    extension = extensions[0]
    if len(extensions) > 1 or type(extension) is not SmallAsIs or extension.deflater is None:
        return False
    return extension.deflater


def write_framed(connection: ServerConnection, data: bytes) -> bool:
    """Write frames made by ``text_frames`` to the socket, unless the connection is no
    longer open (``False``: nothing written; the library's path raises ``ConnectionClosed``)."""
    if connection.protocol.state is not OPEN:
        return False
    try:
        if connection.protocol.writes:  # the library's own, unwritten (never: it writes at once)
            connection.send_data()
        connection.transport.write(data)
    except Exception as exc:  # as the library's ``send_context`` treats a failed write
        connection.set_connection_exc(exc)
        connection.transport.abort()
    return True


def write_frames(connection: ServerConnection, frames: Sequence[bytes]) -> bool:
    """Write ``frames`` (UTF-8 JSON) to the socket as text messages, framed here, in one
    write; ``False`` (and nothing written) if the library must send them instead: the
    connection is not open, or the messages are not framed here (``framing``)."""
    deflater = framing(connection)
    if deflater is False or connection.protocol.state is not OPEN:
        return False
    return write_framed(connection, text_frames(frames, deflater))


async def send_frames(connection: ServerConnection, frames: Sequence[bytes]) -> None:
    """Send each of ``frames`` (UTF-8 JSON) as a text message, in order, in one write, then
    wait for the library's write buffer to drain as ``connection.send`` does. Raises
    ``ConnectionClosed`` as ``send`` does."""
    if write_frames(connection, frames):
        if connection.paused:
            await drained(connection)
        return
    async with connection.send_context():  # a ``SlicedIntake`` writes them at once
        for frame in frames:
            connection.protocol.send_text(frame)


async def drained(connection: ServerConnection) -> None:
    """Wait until what was written to the socket is below the library's low-water mark, as
    its own sends do (raising ``ConnectionClosed`` if the connection closes meanwhile)."""
    async with connection.send_context():
        pass


class SlicedIntake(ServerConnection):
    """A server connection whose incoming bytes go to the library in ``SLICE``-sized slices
    while its queue of frames has room, and whose outgoing frames are joined into one write."""

    # Not in the library's instance dict (see ``GuardedConnection``).
    __slots__ = ("_resume_reading", "backlog")

    backlog: bytearray
    _resume_reading: Callable[[], None]

    def connection_made(self, transport: BaseTransport) -> None:
        super().connection_made(transport)
        self.backlog = bytearray()
        self._resume_reading = self.recv_messages.resume
        self.recv_messages.resume = self._resumed

    def _resumed(self) -> None:
        """The library's queue has room again: read on, and feed it what waits here."""
        self._resume_reading()
        self.loop.call_soon(self._feed)

    def data_received(self, data: bytes) -> None:
        if not self.backlog and len(data) <= SLICE and not self.recv_messages.paused:
            # The usual read: a message or two, nothing waiting and room in the queue: a
            # slice of its own, handed over as it is (not copied into the backlog and out).
            if self.protocol.state is not CLOSED:
                super().data_received(data)
            return
        self.backlog += data
        self._feed()

    def eof_received(self) -> None:
        # A client that ends its stream while the server is still behind with it gives up
        # what it sent last (feeding it all now would reopen the hole this class closes).
        self.backlog.clear()
        super().eof_received()

    def _feed(self) -> None:
        while self.backlog and not self.recv_messages.paused:
            if self.protocol.state is CLOSED:
                self.backlog.clear()
                return
            chunk = bytes(self.backlog[:SLICE])
            del self.backlog[:SLICE]
            super().data_received(chunk)

    def send_data(self) -> None:
        writes = self.protocol.writes
        if not writes:
            # Nothing to write: the library calls this after every frame it reads, and its
            # own walk over nothing was ~1% of a loaded server.
            return
        # Joined unless one of them is the end of the stream (an empty write), which the
        # library turns into a half-close.
        if len(writes) > 1 and all(writes):
            self.protocol.writes = [b"".join(writes)]
        super().send_data()
