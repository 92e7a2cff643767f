"""Error codes: one enum, one list, one documented table — and nothing else on the wire."""

from __future__ import annotations

import json
import re
from pathlib import Path

from websockets.asyncio.client import connect

from paiju.server.app import PaijuServer
from paiju.server.errors import ERROR_CODES
from paiju.server.protocol import ErrorCode
from tests.server.client import Client
from tests.server.conftest import ADMIN_TOKEN

DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def documented_codes() -> set[str]:
    section = DOCS.read_text(encoding="utf-8").split("## Error codes", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE))


def test_the_enum_the_list_and_the_docs_agree() -> None:
    assert {c.value for c in ErrorCode} == set(ERROR_CODES) == documented_codes()


async def test_a_lone_surrogate_is_a_typed_error_and_the_connection_lives(
    server: PaijuServer,
) -> None:
    client = await Client.open(server.port)
    for frame in ('{"type": "ping", "nonce": "\\ud800"}', b'{"type": "ping", "nonce": "\xff"}'):
        await client.ws.send(frame)
        assert (await client.expect("error"))["code"] == "malformed_json"
    await client.send({"type": "ping", "nonce": "\u00e9\U0001f004"})
    assert (await client.expect("pong"))["nonce"] == "\u00e9\U0001f004"
    await client.close()


async def test_admin_refusals_use_documented_codes(server: PaijuServer) -> None:
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    requests = [
        "{not json",
        "[1]",
        json.dumps({"type": "admin", "command": "explode"}),
        json.dumps({"type": "admin", "command": "show"}),
        json.dumps({"type": "admin", "command": "show", "room": "nosuch"}),
        json.dumps({"type": "admin", "command": "create", "variant": "nosuch"}),
        json.dumps({"type": "admin", "command": "create", "variant": "dragon", "bots": 9}),
        json.dumps({"type": "admin", "command": "create", "preset": "nosuch"}),
        json.dumps({"type": "admin", "command": "create"}),
    ]
    async with connect(f"ws://127.0.0.1:{server.port}/admin", additional_headers=headers) as ws:
        for request in requests:
            await ws.send(request)
            reply = json.loads(await ws.recv())
            assert reply["ok"] is False and reply["code"] in ERROR_CODES, (request, reply)
