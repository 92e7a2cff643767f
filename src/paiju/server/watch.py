"""An operator watching a room over the admin channel (``paiju room watch``): the room's
public messages as they happen, without the spectators' delay (operators are trusted, and
the point is to see the room live)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

from paiju.server import protocol as p
from paiju.server.room import Room
from paiju.server.wire import encode_bytes
from paiju.table.effects import Effect
from paiju.table.table import Table

#: Frames that may wait for a watcher that does not read before it is let go.
LIMIT = 1024


class Watcher:
    """A room recipient that queues the room's public frames for one admin connection."""

    def __init__(self, room: Room, limit: int = LIMIT) -> None:
        self.room = room
        self.limit = limit
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._ended = False

    def send_frame(self, frame: bytes) -> None:
        if self._ended:
            return
        if self._queue.qsize() >= self.limit:
            self._end()  # a watcher that does not read is let go, never waited for
            return
        self._queue.put_nowait(frame)

    def left_room(self, room_id: str) -> None:
        self.send_frame(encode_bytes(p.Left(type="left", room=room_id)))
        self._end()

    def when_written(self, done: Callable[[], None]) -> None:
        done()

    def _end(self) -> None:
        self._ended = True
        self._queue.put_nowait(None)

    async def attach(self) -> None:
        """Start watching: the room's current public state first, then every change."""
        room = self.room

        def job(table: Table, now: float) -> tuple[None, list[Effect]]:
            room.watchers.add(self)
            room.audience.deliver(table.snapshot(None, now), [self])
            return None, []

        await room.call(job)

    async def detach(self) -> None:
        """Stop watching (nothing to do once the room has let go)."""
        self._ended = True
        if not self.room.closed:
            await self.room.call(self._leave)

    def _leave(self, table: Table, now: float) -> tuple[None, list[Effect]]:
        self.room.detach(self)
        return None, []

    async def frames(self) -> AsyncIterator[bytes]:
        """The frames, until the room lets go of the watcher."""
        while (frame := await self._queue.get()) is not None:
            yield frame
