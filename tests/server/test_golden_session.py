"""A recorded session against the published schema.

A scripted client plays a one-hand dragon match against a bot (fixed seed). Every frame in
both directions must validate against ``tests/golden/protocol_schema.json`` — the schema
``paiju schema`` prints, read as plain JSON Schema, not through the server's own models — and
the whole exchange must equal the recording in ``tests/golden/session_dragon.jsonl``.
After a deliberate protocol change:
``PAIJU_REGEN_GOLDEN=1 pytest tests/server/test_golden_session.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema

from paiju.server.app import PaijuServer
from tests.server.client import Client

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SCHEMA = json.loads((GOLDEN / "protocol_schema.json").read_text(encoding="utf-8"))
RECORDING = GOLDEN / "session_dragon.jsonl"


class Recorder:
    """A client that keeps every frame it sends and receives."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.frames: list[tuple[str, dict[str, Any]]] = []

    async def send(self, message: dict[str, Any]) -> None:
        self.frames.append(("sent", message))
        await self.client.send(message)

    async def recv(self) -> dict[str, Any]:
        message = await self.client.recv()
        self.frames.append(("received", message))
        return message

    async def until(self, kind: str) -> dict[str, Any]:
        while (message := await self.recv())["type"] != kind:
            pass
        return message


async def play_session(server: PaijuServer) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    room = server.rooms.create("dragon", options={"seats": 2, "hands": 1}, bots=1, seed="golden")
    client = Recorder(await Client.open(server.port, hello=False))
    await client.send({"type": "hello", "protocol_version": 1, "client": "golden"})
    await client.until("welcome")
    await client.send({"type": "join", "room": room.room_id, "name": "Mei"})
    await client.until("joined")
    await client.until("state")
    await client.send({"type": "ready"})
    state = await client.until("state")
    while state["phase"] != "finished":
        if state["phase"] == "playing" and 0 in state["to_act"]:
            action = state["view"]["legal"][0]
            await client.send({"type": "act", "version": state["version"], "action": action})
            await client.send({"type": "act", "version": state["version"], "action": action})
            await client.until("error")  # answering twice is refused
            assert client.client.last_state is not None
            state = client.client.last_state
            continue
        state = await client.until("state")
    await client.send({"type": "ping", "nonce": "bye"})
    await client.until("pong")
    await client.send({"type": "leave"})
    await client.until("left")
    await client.client.close()
    return room.room_id, client.frames


def normalized(message: dict[str, Any], room: str) -> dict[str, Any]:
    """The frame with what differs between runs (ids, tokens, the version string, the time
    left) masked."""
    text = json.dumps(message, ensure_ascii=False).replace(room, "<room>")
    masked: dict[str, Any] = json.loads(text)
    if masked.get("token"):
        masked["token"] = "<token>"
    if masked.get("type") == "welcome":
        masked["server"] = "<server>"
    if masked.get("deadline_ms") is not None:  # the time left depends on the machine's speed
        masked["deadline_ms"] = "<ms>"
    return masked


def validator(direction: str) -> jsonschema.protocols.Validator:
    part = SCHEMA["client_to_server" if direction == "sent" else "server_to_client"]
    cls = jsonschema.validators.validator_for(part)
    return cls(part)  # type: ignore[no-any-return]


async def test_every_frame_of_a_session_matches_the_published_schema(
    server: PaijuServer,
) -> None:
    _, frames = await play_session(server)
    kinds = {m["type"] for _, m in frames}
    assert {"welcome", "joined", "state", "event", "error", "pong", "left", "act"} <= kinds
    for direction, message in frames:
        errors = list(validator(direction).iter_errors(message))
        assert errors == [], f"{direction} {message['type']}: {errors[0].message}"


async def test_the_session_equals_the_recording(server: PaijuServer) -> None:
    room, frames = await play_session(server)
    lines = [
        json.dumps({"dir": d, "frame": normalized(m, room)}, ensure_ascii=False, sort_keys=True)
        for d, m in frames
    ]
    if os.environ.get("PAIJU_REGEN_GOLDEN"):
        RECORDING.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert lines == RECORDING.read_text(encoding="utf-8").splitlines()


def test_the_schema_rejects_what_the_protocol_does_not_allow() -> None:
    """The validator is real: frames outside the protocol fail it."""
    received = validator("received")
    assert not received.is_valid({"type": "state", "phase": "dancing"})
    assert not received.is_valid({"type": "error", "code": "Not A Code", "message": "x"})
    assert not received.is_valid({"type": "nosuch"})
    sent = validator("sent")
    assert not sent.is_valid({"type": "act", "version": -1, "action": "x"})
    assert sent.is_valid({"type": "act", "version": 1, "action": "x"})
