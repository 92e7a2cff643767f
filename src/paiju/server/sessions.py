"""One connection's session: its outbound queue, its rate limit, and the seat it holds.

Sessions know their room; rooms know only that their members take frames (``Recipient``), so
the dependency runs one way: sessions -> rooms.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from dataclasses import dataclass

from paiju.server import protocol as p
from paiju.server.rooms import Room
from paiju.server.wire import encode


def new_token() -> str:
    """A fresh seat token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the store keeps instead of the token itself."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class TokenBucket:
    """A per-connection rate limit: ``rate`` messages a second with bursts up to ``burst``."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = 0.0

    def allow(self, now: float) -> bool:
        """Spend one token if there is one; refill by elapsed time first."""
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Session:
    """A connected client. Rooms push messages with ``send``; a writer task drains them."""

    def __init__(self, session_id: str, queue_size: int, bucket: TokenBucket) -> None:
        self.session_id = session_id
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(maxsize=queue_size)
        self.bucket = bucket
        self.greeted = False
        self.room: Room | None = None
        self.seat: int | None = None
        self.strikes = 0
        self.overflowed = False
        self.close_reason = ""

    def send(self, message: p.ServerMessage) -> None:
        """Queue ``message`` (encoded through the protocol's models)."""
        self.send_frame(encode(message))

    def send_frame(self, frame: str) -> None:
        """Queue an encoded frame; a client too slow to keep up is marked for disconnection."""
        if self.overflowed:
            return
        try:
            self.outbox.put_nowait(frame)
        except asyncio.QueueFull:
            # Drop what is queued and stop the writer; the connection closes with a reason.
            self.overflowed = True
            self._clear()
            self.outbox.put_nowait(None)

    def finish(self) -> None:
        """Let the writer task end after what is queued."""
        try:
            self.outbox.put_nowait(None)
        except asyncio.QueueFull:
            self.overflowed = True
            self._clear()
            self.outbox.put_nowait(None)

    def _clear(self) -> None:
        while not self.outbox.empty():
            self.outbox.get_nowait()
