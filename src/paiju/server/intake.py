"""What a client sends, fed to the websockets library a slice at a time.

permessage-deflate lets a few dozen bytes on the wire stand for a 64 KiB frame, and the
library decodes every frame of what it is handed at once, before its flow control (pause
reading when ``max_queue`` frames wait) can act: one 256 KiB read of such frames would become
gigabytes of decompressed text in the server. Handed over in slices, and not at all while the
library's queue is full, the frames waiting per connection stay bounded by that queue plus
one slice's worth; the rest waits here, still compressed, and the transport stops reading.
"""

from __future__ import annotations

from asyncio import BaseTransport

from websockets.asyncio.server import ServerConnection

#: Bytes handed to the library at a time. With the client's context reset per message
#: (the default ``compression``), deflate's best ratio is about 1:1000, so one slice decodes
#: to at most a megabyte or so.
SLICE = 1024


class SlicedIntake(ServerConnection):
    """A server connection whose incoming bytes go to the library in ``SLICE``-sized slices
    while its queue of frames has room."""

    backlog: bytearray

    def connection_made(self, transport: BaseTransport) -> None:
        super().connection_made(transport)
        self.backlog = bytearray()
        resume = self.recv_messages.resume

        def resumed() -> None:
            resume()
            self.loop.call_soon(self._feed)

        self.recv_messages.resume = resumed

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
