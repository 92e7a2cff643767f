"""Keepalive pings for every connection from one task, not one task per connection.

The websockets library keeps each connection alive from a task of its own: it sleeps
``ping_interval``, pings, and waits ``ping_timeout`` for the pong. Most connections are idle,
and that task, with its sleep's timer and future, is some 900 bytes of each. Here one task
walks the open connections once a ``TICK`` instead (``Keepalive.sweep``): it pings those whose
last ping (or opening) is ``ping_interval`` old, and closes with 1011 and "keepalive ping
timeout", as the library does, those whose pong (or whose ping, still waiting to be sent) is
``ping_timeout`` late. A connection takes part through ``KeptAlive``: ``app.GuardedConnection``
starts no task of its own and keeps its ping's time and pong in slots.

Anything the client sends puts its next ping off by an interval (``heard_from``): the peer is
alive, and the traffic keeps any middlebox's idle timer going. Seated players act every few
seconds, so at a busy server pings go only to the silent connections; at 1,500 tables, 6,000
connections pinged every 20 s were some 300 pings, tasks and pongs a second.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable
from typing import Generic, Protocol, TypeVar

from websockets.exceptions import ConnectionClosed

#: Seconds between two walks of the connections (a ping is at most this late).
TICK = 1.0
#: The close code and reason of a connection whose pong is late (the library's own).
CLOSE_INTERNAL_ERROR = 1011
PING_TIMEOUT = "keepalive ping timeout"


class KeptAlive(Protocol):
    """What the keepalive reads and keeps of a connection."""

    ping_interval: float | None
    ping_timeout: float | None
    close_timeout: float | None
    pinged_at: float  # loop time of the last ping sent (or of the opening)
    awaiting_pong: Awaitable[object] | None  # the ping being sent, then its pong; None: answered

    async def ping(self) -> Awaitable[float]: ...

    async def close(self, code: int = 1000, reason: str = "") -> None: ...


C = TypeVar("C", bound=KeptAlive)


def always_open(connection: object) -> bool:
    """The ``is_open`` of connections that are all open."""
    return True


class Keepalive(Generic[C]):
    """Pings ``connections()`` from one task (``start`` to ``stop``); ``close`` closes one
    whose pong is late (``link.close_or_abort`` in the server). ``is_open`` says whether a
    connection takes part (its opening handshake done, its closing one not begun): asked
    only of those with something due, so that ``connections()`` can be the server's own set
    as it is, walked without building one of the open ones each tick (at 6,000 connections
    that, and reading each one's protocol state, was about 1% of a loaded server)."""

    def __init__(
        self,
        connections: Callable[[], Iterable[C]],
        close: Callable[[C, int, str, float], Awaitable[None]],
        tick: float | None = None,
        is_open: Callable[[C], bool] = always_open,
    ) -> None:
        self.connections = connections
        self.close = close
        self.is_open = is_open
        self.tick = tick or TICK
        self._task: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for task in list(self._sending):
            task.cancel()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.tick)
            self.sweep(loop.time())

    def sweep(self, now: float) -> None:
        """Ping the connections due for one, close those whose pong is late."""
        for connection in self.connections():
            interval = connection.ping_interval
            if interval is None:
                continue
            waiting = connection.awaiting_pong
            if waiting is None and now - connection.pinged_at < interval:
                continue  # heard from (or pinged) lately: most connections, most ticks
            if not self.is_open(connection):
                continue
            if waiting is not None:
                if not _done(waiting):
                    timeout = connection.ping_timeout
                    if timeout is not None and now - connection.pinged_at >= timeout:
                        connection.awaiting_pong = None
                        self._spawn(self.close(
                            connection, CLOSE_INTERNAL_ERROR, PING_TIMEOUT,
                            connection.close_timeout or 0.0,
                        ))
                    continue
                connection.awaiting_pong = None
            if now - connection.pinged_at >= interval:
                connection.pinged_at = now
                connection.awaiting_pong = self._spawn(_ping(connection))

    def _spawn(self, work: Awaitable[None]) -> asyncio.Task[None]:
        task = asyncio.ensure_future(work)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)
        return task


async def _ping(connection: KeptAlive) -> None:
    """Send a ping; its pong is then what the connection waits for."""
    with contextlib.suppress(ConnectionClosed):
        connection.awaiting_pong = await connection.ping()


def heard_from(connection: KeptAlive, now: float) -> None:
    """The peer sent something at ``now``: it is alive, so its next ping is due an interval
    from now. A connection whose client talks (a seated player acts every few seconds) is
    then never pinged; a silent one is, as before. Left alone while a ping waits for its
    pong, whose timeout runs from the ping."""
    if connection.awaiting_pong is None:
        connection.pinged_at = now


def _done(waiting: Awaitable[object]) -> bool:
    return isinstance(waiting, asyncio.Future) and waiting.done()
