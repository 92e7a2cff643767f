"""One task pings every connection: a ping once ``ping_interval`` has passed, a close (1011)
once a pong is ``ping_timeout`` late, and no task of its own per connection."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

import pytest

from paiju.server import app
from paiju.server import keepalive as k
from paiju.server.keepalive import CLOSE_INTERNAL_ERROR, PING_TIMEOUT, Keepalive
from tests.server.client import Client
from tests.server.conftest import running


class Peer:
    """A connection as the keepalive sees it; ``answers``: whether its pongs come back."""

    def __init__(self, answers: bool = True) -> None:
        self.ping_interval: float | None = 20.0
        self.ping_timeout: float | None = 20.0
        self.close_timeout: float | None = 10.0
        self.pinged_at = 0.0
        self.awaiting_pong: Awaitable[object] | None = None
        self.answers = answers
        self.pings = 0

    async def ping(self) -> Awaitable[float]:
        self.pings += 1
        pong: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        if self.answers:
            pong.set_result(0.001)
        return pong

    async def close(self, code: int = 1000, reason: str = "") -> None:
        raise AssertionError("closed through the keepalive's closer")


async def settle() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


async def test_a_connection_is_pinged_once_its_interval_has_passed() -> None:
    peer = Peer()
    keepalive = Keepalive(lambda: [peer], close=fail_if_closed)
    keepalive.sweep(now=19.0)
    await settle()
    assert peer.pings == 0
    keepalive.sweep(now=20.0)
    await settle()
    assert peer.pings == 1 and peer.pinged_at == 20.0
    keepalive.sweep(now=30.0)  # answered: nothing more until the next interval
    await settle()
    assert peer.pings == 1 and peer.awaiting_pong is None
    keepalive.sweep(now=40.0)
    await settle()
    assert peer.pings == 2


async def test_a_pong_that_is_late_closes_the_connection_1011() -> None:
    peer = Peer(answers=False)
    closed: list[tuple[int, str, float]] = []

    async def close(connection: Peer, code: int, reason: str, timeout: float) -> None:
        closed.append((code, reason, timeout))

    keepalive = Keepalive(lambda: [peer], close=close)
    keepalive.sweep(now=20.0)
    await settle()
    keepalive.sweep(now=39.0)
    await settle()
    assert closed == [] and peer.pings == 1  # waiting for the pong: no second ping
    keepalive.sweep(now=40.0)
    await settle()
    assert closed == [(CLOSE_INTERNAL_ERROR, PING_TIMEOUT, 10.0)]


async def test_a_connection_without_keepalive_is_left_alone() -> None:
    peer = Peer()
    peer.ping_interval = None
    keepalive = Keepalive(lambda: [peer], close=fail_if_closed)
    keepalive.sweep(now=1000.0)
    await settle()
    assert peer.pings == 0


async def fail_if_closed(connection: Peer, code: int, reason: str, timeout: float) -> None:
    raise AssertionError(f"closed {code} {reason}")


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pings every 50 ms, 200 ms for a pong, walked every 10 ms."""
    monkeypatch.setattr(app, "PING_INTERVAL", 0.05)
    monkeypatch.setattr(app, "PING_TIMEOUT", 0.2)
    monkeypatch.setattr(k, "TICK", 0.01)


async def test_a_server_pings_its_connections_without_a_task_each(quick: None) -> None:
    async with running() as server:
        client = await Client.open(server.port)
        assert server._server is not None
        (connection,) = server._server.connections
        assert connection.keepalive_task is None  # the library's own task is not started
        first = connection.pinged_at
        async with asyncio.timeout(5):
            while connection.pinged_at == first or connection.awaiting_pong is not None:
                await asyncio.sleep(0.01)
        assert connection.latency > 0  # the client's pong came back
        await client.send({"type": "ping", "nonce": "alive"})
        assert (await client.expect("pong"))["nonce"] == "alive"
        await client.close()


async def test_a_server_closes_a_connection_whose_pongs_stop_1011(quick: None) -> None:
    async with running(send_timeout=0.5) as server:
        client = await Client.open(server.port)
        assert server._server is not None
        (connection,) = server._server.connections
        client.ws.transport.pause_reading()  # the client no longer reads: no pong
        async with asyncio.timeout(5):
            while connection.close_code is None:
                await asyncio.sleep(0.01)
        assert connection.protocol.close_sent is not None
        assert (connection.protocol.close_sent.code, connection.protocol.close_sent.reason) == (
            CLOSE_INTERNAL_ERROR, PING_TIMEOUT,
        )
        client.ws.transport.abort()
