"""The ``compression`` setting as a client sees it in the handshake: permessage-deflate that
keeps no context ("message", the default), that keeps it ("context"), or none ("off"); and
messages go through compressed either way."""

from __future__ import annotations

import json

from websockets.asyncio.client import connect

from tests.server.conftest import running

HELLO = json.dumps({"type": "hello", "protocol_version": 1})


async def negotiated(compression: str | None) -> str:
    """The ``Sec-WebSocket-Extensions`` the server answered a deflate offer with ("" for
    none), after a hello was answered."""
    overrides = {} if compression is None else {"compression": compression}
    async with running(**overrides) as server, connect(
        f"ws://127.0.0.1:{server.port}/", compression="deflate"
    ) as ws:
        await ws.send(HELLO)
        assert json.loads(await ws.recv())["type"] == "welcome"
        assert ws.response is not None
        return str(ws.response.headers.get("Sec-WebSocket-Extensions", ""))


async def test_by_default_each_message_is_compressed_alone() -> None:
    answer = await negotiated(None)
    assert answer.startswith("permessage-deflate")
    assert "server_no_context_takeover" in answer
    assert "client_no_context_takeover" in answer


async def test_the_context_can_be_kept() -> None:
    answer = await negotiated("context")
    assert answer.startswith("permessage-deflate")
    assert "no_context_takeover" not in answer


async def test_compression_can_be_off() -> None:
    assert await negotiated("off") == ""
