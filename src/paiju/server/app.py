"""The WebSocket server: players on ``/``, operators on ``/admin`` (bearer token), and the
browser client's page over plain HTTP on the same port, optionally over TLS.

Every connection passes the admission checks first (``_authorize``: connections per address,
the server's capacity, the Origin of browser pages, the admin token and its back-off); a player
connection then gets a ``Session`` run by ``Links`` (reader, writer, budgets, hello deadline).
A refusal is an ``error`` message with a stable code; the room is unchanged and the connection
stays open, except for the closes listed in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import secrets
import socket
import ssl
import sys
from asyncio import BaseTransport
from collections import deque
from collections.abc import Awaitable, Callable, Collection
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, cast

import structlog
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response
from websockets.protocol import OPEN

from paiju import __version__
from paiju.engines.registry import variants
from paiju.persistence.histories import Histories
from paiju.persistence.signing import HistoryKey
from paiju.persistence.store import Store
from paiju.server import protocol as p
from paiju.server.admin import Admin
from paiju.server.admission import AddressCounts, AdminGate, Origins, Proxies
from paiju.server.compression import deflate
from paiju.server.config import ServerConfig
from paiju.server.errors import HelloRequired, UnsupportedVersion
from paiju.server.histories import history_response
from paiju.server.http import is_upgrade, serve_file, text_response, web_root
from paiju.server.intake import SlicedIntake
from paiju.server.keepalive import Keepalive, heard_from
from paiju.server.link import Links, close_or_abort
from paiju.server.logs import LOG_CONTEXT
from paiju.server.metrics import Metrics
from paiju.server.operations import Operations, bind_error
from paiju.server.players import Players
from paiju.server.rooms import RoomManager
from paiju.server.sessions import CLOSE_GOING_AWAY, Session
from paiju.server.throttle import LogLimiter

if TYPE_CHECKING:
    from paiju.server.cluster import Cluster

log = structlog.get_logger("paiju.server")

#: Bytes websockets buffers for a connection before ``send`` waits (its ``write_limit``).
WRITE_LIMIT = 32768
#: Frames websockets reads ahead of the reader before it stops reading the socket.
READ_AHEAD = 4
#: Beyond this many times ``max_connections_per_address``, sockets are dropped at accept.
HARD_CAP = 2
#: Seconds between keepalive pings, and that a pong may take (``paiju.server.keepalive``).
PING_INTERVAL = 20.0
PING_TIMEOUT = 20.0


class GuardedConnection(SlicedIntake):
    """A websockets connection that reports its arrival and departure to the server, so that
    connections are counted per address from the moment the socket is accepted, and takes in
    what its client sends a slice at a time (``paiju.server.intake``)."""

    # Slots: attributes added to the library's connection after its ``__init__`` would turn
    # its instance dict from one sharing its keys into one of its own, 1.5 KiB more per
    # connection.
    __slots__ = (
        "accepted_at", "address", "awaiting_pong", "counted", "log_id", "peer", "pinged_at",
    )

    server_side: PaijuServer
    accepted_at: float
    peer: str
    address: str
    counted: str
    log_id: str  # the session's id, for the library's own log lines
    pinged_at: float  # the keepalive's (``paiju.server.keepalive``)
    awaiting_pong: Awaitable[object] | None

    def connection_made(self, transport: BaseTransport) -> None:
        self.accepted_at = 0.0
        self.peer = self.address = self.counted = self.log_id = ""
        self.pinged_at, self.awaiting_pong = 0.0, None
        if isinstance(self.drain_waiters, deque) and not self.drain_waiters:
            # The library only appends, removes and walks its writes' waiters (there is one
            # at most, while a send waits): a list does that in 56 bytes, where an empty
            # deque holds a 600-byte block for the connection's whole life.
            self.drain_waiters = []  # type: ignore[assignment]
        super().connection_made(transport)
        self.server_side.arrived(self, transport)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.server_side.departed(self)

    def data_received(self, data: bytes) -> None:
        heard_from(self, self.loop.time())
        super().data_received(data)

    def start_keepalive(self) -> None:
        """The server's one keepalive task pings this connection from now on, rather than a
        task of its own (``paiju.server.keepalive``)."""
        self.pinged_at, self.awaiting_pong = self.loop.time(), None


class PaijuServer:
    """The running server: rooms, sessions, the admin channel."""

    def __init__(
        self,
        config: ServerConfig,
        store: Store,
        admin_token: str,
        history_key: HistoryKey | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.admin_token = admin_token
        # Signs every finished hand's history (a fresh key when none is given: --memory).
        self.histories = Histories(store, history_key or HistoryKey.ephemeral())
        self.metrics = Metrics()
        self.rooms = RoomManager(config, store, self.metrics)
        self.players = Players(config, self.rooms, store)
        self.sessions: set[Session] = set()
        self.ops = Operations(
            config, store, self.rooms, lambda: list(self.sessions),
            lambda: self.admin.channels, self.stop,
        )
        self.admin = Admin(self.rooms, store, lambda: list(self.sessions),
                           self.ops.begin_drain, self.metrics)
        self.limiter = LogLimiter(config.log_lines_per_second)
        self.links = Links(config, self._dispatch, self.limiter, self.metrics)
        self.proxies = Proxies(config.trusted_proxies)
        self.origins = Origins(config.allowed_origins)
        self.counts = AddressCounts()
        self.admin_gate = AdminGate(config.admin_backoff, config.admin_backoff_max)
        self._server: Server | None = None
        self.verified: asyncio.Task[None] | None = None  # the restored rooms' chain check
        self.cluster = _cluster_of(config, store, self.rooms, self._drained)
        self._connect = _page_sources(config) if self.cluster is not None else []
        self._web_root = web_root(config.web_root)
        self._tls = tls_context(config)
        self.keepalive = Keepalive(self._connections, close_or_abort, is_open=_is_open)

    def _connections(self) -> Collection[GuardedConnection]:
        """Every connection the server holds, open or not (the keepalive asks ``_is_open``
        of those it has something to do with); all are ``GuardedConnection``, the class the
        server makes them with."""
        if self._server is None:
            return ()
        return cast(set[GuardedConnection], self._server.all_connections)

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> Server:
        """Restore open rooms and listen; returns the websockets server."""
        # A cluster node starts empty: it claims the rooms nobody holds (docs/cluster.md).
        restored = self.rooms.restore_all() if self.cluster is None else 0
        try:
            self._server = await self._listen()
            await self.ops.start()
            if self.cluster is not None:
                self.cluster.url = self.config.public_url or self.url.replace("http", "ws", 1)
                await self.cluster.start()
        except (OSError, ValueError) as exc:
            await self.rooms.shutdown()
            if self._server is not None:
                self._server.close()
                await self._server.wait_closed()
                self._server = None
            if isinstance(exc, OSError):
                raise bind_error(exc, self.config.host, self.config.port, "the") from None
            raise
        self.verified = asyncio.get_running_loop().create_task(self.rooms.verify_restored())
        self.keepalive.start()
        log.info(
            "server_started",
            host=self.config.host,
            port=self.port,
            rooms_restored=restored,
            url=self.url,
            tls=self._tls is not None,
            metrics_port=self.metrics_port or None,
            event_loop=type(asyncio.get_running_loop()).__module__.partition(".")[0],
        )
        return self._server

    async def _listen(self) -> Server:
        connection_class = type("Guarded", (GuardedConnection,), {"server_side": self})
        return await serve(
            self._connection,
            self.config.host,
            self.config.port,
            process_request=self._authorize,
            create_connection=connection_class,
            max_size=self.config.max_frame_bytes,
            compression=None,
            extensions=deflate(self.config.compression),
            max_queue=READ_AHEAD,
            write_limit=WRITE_LIMIT,
            open_timeout=self.config.hello_timeout or 10.0,
            close_timeout=self.config.send_timeout or 10.0,
            ping_interval=PING_INTERVAL,
            ping_timeout=PING_TIMEOUT,
            ssl=self._tls,
        )

    @property
    def metrics_port(self) -> int:
        """The port of the metrics listener (0: none; then ``/metrics`` is on the main port,
        behind the admin token)."""
        return self.ops.listener_port

    @property
    def stopped(self) -> asyncio.Event:
        """Set once the server has stopped (after a drain, or ``stop``)."""
        return self.ops.stopped

    @property
    def draining(self) -> bool:
        """Whether the server drains for a restart."""
        return self.ops.draining

    def signalled(self) -> None:
        """SIGTERM or SIGINT: drain, then stop; a second one stops at once."""
        self.ops.signalled()

    async def drain(self) -> dict[str, Any]:
        """Start draining: no new rooms, seats or matches; the hands in play finish (at most
        ``drain_timeout`` seconds), then the server stops and ``stopped`` is set."""
        return await self.ops.begin_drain()

    def held(self) -> int:
        """Rooms in memory and player connections: what the server's live memory grows with
        (the collector's measure of garbage, ``paiju.server.collector``)."""
        return len(self.rooms.rooms) + len(self.sessions)

    @property
    def url(self) -> str:
        """The address to open in a browser."""
        host = self.config.host
        shown = "127.0.0.1" if host in ("", "0.0.0.0") else host
        shown = f"[{shown}]" if ":" in shown and not shown.startswith("[") else shown
        scheme = "https" if self._tls is not None else "http"
        return f"{scheme}://{shown}:{self.port}/"

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
        if self.verified is not None:
            self.verified.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.verified
        # All at once, each bounded: a client that does not read must not hold up the others'
        # goodbye, nor the stop itself.
        await asyncio.gather(
            *(
                close_or_abort(c, CLOSE_GOING_AWAY, reason, self.config.send_timeout)
                for c in list(self._server.connections)
            ),
            return_exceptions=True,
        )
        await self._server.wait_closed()
        await self.keepalive.stop()
        await self.links.shutdown()
        await self.rooms.shutdown()
        if self.cluster is not None:
            await self.cluster.stop()
        await self.ops.close()
        self.store.close()
        self._server = None
        log.info("server_stopped", reason=reason)
        self.ops.stopped.set()

    def _drained(self) -> None:
        """A cluster drain moved every room away: stop (in a task of its own, as the
        cluster's loop that calls this is stopped by it)."""
        asyncio.get_running_loop().create_task(self.stop("node drained"))

    # ------------------------------------------------------------------ admission

    def arrived(self, connection: GuardedConnection, transport: BaseTransport) -> None:
        """A socket was accepted: count it under its address (a trusted proxy's connections
        are counted under the client's address once the request names it)."""
        peer = transport.get_extra_info("peername")
        connection.peer = connection.address = str(peer[0]) if peer else ""
        connection.accepted_at = asyncio.get_running_loop().time()
        sock = transport.get_extra_info("socket")
        if self.config.socket_send_buffer and sock is not None:
            # A small kernel buffer: a client that stops reading is noticed (and its
            # memory bounded) after kilobytes, not megabytes.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.config.socket_send_buffer)
        if self.proxies.trusts(connection.peer):
            return
        count = self._count(connection, connection.peer)
        limit = self.config.max_connections_per_address
        if limit and count > HARD_CAP * limit:
            self.links.note("connection_dropped", address=connection.peer, count=count)
            # (uvloop's transports are not asyncio.Transport subclasses, but abort the same)
            abort = getattr(transport, "abort", None)
            if callable(abort):
                abort()

    def departed(self, connection: GuardedConnection) -> None:
        """A socket closed: stop counting it."""
        if connection.counted:
            self.counts.remove(connection.counted)
            connection.counted = ""

    def _count(self, connection: GuardedConnection, address: str) -> int:
        connection.counted = address
        return self.counts.add(address)

    def _authorize(self, connection: ServerConnection, request: Request) -> Response | None:
        assert isinstance(connection, GuardedConnection)
        refusal = self._admit(connection, request)
        if refusal is not None:
            status, text = refusal
            self.links.note(
                "handshake_refused", address=connection.address, status=status.value,
                path=request.path[:80],
            )
            response = text_response(status, text)
            if status == HTTPStatus.TOO_MANY_REQUESTS and "admin" in text:
                wait = self.admin_gate.retry_after(connection.address, _now())
                response.headers["Retry-After"] = str(max(1, math.ceil(wait)))
            return response
        if not is_upgrade(request):
            # Plain HTTP on the same port: signed hand histories, the probes, the browser
            # client's page and files.
            self.metrics.connections("http").inc()
            found = history_response(self.histories, request.path)
            if found is not None:
                return found
            header = request.headers.get("Authorization", "")
            probe = self.ops.probe(
                request.path, lambda: self._refused(connection.address, header)
            )
            return probe or serve_file(self._web_root, request.path, self._connect)
        return None

    def _refused(self, address: str, header: str) -> Response | None:
        """The admin token check for ``/metrics`` on the main port, as a response."""
        refusal = self._admin_login(address, header)
        return text_response(*refusal) if refusal is not None else None

    def _admit(
        self, connection: GuardedConnection, request: Request
    ) -> tuple[HTTPStatus, str] | None:
        """Why the request is refused (status and sentence), or ``None`` to let it in."""
        headers = request.headers
        if not connection.counted:  # from a trusted proxy: count the client it names
            connection.address = self.proxies.client(connection.peer, headers)
            self._count(connection, connection.address)
        limit = self.config.max_connections_per_address
        if limit and self.counts.of(connection.address) > limit:
            return HTTPStatus.TOO_MANY_REQUESTS, "too many connections from your address\n"
        if self.counts.total > self.config.max_connections:
            return HTTPStatus.SERVICE_UNAVAILABLE, "server full\n"
        if not is_upgrade(request):
            return None
        scheme = self.proxies.scheme(connection.peer, headers, self._tls is not None)
        if not self.origins.allows(headers, scheme):
            return HTTPStatus.FORBIDDEN, "cross-origin connection refused\n"
        path = request.path.split("?")[0]
        if path == "/admin":
            return self._admin_login(connection.address, headers.get("Authorization", ""))
        if path not in ("/", "/play"):
            return HTTPStatus.NOT_FOUND, "no such endpoint\n"
        return None

    def _admin_login(self, address: str, header: str) -> tuple[HTTPStatus, str] | None:
        now = _now()
        if self.admin_gate.retry_after(address, now):
            return HTTPStatus.TOO_MANY_REQUESTS, "admin locked out after failed tokens\n"
        expected = f"Bearer {self.admin_token}"
        if not self.admin_token or not secrets.compare_digest(header.encode(), expected.encode()):
            self.admin_gate.failed(address, now)
            return HTTPStatus.UNAUTHORIZED, "admin token required\n"
        self.admin_gate.succeeded(address)
        return None

    # ------------------------------------------------------------------ connections

    async def _connection(self, connection: ServerConnection) -> None:
        assert isinstance(connection, GuardedConnection)
        if connection.request is not None and connection.request.path.startswith("/admin"):
            self.metrics.connections("admin").inc()
            await self.admin.serve(connection)
            return
        forget_handshake(connection)
        self.metrics.connections("player").inc()
        session = self.links.session(connection, connection.address)
        connection.log_id = session.session_id
        LOG_CONTEXT.set(session.log_fields)
        self.sessions.add(session)
        self.links.note("connected", connection=session.session_id, address=connection.address)
        try:
            await self.links.run(connection, session, connection.accepted_at)
        finally:
            self.sessions.discard(session)
            await self.players.disconnected(session)
            self.links.note(
                "disconnected", connection=session.session_id, code=connection.close_code,
                reason=session.close_reason or None,
            )

    def _dispatch(self, session: Session, message: p.ClientMessage) -> Awaitable[None]:
        """What to await for ``message`` (a function, not a coroutine: a seated player's
        message awaits its room's future with no coroutine made for it on the way)."""
        if isinstance(message, p.Hello):
            return self._hello(session, message)
        if not session.greeted:
            raise HelloRequired("send hello with protocol_version first")
        return self.players.dispatch(session, message)

    async def _hello(self, session: Session, message: p.Hello) -> None:
        """Answer ``hello``: the session is greeted, or refused an unknown version."""
        if message.protocol_version != p.PROTOCOL_VERSION:
            raise UnsupportedVersion(
                f"protocol version {message.protocol_version} is not supported; "
                f"this server speaks {p.PROTOCOL_VERSION}",
                details={"supported": [p.PROTOCOL_VERSION]},
            )
        session.greeted = True
        session.program = message.bot
        session.send(
            p.Welcome(
                type="welcome",
                protocol_version=p.PROTOCOL_VERSION,
                server=f"paiju {__version__}",
                variants=list(variants()),
                player_rooms=self.config.player_rooms,
                history_key=self.histories.key.public_hex,
            )
        )


def forget_handshake(connection: ServerConnection) -> None:
    """Let go of the opening request's and response's headers, read only during the handshake:
    a player connection holds them for hours, some 4 KiB of its memory. The request's are
    emptied in place: the library's parser keeps the request itself to the end."""
    if connection.request is not None:
        connection.request.headers.clear()
    connection.response = None


def _is_open(connection: GuardedConnection) -> bool:
    """Whether the connection's opening handshake is done and its closing one not begun."""
    return connection.protocol.state is OPEN


def _now() -> float:
    return asyncio.get_running_loop().time()


def tls_context(config: ServerConfig) -> ssl.SSLContext | None:
    """The TLS context for ``wss://`` and ``https://`` (TLS 1.2 or later), or ``None`` when no
    certificate is set. Raises ``ValueError`` naming the files if they cannot be loaded."""
    if not config.tls_cert_file:
        return None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(config.tls_cert_file, config.tls_key_file)
    except (OSError, ssl.SSLError) as exc:
        raise ValueError(
            f"cannot load the TLS certificate {config.tls_cert_file} and key "
            f"{config.tls_key_file}: {exc}"
        ) from None
    return context


def _cluster_of(
    config: ServerConfig, store: Store, rooms: RoomManager, on_drained: Callable[[], None]
) -> Cluster | None:
    """This node's cluster, if its store is Redis. A Redis store's module is loaded whenever
    one exists, so a node without one never imports the Redis client (some 70 ms of start)."""
    if "paiju.persistence.redisstore" not in sys.modules:
        return None
    from paiju.server.cluster import cluster_of

    return cluster_of(config, store, rooms, on_drained)


def _page_sources(config: ServerConfig) -> list[str]:
    from paiju.server.cluster import page_sources

    return page_sources(config)
