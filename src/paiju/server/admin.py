"""The operator channel (``/admin``, behind the bearer token): requests and answers, both
through the protocol's models, every refusal with a documented code."""

from __future__ import annotations

from typing import Any

import structlog
from pydantic import ValidationError
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from paiju.core.errors import GameError
from paiju.persistence.store import Store
from paiju.server import protocol as p
from paiju.server.errors import InvalidMessage, UnknownRoom
from paiju.server.rooms import RoomManager
from paiju.table import commands as c

log = structlog.get_logger("paiju.admin")

ADMIN_REQUEST = p.AdminRequest.model_validate_json


class Admin:
    """Answers operator requests, one at a time per channel."""

    def __init__(self, rooms: RoomManager, store: Store) -> None:
        self.rooms = rooms
        self.store = store

    async def serve(self, connection: ServerConnection) -> None:
        """Answer every request of one operator connection until it closes."""
        try:
            while True:
                # Bytes, so that invalid UTF-8 is an answered refusal, not a dropped channel.
                frame = await connection.recv(decode=False)
                reply = await self.answer(frame)
                await connection.send(reply.model_dump_json())
        except ConnectionClosed:
            return

    async def answer(self, frame: str | bytes) -> p.AdminResult:
        """The answer to one request frame; never raises (the channel stays open)."""
        try:
            request = ADMIN_REQUEST(frame)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(x) for x in first["loc"]) or "request"
            return _refusal(p.ErrorCode.INVALID_MESSAGE, f"{where}: {first['msg']}")
        try:
            result = await self.command(request)
        except GameError as exc:
            return _refusal(exc.code, exc.message)
        except Exception:
            # The operator gets an answer and keeps the channel, as a player would.
            log.exception("admin_command_failed", command=request.command, room=request.room)
            return _refusal(
                p.ErrorCode.INTERNAL_ERROR, "the server failed to carry out the command"
            )
        return p.AdminResult(type="admin_result", ok=True, result=result)

    async def command(self, request: p.AdminRequest) -> Any:
        """Carry out one request; ``GameError`` for a refusal."""
        log.info("admin_command", command=request.command, room=request.room)
        if request.command == "list":
            return [self._room_row(r.room_id) for r in self.store.list_rooms()]
        if request.command == "create":
            return await self._create(request)
        if request.room is None:
            raise InvalidMessage(f"{request.command} needs a room")
        if request.command == "close":
            return await self.rooms.close(request.room, "closed by the operator")
        if request.command == "show" and request.room not in self.rooms.rooms:
            return self._stored_summary(request.room)
        room = self.rooms.get(request.room)
        if request.command == "start":
            level = request.bot_level
            await room.call(lambda table, now: (None, table.handle(None, c.Start(level), now)))
        return await room.call(lambda table, now: (table.summary(), []))

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
        )
        return await room.call(lambda table, now: (table.summary(), []))

    def _stored_summary(self, room_id: str) -> dict[str, Any]:
        """What ``show`` says of a room that is no longer in memory (finished and unloaded, or
        closed): its stored record and hand results."""
        record = self.store.get_room(room_id)
        if record is None:
            raise UnknownRoom(f"no room {room_id!r}")
        return {
            "room": record.room_id,
            "variant": record.variant,
            "phase": record.phase,
            "hand": len(self.store.hands(room_id)),
            "totals": record.totals,
            "hand_scores": [list(h.scores) for h in self.store.hands(room_id)],
            "seats": [
                {k: v for k, v in seat.items() if k != "bot_level"} for seat in record.seats
            ],
            "options": record.options,
            "live": False,
        }

    def _room_row(self, room_id: str) -> dict[str, Any]:
        record = self.store.get_room(room_id)
        assert record is not None
        return {
            "room": record.room_id,
            "variant": record.variant,
            "phase": record.phase,
            "totals": record.totals,
            "live": room_id in self.rooms.rooms,
            "seats": [f"{s.get('kind')}:{s.get('name')}" for s in record.seats],
        }


def _refusal(code: str, message: str) -> p.AdminResult:
    return p.AdminResult(type="admin_result", ok=False, code=code, message=message)
