"""Operator commands over the admin channel: pause and resume, notices, kick, invitations,
connections, watching a room; and what operators see of rooms (close agrees with show, bots
alone start, abandoned player rooms close)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from paiju.server.app import PaijuServer
from tests.server.client import Client
from tests.server.conftest import ADMIN_TOKEN, running

HEADERS = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


async def admin(server: PaijuServer, **request: Any) -> dict[str, Any]:
    """One admin command's answer."""
    async with connect(f"ws://127.0.0.1:{server.port}/admin", additional_headers=HEADERS) as ws:
        await ws.send(json.dumps({"type": "admin", **request}))
        answer: dict[str, Any] = json.loads(await ws.recv())
        return answer


async def ok(server: PaijuServer, **request: Any) -> Any:
    answer = await admin(server, **request)
    assert answer["ok"], answer
    return answer["result"]


@pytest.fixture
async def timed() -> AsyncIterator[PaijuServer]:
    """A server whose decisions have 1 s timers (for pause tests: long enough not to run out
    while the test looks, short enough to wait out)."""
    async with running(timers={"turn": 1.0, "claim": 1.0}) as server:
        yield server


async def seated(server: PaijuServer, room_id: str, name: str = "ann") -> Client:
    client = await Client.open(server.port)
    await client.send({"type": "join", "room": room_id, "name": name})
    await client.expect("joined")
    return client


async def playing(server: PaijuServer) -> tuple[str, Client, dict[str, Any]]:
    """A race room with a person and a bot, the person asked to act."""
    room = server.rooms.create("race", bots=1, bot_level=0, options={"hands": 1})
    client = await seated(server, room.room_id)
    await client.send({"type": "ready"})
    state = await client.until_state(lambda s: s["phase"] == "playing" and s["you"] in s["to_act"])
    return room.room_id, client, state


# ---------------------------------------------------------------- pause


async def test_pause_freezes_the_timers_refuses_acts_and_resume_shifts_the_deadlines(
    timed: PaijuServer,
) -> None:
    room_id, client, state = await playing(timed)
    room = timed.rooms.get(room_id)
    deadline = room.table.decisions.waiting[0].deadline
    assert deadline is not None
    await ok(timed, command="pause", room=room_id, text="a short break")
    told = await client.expect("room_paused")
    assert told == {"type": "room_paused", "room": room_id, "paused": True,
                    "reason": "a short break"}
    await client.send({"type": "act", "version": state["version"], "action": "go"})
    refusal = await client.expect("error")
    assert refusal["code"] == "room_paused"
    frozen = room.now()
    await asyncio.sleep(1.2)  # longer than the timer: paused, it does not run out
    assert room.now() == frozen
    assert room.table.decisions.waiting[0].deadline == deadline  # nothing played for ann
    assert (await admin(timed, command="pause", room=room_id))["code"] == "wrong_phase"
    shown = await ok(timed, command="resume", room=room_id)
    assert shown["paused"] is False
    assert (await client.expect("room_paused"))["paused"] is False
    resent = await client.expect("state")  # the time left, counted from the resume
    assert resent["deadline_ms"] is not None
    assert 0 < resent["deadline_ms"] <= round((deadline - frozen) * 1000)
    await client.send({"type": "act", "version": resent["version"], "action": "go"})
    await client.until_state(lambda s: s["view"]["phase"] == "play")
    await client.close()


async def test_pausing_a_finished_or_unknown_room_is_refused(timed: PaijuServer) -> None:
    assert (await admin(timed, command="pause", room="nosuch"))["code"] == "unknown_room"
    assert (await admin(timed, command="resume", room="nosuch"))["code"] == "unknown_room"


# ---------------------------------------------------------------- notices


