"""Fair deals end to end: a player sends its seed, sees the commitment, gets the seed revealed
with the result, fetches the signed history over HTTP, and it verifies; the trustee and the
operator's trustee command over the real protocol."""

from __future__ import annotations

import hashlib
import json

from paiju.persistence.verify import verify_history
from paiju.server.app import PaijuServer
from paiju.server.protocol import AdminRequest
from tests.server.client import Client
from tests.server.test_app import joined_client
from tests.server.test_http import get


async def test_a_player_seeds_a_hand_and_verifies_its_signed_history(
    server: PaijuServer,
) -> None:
    welcome_client = await Client.open(server.port, hello=False)
    await welcome_client.send({"type": "hello", "protocol_version": 1})
    key = (await welcome_client.expect("welcome"))["history_key"]
    await welcome_client.close()
    status, _, body = await get(server.port, "/history/key")
    assert status == 200 and json.loads(body)["public_key"] == key

    room = server.rooms.create("dragon", bots=3, bot_level=1, options={"hands": 2})
    client, _ = await joined_client(server, room.room_id)
    state = client.last_state
    assert state is not None and state["deal"]["seed_hand"] == 0
    commitment = state["deal"]["commitment"]
    await client.send({"type": "seed", "hand": 0, "seed": "my own dice"})
    seeded = await client.until_state(lambda s: s["deal"]["seed"] == "my own dice")
    await client.send({"type": "seed", "hand": 0, "seed": "again"})
    assert (await client.expect("error"))["code"] == "seed_refused"
    await client.send({"type": "ready"})
    playing = await client.until_state(lambda s: s["phase"] == "playing")
    assert playing["deal"]["commitment"] == commitment and seeded["version"] < playing["version"]
    status, _, _ = await get(server.port, f"/history/{room.room_id}/0")
    assert status == 404  # not while the hand is being played
    await client.send({"type": "act", "version": playing["version"],
                       "action": playing["view"]["legal"][0]})
    scored = await client.expect("event")
    while scored["event"]["kind"] != "hand_scored":
        scored = await client.expect("event")
    data = scored["event"]["data"]
    assert hashlib.sha256(bytes.fromhex(data["seed"])).hexdigest() == commitment
    status, headers, body = await get(server.port, f"/history/{room.room_id}/0")
    assert status == 200 and headers["Content-Type"] == "application/json"
    found = json.loads(body)
    assert found["history"]["chain"]["head"] == data["chain"]
    assert found["history"]["deal"]["client_seeds"][0] == {
        "seat": 0, "seed": "my own dice", "origin": "client"
    }
    verdicts = verify_history(found, key)
    assert all(v.ok for v in verdicts), [v.line() for v in verdicts]
    for path in ("/history/nope/0", f"/history/{room.room_id}/x", f"/history/{room.room_id}/7"):
        assert (await get(server.port, path))[0] == 404
    await client.close()


async def test_take_back_and_the_operators_trustee_command(server: PaijuServer) -> None:
    room = server.rooms.create("race", options={"hands": 1})
    ann, _ = await joined_client(server, room.room_id, "ann")
    bob, _ = await joined_client(server, room.room_id, "bob")
    for c in (ann, bob):
        await c.send({"type": "ready"})
    await ann.until_state(lambda s: s["phase"] == "playing")
    answer = await server.admin.command(
        AdminRequest(type="admin", command="trustee", room=room.room_id, seat=0, on=True)
    )
    assert answer["seats"][0]["trustee"] is True
    await bob.until_state(lambda s: s["seats"][0]["trustee"])
    await ann.send({"type": "take_back"})
    state = await ann.until_state(lambda s: not s["seats"][0]["trustee"])
    assert state["seats"][0]["kind"] == "human"
    refused = await server.admin.answer(json.dumps(
        {"type": "admin", "command": "trustee", "room": room.room_id, "seat": 7, "on": True}
    ))
    assert refused.ok is False and refused.code == "not_a_person"
    missing = await server.admin.answer(json.dumps(
        {"type": "admin", "command": "trustee", "room": room.room_id}
    ))
    assert missing.ok is False and missing.code == "invalid_message"
    for c in (ann, bob):
        await c.close()
