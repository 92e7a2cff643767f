"""Rooms: creating, finding, restoring, closing and draining them. Each room is a table and
the task that alone may change it (``paiju.server.room``).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol

import structlog

from paiju.core.errors import GameError, InvalidOptions
from paiju.core.fairness import FAIR_V1
from paiju.core.rng import SeededRng
from paiju.engines.registry import get_engine, get_variant, make_bot, variants
from paiju.persistence.restore import Damaged, check_chain, restore_room
from paiju.persistence.store import Store, async_appender
from paiju.server.collector import collector_paused
from paiju.server.config import ServerConfig
from paiju.server.errors import Draining, UnknownPreset, UnknownRoom
from paiju.server.feed import SpectatorFeed
from paiju.server.metrics import Metrics, RoomFacts, Spread
from paiju.server.presets import RoomPreset, default_preset, load_presets
from paiju.server.room import TICK_RETRY, Recipient, Room, RoomJob
from paiju.table.commands import Close, Start
from paiju.table.effects import Effect, Persist
from paiju.table.records import RoomCreated
from paiju.table.table import CLOSED, FINISHED, PLAYING, WAITING, SeatBot, Table, TableSettings

__all__ = ["TICK_RETRY", "Recipient", "Room", "RoomJob", "RoomManager", "usable_presets"]

log = structlog.get_logger("paiju.rooms")


class Elsewhere(Exception):
    """The room is served by another node (``url``; empty: between owners). Here, not in
    ``paiju.server.cluster``, so that a node without a cluster never imports Redis's client."""

    def __init__(self, room_id: str, node: str, url: str) -> None:
        super().__init__(f"room {room_id} is on node {node or '(none yet)'}")
        self.room_id, self.node, self.url = room_id, node, url


class ClusterSide(Protocol):
    """What the rooms need of cluster mode (``paiju.server.cluster.Cluster``)."""

    def claim_new(self, room_id: str) -> bool:
        """Take the lease of a room being made here."""
        ...

    def holds(self, room_id: str) -> bool:
        """Whether this node still holds the room's lease."""
        ...

    def store_problem(self) -> str | None:
        """Why the shared store looks unreachable (``None``: it answers)."""
        ...

    async def locate(self, room_id: str) -> Room:
        """The room here (claimed if nobody holds it); raises when it is elsewhere."""
        ...

    async def relocate(self, room: Room, members: list[Recipient]) -> list[Recipient]:
        """Tell the members of a room leaving this node where it went; those it could not
        tell."""
        ...

    async def place(self, room: Room) -> dict[str, Any]:
        """Move a room just made to the least loaded node; where it is."""
        ...

    async def lobby_rows(self) -> list[dict[str, Any]]:
        """The lobby rows the other nodes published."""
        ...


