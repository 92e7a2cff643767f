"""Attacks with frames: malformed text of every kind, heavy frames, expensive requests,
token guessing, and floods of refusals (which must not flood the log)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
from typing import Any

import pytest
from structlog.testing import LogCapture
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.security.conftest import ADMIN_TOKEN, running
from tests.server.client import Client

MALFORMED: list[tuple[str | bytes, bool]] = [
    ('{"type": "ping", "nonce": "\\ud800"}', True),  # a lone surrogate escape
    ('{"type": "ping", "nonce": "\\udc00\\ud800"}', True),
    (b'{"type": "ping", "nonce": "\xff\xfe"}', True),  # invalid UTF-8 in a text frame
    (b'{"type": "ping", "nonce": "\xed\xa0\x80"}', True),  # a surrogate encoded in UTF-8
    (b'{"type": "ping", "nonce": "\xc0\xaf"}', True),  # an overlong encoding
    (b'{"type": "ping", "nonce": "\xff"}', False),  # the same in a binary frame
    (b"\x00\x01\x02", False),
    ("[" * 5000 + "]" * 5000, True),  # nesting too deep
    ('{"type": "ping", "nonce": 1e999999}', True),
    ('{"type": "ping", "nonce": {"nested": [1, 2]}}', True),
    ("", True),
    ("\u0000", True),
    ('{"type": "join", "room": "\\u0000"}', True),
    ('{"type": "join", "room": "r", "name": "\\u202e"}', True),
    ('{"type": "act", "version": -1, "action": "x"}', True),
]


@pytest.mark.parametrize(("frame", "text"), MALFORMED)
async def test_malformed_frames_get_typed_errors_and_the_connection_lives(
    frame: str | bytes, text: bool
) -> None:
    async with running() as server:
        room = server.rooms.create("race")
        client = await Client.open(server.port)
        await client.ws.send(frame, text=text)
        error = await client.expect("error")
        assert error["code"] in (
            "malformed_json", "invalid_message", "unknown_room", "invalid_name"
        ), error
        await client.send({"type": "join", "room": room.room_id, "name": "ann"})
        assert (await client.expect("joined"))["seat"] == 0
        await client.close()


async def test_the_admin_channel_answers_malformed_frames_too() -> None:
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    async with running() as server, connect(
        f"ws://127.0.0.1:{server.port}/admin", additional_headers=headers
    ) as ws:
        for frame, text in MALFORMED[:8]:
            await ws.send(frame, text=text)
            reply = json.loads(await ws.recv())
            assert reply["ok"] is False and reply["code"] == "invalid_message", reply
        await ws.send(json.dumps({"type": "admin", "command": "list"}))
        assert json.loads(await ws.recv())["ok"] is True


async def test_heavy_frames_are_read_no_faster_than_the_byte_budget() -> None:
    rate = 200_000
    async with running(rate_bytes_per_second=rate, rate_bytes_burst=70_000) as server:
        heavy = await Client.open(server.port)
        light = await Client.open(server.port, )
        nonce = "x" * 60_000
        loop = asyncio.get_running_loop()
        start = loop.time()
        for _ in range(8):
            await heavy.send({"type": "ping", "nonce": nonce})
        # Meanwhile another connection is answered at once.
        await light.send({"type": "ping", "nonce": "quick"})
        await light.expect("pong")
        assert loop.time() - start < 1.0
        for _ in range(8):
            await heavy.expect("pong")
        # 8 frames of 60 kB, 70 kB of burst: the rest arrives at 200 kB/s at most.
        assert loop.time() - start >= (8 * 60_000 - 70_000) / rate * 0.9
        await heavy.close()
        await light.close()


async def test_expensive_requests_cost_more_of_the_budget() -> None:
    async with running(rate_per_second=0.01, rate_burst=12) as server:
        client = await Client.open(server.port)  # hello: 1 unit
        for _ in range(2):
            await client.send({"type": "lobby"})  # 5 units each
            await client.expect("lobby")
        await client.send({"type": "lobby"})
        assert (await client.expect("error"))["code"] == "rate_limited"
        await client.send({"type": "ping"})  # 1 unit: still within the budget
        await client.expect("pong")
        await client.close()


async def test_guessing_seat_tokens_gets_nothing_and_ends_in_a_close() -> None:
    async with running(rate_per_second=1.0, rate_burst=40, flood_strikes=5) as server:
        room = server.rooms.create("race")
        owner = await Client.open(server.port)
        await owner.send({"type": "join", "room": room.room_id, "name": "ann"})
        await owner.expect("joined")
        guesser = await Client.open(server.port)
        codes = []
        with pytest.raises(ConnectionClosed) as info:
            for _ in range(40):
                token = secrets.token_urlsafe(24)
                await guesser.send({"type": "resume", "room": room.room_id, "token": token})
            while True:
                codes.append((await guesser.recv()).get("code"))
        assert set(codes) == {"bad_token", "rate_limited"} and codes.count("bad_token") <= 10
        assert info.value.rcvd is not None and info.value.rcvd.code == 1008
        assert room.members.keys() == {0} and len(room.members[0]) == 1
        await owner.close()


async def test_a_flood_of_bad_frames_does_not_flood_the_log(no_tracebacks: LogCapture) -> None:
    async with running(
        log_lines_per_second=5.0, rate_per_second=10_000.0, rate_burst=10_000
    ) as server:
        client = await Client.open(server.port)
        for _ in range(6):  # in batches: 300 unread answers would overflow the outbox
            for _ in range(50):
                await client.send("{not json")
            for _ in range(50):
                await client.expect("error")
        refused = [e for e in no_tracebacks.entries if e["event"] == "refused"]
        assert len(refused) <= 50 + 5  # a burst of 10 s worth, and what refilled meanwhile
        assert server.limiter.suppressed["refused"] == 300 - len(refused)
        await asyncio.sleep(0.3)
        await client.send("{not json")
        await client.expect("error")
        last = [e for e in no_tracebacks.entries if e["event"] == "refused"][-1]
        assert last["suppressed"] > 0  # the next line written says how many were left out
        await client.close()


PUSHER = """
import asyncio, json, sys, time
from websockets.asyncio.client import connect