async def test_a_notice_reaches_a_room_or_everyone(server: PaijuServer) -> None:
    room = server.rooms.create("race")
    other = server.rooms.create("race")
    ann = await seated(server, room.room_id)
    bob = await seated(server, other.room_id, "bob")
    watcher = await Client.open(server.port)
    await watcher.send({"type": "join", "room": room.room_id, "spectate": True})
    await watcher.expect("joined")
    lobby = await Client.open(server.port)

    told = await ok(server, command="notice", room=room.room_id, text=" the final starts soon ")
    assert told == {"room": room.room_id, "told": 2}
    for client in (ann, watcher):
        assert await client.expect("notice") == {
            "type": "notice", "room": room.room_id, "kind": "operator",
            "text": "the final starts soon"}
    assert (await ok(server, command="notice", text="restart at ten"))["told"] == 4
    for client in (ann, bob, watcher, lobby):
        notice = await client.expect("notice")
        assert notice["room"] is None and notice["text"] == "restart at ten"
    assert (await admin(server, command="notice", text="  "))["code"] == "invalid_message"
    for client in (ann, bob, watcher, lobby):
        await client.close()


# ---------------------------------------------------------------- connections and kick


async def test_connections_are_listed_and_one_is_kicked(server: PaijuServer) -> None:
    room = server.rooms.create("race")
    ann = await seated(server, room.room_id)
    lobby = await Client.open(server.port)
    rows = await ok(server, command="connections")
    assert sorted(r["kind"] for r in rows) == ["lobby", "seated"]
    mine = next(r for r in rows if r["kind"] == "seated")
    assert mine["room"] == room.room_id and mine["seat"] == 0 and mine["address"] == "127.0.0.1"
    assert await ok(server, command="connections", room=room.room_id) == [mine]
    shown = await ok(server, command="show", room=room.room_id)
    assert shown["connections"] == [{"connection": mine["connection"], "seat": 0}]

    kicked = await ok(server, command="kick", connection=mine["connection"], text="spam")
    assert kicked["kicked"] is True
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await ann.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4002
    assert closed.value.rcvd.reason == "kicked by the operator: spam"
    answer = await admin(server, command="kick", connection=mine["connection"])
    assert answer["code"] == "unknown_connection"
    assert room.table.seats[0].kind == "human"  # the seat stays for a resume
    await lobby.close()


# ---------------------------------------------------------------- invitations


async def test_an_invitation_hands_a_bots_seat_to_a_person_mid_match_once(
    timed: PaijuServer,
) -> None:
    room_id, ann, _ = await playing(timed)
    refused = await admin(timed, command="invite", room=room_id, seat=0)
    assert refused["code"] == "seat_taken"  # ann's seat is no bot's
    first = await ok(timed, command="invite", room=room_id, seat=1, name="Mei")
    invite = await ok(timed, command="invite", room=room_id, seat=1, name="Mei")
    mei = await Client.open(timed.port)
    await mei.send({"type": "resume", "room": room_id, "token": first["token"]})
    assert (await mei.expect("error"))["code"] == "bad_token"  # replaced by the second
    await mei.send({"type": "resume", "room": room_id, "token": invite["token"]})
    joined = await mei.expect("joined")
    assert joined["seat"] == 1 and joined["token"] != invite["token"]
    state = await mei.expect("state")
    assert state["seats"][1] == {"seat": 1, "kind": "human", "name": "Mei", "ready": True,
                                 "connected": True, "trustee": False, "program": False}
    room = timed.rooms.get(room_id)
    if 1 in room.table.decisions.waiting:  # asked with a person's deadline, not a bot's
        assert state["deadline_ms"] is not None and state["deadline_ms"] > 500
    again = await Client.open(timed.port)
    await again.send({"type": "resume", "room": room_id, "token": invite["token"]})
    assert (await again.expect("error"))["code"] == "bad_token"  # one time only
    await again.send({"type": "resume", "room": room_id, "token": joined["token"]})
    assert (await again.expect("joined"))["seat"] == 1  # her own token works
    for client in (ann, mei, again):
        await client.close()


