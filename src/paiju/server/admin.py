"""The operator channel (``/admin``, behind the bearer token): requests and answers, both
through the protocol's models, every refusal with a documented code.

Commands on rooms (create, list, show, start, close, pause, resume, invite, watch), on
connections (connections, kick), notices, and the server's drain; docs/protocol.md lists
each with its fields and docs/operations.md the ``paiju`` commands that send them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import structlog
from pydantic import ValidationError
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from paiju.core.errors import GameError
from paiju.persistence.store import RoomRecord, Store, async_appender, hands
from paiju.server import protocol as p
from paiju.server.errors import InvalidMessage, UnknownConnection, UnknownRoom
from paiju.server.metrics import Metrics
from paiju.server.rooms import Room, RoomManager
from paiju.server.sessions import CLOSE_KICKED, Session, new_token, token_hash
from paiju.server.watch import Watcher
from paiju.table import commands as c
from paiju.table.effects import Effect
from paiju.table.errors import SeatTaken
from paiju.table.table import Table

log = structlog.get_logger("paiju.admin")

ADMIN_REQUEST = p.AdminRequest.model_validate_json
#: A close reason is at most 123 bytes; the operator's reason is cut to fit.
MAX_REASON = 80

Drain = Callable[[], Awaitable[dict[str, Any]]]


class Admin:
    """Answers operator requests, one at a time per channel."""

    def __init__(
        self,
        rooms: RoomManager,
        store: Store,
        sessions: Callable[[], Iterable[Session]] = tuple,
        drain: Drain | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.rooms = rooms
        self.store = store
        self.sessions = sessions
        self.drain = drain
        self.metrics = metrics or Metrics.detached()
        self.channels = 0  # open admin connections (a gauge of the metrics)

    async def serve(self, connection: ServerConnection) -> None:
        """Answer every request of one operator connection until it closes (a ``watch``
        turns the channel into the room's stream until the room leaves memory)."""
        self.channels += 1
        try:
            while True:
                # Bytes, so that invalid UTF-8 is an answered refusal, not a dropped channel.
                frame = await connection.recv(decode=False)
                reply, watcher = await self.answer_and_watch(frame)
                await connection.send(reply.model_dump_json())
                if watcher is not None:
                    await self._stream(connection, watcher)
                    return
        except ConnectionClosed:
            return
        finally:
            self.channels -= 1

    async def answer(self, frame: str | bytes) -> p.AdminResult:
        """The answer to one request frame; never raises (the channel stays open)."""
        reply, watcher = await self.answer_and_watch(frame)
        if watcher is not None:
            await watcher.detach()
        return reply

    async def answer_and_watch(self, frame: str | bytes) -> tuple[p.AdminResult, Watcher | None]:
        """The answer, and for ``watch`` the watcher whose frames follow it."""
        try:
            request = ADMIN_REQUEST(frame)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(x) for x in first["loc"]) or "request"
            return self._refusal(p.ErrorCode.INVALID_MESSAGE, f"{where}: {first['msg']}"), None
        try:
            if request.command == "watch":
                watcher = await self._watch(request)
                return _ok({"room": watcher.room.room_id, "watching": True}), watcher
            return _ok(await self.command(request)), None
        except GameError as exc:
            return self._refusal(exc.code, exc.message), None
        except Exception:
            # The operator gets an answer and keeps the channel, as a player would.
            log.exception("admin_command_failed", command=request.command, room=request.room)
            return self._refusal(
                p.ErrorCode.INTERNAL_ERROR, "the server failed to carry out the command"
            ), None

    def _refusal(self, code: str, message: str) -> p.AdminResult:
        self.metrics.errors(code).inc()
        return p.AdminResult(type="admin_result", ok=False, code=code, message=message)

    async def command(self, request: p.AdminRequest) -> Any:
        """Carry out one request; ``GameError`` for a refusal."""
        log.info("admin_command", command=request.command, room=request.room,
                 connection=request.connection)
        server_wide = {
            "list": self._list, "create": self._create, "connections": self._connections,
            "kick": self._kick, "drain": self._drain,
        }
        if request.command in server_wide:
            return await server_wide[request.command](request)
        if request.command == "notice" and request.room is None:
            return self._notice_all(request)
        if request.room is None:
            raise InvalidMessage(f"{request.command} needs a room")
        if request.command == "close":
            await self.rooms.close(request.room, "closed by the operator")
            return await self._stored_summary(request.room)
        if request.command == "show" and request.room not in self.rooms.rooms:
            return await self._stored_summary(request.room)
        room = self.rooms.get(request.room)
        if request.command in ("pause", "resume"):
            paused, reason = request.command == "pause", request.text or ""
            await room.call(lambda table, now: (None, room.set_paused(paused, reason)))
        elif request.command == "start":
            level = request.bot_level
            await room.call(lambda table, now: (None, table.handle(None, c.Start(level), now)))
        elif request.command == "notice":
            return await self._notice_room(room, request)
        elif request.command == "invite":
            return await self._invite(room, request)
        elif request.command == "trustee":
            if request.seat is None:
                raise InvalidMessage("trustee needs a seat")
            trustee = c.SetTrustee(request.seat, request.on)
            await room.call(lambda table, now: (None, table.handle(None, trustee, now)))
        return await self._live_summary(room)

    async def _live_summary(self, room: Room) -> dict[str, Any]:
        def job(table: Table, now: float) -> tuple[dict[str, Any], list[Effect]]:
            summary = table.summary() | {"live": True, "paused": room.paused}
            summary["connections"] = _members(room)
            summary["spectators"] = len(room.spectators)
            summary["spectator_delay"] = room.feed.delay
            summary["spectator_delay_actions"] = room.feed.actions
            return summary, []

        return await room.call(job)

    async def _list(self, request: p.AdminRequest) -> list[dict[str, Any]]:
        shared = async_appender(self.store)
        records = (await shared.list_rooms_async() if shared is not None
                   else self.store.list_rooms())
        return [self._room_row(record) for record in records]

    async def _create(self, request: p.AdminRequest) -> Any:
        if request.variant is None and request.preset is None:
            raise InvalidMessage("create needs a variant or a preset")
        room = self.rooms.create(
            request.variant,
            preset=request.preset,
            seats=request.seats,
            bots=request.bots,
            bot_level=request.bot_level,
            options=request.options,
            seed=request.seed,
            spectator_delay=request.spectator_delay,
            spectator_delay_actions=request.spectator_delay_actions,
        )
        summary = await self._live_summary(room)
        if self.rooms.cluster is not None:  # the room goes to the least loaded node
            summary |= await self.rooms.cluster.place(room)
        return summary

    # ------------------------------------------------------------------ seats and people

    async def _invite(self, room: Room, request: p.AdminRequest) -> dict[str, Any]:
        """A one-time token that lets a person take a bot's seat (``resume`` with it)."""
        seat, name = request.seat, request.name or "player"
        if seat is None:
            raise InvalidMessage("invite needs a seat")
        token = new_token()

        def job(table: Table, now: float) -> tuple[None, list[Effect]]:
            if not 0 <= seat < table.seat_count or table.seats.kind(seat) != "bot":
                raise SeatTaken(f"seat {seat} holds no bot: only a bot's seat is given away")
            # One invitation per seat: a new one replaces the one before.
            for old in [h for h, (s, _) in room.invites.items() if s == seat]:
                del room.invites[old]
            room.invites[token_hash(token)] = (seat, name)
            return None, []

        await room.call(job)
        return {"room": room.room_id, "seat": seat, "name": name, "token": token}

    async def _connections(self, request: p.AdminRequest) -> list[dict[str, Any]]:
        rows = [_connection_row(s) for s in self.sessions()]
        if request.room is not None:
            rows = [r for r in rows if r["room"] == request.room]
        return sorted(rows, key=lambda r: (r["room"] or "", r["seat"] is None, r["connection"]))

    async def _kick(self, request: p.AdminRequest) -> dict[str, Any]:
        found = next((s for s in self.sessions() if s.session_id == request.connection), None)
        if found is None:
            raise UnknownConnection(f"no open connection {request.connection!r}")
        reason = f"kicked by the operator: {request.text or 'no reason given'}"
        row = _connection_row(found)
        found.close_after_queued(CLOSE_KICKED, reason.encode()[:MAX_REASON].decode(errors="ignore"))
        log.info("connection_kicked", connection=found.session_id, reason=request.text)
        return row | {"kicked": True}

    # ------------------------------------------------------------------ notices, drain

    def _notice_all(self, request: p.AdminRequest) -> dict[str, Any]:
        text = _notice_text(request)
        message = p.Notice(type="notice", room=None, kind="operator", text=text)
        told = 0
        for session in self.sessions():
            if session.greeted:
                session.send(message)
                told += 1
        return {"room": None, "told": told}

    async def _notice_room(self, room: Room, request: p.AdminRequest) -> dict[str, Any]:
        message = p.Notice(type="notice", room=room.room_id, kind="operator",
                           text=_notice_text(request))

        def job(table: Table, now: float) -> tuple[int, list[Effect]]:
            everyone = room.audience.everyone()
            room.audience.deliver(message, everyone)
            return len(everyone), []

        return {"room": room.room_id, "told": await room.call(job)}

    async def _drain(self, request: p.AdminRequest) -> dict[str, Any]:
        if self.drain is None:
            raise InvalidMessage("this server cannot drain")
        return await self.drain()

    # ------------------------------------------------------------------ watch

    async def _watch(self, request: p.AdminRequest) -> Watcher:
        if request.room is None:
            raise InvalidMessage("watch needs a room")
        watcher = Watcher(self.rooms.get(request.room))
        await watcher.attach()
        return watcher

    async def _stream(self, connection: ServerConnection, watcher: Watcher) -> None:
        """Forward the room's public messages until it leaves memory or the operator goes."""
        try:
            async for frame in watcher.frames():
                await connection.send(frame, text=True)
            await connection.close(1000, "the room left memory")
        finally:
            await watcher.detach()

    # ------------------------------------------------------------------ stored rooms

    async def _stored_summary(self, room_id: str) -> dict[str, Any]:
        """What ``show`` says of a room that is no longer in memory (finished and unloaded, or
        closed): its stored record and hand results (read without blocking the loop when the
        store is shared)."""
        shared = async_appender(self.store)
        if shared is not None:
            record = await shared.get_room_async(room_id)
            stored = await shared.entries_async(room_id) if record is not None else None
        else:
            record, stored = self.store.get_room(room_id), None
        if record is None:
            raise UnknownRoom(f"no room {room_id!r}")
        results = hands(self.store, room_id, stored)
        damaged = self.rooms.damaged.get(room_id)
        return ({"damaged": damaged} if damaged else {}) | {
            "room": record.room_id,
            "variant": record.variant,
            "phase": self._phase(record.room_id, record.phase),
            "hand": len(results),
            "totals": record.totals,
            "hand_scores": [list(h.scores) for h in results],
            "seats": [
                {k: v for k, v in seat.items() if k != "bot_level"} for seat in record.seats
            ],
            "options": record.options,
            "live": False,
        }

    def _phase(self, room_id: str, stored: str) -> str:
        """The phase an operator sees: ``damaged`` for a room refused at start."""
        return "damaged" if room_id in self.rooms.damaged else stored

    def _room_row(self, record: RoomRecord) -> dict[str, Any]:
        live = self.rooms.rooms.get(record.room_id)
        return {
            "room": record.room_id,
            "variant": record.variant,
            "phase": self._phase(record.room_id, record.phase),
            "totals": record.totals,
            "live": live is not None,
            "paused": live is not None and live.paused,
            "seats": [f"{s.get('kind')}:{s.get('name')}" for s in record.seats],
        }


def _ok(result: Any) -> p.AdminResult:
    return p.AdminResult(type="admin_result", ok=True, result=result)


def _notice_text(request: p.AdminRequest) -> str:
    if not request.text or not request.text.strip():
        raise InvalidMessage("a notice needs a text")
    return request.text.strip()


def _connection_row(session: Session) -> dict[str, Any]:
    room = session.room.room_id if session.room is not None else None
    kind = "lobby" if room is None else ("seated" if session.seat is not None else "spectator")
    return {"connection": session.session_id, "address": session.address, "room": room,
            "seat": session.seat, "kind": kind}


def _members(room: Room) -> list[dict[str, Any]]:
    rows = [{"connection": m.session_id, "seat": seat}
            for seat, members in room.members.items() for m in members
            if isinstance(m, Session)]
    return sorted(rows, key=lambda r: (r["seat"], r["connection"]))

