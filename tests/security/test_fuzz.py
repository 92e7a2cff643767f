"""A structure-aware fuzz of the protocol: frames shaped like client messages, with wrong
types, values out of range, unknown fields, stale versions, junk actions and broken bytes,
sent by a seated player in a running match. Whatever the server refuses must change nothing:
the table's info and state, its version, and what the store holds for the room.

The server runs on its own loop in a thread (hypothesis drives a plain blocking client), so
the check reads the room from inside its own task, after everything queued has run."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from paiju.persistence.memory import MemoryStore
from paiju.server.app import PaijuServer
from tests.conftest import extra_variants
from tests.security.conftest import ADMIN_TOKEN
from tests.server.conftest import make_config

TYPES = ["hello", "join", "resume", "ready", "act", "ping", "lobby", "add_bot", "remove_bot",
         "teleport", "", "ACT", "act "]
KEYS = ["type", "room", "name", "version", "action", "token", "protocol_version", "seat",
        "spectate", "ready", "nonce", "level", "preset", "options", "bots", "private", "zzz"]
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
    st.text(max_size=30), st.sampled_from(["go", "add 1", "add 2", "add 9", "\ud800", "x" * 500]),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)


@st.composite
def messages(draw: st.DrawFn) -> dict[str, Any]:
    message: dict[str, Any] = {"type": draw(st.sampled_from(TYPES))}
    if message["type"] == "act" and draw(st.booleans()):  # close to a real action
        message["version"] = draw(st.integers(-2, 60))
        message["action"] = draw(st.sampled_from(["go", "add 1", "add 2", "add 3", "pass"]))
    message.update(draw(st.dictionaries(st.sampled_from(KEYS), values, max_size=4)))
    return message


@st.composite
def frames(draw: st.DrawFn) -> str | bytes:
    text = json.dumps(draw(messages()))
    how = draw(st.sampled_from(["text", "binary", "cut", "byte"]))
    if how == "text":
        return text
    raw = text.encode("utf-8", "surrogatepass")
    if how == "binary":
        return raw
    at = draw(st.integers(0, len(raw)))
    if how == "cut":
        return raw[:at]
    return raw[:at] + bytes([draw(st.integers(0, 255))]) + raw[at:]


class ServerThread:
    """A server on its own loop and thread; ``run`` carries out a coroutine there."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        config = make_config(rate_per_second=100_000.0, rate_burst=100_000)
        self.server = PaijuServer(config, MemoryStore(), ADMIN_TOKEN)
        self.run(self.server.start())

    def run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(30)

    def stop(self) -> None:
        self.run(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture(scope="module")
def match() -> Iterator[tuple[ServerThread, str, ClientConnection]]:
    """A race match between two seated players, the first of whom is the fuzzer."""
    with pytest.MonkeyPatch.context() as patch, extra_variants(patch) as register:
        register("race", "tests.table.fake_engine:VARIANT")
        yield from _match()


def _match() -> Iterator[tuple[ServerThread, str, ClientConnection]]:
    thread = ServerThread()

    async def create() -> Any:
        return thread.server.rooms.create("race", options={"hands": 50})

    room = thread.run(create())
    clients = []
    for name in ("fuzz", "idle"):
        ws = connect(f"ws://127.0.0.1:{thread.server.port}/").__enter__()
        for message in ({"type": "hello", "protocol_version": 1},
                        {"type": "join", "room": room.room_id, "name": name},
                        {"type": "ready"}):
            ws.send(json.dumps(message))
        clients.append(ws)
    for ws in clients:  # settled: both see the match running before the fuzz begins
        while json.loads(ws.recv(timeout=10)).get("phase") != "playing":
            pass
    try:
        yield thread, room.room_id, clients[0]
    finally:
        for ws in clients:
            ws.close()
        thread.stop()


def observed(thread: ServerThread, room_id: str) -> Any:
    """Everything a refused frame must leave alone, read inside the room's task."""
    room = thread.server.rooms.get(room_id)
    store = thread.server.store

    async def read() -> Any:
        await room.call(lambda table, now: (None, []))  # let what was queued finish first
        return await room.call(lambda table, now: (
            (table.info(), table.version, table.state, len(store.actions(room_id)),
             store.get_room(room_id)), []))

    return thread.run(read())


def answers_to(ws: ClientConnection, frame: str | bytes, nonce: int) -> list[dict[str, Any]]:
    """Send ``frame`` and then a ping; the answers up to that ping's pong."""
    ws.send(frame, text=isinstance(frame, str) or None)
    ws.send(json.dumps({"type": "ping", "nonce": nonce}))
    answers = []
    while (message := json.loads(ws.recv(timeout=10))) != {"type": "pong", "nonce": nonce}:
        answers.append(message)
    return answers


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(frames(), min_size=1, max_size=6))
def test_refused_frames_change_nothing(
    match: tuple[ServerThread, str, ClientConnection], batch: list[str | bytes]
) -> None:
    thread, room_id, ws = match
    for nonce, frame in enumerate(batch):
        before = observed(thread, room_id)
        answers = answers_to(ws, frame, nonce)
        if any(a["type"] == "error" for a in answers):
            assert observed(thread, room_id) == before, (frame, answers)
        assert all(a.get("code") != "internal_error" for a in answers), (frame, answers)