# ---------------------------------------------------------------- watch


async def test_watch_streams_the_public_messages_until_the_room_is_closed(
    server: PaijuServer,
) -> None:
    room_id = server.rooms.create("race", bots=1, bot_level=0).room_id
    url = f"ws://127.0.0.1:{server.port}/admin"
    async with connect(url, additional_headers=HEADERS) as ws:
        await ws.send(json.dumps({"type": "admin", "command": "watch", "room": room_id}))
        assert json.loads(await ws.recv())["result"] == {"room": room_id, "watching": True}
        assert json.loads(await ws.recv())["type"] == "state"  # where it stands
        ann = await seated(server, room_id)
        await ann.send({"type": "ready"})
        seen: list[dict[str, Any]] = []
        while not seen or seen[-1].get("phase") != "playing":
            seen.append(json.loads(await ws.recv()))
        assert seen[-1]["type"] == "state" and seen[-1]["you"] is None
        states = [m for m in seen if m["type"] == "state"]
        assert all(m["view"] is None or m["view"]["secret"] is None for m in states)
        await ok(server, command="close", room=room_id)
        rest = [json.loads(frame) async for frame in ws]
        assert rest[-1] == {"type": "left", "room": room_id}
        assert any(m.get("phase") == "closed" for m in rest)
    assert not server.rooms.rooms.get(room_id)
    await ann.close()


async def test_watch_of_an_unknown_room_is_refused(server: PaijuServer) -> None:
    answer = await admin(server, command="watch", room="nosuch")
    assert answer["ok"] is False and answer["code"] == "unknown_room"


# ---------------------------------------------------------------- rooms as operators see them


async def test_close_answers_what_show_says_afterwards(server: PaijuServer) -> None:
    room_id = (await ok(server, command="create", variant="race", bots=1, bot_level=0))["room"]
    closed = await ok(server, command="close", room=room_id)
    assert closed["phase"] == "closed"
    assert closed == await ok(server, command="show", room=room_id)
    rows = await ok(server, command="list")
    assert [r["phase"] for r in rows if r["room"] == room_id] == ["closed"]


async def test_a_room_of_bots_only_starts_by_itself(server: PaijuServer) -> None:
    made = await ok(server, command="create", variant="race", bots=2, bot_level=0,
                    options={"hands": 1})
    assert made["phase"] != "waiting"
    room = server.rooms.get(made["room"])
    for _ in range(200):
        if room.table.phase == "finished":
            break
        await asyncio.sleep(0.01)
    assert room.table.phase == "finished"


async def test_a_player_room_nobody_is_seated_in_closes_after_the_grace() -> None:
    async with running(abandoned_room_grace=0.2) as server:
        ann = await Client.open(server.port)
        await ann.send({"type": "create_room", "preset": "dragon", "name": "ann"})
        room_id = (await ann.expect("joined"))["room"]
        operator_room = server.rooms.create("race")  # operators' rooms never close so
        await ann.close()
        room = server.rooms.get(room_id)
        for _ in range(300):
            if room_id not in server.rooms.rooms:
                break
            await asyncio.sleep(0.01)
        assert room_id not in server.rooms.rooms and room.table.phase == "closed"
        assert server.store.get_room(room_id).phase == "closed"  # type: ignore[union-attr]
        assert operator_room.room_id in server.rooms.rooms


async def test_a_player_who_comes_back_in_time_keeps_the_room() -> None:
    async with running(abandoned_room_grace=0.3) as server:
        ann = await Client.open(server.port)
        await ann.send({"type": "create_room", "preset": "dragon", "name": "ann"})
        joined = await ann.expect("joined")
        await ann.close()
        back = await Client.open(server.port)
        await back.send({"type": "resume", "room": joined["room"], "token": joined["token"]})
        await back.expect("joined")
        await asyncio.sleep(0.5)
        assert joined["room"] in server.rooms.rooms
        await back.close()