class RoomManager:
    """Creates, finds, restores and closes rooms."""

    def __init__(self, config: ServerConfig, store: Store, metrics: Metrics | None = None) -> None:
        self.config = config
        self.store = store
        self.metrics = metrics or Metrics.detached()
        self.rooms: dict[str, Room] = {}
        # Rooms that may still be active, by id: a superset of the active ones, settled only
        # when it reaches ``max_rooms`` (see ``accepting``).
        self._maybe_active: set[str] = set()
        # Read now (a file that cannot be read stops the start), checked against their
        # variants when first needed (``presets``).
        self._preset_files = load_presets(config.rooms_dir)
        self._presets: dict[str, RoomPreset] | None = None
        self.draining = False
        # Rooms whose stored records did not verify at start: room id -> why (operators see
        # them as phase "damaged"; they stay on disk for `paiju verify`).
        self.damaged: dict[str, str] = {}
        # Cluster mode (docs/cluster.md): rooms are leased, found on other nodes, adopted.
        self.cluster: ClusterSide | None = None

    @property
    def presets(self) -> dict[str, RoomPreset]:
        """The usable presets (see ``usable``), checked when first asked for: checking a
        preset loads its variant, and a restart need not load the variants no restored
        room plays before its players are back (80 ms of a start of 1,000 dragon rooms).
        ``verify_restored`` asks for them once the players have had their head start."""
        if self._presets is None:
            self._presets = usable(self._preset_files)
        return self._presets

    def get(self, room_id: str) -> Room:
        """The live room; ``UnknownRoom`` if there is none."""
        room = self.rooms.get(room_id)
        if room is None:
            raise UnknownRoom(f"no room {room_id!r}")
        return room

    async def locate(self, room_id: str) -> Room:
        """The room, to join or resume: ``get``, and in cluster mode claimed here if nobody
        holds it. Raises ``UnknownRoom``, or the cluster's ``Elsewhere``."""
        if self.cluster is None or room_id in self.rooms:
            return self.get(room_id)
        return await self.cluster.locate(room_id)

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
        spectator_delay: float | None = None,
        spectator_delay_actions: int | None = None,
        scheme: str = FAIR_V1,
    ) -> Room:
        """Make a room from a preset (by default the variant's own) plus ``options``.

        The last ``bots`` seats get bots of ``bot_level``; ``bot_seats`` (seat -> level)
        places bots exactly instead. ``by_player`` rooms take only the options the preset's
        ``choices`` allow. The spectators' delay is the one given, else the preset's, else
        the server's. A room whose every seat is a bot starts at once. ``scheme`` is the deal
        scheme: ``seeded-v0`` (the deals of rooms made before fair deals, a function of the
        seed alone) only for tests that script a deal by its seed. Raises ``GameError``
        (unknown variant or preset, bad options or bot level, too many rooms, draining)."""
        if self.draining:
            raise Draining("the server is draining for a restart: no new rooms")
        self._check_capacity()
        chosen = self._preset(variant, preset)
        engine = get_engine(chosen.variant)
        for level in {*([bot_level] if bots else []), *(bot_seats or {}).values()}:
            get_variant(chosen.variant).check_bot_level(level)
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
        created = RoomCreated(
            room=room_id or secrets.token_hex(8 if private else 4),
            variant=chosen.variant,
            options=normalized,
            seed=seed if seed is not None else secrets.token_hex(16),
            settings=self._settings(chosen, private=private, by_player=by_player)
            | self._delays(chosen, spectator_delay, spectator_delay_actions),
            created_at=time.time(),
            scheme=scheme,
        )
        if self.store.get_room(created.room) is not None:
            raise InvalidOptions(f"room {created.room} exists")
        if self.cluster is not None and not self.cluster.claim_new(created.room):
            raise InvalidOptions(f"room {created.room} exists")
        table = self.make_table(created)
        for seat, level in sorted(placed.items()):
            table.add_bot(seat, level)
        for effect in table.open_room(created):
            assert isinstance(effect, Persist)
            self.store.append(created.room, effect.record, effect.entry, {})
        return self._open(table, created)

    def accepting(self) -> bool:
        """Whether fewer than ``max_rooms`` rooms wait or play. Finished rooms stay open for
        their result but do not count: otherwise the server would refuse every create after
        ``max_rooms`` matches until an operator closed them by hand."""
        if len(self._maybe_active) >= self.config.max_rooms:
            self._maybe_active = set(filter(self._active, self._maybe_active))
        return len(self._maybe_active) < self.config.max_rooms

    def _active(self, room_id: str) -> bool:
        """Whether ``room_id`` is loaded and waiting or playing. ``accepting`` asks this only
        when its superset is full: counting every room on every create cost a walk over
        thousands of rooms per create (8% of a dragon server's samples while 1,500 tables
        were being added)."""
        room = self.rooms.get(room_id)
        return room is not None and room.table.phase not in (FINISHED, CLOSED)

    def _check_capacity(self) -> None:
        if not self.accepting():
            raise InvalidOptions(f"the server already has {self.config.max_rooms} active rooms")

    def _preset(self, variant: str | None, preset: str | None) -> RoomPreset:
        """The named preset, or the variant's default one (which may be empty)."""
        if preset is None:
            if variant is None:
                raise InvalidOptions("name a variant or a preset")
            return self.presets.get(variant) or default_preset(variant)
        found = self.presets.get(preset)
        if found is None:
            known = ", ".join(sorted(self.presets)) or "none"
            raise UnknownPreset(f"no room preset {preset!r}; presets: {known}")
        if variant is not None and variant != found.variant:
            raise InvalidOptions(f"preset {preset} is for {found.variant}, not {variant}")
        return found

    def _settings(self, preset: RoomPreset, *, private: bool, by_player: bool) -> dict[str, Any]:
        timers = {**self.config.timers, **preset.timers}
        trustee_after = timers.pop("trustee_after", float(self.config.trustee_after))
        return {
            "timers": timers,
            "bot_delay": self.config.bot_delay,
            "between_hands": self.config.between_hands,
            "trustee_after": int(trustee_after),
            "preset": preset.name,
            "private": private,
            "by_player": by_player,
        }

    def _delays(
        self, preset: RoomPreset, seconds: float | None, actions: int | None
    ) -> dict[str, Any]:
        """The spectators' delay: as given, else the preset's, else the server's."""
        if (seconds or 0) < 0 or (actions or 0) < 0:
            raise InvalidOptions("a spectator delay cannot be negative")
        return {
            "spectator_delay": next(
                v for v in (seconds, preset.spectator_delay, self.config.spectator_delay)
                if v is not None
            ),
            "spectator_delay_actions": next(
                v for v in (actions, preset.spectator_delay_actions,
                            self.config.spectator_delay_actions)
                if v is not None
            ),
        }

    def make_table(self, created: RoomCreated) -> Table:
        """A room's table, as its creation record says (the server's own settings for the
        trustee's delay, the restore grace and snapshots). Raises ``GameError`` for a
        variant that is not there."""
        engine = get_engine(created.variant)
        seed = created.seed
        timing = self.metrics.bot_decision(created.variant)

        def bot_factory(seat: int, level: int) -> SeatBot:
            get_variant(created.variant).check_bot_level(level)  # refused now, not at its turn
            return TimedBot(
                lambda: make_bot(created.variant, level, SeededRng(seed).derive(f"bot/{seat}")),
                timing,
            )

        stored = created.settings
        timers = {k: v for k, v in dict(stored.get("timers", {})).items() if k != "trustee_after"}
        settings = TableSettings(
            timers=timers,
            bot_delay=float(stored.get("bot_delay", 0.0)),
            between_hands=float(stored.get("between_hands", 0.0)),
            trustee_after=int(stored.get("trustee_after", self.config.trustee_after)),
            trustee_delay=self.config.trustee_delay,
            restore_grace=self.config.restore_grace,
            snapshot_every=self.config.snapshot_every_by_variant.get(
                created.variant, self.config.snapshot_every
            ),
        )
        table = Table(
            created.room, engine, created.options, seed, settings, bot_factory, created.scheme
        )
        table.preset = stored.get("preset")
        table.private = bool(stored.get("private", False))
        return table

    def _open(self, table: Table, created: RoomCreated) -> Room:
        settings = created.settings
        room_id = created.room

        shared = async_appender(self.store)

        async def rebuild(now: float) -> Table:
            if self.cluster is not None and not self.cluster.holds(room_id):
                raise RuntimeError("this node lost the room's lease")
            read = None if shared is None else await shared.restore_entries_async(room_id)
            return restore_room(self.store, room_id, self.make_table, now, time.time(),
                                read).table

        by_player = bool(settings.get("by_player", False))
        feed = SpectatorFeed(
            float(settings.get("spectator_delay", 0.0)),
            int(settings.get("spectator_delay_actions", 0)),
        )
        room = Room(
            table, self.store, self.config.finished_room_grace, self._unloaded,
            metrics=self.metrics, feed=feed,
            abandoned_grace=self.config.abandoned_room_grace if by_player else None,
            rebuild=rebuild,
        )
        room.made_by_player = by_player
        room.draining = self.draining
        if self.cluster is not None:
            room.relocate = self.cluster.relocate
        now = asyncio.get_running_loop().time()
        if feed.delayed:
            feed.push(table.snapshot(None, now), now)
        if table.phase == WAITING and all(slot.kind == "bot" for slot in table.seats):
            # Nobody would ever say ready: bots alone start at once (the room's task is not
            # running yet, so this is still its only writer).
            room.carry_out_now(table.handle(None, Start(), now))
        self.rooms[room_id] = room
        self._maybe_active.add(room_id)
        room.start()
        room.log.info("room_opened", seats=table.seat_count, phase=table.phase)
        return room

    def _unloaded(self, room: Room) -> None:
        if self.rooms.get(room.room_id) is room:
            del self.rooms[room.room_id]
            self._maybe_active.discard(room.room_id)

    def facts(self) -> Iterator[RoomFacts]:
        """What the metrics read of every room in memory."""
        return (room.facts() for room in self.rooms.values())

    def hands_in_play(self) -> int:
        """Rooms whose hand is being played (a drain waits for these)."""
        return sum(room.table.phase == PLAYING for room in self.rooms.values())

    async def begin_drain(self) -> None:
        """No new rooms; no room deals another hand. Each room's task is woken so that it
        stops waiting for the next hand's deal."""
        self.draining = True
        for room in list(self.rooms.values()):
            room.draining = True
            with contextlib.suppress(GameError):
                await room.call(lambda table, now: (None, []))

    def spectator_count(self) -> int:
        """Spectators of every live room."""
        return sum(len(room.spectators) for room in self.rooms.values())

    def restore_all(self) -> int:
        """Bring back every room that was open when the server stopped; returns how many.

        A room whose records do not verify is refused (``room_damaged`` in the log, phase
        ``damaged`` for operators); any other room that cannot be loaded is skipped with
        ``room_restore_failed``. Either way the other rooms come up."""
        # The collector stays off meanwhile: every object a restore makes lives on, so the
        # full collections its allocations set off would walk a growing heap for nothing
        # (1,000 rooms: 0.6 s of CPU instead of 0.7-0.8 s; a collection after it finds a few
        # dozen unreachable objects).
        with collector_paused():
            return self._restore_each()

    def _restore_each(self) -> int:
        restored = 0
        for room_id in self.store.open_rooms():
            if room_id in self.rooms:
                continue
            try:
                self.restore(room_id)
            except Damaged as exc:
                self.damaged[room_id] = f"record {exc.n}: {exc.reason}"
                log.error("room_damaged", room=room_id, record=exc.n, reason=exc.reason)
                continue
            except Exception:
                # Stored data that no longer fits (a removed variant or bot level) must not
                # stop the server; the room stays on disk for `paiju replay`.
                log.exception("room_restore_failed", room=room_id)
                continue
            restored += 1
        return restored

    def restore(self, room_id: str) -> Room:
        """Bring one stored room back into memory, from its last snapshot and the records
        after it, its stored deadlines re-armed. Raises ``Damaged`` (or what loading it
        raised)."""
        now, wall = asyncio.get_running_loop().time(), time.time()
        loaded = restore_room(self.store, room_id, self.make_table, now, wall)
        return self._open(loaded.table, loaded.created)

    async def adopt(self, room_id: str) -> Room:
        """``restore`` with the records read without blocking the loop when the store is
        shared (cluster mode: a room claimed from another node)."""
        shared = async_appender(self.store)
        read = None if shared is None else await shared.restore_entries_async(room_id)
        now, wall = asyncio.get_running_loop().time(), time.time()
        loaded = restore_room(self.store, room_id, self.make_table, now, wall, read)
        return self._open(loaded.table, loaded.created)

    async def verify_restored(self) -> None:
        """Check the whole chain of every live room, one room at a time, letting the other
        tasks run in between (a restore checks only the records from the last snapshot on,
        to stay fast), from ``chain_check_delay`` seconds after the start: players resume
        first. A room that fails is stopped and shown as damaged."""
        await asyncio.sleep(self.config.chain_check_delay)
        self.presets  # noqa: B018 (checked now, their warnings logged, not at a player's lobby)
        for room_id in list(self.rooms):
            room = self.rooms.get(room_id)
            if room is None:
                continue
            shared = async_appender(self.store)
            try:
                chain = None if shared is None else [
                    stored.entry for stored in await shared.entries_async(room_id)]
                check_chain(self.store, room_id, chain)
            except Damaged as exc:
                self.damaged[room_id] = f"record {exc.n}: {exc.reason}"
                log.error("room_damaged", room=room_id, record=exc.n, reason=exc.reason)
                await room.stop()
                await room.release()
                self.rooms.pop(room_id, None)
            await asyncio.sleep(0)

    async def close(self, room_id: str, reason: str) -> dict[str, Any]:
        """Close a room for good: tell its members, revoke its tokens, end its task. Returns
        the room's summary once closed."""
        room = self.get(room_id)

        def job(table: Table, now: float) -> tuple[dict[str, Any], list[Effect]]:
            effects = table.handle(None, Close(reason), now)
            return table.summary(), effects

        summary = await room.call(job)
        shared = async_appender(self.store)
        if shared is not None:
            await shared.revoke_tokens_async(room_id)
        else:
            self.store.revoke_tokens(room_id)
        await room.stop()
        del self.rooms[room_id]
        self._maybe_active.discard(room_id)
        return summary

    async def shutdown(self) -> None:
        """Stop every room's task after what it has queued (the rooms stay open on disk)."""
        for room in list(self.rooms.values()):
            await room.stop()


