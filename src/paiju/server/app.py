"""The WebSocket server: players on ``/``, operators on ``/admin`` (bearer token), and the
browser client's page over plain HTTP on the same port.

Each connection gets a ``Session`` and a writer task; every inbound frame is parsed into a
protocol model (``wire.parse_frame``), then carried out by ``Players`` inside the room's own
task. A refusal is an ``error`` message with a stable code; the room is unchanged and the
connection stays open, except for floods and oversized frames, which close that one connection
with a reason.
"""

from __future__ import annotations

import asyncio
import hmac
import os
import secrets
import signal
from http import HTTPStatus
from pathlib import Path

import structlog
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from paiju import __version__
from paiju.core.errors import GameError
from paiju.engines.registry import variants
from paiju.persistence.store import Store
from paiju.server import protocol as p
from paiju.server.admin import Admin
from paiju.server.config import ServerConfig
from paiju.server.errors import HelloRequired, RateLimited, UnsupportedVersion
from paiju.server.http import is_upgrade, serve_file, web_root
from paiju.server.players import Players, session_log
from paiju.server.rooms import RoomManager
from paiju.server.sessions import Session, TokenBucket
from paiju.server.wire import error, internal_error, parse_frame

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


class PaijuServer:
    """The running server: rooms, sessions, the admin channel."""

    def __init__(self, config: ServerConfig, store: Store, admin_token: str) -> None:
        self.config = config
        self.store = store
        self.admin_token = admin_token
        self.rooms = RoomManager(config, store)
        self.players = Players(config, self.rooms, store)
        self.admin = Admin(self.rooms, store)
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
        log.info(
            "server_started",
            host=self.config.host,
            port=self.port,
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
            await self.admin.serve(connection)
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
            await self.players.disconnected(session)
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
                session.send(error(RateLimited("too many messages; slow down")))
                if session.strikes >= self.config.flood_strikes:
                    session.close_reason = "message flood"
                    return
                continue
            try:
                await self._dispatch(session, parse_frame(frame))
            except GameError as exc:
                session_log(session).info("refused", code=exc.code, reason=exc.message)
                session.send(error(exc))
            except Exception:
                log.exception("dispatch_failed", session=session.session_id)
                session.send(internal_error())

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
                p.Welcome(
                    type="welcome",
                    protocol_version=p.PROTOCOL_VERSION,
                    server=f"paiju {__version__}",
                    variants=list(variants()),
                    player_rooms=self.config.player_rooms,
                )
            )
            return
        if not session.greeted:
            raise HelloRequired("send hello with protocol_version first")
        await self.players.dispatch(session, message)


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
