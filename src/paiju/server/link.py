"""One player connection's I/O: the reader that parses, budgets and dispatches every frame, the
writer that drains the session's outbox, and the ways a connection is closed from outside.

The room never waits for a connection: it queues frames on the session (``Session.send_frame``)
and its writer sends them once the room's turn is over: one callback, scheduled when the
first connection is woken (``call_soon``), writes what every connection woken by then had
queued, each connection's frames in one write to its socket (``Links.flush``). Only a
connection whose socket stopped taking bytes gets a writer task, which waits for it (and
closes it after ``send_timeout``): a task per burst cost about as much as framing the
burst. A writer that cannot send (the client stopped reading) is not waited for either: the
connection is closed from outside, and aborted if even the close cannot go out within
``send_timeout``.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

import structlog
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import OPEN

from paiju.core.errors import GameError
from paiju.server import protocol as p
from paiju.server.compression import Deflater
from paiju.server.config import ServerConfig
from paiju.server.errors import RateLimited
from paiju.server.intake import drained, framing, send_frames, text_frames, write_framed
from paiju.server.metrics import Metrics
from paiju.server.sessions import CLOSE_POLICY, Outbox, Session, no_kick
from paiju.server.throttle import LogLimiter, TokenBucket, message_cost
from paiju.server.wire import error, internal_error, parse_frame

log = structlog.get_logger("paiju.server")

Dispatch = Callable[[Session, p.ClientMessage], Awaitable[None]]
HELLO_TIMEOUT = "no hello in time"
SEND_TIMEOUT = "too slow: a send waited too long"
FLOOD = "message flood"


async def close_or_abort(
    connection: ServerConnection, code: int, reason: str, timeout: float
) -> None:
    """Close ``connection`` with ``code``; abort it if that takes longer than ``timeout``
    seconds (0: no limit). A close frame waits behind everything the client has not read, so
    without the abort a client that stopped reading would hold its connection for ever."""
    try:
        async with asyncio.timeout(timeout or None):
            await connection.close(code, reason)
    except TimeoutError:
        connection.transport.abort()


#: Bytes a frame may add to its message on the wire: the header (at most 14) and deflate's
#: framing of a message it cannot shrink.
FRAME_OVERHEAD = 64


def may_wait(connection: ServerConnection, frames: Sequence[bytes]) -> bool:
    """Whether sending ``frames`` could wait for the client: the library waits only while
    the transport has paused it (more than ``write_limit_high`` bytes buffered), so frames
    that fit below that mark, with nothing paused, are sent without waiting."""
    if connection.paused:
        return True
    pending = connection.transport.get_write_buffer_size()
    pending += sum(len(frame) + FRAME_OVERHEAD for frame in frames)
    return pending > connection.write_limit_high


class Writer:
    """Sends a session's outbox on its connection: from the links' next flush
    (``Links.write_now``), or in a task while the socket does not take what is written
    (``Links.write``). No task waits for the next frame: most connections are idle most of
    the time, and a writer task waiting held some 1.2 KiB of each."""

    __slots__ = (
        "_context", "connection", "due", "failure", "finished", "framing", "links", "session",
        "task",
    )

    def __init__(self, links: Links, connection: ServerConnection, session: Session) -> None:
        self.links = links
        self.connection = connection
        self.session = session
        self.task: asyncio.Task[None] | None = None
        self.due = False  # in the links' list of writers for their next flush
        self.finished = False
        self.failure: Exception | None = None
        # How its messages are framed: fixed once the handshake agreed on the extensions,
        # and read once per connection, not at every flush.
        self.framing = framing(connection)
        # The connection's context (its log fields), whoever queues the frame that wakes it.
        self._context = contextvars.copy_context()
        session.outbox.waker = self.wake
        session.kick = self.kick

    def kick(self, code: int, reason: str) -> None:
        """Close the connection with ``code`` soon (``Links.kick``)."""
        self.links.kick(self.connection, code, reason)

    def detach(self) -> None:
        """The connection is over: the session no longer reaches it (and holds no cycle
        through it, which only a full collection would reclaim)."""
        self.session.outbox.waker = None
        self.session.kick = no_kick

    def wake(self) -> None:
        """Something was queued (or the box ended): write at the links' next flush
        (whatever else is queued by then goes in the same write), unless a task writes."""
        if not (self.due or self.finished) and self.task is None:
            self.due = True
            self.links.due(self)

    def flush(self) -> None:
        """Write what is queued now if the socket takes it; else leave it to a task."""
        if not self.due:
            return  # flushed already (``done``)
        self.due = False
        if self.finished or self.task is not None:
            return
        try:
            written = self.links.write_now(self.connection, self.session, self.framing)
        except Exception as exc:  # re-raised by ``done``, to the connection's handler
            self.finished, self.failure = True, exc
            return
        if written is None:
            loop = asyncio.get_running_loop()
            self.task = loop.create_task(self._write(), context=self._context)
        else:
            self.finished = written

    async def _write(self) -> None:
        try:
            self.finished = await self.links.write(self.connection, self.session)
        except asyncio.CancelledError:
            self.finished = True
            raise
        except Exception as exc:  # re-raised by ``done``, to the connection's handler
            self.finished, self.failure = True, exc
        finally:
            self.task = None

    async def done(self) -> None:
        """Once the outbox has ended: wait for the last writes and the close they lead to;
        raise what made a writer fail, if anything did."""
        self.flush()
        if self.task is not None:
            await self.task
        if self.failure is not None:
            raise self.failure


class Links:
    """Runs player connections: one reader and one writer per connection."""

    def __init__(
        self,
        config: ServerConfig,
        dispatch: Dispatch,
        limiter: LogLimiter,
        metrics: Metrics | None = None,
    ) -> None:
        self.config = config
        self.dispatch = dispatch
        self.limiter = limiter
        self.metrics = metrics or Metrics.detached()
        self._closing: dict[ServerConnection, asyncio.Task[None]] = {}
        self._due: list[Writer] = []

    def due(self, writer: Writer) -> None:
        """Run ``writer`` at the next ``flush``: a callback scheduled by the first writer
        woken since the last one, so it runs after the callback queuing the frames (a
        room's turn) and the others already due, and writes for all of them."""
        self._due.append(writer)
        if len(self._due) == 1:
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Run the writers woken since the last flush, in the order they were woken."""
        due, self._due = self._due, []
        for writer in due:
            writer.flush()

    def note(self, event: str, **fields: Any) -> None:
        """Log a line caused by a client, unless such lines are being written too fast."""
        suppressed = self.limiter.allow(event, asyncio.get_running_loop().time())
        if suppressed is not None:
            log.info(event, **fields, **({"suppressed": suppressed} if suppressed else {}))

    def session(self, connection: ServerConnection, address: str) -> Session:
        """A new session for ``connection`` from ``address``."""
        config = self.config
        return Session(
            secrets.token_hex(6),
            Outbox(config.outbound_queue, config.outbound_queue_bytes),
            TokenBucket(config.rate_per_second, float(config.rate_burst)),
            address=address,
            metrics=self.metrics,
        )

    async def run(
        self, connection: ServerConnection, session: Session, accepted_at: float
    ) -> None:
        """Serve ``session`` until its connection ends; the writer is done when this returns."""
        loop = asyncio.get_running_loop()
        writer = Writer(self, connection, session)
        watchdog = None
        if self.config.hello_timeout:
            watchdog = loop.call_at(
                accepted_at + self.config.hello_timeout, self._hello_due, connection, session
            )
        bytes_budget = TokenBucket(
            float(self.config.rate_bytes_per_second), float(self.config.rate_bytes_burst)
        )
        try:
            while True:  # (not a coroutine of its own: each waiting one is 250 bytes)
                await self._next_frame(connection, session, bytes_budget)
        except ConnectionClosed:
            pass
        finally:
            if watchdog is not None:
                watchdog.cancel()
            session.outbox.end()
            try:
                await writer.done()
            finally:
                writer.detach()

    def _hello_due(self, connection: ServerConnection, session: Session) -> None:
        if not session.greeted:
            self.kick(connection, CLOSE_POLICY, HELLO_TIMEOUT)

    # ------------------------------------------------------------------ closing from outside

    def kick(self, connection: ServerConnection, code: int, reason: str) -> None:
        """Close ``connection`` with ``code`` soon, without waiting here; if the close frame
        cannot be sent within ``send_timeout`` (a client that does not read), abort."""
        if connection not in self._closing:
            task = asyncio.get_running_loop().create_task(self._close(connection, code, reason))
            self._closing[connection] = task
            task.add_done_callback(lambda _: self._closing.pop(connection, None))

    async def _close(self, connection: ServerConnection, code: int, reason: str) -> None:
        await close_or_abort(connection, code, reason, self.config.send_timeout)

    # ------------------------------------------------------------------ writer

    def write_now(self, connection: ServerConnection, session: Session,
                  deflater: Deflater | Literal[False] | None) -> bool | None:
        """Write what ``session`` has queued, without waiting: ``False`` once it is all
        written, ``None`` when a task must go on (the socket's buffer is over the library's
        mark, the box ended, or the library must frame the messages: ``Links.write``).
        ``deflater``: ``framing(connection)``."""
        outbox = session.outbox
        if deflater is False:
            return None
        while not (outbox.ended or connection.paused) and connection.protocol.state is OPEN:
            frames = outbox.take()
            if frames is None:
                return False
            write_framed(connection, text_frames(frames, deflater))
        return None

    async def _within(self, connection: ServerConnection, session: Session,
                      timeout: float | None, sending: Awaitable[None]) -> bool:
        """Await ``sending`` within ``timeout`` (``None``: no timer); ``True`` when the
        writing is over for good: the connection closed, or the send timed out (the outbox is
        dropped and the client closed with ``SEND_TIMEOUT``)."""
        try:
            if timeout is None:
                await sending
            else:
                async with asyncio.timeout(timeout):
                    await sending
        except ConnectionClosed:
            return True
        except TimeoutError:
            session.outbox.end(drop=True)
            self.kick(connection, CLOSE_POLICY, SEND_TIMEOUT)
            return True
        return False

    async def write(self, connection: ServerConnection, session: Session) -> bool:
        """Send what ``session`` has queued until nothing is; ``True`` once the writing is
        over for good (the box ended and was sent, the connection closed, or a send timed
        out), ``False`` when the next frame queued should start a writer again."""
        outbox = session.outbox
        timeout = self.config.send_timeout or None
        # What ``write_now`` wrote while the socket is paused waits for the client to read it.
        if connection.paused and await self._within(connection, session, timeout,
                                                    drained(connection)):
            return True
        while (frames := outbox.take()) is not None:
            # Frames that fit the buffers get no timer (most sends; a timer costs more).
            limit = timeout if timeout is not None and may_wait(connection, frames) else None
            if await self._within(connection, session, limit, send_frames(connection, frames)):
                return True
        if not outbox.ended:
            return False
        if session.close_code:
            # After what was queued (the rate_limited errors, a taken_over message) went out.
            self.kick(connection, session.close_code, session.close_reason)
        closing = self._closing.get(connection)
        if closing is not None:
            await asyncio.shield(closing)
        return True

    # ------------------------------------------------------------------ reader

    async def _next_frame(
        self, connection: ServerConnection, session: Session, bytes_budget: TokenBucket
    ) -> None:
        """Read one frame and carry it out. (A function of its own, so that an idle reader
        does not keep the last frame and message alive in its locals.)"""
        loop = asyncio.get_running_loop()
        # Bytes, not text: invalid UTF-8 is then a typed error, not a dropped connection.
        frame = await connection.recv(decode=False)
        now = session.arrived_at = loop.time()  # (read once: parsing takes microseconds)
        if session.outbox.ended:
            # Closing: keep reading (and dropping), or the client's answer to the close
            # would sit behind unread frames and the close would wait for its timeout.
            return
        if self.config.rate_bytes_per_second:
            wait = bytes_budget.spend(now, len(frame))
            if wait:
                await asyncio.sleep(wait)  # not read meanwhile: TCP slows the sender
                now = loop.time()
        try:
            message = parse_frame(frame)
        except GameError as exc:
            # Answered inside the handler: a local holding the error past it would make a
            # cycle (the error's traceback holds this frame, the frame the error), garbage
            # that only a collection reclaims, a dozen objects a refusal.
            self.metrics.received("invalid").inc()
            if self._affordable(session, None, now):
                self._refuse(session, exc)
            return
        self.metrics.received(message.type).inc()
        if self._affordable(session, message, now):
            await self._carry_out(session, message)

    def _affordable(self, session: Session, message: p.ClientMessage | None, now: float) -> bool:
        """Spend the message's cost; if it is over budget, answer ``rate_limited`` and count a
        strike (``flood_strikes`` of them close the connection after the answers)."""
        if session.bucket.allow(now, message_cost(message.type if message else None)):
            return True
        session.strikes += 1
        session.send(error(RateLimited("messages cost more than your budget; slow down")))
        if session.strikes >= self.config.flood_strikes:
            session.close_after_queued(CLOSE_POLICY, FLOOD)
            self.note("flood_closed", connection=session.session_id, address=session.address)
        return False

    async def _carry_out(self, session: Session, message: p.ClientMessage) -> None:
        try:
            await self.dispatch(session, message)
        except GameError as exc:
            self._refuse(session, exc)
        except Exception:
            log.exception("dispatch_failed", connection=session.session_id)
            session.send(internal_error())

    def _refuse(self, session: Session, exc: GameError) -> None:
        room = session.room.room_id if session.room is not None else None
        self.note(
            "refused", connection=session.session_id, room=room, code=exc.code, reason=exc.message
        )
        session.send(error(exc))

    async def shutdown(self) -> None:
        """Wait for the closes in progress."""
        with contextlib.suppress(Exception):
            await asyncio.gather(*self._closing.values(), return_exceptions=True)
