"""One room: a table and the asyncio task that alone may change it (no locks).

Everything that touches a table runs inside that task: connections submit closures through
the room's inbox and await their result. The task sleeps until the next message or the
table's next deadline, whichever comes first, and carries out the table's effects in order:
persist first, then send. With a shared store (cluster mode) the task awaits each write: the
room's next message waits for it, the other rooms go on meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import EllipsisType
from typing import Any, TypeVar

import structlog

from paiju.core.errors import GameError
from paiju.persistence.store import Appended, Fenced, Store, Unreachable, async_appender
from paiju.server import protocol as p
from paiju.server.audience import Audience, Recipient
from paiju.server.errors import RoomClosed, StorageFailed
from paiju.server.feed import SpectatorFeed
from paiju.server.logs import LOG_CONTEXT
from paiju.server.mailbox import Mailbox
from paiju.server.metrics import Countdown, Metrics, RoomFacts
from paiju.table.commands import Close
from paiju.table.effects import ActionRecord, Effect, Incident, Persist, Send
from paiju.table.errors import WrongPhase
from paiju.table.table import CLOSED, FINISHED, HAND_OVER, PLAYING, Table, TableFailed

__all__ = ["TICK_RETRY", "AsyncRoomJob", "Recipient", "Room", "RoomJob"]

T = TypeVar("T")
log = structlog.get_logger("paiju.rooms")

#: Seconds before a tick that failed is tried again.
TICK_RETRY = 1.0

RoomJob = Callable[[Table, float], tuple[T, list[Effect]]]
#: A job that awaits the store (a shared store's seat tokens) before it gives its effects:
#: the room waits for it, no other job runs meanwhile.
AsyncRoomJob = Callable[[Table, float], Awaitable[tuple[T, list[Effect]]]]
Queued = tuple[RoomJob[Any] | AsyncRoomJob[Any], "asyncio.Future[Any]", float | None]
#: Rebuilds a room's table from the store at ``now`` (the room's clock): after a failed write.
Rebuilder = Callable[[float], Awaitable[Table]]
#: Cluster mode: tells the members of a room leaving this node alive where it went; returns
#: those it could not tell (they just leave the room).
Relocator = Callable[["Room", list[Recipient]], Awaitable[list[Recipient]]]


class NotSaved(Exception):
    """A record could not be written; the table is ahead of the disk until rebuilt."""


@dataclass
class Grace:
    """A grace period that starts when a condition begins to hold and is forgotten when it
    stops holding (``seconds`` of ``None``: it never runs out)."""

    seconds: float | None
    until: float | None = None

    def ran_out(self, now: float, holding: bool) -> bool:
        """Start counting at ``now`` if the condition began to hold; whether it has held for
        the whole period."""
        if self.seconds is None or not holding:
            self.until = None
            return False
        if self.until is None:
            self.until = now + self.seconds
        return now >= self.until


class Room:
    """A table, its members, and the task that alone may change it.

    The room keeps its own clock for the table: the loop's time less every pause, so a
    paused room's deadlines shift by the pause. Public messages go to the operators watching
    (``watchers``) at once and to the spectators through the ``feed`` (held back by the
    room's spectator delay)."""

    def __init__(
        self,
        table: Table,
        store: Store,
        finished_grace: float | None = None,
        on_unload: Callable[[Room], None] | None = None,
        *,
        metrics: Metrics | None = None,
        feed: SpectatorFeed | None = None,
        abandoned_grace: float | None = None,
        rebuild: Rebuilder | None = None,
    ) -> None:
        self.table = table
        self.store = store
        self._appender = async_appender(store)  # a shared store's writes are awaited
        self._rebuild = rebuild
        # A finished room leaves memory this long after the match ended (None: never).
        self.finished_grace = finished_grace
        self._finished = Grace(finished_grace)
        # A room nobody is seated in is closed this long after the last one left (None: never).
        self.abandoned_grace = abandoned_grace
        self._abandoned = Grace(abandoned_grace)
        self._on_unload = on_unload
        self.feed = feed if feed is not None else SpectatorFeed()
        self.metrics = metrics or Metrics.detached()
        self.audience = Audience(self.feed, self.metrics)
        self.members = self.audience.members
        self.spectators = self.audience.spectators
        self.watchers = self.audience.watchers
        # Invitation token hash -> (the bot seat it claims, the invited person's name).
        self.invites: dict[str, tuple[int, str]] = {}
        self._inbox: Mailbox[Queued | None] = Mailbox()  # (an asyncio.Queue is 2.4 KiB)
        self._task: asyncio.Task[None] | None = None
        self.closed = False
        self.made_by_player = False  # such a room closes when its last player leaves
        self.draining = False  # the server drains: no next hand is dealt
        self.paused_since: float | None = None  # loop time of the operator's pause
        self._offset = 0.0  # seconds paused so far: the table's clock is behind by this
        self._hold_until = 0.0
        # Cluster mode: tells the members where the room went when it leaves this node alive.
        self.relocate: Relocator | None = None
        table.watched = self.audience.watched

    @property
    def room_id(self) -> str:
        return self.table.room_id

    @property
    def log(self) -> Any:
        """The room's logger, bound when a line is written (one kept per room is 450 bytes,
        and a room writes a handful of lines in its life)."""
        return log.bind(room=self.room_id, variant=self.table.engine.name)

    @property
    def paused(self) -> bool:
        """Whether an operator paused the room."""
        return self.paused_since is not None

    def now(self) -> float:
        """The table's clock: the loop's time less every pause (it stands still while
        paused)."""
        loop_now = asyncio.get_running_loop().time()
        return (self.paused_since if self.paused_since is not None else loop_now) - self._offset

    def start(self) -> None:
        """Start the room's task."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name=self.room_id)

    def call(self, job: RoomJob[T], arrived: float | None = None) -> asyncio.Future[T]:
        """Run ``job(table, now)`` inside the room's task: the future of its result (its
        ``GameError`` is raised by awaiting it). ``arrived`` (loop time) is when the player's
        message that asked for it was read: the time until the states it causes are written
        is measured.

        The job is queued at once, and the future itself is awaited, not a coroutine around
        it: every frame a player sends goes through here, and each coroutine in the chain
        from the reader to the room was made, started and resumed once per frame.

        Raises ``RoomClosed`` once the room is stopping or stopped: nothing would ever run the
        job, and a caller awaiting it would hang (and hold up a graceful shutdown).
        """
        return self._queue(job, arrived)

    def call_async(self, job: AsyncRoomJob[T]) -> asyncio.Future[T]:
        """``call`` for a job that awaits the store: ``await job(table, now)``."""
        return self._queue(job, None)

    def _queue(self, job: RoomJob[T] | AsyncRoomJob[T], arrived: float | None
               ) -> asyncio.Future[T]:
        if self.closed or self._task is None or self._task.done():
            raise RoomClosed("the room is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._inbox.put((job, future, arrived))
        return future

    async def stop(self) -> None:
        """Finish what is queued, then end the task; later calls get ``RoomClosed``."""
        self.closed = True
        if self._task is None:
            return
        self._inbox.put(None)
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        self._refuse_queued()
        for watcher in list(self.watchers):  # operators watching are let go; players stay
            watcher.left_room(self.room_id)
        self.watchers.clear()

    def _refuse_queued(self) -> None:
        # A job that slipped in behind the end marker would never be answered.
        while not self._inbox.empty():
            item = self._inbox.get_nowait()
            if item is not None and not item[1].done():
                item[1].set_exception(RoomClosed("the room is closed"))

    def wake_at(self) -> float | None:
        """When the task next wakes (room clock): the table's deadline, but not before a
        failed tick's retry time (a deadline that keeps failing would otherwise spin the
        loop), nor the next hand while the server drains; the spectators' next message; the
        time a finished room is unloaded or an abandoned one closed. Never while paused."""
        return self._wake(self._deadline())

    def _deadline(self) -> float | None:
        """The table's next deadline as the room keeps it: ``None`` while paused, or while
        the server drains and holds the next hand."""
        if self.paused or self._holding_hand():
            return None
        return self.table.next_deadline()

    def _wake(self, deadline: float | None) -> float | None:
        """``wake_at`` for the table's ``deadline`` as ``_deadline`` gave it (read once
        after each job: the table's walk of its decisions is not made twice)."""
        if self.paused:
            return None
        wake = None if deadline is None else max(deadline, self._hold_until)
        for then in (self._finished.until, self._abandoned.until):
            if then is not None and (wake is None or then < wake):
                wake = then
        if len(self.feed):  # (the feed holds nothing unless spectators are delayed)
            then = self.feed.next_release()
            if then is not None and (wake is None or then < wake):
                wake = then
        return wake

    def _holding_hand(self) -> bool:
        """While the server drains, a finished hand is not followed by the next one."""
        return self.draining and self.table.phase == HAND_OVER

    async def _run(self) -> None:
        # The task's context was copied from whoever opened the room: its lines are the room's.
        LOG_CONTEXT.set(None)
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(room=self.room_id)
        loop = asyncio.get_running_loop()
        # The clock and the table's deadline are read once a turn: after a job (or a wake),
        # they serve the housekeeping check and then the next wait.
        now, deadline = self.now(), self._deadline()
        while True:
            wake = self._wake(deadline)
            timeout = None if wake is None else max(0.0, wake - now)
            try:
                item = await self._inbox.get(timeout)
            except TimeoutError:
                pass  # a deadline is due: only the housekeeping below
            else:
                if item is None:
                    return
                job, future, arrived = item
                await self._run_job(job, future, self.now(), arrived, loop)
            now, deadline = self.now(), self._deadline()
            if self.closed:
                return  # (stopped, as it could not be rebuilt after a failed write)
            if not self._quiet(now, deadline):
                if await self._housekeeping(now):
                    return
                now, deadline = self.now(), self._deadline()  # (the table may have moved)

    def _quiet(self, now: float, deadline: float | EllipsisType | None = ...) -> bool:
        """Whether nothing is due at ``now`` but the spectators' held messages, which are
        released here: most wakes (after a player's action) need no housekeeping coroutine,
        one made and run per action for nothing. ``deadline``: ``_deadline()``, if read."""
        if deadline is ...:
            deadline = self._deadline()
        if (deadline is not None and deadline <= now) or self._due_for_unload(now) \
                or self._due_for_closing(now):
            return False  # (``_housekeeping`` asks again: the answers are the same at ``now``)
        self.audience.release(now)
        return True

    async def _housekeeping(self, now: float) -> bool:
        """What is due after a job or a wake: the table's own moves, the spectators' held
        messages, unloading a finished room or closing an abandoned one. ``True`` when the
        room has ended."""
        if self._tick_wanted(now):
            await self._tick(now)
        if self.closed:
            return True
        self.audience.release(now)
        if self._due_for_unload(now):
            await self._unload()
            return True
        if self._due_for_closing(now):
            await self._close_abandoned(now)
            return True
        return False

    def _tick_wanted(self, now: float) -> bool:
        """Whether the table is ticked at ``now``: not while paused, nor while the server
        drains and holds the next hand, and only once its next deadline has come."""
        return not self.paused and not self._holding_hand() and self._tick_due(now)

    def _tick_due(self, now: float) -> bool:
        """Whether the table has something to do at ``now``: its next deadline (the earliest
        time ``Table.tick`` acts) has come. Most wakes follow a player's action with nothing
        due, and a tick that does nothing still cost a coroutine, the table's walk of its
        decisions and an empty ``carry_out`` (some 3-4 us an action)."""
        deadline = self.table.next_deadline()
        return deadline is not None and deadline <= now

    def _due_for_unload(self, now: float) -> bool:
        """Whether the match has been over for the whole grace period."""
        return self._finished.ran_out(now, self.table.phase == FINISHED)

    def _due_for_closing(self, now: float) -> bool:
        """Whether no seated person has been connected for the whole grace period."""
        over = self.table.phase in (FINISHED, CLOSED)
        return self._abandoned.ran_out(now, not over and not self.audience.seated())

    async def _close_abandoned(self, now: float) -> None:
        reason = "nobody was connected to the room"
        with contextlib.suppress(GameError):
            await self.carry_out(self.table.handle(None, Close(reason), now))
        self.log.info("room_closed_abandoned", grace=self.abandoned_grace)
        await self._unload()

    async def _unload(self, revoke: bool = True) -> None:
        """Leave memory (the room stays in the store): tell the members, end the task.
        ``revoke``: the seat tokens stop working (a finished room)."""
        self.closed = True
        if revoke and self._appender is not None:
            await self._appender.revoke_tokens_async(self.room_id)
        elif revoke:
            self.store.revoke_tokens(self.room_id)
        await self.release()
        self._refuse_queued()
        if self._on_unload is not None:
            self._on_unload(self)
        self.log.info("room_unloaded")

    async def _run_job(
        self,
        job: RoomJob[Any] | AsyncRoomJob[Any],
        future: asyncio.Future[Any],
        now: float,
        arrived: float | None = None,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        try:
            outcome = job(self.table, now)
            if type(outcome) is not tuple and inspect.isawaitable(outcome):  # (the check
                outcome = await outcome  # of an awaitable is slow; most jobs give a tuple)
            result, effects = outcome
        except GameError as exc:
            # A refusal, answered as it is: without its traceback, which held this frame
            # (and the frame the future, the future the error: a cycle, garbage a dozen
            # objects a refusal that only a collection would reclaim).
            if not future.done():
                future.set_exception(exc.with_traceback(None))
            return
        except Exception as exc:
            # The job may have changed the table before it failed, with effects nobody will
            # carry out: the table goes back to what the disk holds.
            self.log.exception("room_job_failed")
            await self._recover(now)
            if not future.done():
                future.set_exception(exc)
            return
        self.audience.reached = set() if arrived is not None else None
        try:
            await self.carry_out(effects)
        except Fenced:
            await self._moved()
            if not future.done():
                future.set_exception(RoomClosed("the room moved to another node"))
            return
        except NotSaved:
            # A failed write (a full disk) must neither end the room's task nor leave the
            # table ahead of the disk: it is rebuilt from the store, the caller is told.
            self._failed("room_write_failed")
            await self._recover(now)
            if not future.done():
                future.set_exception(StorageFailed(
                    "the server could not save this change and undid it; the room is as it was"
                ))
            return
        except Exception as exc:
            self.log.exception("room_effects_failed")
            if not future.done():
                future.set_exception(exc)
            return
        finally:
            reached, self.audience.reached = self.audience.reached, None
        if arrived is not None and loop is not None and reached is not None:
            self._time_until_written(arrived, reached, loop)
        if not future.done():
            future.set_result(result)

    def _time_until_written(
        self, arrived: float, reached: set[Recipient], loop: asyncio.AbstractEventLoop
    ) -> None:
        """Observe the action latency once every player sent something has it written."""
        histogram = self.metrics.action_latency
        countdown = Countdown(len(reached), lambda: histogram.observe(loop.time() - arrived))
        for member in reached:
            member.when_written(countdown.tick)

    async def _tick(self, now: float) -> None:
        try:
            await self.carry_out(self.table.tick(now))
        except TableFailed as failed:
            # A failing engine must not kill the room's task. What the table did before the
            # failure is carried out (persisted first); the failed deadline is retried after
            # a pause, not in a busy loop.
            self.log.exception("room_tick_failed")
            self._hold_until = now + TICK_RETRY
            try:
                await self.carry_out(failed.effects)
            except NotSaved:
                self._failed("room_write_failed")
                await self._recover(now)
            except Exception:
                self.log.exception("room_effects_failed")
        except Fenced:
            await self._moved()
        except NotSaved:
            self._failed("room_write_failed")
            self._hold_until = now + TICK_RETRY
            await self._recover(now)
        except Exception:
            self.log.exception("room_tick_failed")
            self._hold_until = now + TICK_RETRY

    def _failed(self, event: str, **facts: str) -> None:
        """Log the exception being handled: a store that cannot be reached in one line (a
        Redis outage touches every room), anything else with its traceback."""
        error = sys.exc_info()[1]
        cause = error.__cause__ if isinstance(error, NotSaved) else error
        if isinstance(cause, Unreachable):
            self.log.error(event, error=str(cause), **facts)
        else:
            self.log.exception(event, **facts)

    async def _moved(self) -> None:
        """Another node owns the room now (cluster mode): nothing more is written here; the
        room leaves memory, its members are told where it went."""
        self.log.warning("room_lease_lost")
        await self._unload(revoke=False)

    async def _recover(self, now: float) -> None:
        """The table may be ahead of the disk: rebuild it from the store and send every
        viewer its state again; if even that fails, stop the room (never run diverged)."""
        try:
            if self._rebuild is None:
                raise RuntimeError("this room cannot be rebuilt")
            self.table = await self._rebuild(now)
        except Exception:
            self._failed("room_stopped", reason="rebuild from the store failed")
            await self._unload(revoke=False)
            return
        self.log.warning("room_rebuilt")
        self.table.watched = self.audience.watched
        connected = [seat for seat, sessions in self.members.items() if sessions]
        for effect in self.table.resend(now, connected):
            if isinstance(effect, Send):
                self.audience.send(effect, self.now)

    async def release(self) -> None:
        """Let go of every member (the room was stopped or unloaded)."""
        members = self.audience.clear()
        if self.relocate is not None:
            members = await self.relocate(self, members)
        for member in members:
            member.left_room(self.room_id)

    async def carry_out(self, effects: list[Effect]) -> None:
        """Persist, then send, in the order the table gave; report incidents. Consecutive
        records are written in one step (one transaction, one round trip to a shared store),
        awaited before anything after them is sent. Raises ``NotSaved`` when a write fails
        (nothing after it is carried out)."""
        if self._appender is None:  # a local store: written at once, no coroutine
            self.carry_out_now(effects)
            return
        records: list[Persist] = []
        for effect in effects:
            if isinstance(effect, Persist):
                records.append(effect)
                continue
            if records:
                await self._persist(records)
                records = []
            self._deliver(effect)
        if records:
            await self._persist(records)
        self._after_effects()

    def carry_out_now(self, effects: list[Effect]) -> None:
        """``carry_out`` with the store's synchronous writes: a local store's, or any
        store's before the room's task runs (the room is being opened and is not shown to
        anybody yet). One pass over the effects: a run of records is written as the first
        effect after it comes."""
        records: list[Persist] = []
        for effect in effects:
            if isinstance(effect, Persist):
                records.append(effect)
                continue
            if records:
                self._persist_now(records)
                records = []
            self._deliver(effect)
        if records:
            self._persist_now(records)
        self._after_effects()

    def _deliver(self, effect: Send | Incident) -> None:
        """Send, or report, an effect that is not a record."""
        if isinstance(effect, Send):
            self.audience.send(effect, self.now)
        else:
            self.log.warning(effect.kind, seat=effect.seat, error=effect.error)

    def _after_effects(self) -> None:
        if self.feed.actions and self.table.phase != PLAYING:
            self.feed.end_of_play()

    def _items(self, batch: list[Persist]) -> list[Appended]:
        """Records to write, with their deadlines as wall-clock times (so that a restart
        keeps each decision's remaining time)."""
        if not any(e.deadlines for e in batch):  # (most records: no clock read at all)
            return [(e.record, e.entry, {}) for e in batch]
        offset = time.time() - self.now()
        return [
            (e.record, e.entry, {seat: at + offset for seat, at in e.deadlines.items()})
            for e in batch
        ]

    async def _persist(self, batch: list[Persist]) -> None:
        """Write consecutive records (awaited when the store is shared). Raises
        ``NotSaved``, or ``Fenced`` when this node no longer owns the room."""
        if self._appender is None:
            self._persist_now(batch)
            return
        items = self._items(batch)
        start = time.perf_counter()  # inline: a context manager costs twice the timing
        try:
            await self._appender.append_many_async(self.room_id, items)
        except Fenced:
            raise
        except Exception as exc:
            raise NotSaved(f"entries {batch[0].entry.n}.. of room {self.room_id}") from exc
        self._written(batch, start)

    def _persist_now(self, batch: list[Persist]) -> None:
        """``_persist`` with the store's synchronous write (a local store's, or any store's
        before the room's task runs)."""
        items = self._items(batch)
        start = time.perf_counter()
        self._write_now(batch, items)
        self._written(batch, start)

    def _write_now(self, batch: list[Persist], items: list[Appended]) -> None:
        try:
            self.store.append_many(self.room_id, items)
        except Fenced:
            raise
        except Exception as exc:
            raise NotSaved(f"entries {batch[0].entry.n}.. of room {self.room_id}") from exc

    def _written(self, batch: list[Persist], start: float) -> None:
        """Count what was written (the time spent is shared among the records)."""
        spent = (time.perf_counter() - start) / len(batch)
        for effect in batch:
            record = effect.record
            self.metrics.store_write(record.kind).observe(spent)
            if isinstance(record, ActionRecord):
                variant = self.table.engine.name
                self.metrics.actions(variant, record.source).inc()
                if record.source == "timeout":
                    self.metrics.timeouts(variant).inc()
                self.feed.action()

    def set_paused(self, paused: bool, reason: str) -> list[Effect]:
        """Pause (the table's clock stops: no deadline passes, bots wait) or resume (every
        deadline is later by the pause); everyone is told. On resume every seat is sent its
        state again, with the time it has left. Raises ``WrongPhase`` when there is nothing
        to do (already so, or the match is over)."""
        if paused == self.paused:
            raise WrongPhase(f"the room is {'already' if paused else 'not'} paused")
        if paused and self.table.phase in (FINISHED, CLOSED):
            raise WrongPhase(f"the room is {self.table.phase}: there is nothing to pause")
        loop_now = asyncio.get_running_loop().time()
        if paused:
            self.paused_since = loop_now
        else:
            assert self.paused_since is not None
            self._offset += loop_now - self.paused_since
            self.paused_since = None
        told = p.RoomPaused(type="room_paused", room=self.room_id, paused=paused, reason=reason)
        self.audience.deliver(told, self.audience.everyone())
        self.log.info("room_paused" if paused else "room_resumed", reason=reason)
        if paused:
            return []
        now = self.now()
        return [Send(seat, self.table.snapshot(seat, now)) for seat in self.members
                if self.members[seat]]

    def spectator_state(self, now: float) -> dict[str, Any] | None:
        """The state a spectator who joins now is shown: the live one, or with a delay the
        last the feed let go (``None`` before the first)."""
        if self.feed.delayed:
            return self.feed.latest_state
        return self.table.snapshot(None, now)

    def detach(self, session: Recipient) -> None:
        """Stop sending to ``session`` (called inside the room's task)."""
        self.audience.detach(session)

    def facts(self) -> RoomFacts:
        """What the metrics read of the room."""
        return RoomFacts(
            variant=self.table.engine.name,
            phase=str(self.table.phase),
            paused=self.paused,
            seats=[(slot.kind, slot.connected) for slot in self.table.seats],
            trustees=sum(slot.trustee for slot in self.table.seats),
        )
