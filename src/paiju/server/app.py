"""The WebSocket server: players on ``/``, operators on ``/admin`` (bearer token).

Each connection gets a ``Session`` and a writer task; every inbound frame is parsed into a
protocol model, then carried out inside the room's own task. A refusal is an ``error``
message with a stable code; the room is unchanged and the connection stays open, except for
floods and oversized frames, which close that one connection with a reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import os
import secrets
import signal
from http import HTTPStatus
from pathlib import Path
from typing import Any

import structlog
from pydantic import ValidationError
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from paiju import __version__
from paiju.core.errors import GameError
from paiju.engines.base import variants
from paiju.persistence.store import Store
from paiju.server import protocol as p
from paiju.server.config import ServerConfig
from paiju.server.errors import (
    AlreadyJoined,
    BadToken,
    HelloRequired,
    InvalidMessage,
    MalformedFrame,
    RateLimited,
    RoomClosed,
    RoomsDisabled,
    UnsupportedVersion,
)
from paiju.server.http import is_upgrade, serve_file, web_root
from paiju.server.lobby import check_name, lobby_message
from paiju.server.rooms import Room, RoomManager
from paiju.server.sessions import Session, TokenBucket, new_token, token_hash
from paiju.table import commands as c
from paiju.table.effects import Effect
from paiju.table.errors import NotSeated, WrongPhase
from paiju.table.table import CLOSED, FINISHED, Table

log = structlog.get_logger("paiju.server")

CLOSE_GOING_AWAY = 1001
CLOSE_POLICY = 1008


def configure_logging() -> None:
    """JSON log lines on stderr, one per event, with ISO timestamps."""
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        logger_factory=structlog.PrintLoggerFactory(file=__import__("sys").stderr),
    )


def parse_frame(frame: str | bytes) -> p.ClientMessage:
    """A client frame as a protocol model; ``MalformedFrame`` or ``InvalidMessage`` if not."""
    try:
        data = json.loads(frame)
    except (ValueError, UnicodeDecodeError) as exc:
        raise MalformedFrame(f"the frame is not valid JSON: {exc}") from exc
    except RecursionError as exc:  # "[[[[...]]]]" fits in a frame and exhausts the stack
        raise MalformedFrame("the frame is nested too deeply") from exc
    if not isinstance(data, dict):
        raise MalformedFrame("the frame must be a JSON object")
    try:
        return p.CLIENT_ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "message"
        raise InvalidMessage(
            f"{where}: {first['msg']}", details={"errors": len(exc.errors())}
        ) from exc


def error_message(exc: GameError) -> dict[str, Any]:
    """The wire form of a refusal."""
    return {"type": "error", "code": exc.code, "message": exc.message, "details": exc.details}


class PaijuServer:
    """The running server: rooms, sessions, the admin channel."""

    def __init__(self, config: ServerConfig, store: Store, admin_token: str) -> None:
        self.config = config
        self.store = store
        self.admin_token = admin_token
        self.rooms = RoomManager(config, store)
        self.sessions: set[Session] = set()
        self._server: Server | None = None
        self._web_root = web_root(config.web_root)

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> Server:
        """Restore open rooms and listen; returns the websockets server."""
        restored = self.rooms.restore_all()
        self._server = await serve(
            self._connection,
            self.config.host,
            self.config.port,
            process_request=self._authorize,
            max_size=self.config.max_frame_bytes,
            ping_interval=20,
            ping_timeout=20,
        )
        port = self._server.sockets[0].getsockname()[1] if self._server.sockets else None
        log.info(
            "server_started",
            host=self.config.host,
            port=port,
            rooms_restored=restored,
            url=self.url,
        )
        return self._server

    @property
    def url(self) -> str:
        """The address to open in a browser."""
        host = self.config.host
        shown = "127.0.0.1" if host in ("", "0.0.0.0") else host
        shown = f"[{shown}]" if ":" in shown and not shown.startswith("[") else shown
        return f"http://{shown}:{self.port}/"

    @property
    def port(self) -> int:
        """The port actually bound (useful with port 0)."""
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    async def stop(self, reason: str = "server shutting down") -> None:
        """Graceful stop: no new connections, rooms finish their queued work, sockets close."""
        if self._server is None:
            return
        self._server.close(close_connections=False)
        # All at once: each close waits for the client's answer (up to the close timeout), so
        # one client that does not read must not hold up everyone else's goodbye.
        await asyncio.gather(
            *(c.close(CLOSE_GOING_AWAY, reason) for c in list(self._server.connections)),
            return_exceptions=True,
        )
        await self._server.wait_closed()
        await self.rooms.shutdown()
        self.store.close()
        self._server = None
        log.info("server_stopped", reason=reason)

    def _authorize(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?")[0]
        if not is_upgrade(request):
            # Plain HTTP on the same port: the browser client's page and files.
            return serve_file(self._web_root, request.path)
        if path == "/admin":
            header = request.headers.get("Authorization", "")
            expected = f"Bearer {self.admin_token}"
            if not self.admin_token or not hmac.compare_digest(header.encode(), expected.encode()):
                return connection.respond(HTTPStatus.UNAUTHORIZED, "admin token required\n")
            return None
        if path not in ("/", "/play"):
            return connection.respond(HTTPStatus.NOT_FOUND, "no such endpoint\n")
        if len(self.sessions) >= self.config.max_connections:
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "server full\n")
        return None

    async def _connection(self, connection: ServerConnection) -> None:
        if connection.request is not None and connection.request.path.startswith("/admin"):
            await self._admin(connection)
            return
        session = Session(
            secrets.token_hex(6),
            self.config.outbound_queue,
            TokenBucket(self.config.rate_per_second, float(self.config.rate_burst)),
        )
        self.sessions.add(session)
        writer = asyncio.create_task(self._writer(connection, session))
        slog = log.bind(session=session.session_id)
        slog.info("connected", peer=str(connection.remote_address))
        try:
            await self._reader(connection, session)
        except ConnectionClosed:
            pass
        finally:
            self.sessions.discard(session)
            await self._disconnected(session)
            session.finish()
            await writer
            slog.info("disconnected", code=connection.close_code)

    async def _writer(self, connection: ServerConnection, session: Session) -> None:
        while True:
            frame = await session.outbox.get()
            if frame is None:
                break
            try:
                await connection.send(frame)
            except ConnectionClosed:
                return
        if session.overflowed:
            await connection.close(CLOSE_POLICY, "too slow: outbound queue overflowed")
        elif session.close_reason:
            # Close only after what was queued (e.g. the rate_limited errors) has gone out.
            await connection.close(CLOSE_POLICY, session.close_reason)

    async def _reader(self, connection: ServerConnection, session: Session) -> None:
        loop = asyncio.get_running_loop()
        async for frame in connection:
            if not session.bucket.allow(loop.time()):
                session.strikes += 1
                session.send(error_message(RateLimited("too many messages; slow down")))
                if session.strikes >= self.config.flood_strikes:
                    session.close_reason = "message flood"
                    return
                continue
            try:
                await self._dispatch(session, parse_frame(frame))
            except GameError as exc:
                self._log_for(session).info("refused", code=exc.code, reason=exc.message)
                session.send(error_message(exc))
            except Exception:
                log.exception("dispatch_failed", session=session.session_id)
                session.send(
                    {
                        "type": "error",
                        "code": "internal_error",
                        "message": (
                            "the server failed to carry out the message; "
                            "resume to reload the state if in doubt"
                        ),
                        "details": {},
                    }
                )

    # ------------------------------------------------------------------ messages

    async def _dispatch(self, session: Session, message: p.ClientMessage) -> None:
        if isinstance(message, p.Hello):
            if message.protocol_version != p.PROTOCOL_VERSION:
                raise UnsupportedVersion(
                    f"protocol version {message.protocol_version} is not supported; "
                    f"this server speaks {p.PROTOCOL_VERSION}",
                    details={"supported": [p.PROTOCOL_VERSION]},
                )
            session.greeted = True
            session.send(
                {
                    "type": "welcome",
                    "protocol_version": p.PROTOCOL_VERSION,
                    "server": f"paiju {__version__}",
                    "variants": list(variants()),
                    "player_rooms": self.config.player_rooms,
                }
            )
            return
        if not session.greeted:
            raise HelloRequired("send hello with protocol_version first")
        if isinstance(message, p.Ping):
            session.send({"type": "pong", "nonce": message.nonce})
        elif isinstance(message, p.LobbyRequest):
            session.send(lobby_message(self.rooms, self.config.player_rooms))
        elif isinstance(message, p.CreateRoom):
            await self._create_room(session, message)
        elif isinstance(message, p.Rematch):
            await self._rematch(session)
        elif isinstance(message, p.JoinRoom):
            await self._join(session, message)
        elif isinstance(message, p.Resume):
            await self._resume(session, message)
        elif isinstance(message, p.LeaveRoom):
            await self._leave(session)
        else:
            await self._seated(session, message)

    async def _join(self, session: Session, message: p.JoinRoom) -> None:
        if session.room is not None:
            raise AlreadyJoined(f"this connection is already in room {session.room.room_id}")
        room = self.rooms.get(message.room)
        if message.spectate:
            await room.call(lambda table, now: self._watch(room, session, table, now))
            return
        await self._take_seat(session, room, message.seat, check_name(message.name))

    async def _take_seat(self, session: Session, room: Room, seat: int | None, name: str) -> None:
        """Seat ``session`` in ``room`` (``seat``, or the first free one) with a new token."""
        token = new_token()

        def job(table: Table, now: float) -> tuple[int, list[Effect]]:
            effects = table.handle(None, c.Join(name, seat), now)
            taken = table.last_joined
            assert taken is not None
            try:
                self.store.save_token(token_hash(token), room.room_id, taken)
            except Exception:
                # Without its token nobody could ever resume the seat: free it again. Both
                # changes' effects are dropped, so clients and store never saw the seat taken.
                table.handle(taken, c.Leave(), now)
                raise
            self._attach(room, session, taken, token)
            return taken, effects

        await room.call(job)

    async def _create_room(self, session: Session, message: p.CreateRoom) -> None:
        """A player opens a room from a preset and takes seat 0."""
        if not self.config.player_rooms:
            raise RoomsDisabled("the operator does not let players open rooms on this server")
        if session.room is not None:
            raise AlreadyJoined(f"this connection is already in room {session.room.room_id}")
        name = check_name(message.name)
        room = self.rooms.create(
            preset=message.preset,
            options=dict(message.options),
            bots=message.bots,
            bot_level=message.bot_level,
            private=message.private,
            by_player=True,
        )
        self._log_for(session).info("room_created_by_player", room=room.room_id)
        await self._take_seat(session, room, 0, name)

    async def _rematch(self, session: Session) -> None:
        """Move a seated player of a finished match to its rematch, in the same seat."""
        old, seat = session.room, session.seat
        if old is None or seat is None:
            raise NotSeated("a rematch is for a seated player of a finished match")

        def job(table: Table, now: float) -> tuple[tuple[Room, str], list[Effect]]:
            if table.phase != FINISHED:
                raise WrongPhase(f"the match is not over (the room is {table.phase})")
            if table.rematch is not None:
                return (self.rooms.get(table.rematch), table.seats[seat].name), []
            new = self.rooms.create(
                table.engine.name,
                preset=table.preset,
                options=dict(table.options),
                private=table.private,
                bot_seats={s: slot.bot_level for s, slot in enumerate(table.seats)
                           if slot.kind == "bot"},
                by_player=False,
            )
            return (new, table.seats[seat].name), table.handle(
                None, c.OfferRematch(new.room_id), now
            )

        def leave_old(table: Table, now: float) -> tuple[None, list[Effect]]:
            old.detach(session)
            return None, []

        new_room, name = await old.call(job)
        await old.call(leave_old)
        session.room, session.seat = None, None
        await self._take_seat(session, new_room, seat, name)

    def _watch(
        self, room: Room, session: Session, table: Table, now: float
    ) -> tuple[None, list[Effect]]:
        room.spectators.add(session)
        session.room, session.seat = room, None
        session.send({"type": "joined", "room": room.room_id, "seat": None, "token": None})
        session.send(table.snapshot(None, now))
        return None, []

    def _log_for(self, session: Session) -> Any:
        """A logger bound to the session and, once it has one, its room and seat."""
        room = session.room.room_id if session.room is not None else None
        return log.bind(session=session.session_id, room=room, seat=session.seat)

    def _attach(self, room: Room, session: Session, seat: int, token: str | None) -> None:
        room.members.setdefault(seat, set()).add(session)
        session.room, session.seat = room, seat
        self._log_for(session).info("seated")
        session.send({"type": "joined", "room": room.room_id, "seat": seat, "token": token})

    async def _resume(self, session: Session, message: p.Resume) -> None:
        if session.room is not None:
            raise AlreadyJoined(f"this connection is already in room {session.room.room_id}")
        held = self.store.find_token(token_hash(message.token))
        if held is None or held[0] != message.room:
            raise BadToken("that token holds no seat in this room")
        room = self.rooms.get(message.room)
        seat = held[1]

        def job(table: Table, now: float) -> tuple[None, list[Effect]]:
            if table.seats[seat].kind != "human":
                raise BadToken("that seat is no longer yours")
            self._attach(room, session, seat, message.token)
            effects = table.handle(seat, c.Connected(True), now)
            session.send(table.snapshot(seat, now))  # the full view, whatever others were sent
            return None, effects

        await room.call(job)

    async def _leave(self, session: Session) -> None:
        room, seat = session.room, session.seat
        if room is None:
            raise NotSeated("this connection is in no room")

        def job(table: Table, now: float) -> tuple[bool, list[Effect]]:
            playing = seat is not None and table.phase != CLOSED
            effects = table.handle(seat, c.Leave(), now) if playing else []
            room.detach(session)
            if seat is not None:
                # Inside the job, so a player who takes the freed seat next cannot lose the
                # token it is given to this revocation.
                self.store.revoke_tokens(room.room_id, seat)
            nobody = all(slot.kind != "human" for slot in table.seats)
            return nobody and table.phase != CLOSED, effects

        abandoned = False
        try:
            abandoned = await room.call(job)
        except RoomClosed:
            room.detach(session)  # the room's task has ended; its tokens are revoked already
        session.room, session.seat = None, None
        session.send({"type": "left", "room": room.room_id})
        if abandoned and room.made_by_player:
            # A room a player opened ends when its last player leaves: bots alone would
            # otherwise play on (or wait) for nobody.
            with contextlib.suppress(GameError):
                await self.rooms.close(room.room_id, "every player left")

    async def _seated(self, session: Session, message: p.ClientMessage) -> None:
        room, seat = session.room, session.seat
        if room is None or seat is None:
            raise NotSeated("join or resume a seat first")
        command: c.Command
        if isinstance(message, p.Act):
            command = c.Act(message.version, message.action)
        elif isinstance(message, p.SetReady):
            command = c.Ready(message.ready)
        elif isinstance(message, p.AddBot):
            command = c.AddBot(message.seat, message.level)
        elif isinstance(message, p.RemoveBot):
            command = c.RemoveBot(message.seat)
        else:
            raise InvalidMessage(f"unexpected message type {message.type!r}")
        await room.call(lambda table, now: (None, table.handle(seat, command, now)))

    async def _disconnected(self, session: Session) -> None:
        room, seat = session.room, session.seat
        if room is None or room.room_id not in self.rooms.rooms:
            return

        def job(table: Table, now: float) -> tuple[None, list[Effect]]:
            room.detach(session)
            if seat is None or room.members.get(seat) or table.seats[seat].kind != "human":
                return None, []
            return None, table.handle(seat, c.Connected(False), now)

        with contextlib.suppress(GameError):
            await room.call(job)

    # ------------------------------------------------------------------ admin channel

    async def _admin(self, connection: ServerConnection) -> None:
        async for frame in connection:
            try:
                try:
                    data = json.loads(frame)
                except RecursionError as exc:
                    raise ValueError("the request is nested too deeply") from exc
                request = p.AdminRequest.model_validate(data)
                result = await self._admin_command(request)
                reply: dict[str, Any] = {"type": "admin_result", "ok": True, "result": result}
            except GameError as exc:
                reply = {
                    "type": "admin_result",
                    "ok": False,
                    "code": exc.code,
                    "message": exc.message,
                }
            except (ValueError, ValidationError) as exc:
                reply = {
                    "type": "admin_result",
                    "ok": False,
                    "code": "invalid_message",
                    "message": str(exc).splitlines()[0],
                }
            except Exception:
                # The operator gets an answer and keeps the channel, as a player would.
                log.exception("admin_command_failed")
                reply = {
                    "type": "admin_result",
                    "ok": False,
                    "code": "internal_error",
                    "message": "the server failed to carry out the command",
                }
            await connection.send(json.dumps(reply))

    async def _admin_command(self, request: p.AdminRequest) -> Any:
        log.info("admin_command", command=request.command, room=request.room)
        if request.command == "list":
            return [self._room_row(r.room_id) for r in self.store.list_rooms()]
        if request.command == "create":
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
        if request.room is None:
            raise InvalidMessage(f"{request.command} needs a room")
        if request.command == "close":
            return await self.rooms.close(request.room, "closed by the operator")
        room = self.rooms.get(request.room)
        if request.command == "start":
            level = request.bot_level
            await room.call(lambda table, now: (None, table.handle(None, c.Start(level), now)))
        return await room.call(lambda table, now: (table.summary(), []))

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


def resolve_admin_token(config: ServerConfig) -> str:
    """The configured admin token, or a fresh one written to ``admin_token_file`` (0600)."""
    if config.admin_token:
        return config.admin_token
    path = Path(config.admin_token_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(24)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(token + "\n")
    return token


async def run_server(config: ServerConfig, store: Store) -> None:
    """Serve until SIGTERM or SIGINT, then shut down gracefully."""
    server = PaijuServer(config, store, resolve_admin_token(config))
    await server.start()
    where = "the configured admin_token" if config.admin_token else config.admin_token_file
    print(
        f"paiju: serving {server.url} (open it in a browser to play); "
        f"admin token in {where}",
        flush=True,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop()
