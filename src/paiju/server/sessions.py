"""One connection's session: its bounded outbound queue, its rate limit, and its seat.

Sessions know their room; rooms know only that their members take frames (``Recipient``), so
the dependency runs one way: sessions -> rooms.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable

from paiju.server import protocol as p
from paiju.server.metrics import Metrics
from paiju.server.rooms import Room
from paiju.server.throttle import TokenBucket
from paiju.server.wire import encode_bytes


def new_token() -> str:
    """A fresh seat token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the store keeps instead of the token itself."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


#: Close codes (docs/protocol.md, "Connection closes").
CLOSE_GOING_AWAY = 1001
CLOSE_POLICY = 1008
CLOSE_TAKEN_OVER = 4001
CLOSE_KICKED = 4002

#: How a session asks its connection to close: ``kick(code, reason)``; it returns at once.
Kick = Callable[[int, str], None]


def no_kick(code: int, reason: str) -> None:
    """The ``kick`` of a session with no connection to close."""


#: Called by the writer once every frame queued before it was written.
Marker = Callable[[], None]


class Outbox:
    """Frames waiting for the writer, bounded by count and by bytes, and markers between
    them (called when the writer reaches them; they count for neither bound).

    Most connections are idle most of the time, so an empty box is kept small: a list
    rather than a deque (whose first block is some 600 bytes), and no writer waiting on it:
    ``waker`` is called when something is queued (or the box ends), to start one."""

    __slots__ = ("bytes", "count", "ended", "frames", "max_bytes", "max_frames", "waker")

    def __init__(self, max_frames: int, max_bytes: int) -> None:
        self.max_frames = max_frames
        self.max_bytes = max_bytes
        self.frames: list[bytes | Marker] = []
        self.count = 0
        self.bytes = 0
        self.ended = False
        self.waker: Callable[[], None] | None = None

    def _ready(self) -> None:
        if self.waker is not None:
            self.waker()

    def put(self, frame: bytes) -> bool:
        """Queue ``frame``; ``False`` (and nothing queued) if the box is full or ended."""
        if self.ended:
            return True
        if self.count >= self.max_frames or self.bytes + len(frame) > self.max_bytes:
            return False
        self.frames.append(frame)
        self.count += 1
        self.bytes += len(frame)
        if self.waker is not None:  # (not ``_ready``: a call less per frame queued)
            self.waker()
        return True

    def mark(self, marker: Marker) -> None:
        """Call ``marker`` once what is queued now has been written (dropped if the box
        ends first without it)."""
        if self.ended:
            return
        if not self.frames:
            marker()
            return
        self.frames.append(marker)

    def take(self) -> list[bytes] | None:
        """Every frame queued up to the next marker (markers reached first are called), or
        ``None`` when nothing is queued: what the writer sends in one write."""
        frames = self.frames
        if len(frames) == self.count:  # no marker among them: the whole list, as it is
            if not frames:
                return None
            self.frames = []
            self.count = self.bytes = 0
            return frames  # type: ignore[return-value]
        if self.count and len(frames) == self.count + 1 and not isinstance(frames[-1], bytes):
            # One marker, after every frame (an action's latency is measured at every seat it
            # sent to): the frames before it, and the marker is called at the next take.
            self.frames = [frames.pop()]
            self.count = self.bytes = 0
            return frames  # type: ignore[return-value]
        if not self.count and len(frames) == 1:
            # Only that marker left, after its frames were written: the next take reaches it
            # (an act's every seat, every act), without the general walk below.
            self.frames = []
            frames[0]()  # type: ignore[operator]
            return self.take() if self.frames else None  # (queued by the marker: none do)
        while self.frames:
            while self.frames and not isinstance(marker := self.frames[0], bytes):
                del self.frames[0]
                marker()
            batch = self._leading_frames()
            if batch:
                return batch
        return None

    def _leading_frames(self) -> list[bytes]:
        """Take the frames before the first marker (all of them, almost always)."""
        batch: list[bytes] = []
        for item in self.frames:
            if not isinstance(item, bytes):
                break
            batch.append(item)
            self.bytes -= len(item)
        self.count -= len(batch)
        self.frames = self.frames[len(batch):] if len(batch) < len(self.frames) else []
        return batch

    def end(self, drop: bool = False) -> None:
        """No more frames; the writer stops after what is queued (nothing, with ``drop``)."""
        self.ended = True
        if drop:
            self.frames = []
            self.bytes = self.count = 0
        self._ready()


class Session:
    """A connected client. Rooms push frames with ``send_frame``; a writer task drains them.

    The session never blocks its sender: a frame that does not fit the outbox (a client that
    stopped reading) drops what is queued and asks the connection to close with 1008."""

    # Slots: one per connection, and its attributes are fixed (a dict would be ~300 bytes).
    __slots__ = (
        "address", "arrived_at", "bucket", "close_code", "close_reason", "greeted", "kick",
        "metrics", "outbox", "program", "room", "seat", "session_id", "strikes",
    )

    def __init__(
        self,
        session_id: str,
        outbox: Outbox,
        bucket: TokenBucket,
        address: str = "",
        kick: Kick | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.session_id = session_id
        self.metrics = metrics or Metrics.detached()
        self.outbox = outbox
        self.bucket = bucket
        self.address = address
        self.kick: Kick = kick or no_kick
        self.greeted = False
        self.program = False  # hello.bot: a program plays for this connection
        self.room: Room | None = None
        self.seat: int | None = None
        self.strikes = 0
        self.close_code = 0
        self.close_reason = ""
        self.arrived_at = 0.0  # loop time the message being carried out was read

    def log_fields(self) -> dict[str, object]:
        """What every log line caused by this connection says of it."""
        return {
            "connection": self.session_id,
            "room": self.room.room_id if self.room is not None else None,
            "seat": self.seat,
        }

    def send(self, message: p.ServerMessage) -> None:
        """Queue ``message`` (encoded through the protocol's models)."""
        self.metrics.sent(message.type).inc()
        if isinstance(message, p.Error):
            self.metrics.errors(str(message.code)).inc()
        self.send_frame(encode_bytes(message))

    def when_written(self, done: Callable[[], None]) -> None:
        """Call ``done`` once every frame queued so far has been written."""
        self.outbox.mark(done)

    def send_frame(self, frame: bytes) -> None:
        """Queue an encoded frame; a client too slow to keep up is disconnected (1008)."""
        if not self.outbox.put(frame):
            self.close_code, self.close_reason = CLOSE_POLICY, TOO_SLOW
            self.outbox.end(drop=True)
            self.kick(CLOSE_POLICY, TOO_SLOW)

    def close_after_queued(self, code: int, reason: str) -> None:
        """Close the connection with ``code`` once what is queued has gone out."""
        if not self.close_code:
            self.close_code, self.close_reason = code, reason
        self.outbox.end()

    def left_room(self, room_id: str) -> None:
        """The room let go of this member (a finished room unloaded): forget it, say so."""
        if self.room is not None and self.room.room_id == room_id:
            self.room, self.seat = None, None
            self.send(p.Left(type="left", room=room_id))


TOO_SLOW = "too slow: outbound queue overflowed"
