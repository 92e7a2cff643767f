"""Attacks on admission: idle and silent sockets, one-address floods, spoofed proxy headers,
cross-site pages, hostile HTTP."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from paiju.server.app import HARD_CAP
from tests.security.conftest import eventually, running
from tests.server.client import Client


def url(port: int) -> str:
    return f"ws://127.0.0.1:{port}/"


async def test_idle_sockets_are_dropped_after_the_hello_timeout() -> None:
    async with running(hello_timeout=0.3) as server:
        sockets = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(5)]
        for reader, _ in sockets:  # never a byte sent: closed by the server, not kept for ever
            assert await asyncio.wait_for(reader.read(), 3.0) == b""
        await eventually(lambda: server.counts.total == 0)
        for _, writer in sockets:
            writer.close()


async def test_a_silent_websocket_is_closed_1008_after_the_hello_timeout() -> None:
    async with running(hello_timeout=0.3) as server:
        silent = await connect(url(server.port))
        polite = await Client.open(server.port)  # said hello: stays
        with pytest.raises(ConnectionClosed) as info:
            await asyncio.wait_for(silent.recv(), 3.0)
        assert info.value.rcvd is not None
        assert (info.value.rcvd.code, info.value.rcvd.reason) == (1008, "no hello in time")
        await polite.send({"type": "ping", "nonce": 1})
        assert (await polite.expect("pong"))["nonce"] == 1
        await polite.close()


async def test_one_address_cannot_take_more_than_its_connections() -> None:
    async with running(max_connections_per_address=3) as server:
        mine = [await connect(url(server.port)) for _ in range(3)]
        with pytest.raises(InvalidStatus) as info:
            await connect(url(server.port))
        assert info.value.response.status_code == 429
        # Another address is not affected.
        other = await connect(url(server.port), local_addr=("127.0.0.2", 0))
        await mine[0].close()
        await eventually(lambda: server.counts.of("127.0.0.1") == 2)
        again = await connect(url(server.port))
        for ws in [*mine[1:], other, again]:
            await ws.close()


async def test_a_socket_flood_from_one_address_is_dropped_at_accept() -> None:
    async with running(max_connections_per_address=2, hello_timeout=5.0) as server:
        flood = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(12)]
        await eventually(lambda: server.counts.of("127.0.0.1") <= HARD_CAP * 2)
        still_open = 0
        for reader, writer in flood:
            try:
                await asyncio.wait_for(reader.read(), 0.2)  # b"" or a reset: dropped
            except TimeoutError:
                still_open += 1  # waiting for its hello timeout
            except ConnectionResetError:
                pass
            writer.close()
        assert still_open == HARD_CAP * 2


async def test_forwarded_for_is_believed_only_from_a_trusted_proxy() -> None:
    async with running(max_connections_per_address=2, trusted_proxies=["127.0.0.1"]) as server:
        def via_proxy(client: str) -> dict[str, str]:
            return {"X-Forwarded-For": f"198.51.100.7, {client}"}

        a = [await connect(url(server.port), additional_headers=via_proxy("203.0.113.5"))
             for _ in range(2)]
        with pytest.raises(InvalidStatus) as info:
            await connect(url(server.port), additional_headers=via_proxy("203.0.113.5"))
        assert info.value.response.status_code == 429
        b = await connect(url(server.port), additional_headers=via_proxy("203.0.113.6"))
        assert server.counts.of("203.0.113.5") == 2 and server.counts.of("127.0.0.1") == 0
        # From a peer that is not a trusted proxy the header is a lie: counted as the peer.
        spoofed = [
            await connect(url(server.port), local_addr=("127.0.0.3", 0),
                          additional_headers=via_proxy(f"203.0.113.{50 + i}"))
            for i in range(2)
        ]
        with pytest.raises(InvalidStatus):
            await connect(url(server.port), local_addr=("127.0.0.3", 0),
                          additional_headers=via_proxy("203.0.113.99"))
        for ws in [*a, b, *spoofed]:
            await ws.close()


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        (None, True),  # not a browser: CLI tools, bots
        ("http://{host}", True),  # the built-in page, same origin
        ("http://{host}/", True),
        ("HTTP://{HOST}", True),
        ("https://{host}", False),  # the scheme is part of the origin
        ("https://evil.example", False),
        ("http://127.0.0.1.evil.example", False),
        ("null", False),
        ("https://play.example.com", True),  # listed in allowed_origins
        ("https://play.example.com:8443", False),
    ],
)
async def test_cross_site_pages_are_refused(origin: str | None, allowed: bool) -> None:
    async with running(allowed_origins=["https://play.example.com"]) as server:
        host = f"127.0.0.1:{server.port}"
        headers = {} if origin is None else {
            "Origin": origin.format(host=host, HOST=host.upper())
        }
        try:
            ws = await connect(url(server.port), origin=headers.get("Origin"))  # type: ignore[arg-type]
        except InvalidStatus as exc:
            assert not allowed and exc.response.status_code == 403
        else:
            assert allowed
            await ws.close()


async def test_hostile_http_gets_statuses_not_tracebacks() -> None:
    requests = [
        b"GARBAGE\r\n\r\n",
        b"GET /assets/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /assets/\xed\xa0\x80.js HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /assets/%00.js HTTP/1.1\r\nHost: x\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
        b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Big: " + b"a" * 70000 + b"\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n",  # a broken handshake
        b"GET /admin HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\nSec-WebSocket-Version: 13\r\n"
        b"Authorization: Bearer \xff\xfe\r\n\r\n",
    ]
    async with running() as server:
        for raw in requests:
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(raw)
            answer = await asyncio.wait_for(reader.read(), 5.0)
            assert answer == b"" or answer.startswith(b"HTTP/1.1 4"), (raw[:40], answer[:80])
            writer.close()
        client = await Client.open(server.port)  # and the server still serves
        await client.send(json.dumps({"type": "ping", "nonce": 2}))
        assert (await client.expect("pong"))["nonce"] == 2
        await client.close()
