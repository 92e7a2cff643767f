"""Running the server as a service: health (``/healthz``, ``/readyz``), metrics (``/metrics``
on its own listener or behind the admin token) and the graceful drain.

A drain (``paiju drain``, SIGTERM or SIGINT) stops new rooms, seats and matches, tells every
client why, lets the hands in play finish (up to ``drain_timeout`` seconds), then stops the
server; every accepted action is already in the store, so a restart resumes any room left
mid-hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
from collections.abc import Awaitable, Callable, Iterable
from http import HTTPStatus
from typing import Any

import structlog
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response

from paiju.persistence.store import Store
from paiju.server import protocol as p
from paiju.server.config import ServerConfig
from paiju.server.http import response, text_response
from paiju.server.metrics import CONTENT_TYPE_LATEST, Live, LoopLag, exposition
from paiju.server.rooms import RoomManager
from paiju.server.sessions import Session

log = structlog.get_logger("paiju.server")

DRAIN_NOTICE = (
    "the server is restarting: hands in progress finish, no new ones start; "
    "resume your seat when it is back"
)
#: Seconds between two looks at the hands still in play during a drain.
DRAIN_POLL = 0.05
PROBES = ("/healthz", "/readyz", "/metrics")


def bind_error(exc: OSError, host: str, port: int, what: str) -> ValueError:
    """One sentence for a listener that cannot bind (a busy port above all)."""
    if exc.errno == errno.EADDRINUSE:
        return ValueError(
            f"{what} port {port} on {host or 'every address'} is already in use: stop what "
            "listens there, or pick another port (--port, PAIJU_PORT; see README)"
        )
    return ValueError(f"cannot listen on {host}:{port} for {what}: {exc.strerror or exc}")


class Operations:
    """Health, metrics and drain of one server."""

    def __init__(
        self,
        config: ServerConfig,
        store: Store,
        rooms: RoomManager,
        sessions: Callable[[], Iterable[Session]],
        admin_channels: Callable[[], int],
        stop: Callable[[str], Awaitable[None]],
    ) -> None:
        self.config = config
        self.store = store
        self.rooms = rooms
        self.sessions = sessions
        self.admin_channels = admin_channels
        self._stop = stop
        self.metrics = rooms.metrics
        self.metrics.watch(Live(self._connections, rooms.facts, lambda: self.draining))
        self.loop_lag = LoopLag(self.metrics)
        self.draining = False
        self.stopped = asyncio.Event()
        self._listener: Server | None = None
        self._drain_task: asyncio.Task[None] | None = None
        self._now = asyncio.Event()  # a second signal: stop without waiting for hands

    # ------------------------------------------------------------------ probes

    def probe(self, path: str, authorized: Callable[[], Response | None]) -> Response | None:
        """The answer to a plain GET of ``path`` on the main port if it is a probe (``None``
        otherwise). ``/metrics`` there needs the admin token: ``authorized`` answers the
        refusal, or ``None`` to let it through."""
        path = path.split("?", 1)[0]
        if path == "/metrics":
            return authorized() or self.metrics_response()
        if path == "/healthz":
            return text_response(HTTPStatus.OK, "ok\n")
        if path == "/readyz":
            return self.readiness()
        return None

    def readiness(self) -> Response:
        """200 when the store answers, the server does not drain and takes rooms; 503 with
        the reasons otherwise."""
        problems = self.problems()
        if not problems:
            return text_response(HTTPStatus.OK, "ready\n")
        return text_response(HTTPStatus.SERVICE_UNAVAILABLE, "".join(f"{p}\n" for p in problems))

    def problems(self) -> list[str]:
        """Why the server is not ready (empty: it is)."""
        problems = []
        cluster = self.rooms.cluster
        if cluster is not None:  # the heartbeats say: no Redis call here, to block nothing
            silent = cluster.store_problem()
            if silent is not None:
                problems.append(f"store unreachable: {silent}")
        else:
            try:
                self.store.get_room("readyz")
            except Exception as exc:
                problems.append(f"store unreachable: {exc}")
        if self.draining:
            problems.append("draining for a restart")
        if not self.rooms.accepting():
            problems.append(f"max_rooms ({self.config.max_rooms}) rooms are active")
        return problems

    def metrics_response(self) -> Response:
        """The metrics in Prometheus' text format."""
        return response(HTTPStatus.OK, exposition(self.metrics), CONTENT_TYPE_LATEST)

    def _connections(self) -> dict[str, int]:
        counts = {"seated": 0, "spectator": 0, "lobby": 0, "admin": self.admin_channels()}
        for session in self.sessions():
            kind = "lobby" if session.room is None else (
                "seated" if session.seat is not None else "spectator")
            counts[kind] += 1
        return counts

    # ------------------------------------------------------------------ the metrics listener

    async def start(self) -> None:
        """Sample the loop's lag; open the metrics listener if ``metrics_port`` is set."""
        self.loop_lag.start()
        if not self.config.metrics_port:
            return
        host, port = self.config.metrics_host, self.config.metrics_port
        try:
            self._listener = await serve(_never, host, port, process_request=self._private)
        except OSError as exc:
            await self.loop_lag.stop()
            raise bind_error(exc, host, port, "the metrics") from None

    @property
    def listener_port(self) -> int:
        """The metrics listener's port (0: none)."""
        if self._listener is None:
            return 0
        return int(self._listener.sockets[0].getsockname()[1])

    def _private(self, connection: ServerConnection, request: Request) -> Response:
        self.metrics.connections("http").inc()
        answer = self.probe(request.path, lambda: None)
        return answer or text_response(HTTPStatus.NOT_FOUND, "only /metrics, /healthz, /readyz\n")

    async def close(self) -> None:
        """Close the metrics listener and the lag sampler."""
        await self.loop_lag.stop()
        if self._listener is not None:
            self._listener.close()
            await self._listener.wait_closed()
            self._listener = None

    # ------------------------------------------------------------------ drain

    def signalled(self) -> None:
        """SIGTERM or SIGINT: drain; a second one stops without waiting for the hands."""
        if self.draining:
            log.info("drain_cut_short")
            self._now.set()
            return
        asyncio.get_running_loop().create_task(self.begin_drain())

    async def begin_drain(self) -> dict[str, Any]:
        """Start draining (once); what is left to finish."""
        if not self.draining:
            self.draining = True
            await self.rooms.begin_drain()
            notice = p.Notice(type="notice", room=None, kind="draining", text=DRAIN_NOTICE)
            for session in self.sessions():
                if session.greeted:
                    session.send(notice)
            log.info("drain_started", hands_in_play=self.rooms.hands_in_play(),
                     timeout=self.config.drain_timeout)
            self._drain_task = asyncio.get_running_loop().create_task(self._finish())
        return {
            "draining": True,
            "hands_in_play": self.rooms.hands_in_play(),
            "timeout": self.config.drain_timeout,
        }

    async def _finish(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.drain_timeout
        while self.rooms.hands_in_play() and loop.time() < deadline and not self._now.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._now.wait(), DRAIN_POLL)
        log.info("drain_finished", hands_left=self.rooms.hands_in_play())
        await self._stop("server restarting")


async def _never(connection: ServerConnection) -> None:
    """The metrics listener answers every request before a WebSocket could open."""
