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
"""

from __future__ import annotations

from asyncio import BaseTransport
from collections.abc import Callable, Sequence

from websockets.asyncio.server import ServerConnection

#: Bytes handed to the library at a time. With the client's context reset per message
#: (the default ``compression``), deflate's best ratio is about 1:1000, so one slice decodes
#: to at most a megabyte or so.
SLICE = 1024


async def send_frames(connection: ServerConnection, frames: Sequence[bytes]) -> None:
    """Send each of ``frames`` (UTF-8 JSON) as a text message, in order, then wait for the
    library's write buffer to drain as ``connection.send`` does; a ``SlicedIntake`` writes
    them to the socket at once. Raises ``ConnectionClosed`` as ``send`` does."""
    async with connection.send_context():
        for frame in frames:
            connection.protocol.send_text(frame)


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
        self.backlog += data
        self._feed()

    def eof_received(self) -> None:
        # A client that ends its stream while the server is still behind with it gives up
        # what it sent last (feeding it all now would reopen the hole this class closes).
        self.backlog.clear()
        super().eof_received()

    def _feed(self) -> None:
        while self.backlog and not self.recv_messages.paused:
            if self.protocol.state.name == "CLOSED":
                self.backlog.clear()
                return
            chunk = bytes(self.backlog[:SLICE])
            del self.backlog[:SLICE]
            super().data_received(chunk)

    def send_data(self) -> None:
        writes = self.protocol.writes
        # Joined unless one of them is the end of the stream (an empty write), which the
        # library turns into a half-close.
        if len(writes) > 1 and all(writes):
            self.protocol.writes = [b"".join(writes)]
        super().send_data()