async def push(port):
    frame = json.dumps({"type": "ping", "nonce": "x" * 60_000})
    async with connect(f"ws://127.0.0.1:{port}/", max_size=None, close_timeout=0.1) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol_version": 1}))
        await ws.recv()
        end = time.monotonic() + 3
        while time.monotonic() < end:
            await asyncio.wait_for(ws.send(frame), 2)
            await asyncio.sleep(0)

async def main(port):
    await asyncio.gather(*(push(port) for _ in range(25)), return_exceptions=True)

asyncio.run(main(int(sys.argv[1])))
"""


async def test_compressed_frames_are_decoded_no_faster_than_they_are_read() -> None:
    """A few dozen bytes of deflate stand for a 60 kB frame: the server decodes what a client
    sends only as its queue of frames drains, so the text waiting for a connection stays
    bounded however much the client has pushed into the socket (from another process, as an
    attacker would: clients on the server's own loop cannot outrun it)."""
    async with running(rate_bytes_per_second=100_000, rate_bytes_burst=70_000) as server:
        assert server._server is not None
        pusher = await asyncio.create_subprocess_exec(sys.executable, "-c", PUSHER,
                                                      str(server.port))
        waiting = 0
        while pusher.returncode is None:
            for connection in list(server._server.connections):
                waiting = max(waiting, _decoded(connection))
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(pusher.wait(), 0.005)
        assert pusher.returncode == 0
        assert 0 < waiting <= 4_000_000, waiting
        for connection in list(server._server.connections):  # gone: skip their backlog
            connection.transport.abort()


def _decoded(connection: Any) -> int:
    """Bytes of decoded frames the library holds for ``connection``."""
    return sum(len(frame.data) for frame in connection.recv_messages.frames.queue)
