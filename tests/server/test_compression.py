"""The ``compression`` setting as a client sees it in the handshake: permessage-deflate that
keeps no context ("message", the default), that keeps it ("context"), or none ("off"); and
messages go through compressed either way."""

from __future__ import annotations

import json
import random
import zlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import connect
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame

from paiju.server.compression import (
    DEFLATER_LEVEL,
    FLUSH_TAIL,
    MEMORY_LEVEL,
    SMALL,
    Deflater,
    deflating,
)
from tests.server.client import Client
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


async def play_one_hand(port: int, room: str, compression: str | None) -> list[tuple[int, bool]]:
    """Join ``room`` as seat 0 with a client that offers deflate or not, play its whole hand
    (one dragon hand against bots), and return every data frame received: (its bytes once
    decoded, whether it was compressed); every message read is checked against the schema."""
    seen: list[tuple[int, bool]] = []
    async with connect(f"ws://127.0.0.1:{port}/", compression=compression) as ws:
        for extension in ws.protocol.extensions:
            decode = extension.decode

            def recorded(frame: Frame, *, max_size: int | None = None,
                         decode: Any = decode) -> Frame:
                decoded: Frame = decode(frame, max_size=max_size)
                seen.append((len(decoded.data), frame.rsv1))
                return decoded

            extension.decode = recorded  # type: ignore[method-assign]
        client = Client(ws)
        await client.send(HELLO)
        await client.expect("welcome")
        await client.send({"type": "join", "room": room, "name": "p", "seat": 0})
        await client.expect("joined")
        await client.send({"type": "ready"})
        state = await client.until_state(lambda s: s["phase"] == "playing")
        while state["phase"] == "playing":
            if 0 in state["to_act"]:
                action = state["view"]["legal"][0]
                await client.send({"type": "act", "version": state["version"], "action": action})
            state = await client.until_state(lambda s, v=state["version"]: s["version"] > v)
        assert state["phase"] in ("hand_over", "finished")
    return seen


async def test_compressed_and_plain_clients_read_the_same_hand() -> None:
    async with running() as server:
        rooms = [server.rooms.create("dragon", bots=3, bot_level=0, options={"hands": 1})
                 for _ in range(2)]
        compressed = await play_one_hand(server.port, rooms[0].room_id, "deflate")
        plain = await play_one_hand(server.port, rooms[1].room_id, None)
    assert plain == []  # no extension: nothing was compressed
    assert any(rsv1 for _, rsv1 in compressed)
    # Short messages go as they are; long ones (states) compressed.
    assert all(not rsv1 for size, rsv1 in compressed if size < SMALL)
    assert any(not rsv1 for _, rsv1 in compressed)


# ---------------------------------------------------------------- the shared compressor

@settings(max_examples=60, deadline=None)
@given(messages=st.lists(st.binary(min_size=0, max_size=3000) | st.text(max_size=800).map(
    str.encode), min_size=1, max_size=12), window=st.sampled_from([9, 12, 15]))
def test_a_shared_deflater_compresses_each_message_as_if_alone(
    messages: list[bytes], window: int
) -> None:
    """Whatever came before, a message deflates to the bytes a compressor of its own gives
    (so one seat's compressed sizes say nothing of another's states), and the standard
    library's zlib, as a client's, reads it back; one that would not shrink is left as it is
    (``None``)."""
    shared = Deflater(window)
    for data in messages:
        out = shared.message(data)
        alone = deflating.compressobj(DEFLATER_LEVEL, deflating.DEFLATED, -window,
                                      MEMORY_LEVEL)
        fresh = alone.compress(data) + alone.flush(zlib.Z_SYNC_FLUSH)
        assert fresh.endswith(FLUSH_TAIL)
        if out is None:
            assert len(fresh) - len(FLUSH_TAIL) >= len(data)
            continue
        assert out == fresh[: -len(FLUSH_TAIL)] and len(out) < len(data)
        reader = zlib.decompressobj(-window)
        assert reader.decompress(out + FLUSH_TAIL) == data


def window_reader(data: bytes, window: int) -> bytes:
    """``data`` inflated a byte at a time, as a client that keeps only ``window`` bits of
    history does (a distance further back fails: "invalid distance too far back")."""
    reader = zlib.decompressobj(-window)
    out = bytearray()
    while data:
        out += reader.decompress(data, 1)
        data = reader.unconsumed_tail
    return bytes(out)


@pytest.mark.parametrize("window", [9, 12, 15])
def test_a_deflated_message_reaches_back_no_further_than_the_window(window: int) -> None:
    """A repeat further back than the agreed window is not referred to: a client holding
    only that window reads the message (the window is the client's to choose)."""
    def words(count: int, seed: int) -> bytes:  # JSON-ish: short repeats, no long one
        chosen = random.Random(seed).choices(["tile", "seat", "discard", "draw", "pung",
                                              "chow", "kong", "wind", "dragon"], k=count)
        return ",".join(f'"{word}":{n % 97}' for n, word in enumerate(chosen)).encode()

    part = words(80, window)
    message = part + words(1000, 0)[: 1 << window] + part
    out = Deflater(window).message(message)
    assert out is not None
    assert window_reader(out + FLUSH_TAIL, window) == message
    if window < 15:  # the check can fail: a compressor with a wider window does reach back
        wider = Deflater(15).message(message)
        assert wider is not None and len(wider) < len(out)
        with pytest.raises(zlib.error, match="too far back"):
            window_reader(wider + FLUSH_TAIL, window)


def test_the_server_deflates_with_isal() -> None:
    """The dependency is installed (pyproject): the fallback (the standard library's zlib) is
    for bare copies."""
    assert deflating.__name__.endswith("isal_zlib")
    assert DEFLATER_LEVEL == 0


async def test_a_client_that_asks_for_a_smaller_window_gets_messages_it_can_read() -> None:
    """The window is the client's to limit (server_max_window_bits): the server compresses
    with a shared compressor of that window, and the hand reads the same."""
    async with running() as server, connect(
        f"ws://127.0.0.1:{server.port}/", compression=None,
        extensions=[ClientPerMessageDeflateFactory(server_max_window_bits=10)],
    ) as ws:
        room = server.rooms.create("dragon", bots=3, bot_level=0, options={"hands": 1})
        client = Client(ws)
        await client.send(HELLO)
        await client.expect("welcome")
        await client.send({"type": "join", "room": room.room_id, "name": "p", "seat": 0})
        await client.expect("joined")
        await client.send({"type": "ready"})
        state = await client.until_state(lambda s: s["phase"] == "playing")
        assert state["view"]["legal"]
        assert ws.response is not None
        assert "server_max_window_bits=10" in ws.response.headers["Sec-WebSocket-Extensions"]
