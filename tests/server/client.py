"""A minimal test client written from docs/protocol.md: JSON frames over a WebSocket."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from paiju.server.protocol import SERVER_ADAPTER

TIMEOUT = 10.0


class Client:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.last_state: dict[str, Any] | None = None
        self.seen: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, port: int, hello: bool = True) -> Client:
        client = cls(await connect(f"ws://127.0.0.1:{port}/"))
        if hello:
            await client.send({"type": "hello", "protocol_version": 1})
            await client.expect("welcome")
        return client

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))
        SERVER_ADAPTER.validate_python(message)  # every frame the server sends is in the schema
        self.seen.append(message)
        if message["type"] == "state":
            self.last_state = message
        return message

    async def expect(self, kind: str) -> dict[str, Any]:
        """The next message of type ``kind`` (others, e.g. state updates, are skipped)."""
        while True:
            message = await self.recv()
            if message["type"] == kind:
                return message

    async def until_state(self, predicate: Any) -> dict[str, Any]:
        """Read until a state message satisfies ``predicate``."""
        if self.last_state is not None and predicate(self.last_state):
            return self.last_state
        while True:
            message = await self.recv()
            if message["type"] == "state" and predicate(message):
                return message

    async def close(self) -> None:
        await self.ws.close()
