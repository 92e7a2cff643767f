"""Rooms: one asyncio task per room is the single writer of its table (no locks).

Everything that touches a table runs inside that task: connections submit closures through
the room's inbox and await their result. The task sleeps until the next message or the
table's next deadline, whichever comes first, and carries out the table's effects in order:
persist first, then send.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import structlog

from paiju.core.errors import GameError, InvalidOptions
from paiju.core.rng import SeededRng
from paiju.engines.registry import get_engine, make_bot, variants
from paiju.persistence.store import RoomRecord, Store, write
from paiju.server.config import RoomPreset, ServerConfig, load_preset, load_presets
from paiju.server.errors import RoomClosed, UnknownPreset, UnknownRoom
from paiju.server.wire import encode_bytes
from paiju.table.effects import SPECTATORS, Effect, Persist, Send
from paiju.table.table import (
    CLOSED,
    FINISHED,
    WAITING,
    SeatBot,
    Table,
    TableFailed,
    TableSettings,
)

T = TypeVar("T")
log = structlog.get_logger("paiju.rooms")

#: Seconds before a tick that failed is tried again.
TICK_RETRY = 1.0

RoomJob = Callable[[Table, float], tuple[T, list[Effect]]]


class Recipient(Protocol):
    """A room member: something that takes encoded frames (a session)."""

    def send_frame(self, frame: bytes) -> None: ...

    def left_room(self, room_id: str) -> None:
        """The room let go of this member (it was unloaded)."""


class Room:
    """A table, its members, and the task that alone may change it."""

    def __init__(
        self,
        table: Table,
        store: Store,
        finished_grace: float | None = None,
        on_unload: Callable[[Room], None] | None = None,
    ) -> None:
        self.table = table
        self.store = store
        # A finished room leaves memory this long after the match ended (None: never).
        self.finished_grace = finished_grace
        self._unload_at: float | None = None
        self._on_unload = on_unload
        self.members: dict[int, set[Recipient]] = {}
        self.spectators: set[Recipient] = set()
        self._inbox: asyncio.Queue[tuple[RoomJob[Any], asyncio.Future[Any]] | None] = (
            asyncio.Queue()
        )
        self._task: asyncio.Task[None] | None = None
        self.closed = False
        self.made_by_player = False  # such a room closes when its last player leaves
        self._hold_until = 0.0
        self.log = log.bind(room=table.room_id, variant=table.engine.name)

    @property
    def room_id(self) -> str:
        return self.table.room_id

    def start(self) -> None:
        """Start the room's task."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name=self.room_id)

    async def call(self, job: RoomJob[T]) -> T:
        """Run ``job(table, now)`` inside the room's task; its ``GameError`` is re-raised here.

        Raises ``RoomClosed`` once the room is stopping or stopped: nothing would ever run the
        job, and a caller awaiting it would hang (and hold up a graceful shutdown).
        """
        if self.closed or self._task is None or self._task.done():
            raise RoomClosed("the room is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        await self._inbox.put((job, future))
        return await future

    async def stop(self) -> None:
        """Finish what is queued, then end the task; later calls get ``RoomClosed``."""
        self.closed = True
        if self._task is None:
            return
        await self._inbox.put(None)
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        # A job that slipped in behind the end marker would never be answered.
        while not self._inbox.empty():
            item = self._inbox.get_nowait()
            if item is not None and not item[1].done():
                item[1].set_exception(RoomClosed("the room is closed"))

    def wake_at(self) -> float | None:
        """When the task next wakes: the table's deadline, but not before a failed tick's
        retry time (a deadline that keeps failing would otherwise spin the loop), or the time
        a finished room is unloaded."""
        deadline = self.table.next_deadline()
        wake = None if deadline is None else max(deadline, self._hold_until)
        if self._unload_at is not None:
            wake = self._unload_at if wake is None else min(wake, self._unload_at)
        return wake

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            deadline = self.wake_at()
            timeout = None if deadline is None else max(0.0, deadline - loop.time())
            try:
                item = await asyncio.wait_for(self._inbox.get(), timeout)
            except TimeoutError:
                self._tick(loop.time())
                if self._due_for_unload(loop.time()):
                    self._unload()
                    return
                continue
            if item is None:
                return
            job, future = item
            self._run_job(job, future, loop.time())
            self._tick(loop.time())
            self._due_for_unload(loop.time())

    def _due_for_unload(self, now: float) -> bool:
        """Start the grace period once the match is over; whether it has run out."""
        if self.finished_grace is None or self.table.phase != FINISHED:
            self._unload_at = None
            return False
        if self._unload_at is None:
            self._unload_at = now + self.finished_grace
        return now >= self._unload_at

    def _unload(self) -> None:
        """Leave memory (the room stays in the store): tell the members, end the task."""
        self.closed = True
        self.store.revoke_tokens(self.room_id)
        for member in [*self.spectators, *(m for ms in self.members.values() for m in ms)]:
            member.left_room(self.room_id)
        self.members.clear()
        self.spectators.clear()
        while not self._inbox.empty():
            item = self._inbox.get_nowait()
            if item is not None and not item[1].done():
                item[1].set_exception(RoomClosed("the room is closed"))
        if self._on_unload is not None:
            self._on_unload(self)
        self.log.info("room_unloaded")

    def _run_job(self, job: RoomJob[Any], future: asyncio.Future[Any], now: float) -> None:
        try:
            result, effects = job(self.table, now)
        except GameError as exc:
            if not future.done():
                future.set_exception(exc)
            return
        except Exception as exc:
            self.log.exception("room_job_failed")
            if not future.done():
                future.set_exception(exc)
            return
        try:
            self.carry_out(effects)
        except Exception as exc:
            # A failed write (a full disk) must not end the room's task, or every member would
            # wait forever; the caller gets internal_error and nothing after the write is sent.
            self.log.exception("room_effects_failed")
            if not future.done():
                future.set_exception(exc)
            return
        if not future.done():
            future.set_result(result)

    def _tick(self, now: float) -> None:
        try:
            self.carry_out(self.table.tick(now))
        except TableFailed as failed:
            # A failing engine must not kill the room's task. What the table did before the
            # failure is carried out (persisted first); the failed deadline is retried after
            # a pause, not in a busy loop.
            self.log.exception("room_tick_failed")
            self._hold_until = now + TICK_RETRY
            with contextlib.suppress(Exception):
                self.carry_out(failed.effects)
        except Exception:
            self.log.exception("room_tick_failed")
            self._hold_until = now + TICK_RETRY

    def carry_out(self, effects: list[Effect]) -> None:
        """Persist, then send, in the order the table gave; report incidents."""
        for effect in effects:
            if isinstance(effect, Persist):
                write(self.store, self.room_id, effect.record)
            elif isinstance(effect, Send):
                self._send(effect)
            else:
                self.log.warning(effect.kind, seat=effect.seat, error=effect.error)

    def _send(self, effect: Send) -> None:
        targets = self.spectators if effect.to == SPECTATORS else self.members.get(effect.to, ())
        if targets:
            frame = encode_bytes(effect.message)  # once, however many connections watch
            for member in list(targets):
                member.send_frame(frame)

    def detach(self, session: Recipient) -> None:
        """Stop sending to ``session`` (called inside the room's task)."""
        self.spectators.discard(session)
        for sessions in self.members.values():
            sessions.discard(session)


class RoomManager:
    """Creates, finds, restores and closes rooms."""

    def __init__(self, config: ServerConfig, store: Store) -> None:
        self.config = config
        self.store = store
        self.rooms: dict[str, Room] = {}
        self.presets = usable_presets(config.rooms_dir)

    def get(self, room_id: str) -> Room:
        """The live room; ``UnknownRoom`` if there is none."""
        room = self.rooms.get(room_id)
        if room is None:
            raise UnknownRoom(f"no room {room_id!r}")
        return room

    def create(
        self,
        variant: str | None = None,
        *,
        preset: str | None = None,
        seats: int | None = None,
        bots: int = 0,
        bot_level: int = 1,
        options: dict[str, Any] | None = None,
        seed: str | None = None,
        room_id: str | None = None,
        private: bool = False,
        bot_seats: dict[int, int] | None = None,
        by_player: bool = False,
    ) -> Room:
        """Make a room from a preset (by default the variant's own) plus ``options``.

        The last ``bots`` seats get bots of ``bot_level``; ``bot_seats`` (seat -> level)
        places bots exactly instead. ``by_player`` rooms take only the options the preset's
        ``choices`` allow. Raises ``GameError`` (unknown variant or preset, bad options, too
        many rooms)."""
        self._check_capacity()
        chosen = self._preset(variant, preset)
        engine = get_engine(chosen.variant)
        extra = options or {}
        raw = chosen.player_options(extra) if by_player else {**chosen.options, **extra}
        if seats is not None and "seats" in engine.normalize_options(raw):
            raw["seats"] = seats
        normalized = engine.normalize_options(raw)
        count = engine.seat_count(normalized)
        if seats is not None and seats != count:
            raise InvalidOptions(f"{chosen.variant} is played by {count} seats, not {seats}")
        if bots > count - (1 if by_player else 0):
            raise InvalidOptions(f"{bots} bots do not fit {count} seats")
        placed = bot_seats if bot_seats is not None else {
            seat: bot_level for seat in range(count - bots, count)
        }
        record = RoomRecord(
            room_id=room_id or secrets.token_hex(8 if private else 4),
            variant=chosen.variant,
            options=normalized,
            seed=seed if seed is not None else secrets.token_hex(16),
            settings=self._settings(chosen, private=private, by_player=by_player),
            created_at=time.time(),
            totals=[0] * count,
        )
        table = self._table(record)
        for seat, level in sorted(placed.items()):
            table.add_bot(seat, level)
        self.store.create_room(record)
        return self._open(table, record)

    def _check_capacity(self) -> None:
        # Finished rooms stay open for their result but no longer count: otherwise the
        # server would refuse every create after max_rooms matches until an operator closed
        # them by hand.
        active = [r for r in self.rooms.values() if r.table.phase not in (FINISHED, CLOSED)]
        if len(active) >= self.config.max_rooms:
            raise InvalidOptions(f"the server already has {self.config.max_rooms} active rooms")

    def _preset(self, variant: str | None, preset: str | None) -> RoomPreset:
        """The named preset, or the variant's default one (which may be empty)."""
        if preset is None:
            if variant is None:
                raise InvalidOptions("name a variant or a preset")
            return self.presets.get(variant) or load_preset(self.config.rooms_dir, variant)
        found = self.presets.get(preset)
        if found is None:
            known = ", ".join(sorted(self.presets)) or "none"
            raise UnknownPreset(f"no room preset {preset!r}; presets: {known}")
        if variant is not None and variant != found.variant:
            raise InvalidOptions(f"preset {preset} is for {found.variant}, not {variant}")
        return found

    def _settings(self, preset: RoomPreset, *, private: bool, by_player: bool) -> dict[str, Any]:
        return {
            "timers": {**self.config.timers, **preset.timers},
            "bot_delay": self.config.bot_delay,
            "between_hands": self.config.between_hands,
            "preset": preset.name,
            "private": private,
            "by_player": by_player,
        }

    def _table(self, record: RoomRecord) -> Table:
        engine = get_engine(record.variant)
        seed = record.seed

        def bot_factory(seat: int, level: int) -> SeatBot:
            return make_bot(record.variant, level, SeededRng(seed).derive(f"bot/{seat}"))

        settings = TableSettings(
            timers=record.settings.get("timers", {}),
            bot_delay=float(record.settings.get("bot_delay", 0.0)),
            between_hands=float(record.settings.get("between_hands", 0.0)),
        )
        table = Table(record.room_id, engine, record.options, seed, settings, bot_factory)
        table.preset = record.settings.get("preset")
        table.private = bool(record.settings.get("private", False))
        return table

    def _open(self, table: Table, record: RoomRecord) -> Room:
        room = Room(table, self.store, self.config.finished_room_grace, self._unloaded)
        room.made_by_player = bool(record.settings.get("by_player", False))
        write(self.store, record.room_id, table.status())
        self.rooms[record.room_id] = room
        room.start()
        room.log.info("room_opened", seats=table.seat_count, phase=table.phase)
        return room

    def _unloaded(self, room: Room) -> None:
        if self.rooms.get(room.room_id) is room:
            del self.rooms[room.room_id]

    def spectator_count(self) -> int:
        """Spectators of every live room."""
        return sum(len(room.spectators) for room in self.rooms.values())

    def restore_all(self) -> int:
        """Bring back every room that was open when the server stopped; returns how many."""
        restored = 0
        loop_now = asyncio.get_running_loop().time()
        for record in self.store.list_rooms():
            if record.phase in (FINISHED, CLOSED) or record.room_id in self.rooms:
                continue
            try:
                table = self._restored_table(record, loop_now)
            except Exception:
                # Stored data that no longer fits (a removed variant or bot level, a log that
                # no longer replays after a rule change, seats that do not match the options)
                # must not stop the server; the room stays on disk for `paiju replay`.
                log.exception("room_restore_failed", room=record.room_id)
                continue
            self._open(table, record)
            restored += 1
        return restored

    def _restored_table(self, record: RoomRecord, now: float) -> Table:
        table = self._table(record)
        if len(record.seats) != table.seat_count:
            raise ValueError(f"{len(record.seats)} stored seats for {table.seat_count} seats")
        for seat, info in enumerate(record.seats):
            table.restore_seat(
                seat,
                str(info.get("kind", "empty")),
                str(info.get("name", "")),
                bool(info.get("ready", False)),
                int(info.get("bot_level", 1)),
            )
        if record.phase != WAITING:
            table.restore(self.store.actions(record.room_id), now)
        return table

    async def close(self, room_id: str, reason: str) -> dict[str, Any]:
        """Close a room for good: tell its members, revoke its tokens, end its task."""
        from paiju.table.commands import Close

        room = self.get(room_id)

        def job(table: Table, now: float) -> tuple[dict[str, Any], list[Effect]]:
            return table.summary(), table.handle(None, Close(reason), now)

        summary = await room.call(job)
        self.store.revoke_tokens(room_id)
        await room.stop()
        del self.rooms[room_id]
        return summary

    async def shutdown(self) -> None:
        """Stop every room's task after what it has queued (the rooms stay open on disk)."""
        for room in list(self.rooms.values()):
            await room.stop()


def usable_presets(rooms_dir: str) -> dict[str, RoomPreset]:
    """The presets of ``rooms_dir`` whose variant is registered and whose options are valid;
    any other is logged and left out, so one broken file does not stop the server."""
    usable: dict[str, RoomPreset] = {}
    for name, preset in load_presets(rooms_dir).items():
        try:
            if preset.variant not in variants():
                raise InvalidOptions(f"no variant {preset.variant!r}")
            engine = get_engine(preset.variant)
            engine.normalize_options(preset.options)
            for key, values in preset.choices.items():
                for value in values:
                    engine.normalize_options({**preset.options, key: value})
        except GameError as exc:
            log.warning("preset_skipped", preset=name, reason=exc.message)
            continue
        usable[name] = preset
    return usable