class TimedBot:
    """A bot whose every decision is timed into a histogram (the metrics), made when it
    first chooses: a restart makes every room's bots, and most rooms wait for a person then
    (seeding each bot's generator was 2% of a restart of 1,000 rooms). Its generator is
    derived from the room's seed alone, so when it is made does not change what it plays."""

    def __init__(self, make: Callable[[], SeatBot], histogram: Spread) -> None:
        self._make: Callable[[], SeatBot] | None = make
        self._bot: SeatBot | None = None
        self.histogram = histogram

    @property
    def bot(self) -> SeatBot:
        """The bot itself (made now if it was not yet)."""
        if self._bot is None:
            assert self._make is not None
            self._bot, self._make = self._make(), None
        return self._bot

    def choose(self, view: Mapping[str, Any]) -> str:
        bot = self.bot
        start = time.perf_counter()
        try:
            return bot.choose(view)
        finally:
            self.histogram.observe(time.perf_counter() - start)


def usable_presets(rooms_dir: str) -> dict[str, RoomPreset]:
    """The presets (the package's and those of ``rooms_dir``) whose variant is registered and
    whose options are valid; any other is logged and left out, so one broken file does not
    stop the server."""
    return usable(load_presets(rooms_dir))


def usable(presets: Mapping[str, RoomPreset]) -> dict[str, RoomPreset]:
    """Those of ``presets`` whose variant is registered and whose options are valid; any
    other is logged and left out."""
    found: dict[str, RoomPreset] = {}
    for name, preset in presets.items():
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
        found[name] = preset
    return found
