"""One task pings every connection: a ping once ``ping_interval`` has passed, a close (1011)
once a pong is ``ping_timeout`` late, and no task of its own per connection."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

import pytest

from paiju.server import app
from paiju.server import keepalive as k
from paiju.server.keepalive import CLOSE_INTERNAL_ERROR, PING_TIMEOUT, Keepalive, heard_from
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


async def test_a_peer_that_talks_is_not_pinged_until_it_falls_silent() -> None:
    peer = Peer()
    keepalive = Keepalive(lambda: [peer], close=fail_if_closed)
    heard_from(peer, 15.0)  # a message from the client: alive at 15
    keepalive.sweep(now=20.0)
    await settle()
    assert peer.pings == 0
    heard_from(peer, 30.0)
    keepalive.sweep(now=49.0)
    await settle()
    assert peer.pings == 0
    keepalive.sweep(now=50.0)  # silent for an interval: pinged
    await settle()
    assert peer.pings == 1 and peer.pinged_at == 50.0


async def test_what_comes_while_a_ping_waits_does_not_put_its_timeout_off() -> None:
    peer = Peer(answers=False)
    closed: list[int] = []

    async def close(connection: Peer, code: int, reason: str, timeout: float) -> None:
        closed.append(code)

    keepalive = Keepalive(lambda: [peer], close=close)
    keepalive.sweep(now=20.0)
    await settle()
    heard_from(peer, 30.0)  # bytes, but no pong: the ping's clock still runs from 20
    assert peer.pinged_at == 20.0
    keepalive.sweep(now=40.0)
    await settle()
    assert closed == [CLOSE_INTERNAL_ERROR]


async def test_a_connection_without_keepalive_is_left_alone() -> None:
    peer = Peer()
    peer.ping_interval = None
    keepalive = Keepalive(lambda: [peer], close=fail_if_closed)
    keepalive.sweep(now=1000.0)
    await settle()
    assert peer.pings == 0


async def test_a_connection_not_open_is_neither_pinged_nor_closed() -> None:
    # The server's set holds connections still in their opening handshake (never pinged
    # yet: due at once) and closing ones (a pong that will never come): left alone.
    opening, closing = Peer(), Peer(answers=False)
    closed: list[int] = []

    async def close(connection: Peer, code: int, reason: str, timeout: float) -> None:
        closed.append(code)

    keepalive = Keepalive(lambda: [closing], close=close)
    keepalive.sweep(now=20.0)  # pinged while open; no pong comes
    await settle()
    shut = {id(closing), id(opening)}
    keepalive = Keepalive(lambda: [opening, closing], close=close,
                          is_open=lambda peer: id(peer) not in shut)
    keepalive.sweep(now=1000.0)
    await settle()
    assert (opening.pings, closing.pings, closed) == (0, 1, [])
    shut.clear()  # open after all: the late pong closes one, the other is pinged
    keepalive.sweep(now=1000.0)
    await settle()
    assert (opening.pings, closing.pings, closed) == (1, 1, [CLOSE_INTERNAL_ERROR])


async def test_only_connections_with_something_due_are_asked_whether_open() -> None:
    quiet, silent, waiting = Peer(), Peer(), Peer(answers=False)
    heard_from(quiet, 95.0)
    waiting.awaiting_pong = asyncio.get_running_loop().create_future()  # a pong awaited
    waiting.pinged_at = 95.0
    asked: list[Peer] = []

    def is_open(peer: Peer) -> bool:
        asked.append(peer)
        return True

    keepalive = Keepalive(lambda: [quiet, silent, waiting], close=fail_if_closed,
                          is_open=is_open)
    keepalive.sweep(now=100.0)
    await settle()
    assert asked == [silent, waiting]
    assert (quiet.pings, silent.pings, waiting.pings) == (0, 1, 0)


async def fail_if_closed(connection: Peer, code: int, reason: str, timeout: float) -> None:
    raise AssertionError(f"closed {code} {reason}")


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pings every 50 ms, 200 ms for a pong, walked every 10 ms."""
    monkeypatch.setattr(app, "PING_INTERVAL", 0.05)
    monkeypatch.setattr(app, "PING_TIMEOUT", 0.2)
    monkeypatch.setattr(k, "TICK", 0.01)


async def test_a_server_asks_the_keepalive_about_every_connection_and_which_are_open() -> None:
    async with running() as server:
        client = await Client.open(server.port)
        assert server._server is not None
        (connection,) = server._server.connections
        assert list(server._connections()) == [connection]
        assert app._is_open(connection)
        await client.close()
        async with asyncio.timeout(5):
            while connection in server._connections():  # gone once its handler ended
                await asyncio.sleep(0.01)
        assert not app._is_open(connection)


async def test_a_server_pings_its_connections_without_a_task_each(quick: None) -> None:
    async with running() as server:
        client = await Client.open(server.port)
        assert server._server is not None
        (connection,) = server._server.connections
        assert connection.keepalive_task is None  # the library's own task is not started
        async with asyncio.timeout(5):
            while connection.latency == 0:  # the client is silent: pinged, and it answers
                await asyncio.sleep(0.01)
        await client.send({"type": "ping", "nonce": "alive"})
        assert (await client.expect("pong"))["nonce"] == "alive"
        await client.close()


async def test_a_server_does_not_ping_a_client_that_talks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An interval of 0.2 s (rather than ``quick``'s 50 ms): a busy test machine must not
    # hold the client's next message back for a whole interval.
    monkeypatch.setattr(app, "PING_INTERVAL", 0.2)
    monkeypatch.setattr(k, "TICK", 0.01)
    async with running() as server:
        client = await Client.open(server.port)
        assert server._server is not None
        (connection,) = server._server.connections
        loop = asyncio.get_running_loop()
        began = loop.time()
        nonce = 0
        while loop.time() - began < 0.6:  # three intervals, a message every 40 ms (within the
            # rate limit's burst)
            await client.send({"type": "ping", "nonce": nonce})
            assert (await client.expect("pong"))["nonce"] == nonce
            nonce += 1
            await asyncio.sleep(0.04)
        assert connection.latency == 0  # never pinged: no pong ever measured
        async with asyncio.timeout(5):
            while connection.latency == 0:  # silent from now: pinged
                await asyncio.sleep(0.01)
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
