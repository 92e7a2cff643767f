"""Server integration tests over real sockets on an ephemeral port."""

from __future__ import annotations

import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from paiju.persistence.store import hands
from paiju.server.app import PaijuServer
from tests.server.client import Client
from tests.server.conftest import ADMIN_TOKEN


async def joined_client(server: PaijuServer, room: str, name: str = "ann") -> tuple[Client, str]:
    client = await Client.open(server.port)
    await client.send({"type": "join", "room": room, "name": name})
    joined = await client.expect("joined")
    await client.expect("state")
    return client, joined["token"]


async def play_my_turns(client: Client, until_phase: str = "finished") -> dict[str, object]:
    """Answer every decision with the first legal action until the room reaches a phase."""
    state = client.last_state or await client.expect("state")
    while True:
        if state["phase"] == until_phase:
            return state
        if client_is_asked(state):
            await client.send(
                {"type": "act", "version": state["version"], "action": state["view"]["legal"][0]}
            )
        state = await client.expect("state")


def client_is_asked(state: dict[str, object]) -> bool:
    return state["phase"] == "playing" and state["you"] in state["to_act"]  # type: ignore[operator]


async def test_hello_then_welcome_names_the_variants(server: PaijuServer) -> None:
    client = await Client.open(server.port, hello=False)
    await client.send({"type": "hello", "protocol_version": 1, "client": "test"})
    welcome = await client.expect("welcome")
    assert welcome["protocol_version"] == 1 and "race" in welcome["variants"]
    await client.close()


async def test_a_player_connection_lets_go_of_its_handshake_headers(server: PaijuServer) -> None:
    client = await Client.open(server.port)
    assert server._server is not None
    (connection,) = server._server.connections
    assert connection.request is not None and connection.request.path == "/"
    assert not connection.request.headers and connection.response is None
    await client.send({"type": "ping", "nonce": "still"})  # and the connection goes on
    assert (await client.expect("pong"))["nonce"] == "still"
    await client.close()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "malformed_json"),
        ("[1, 2]", "malformed_json"),
        ({"type": "teleport"}, "invalid_message"),
        ({"type": "join"}, "invalid_message"),
        ({"type": "join", "room": 42}, "invalid_message"),
        ({"type": "act", "version": "x", "action": "go"}, "invalid_message"),
        ({"type": "act", "version": 1, "action": "go", "seat": 1}, "invalid_message"),
        ({"type": "hello", "protocol_version": 99}, "unsupported_version"),
        ({"type": "join", "room": "nosuchroom"}, "unknown_room"),
        ({"type": "act", "version": 0, "action": "go"}, "not_seated"),
        ({"type": "resume", "room": "nosuchroom", "token": "x" * 20}, "bad_token"),
    ],
)
async def test_bad_frames_get_typed_errors_and_the_connection_survives(
    server: PaijuServer, frame: object, code: str
) -> None:
    client = await Client.open(server.port)
    await client.send(frame if isinstance(frame, str) else json.dumps(frame))
    error = await client.expect("error")
    assert error["code"] == code and error["message"]
    await client.send({"type": "ping", "nonce": 7})
    assert (await client.expect("pong"))["nonce"] == 7
    await client.close()


async def test_messages_before_hello_are_refused(server: PaijuServer) -> None:
    client = await Client.open(server.port, hello=False)
    await client.send({"type": "ping"})
    assert (await client.expect("error"))["code"] == "hello_required"
    await client.close()


async def test_one_human_and_a_bot_play_a_whole_match_to_its_result(server: PaijuServer) -> None:
    room = server.rooms.create("race", bots=1, bot_level=0, options={"hands": 3})
    client, _ = await joined_client(server, room.room_id)
    await client.send({"type": "ready"})
    final = await play_my_turns(client)
    assert final["phase"] == "finished" and sum(final["totals"]) == 0
    events = [m["event"]["kind"] for m in client.seen if m["type"] == "event"]
    assert events.count("hand_scored") == 3 and events[-1] == "match_over"
    assert len(hands(server.store, room.room_id)) == 3
    await client.close()


async def test_two_clients_in_one_room_each_see_only_their_own_secret(server: PaijuServer) -> None:
    room = server.rooms.create("race", options={"hands": 1})
    ann, _ = await joined_client(server, room.room_id, "ann")
    bob, _ = await joined_client(server, room.room_id, "bob")
    await ann.send({"type": "ready"})
    await bob.send({"type": "ready"})
    state_a = await ann.until_state(lambda s: s["phase"] == "playing")
    state_b = await bob.until_state(lambda s: s["phase"] == "playing")
    table = server.rooms.get(room.room_id).table
    assert state_a["view"]["secret"] == table.state.secret[0]
    assert state_b["view"]["secret"] == table.state.secret[1]
    for message in ann.seen:  # every state ann was ever sent showed her secret, never bob's
        if message["type"] == "state" and message["view"] is not None:
            assert message["view"]["secret"] == table.state.secret[0]
    for c in (ann, bob):
        await c.close()


async def test_refused_actions_leave_the_room_unchanged(server: PaijuServer) -> None:
    room = server.rooms.create("race", options={"hands": 1})
    ann, _ = await joined_client(server, room.room_id, "ann")
    bob, _ = await joined_client(server, room.room_id, "bob")
    await ann.send({"type": "ready"})
    await bob.send({"type": "ready"})
    # Versions are per viewer: each client echoes the version of its own last state.
    old = {}
    for client in (ann, bob):
        old[client] = (await client.until_state(lambda s: s["phase"] == "playing"))["version"]
        await client.send({"type": "act", "version": old[client], "action": "go"})
    for client in (ann, bob):
        await client.until_state(lambda s: s["view"]["phase"] == "play")
    table = server.rooms.get(room.room_id).table
    state = ann.last_state
    assert state is not None
    mover = ann if state["you"] in state["to_act"] else bob
    idle = bob if mover is ann else ann

    def current(client: Client) -> int:
        assert client.last_state is not None
        return int(client.last_state["version"])

    before = (table.version, table.state)
    cases = [
        (idle, {"type": "act", "version": current(idle), "action": "add 1"}, "not_your_turn"),
        (mover, {"type": "act", "version": old[mover], "action": "add 1"}, "stale_version"),
        (mover, {"type": "act", "version": current(mover) + 1, "action": "add 1"}, "stale_version"),
        (mover, {"type": "act", "version": current(mover), "action": "add 7"}, "malformed_action"),
        (mover, {"type": "act", "version": current(mover), "action": "go"}, "not_legal_here"),
        (mover, {"type": "join", "room": room.room_id}, "already_joined"),
    ]
    for client, frame, code in cases:
        await client.send(frame)
        assert (await client.expect("error"))["code"] == code
        assert (table.version, table.state) == before
    for c in (ann, bob):
        await c.close()


async def test_a_client_reconnects_with_its_token_mid_hand(server: PaijuServer) -> None:
    room = server.rooms.create("race", bots=1, bot_level=0, options={"hands": 2})
    client, token = await joined_client(server, room.room_id)
    await client.send({"type": "ready"})
    await client.until_state(lambda s: s["phase"] == "playing")
    await client.close()
    other = await Client.open(server.port)
    await other.send({"type": "resume", "room": room.room_id, "token": "not-the-token"})
    assert (await other.expect("error"))["code"] == "bad_token"
    await other.send({"type": "resume", "room": room.room_id, "token": token})
    joined = await other.expect("joined")
    assert joined["seat"] == 0
    state = await other.expect("state")
    assert state["phase"] == "playing" and state["view"] is not None
    assert state["seats"][0]["connected"] is True
    final = await play_my_turns(other)
    assert final["phase"] == "finished"
    await other.close()


async def test_disconnect_is_shown_to_the_other_seat(server: PaijuServer) -> None:
    room = server.rooms.create("race", options={"hands": 1})
    ann, _ = await joined_client(server, room.room_id, "ann")
    bob, _ = await joined_client(server, room.room_id, "bob")
    await bob.close()
    state = await ann.until_state(
        lambda s: s["seats"][1]["kind"] == "human" and s["seats"][1]["connected"] is False
    )
    assert state["seats"][1]["kind"] == "human"
    await ann.close()


async def test_spectators_see_the_public_view(server: PaijuServer) -> None:
    room = server.rooms.create("race", bots=1, bot_level=0, options={"hands": 1})
    watcher = await Client.open(server.port)
    await watcher.send({"type": "join", "room": room.room_id, "spectate": True})
    assert (await watcher.expect("joined"))["seat"] is None
    player, _ = await joined_client(server, room.room_id)
    await player.send({"type": "ready"})
    state = await watcher.until_state(lambda s: s["phase"] == "playing")
    assert state["you"] is None and state["view"]["secret"] is None
    await watcher.close()
    await player.close()


async def test_an_oversized_frame_closes_only_that_connection(server: PaijuServer) -> None:
    big = await Client.open(server.port)
    small = await Client.open(server.port)
    await big.send({"type": "ping", "nonce": "x" * 100_000})
    with pytest.raises(ConnectionClosed) as info:
        await big.recv()
    assert info.value.rcvd is not None and info.value.rcvd.code == 1009
    await small.send({"type": "ping"})
    await small.expect("pong")
    await small.close()


async def test_a_flood_is_rate_limited_then_closed() -> None:
    from paiju.persistence.memory import MemoryStore
    from tests.server.conftest import make_config

    srv = PaijuServer(
        make_config(rate_per_second=1.0, rate_burst=3, flood_strikes=5),
        MemoryStore(),
        "t0ken-admin",
    )
    await srv.start()
    try:
        client = await Client.open(srv.port)
        for _ in range(20):
            await client.send({"type": "ping"})
        codes = []
        with pytest.raises(ConnectionClosed) as info:
            while True:
                message = await client.recv()
                codes.append(message.get("code"))
        assert "rate_limited" in codes
        assert info.value.rcvd is not None and info.value.rcvd.code == 1008
    finally:
        await srv.stop()


async def test_admin_channel_needs_the_token(server: PaijuServer) -> None:
    url = f"ws://127.0.0.1:{server.port}/admin"
    with pytest.raises(InvalidStatus):
        async with connect(url):
            pass
    with pytest.raises(InvalidStatus):
        async with connect(url, additional_headers={"Authorization": "Bearer wrong"}):
            pass


async def test_admin_commands_create_list_show_start_close(server: PaijuServer) -> None:
    url = f"ws://127.0.0.1:{server.port}/admin"
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    async with connect(url, additional_headers=headers) as ws:

        async def call(**request: object) -> dict[str, object]:
            await ws.send(json.dumps({"type": "admin", **request}))
            reply: dict[str, object] = json.loads(await ws.recv())
            return reply

        created = await call(command="create", variant="race", bots=1, bot_level=0)
        assert created["ok"] is True
        room = created["result"]["room"]  # type: ignore[index]
        listed = await call(command="list")
        assert [r["room"] for r in listed["result"]] == [room]  # type: ignore[union-attr]
        assert (await call(command="create", variant="nope"))["code"] == "unknown_variant"
        bad = await call(command="create", variant="race", options={"colour": "red"})
        assert bad["code"] == "invalid_options"
        no_bot = await call(command="start", room=room, bot_level=5)
        assert no_bot["code"] == "invalid_options"  # the race variant has only level-0 bots
        assert (await call(command="show", room=room))["result"]["phase"] == "waiting"  # type: ignore[index]
        started = await call(command="start", room=room, bot_level=0)
        assert started["result"]["phase"] in ("playing", "hand_over", "finished")  # type: ignore[index]
        closed = await call(command="close", room=room)
        assert closed["ok"] is True
        shown = await call(command="show", room=room)  # from the store, no longer live
        assert shown["result"]["phase"] == "closed" and shown["result"]["live"] is False  # type: ignore[index]
        assert (await call(command="show", room="nosuchroom"))["code"] == "unknown_room"


async def test_shutdown_closes_clients_with_a_reason() -> None:
    from paiju.persistence.memory import MemoryStore
    from tests.server.conftest import make_config

    srv = PaijuServer(make_config(), MemoryStore(), "t0ken-admin")
    await srv.start()
    client = await Client.open(srv.port)
    await srv.stop()
    with pytest.raises(ConnectionClosed) as info:
        await client.recv()
    assert info.value.rcvd is not None and info.value.rcvd.code == 1001
    assert "shutting down" in info.value.rcvd.reason


async def test_an_illegal_dragon_arrangement_is_refused_with_the_rule(server: PaijuServer) -> None:
    room = server.rooms.create("dragon", bots=3, bot_level=1, options={"hands": 1})
    client, _ = await joined_client(server, room.room_id)
    await client.send({"type": "ready"})
    state = await client.until_state(lambda s: s["phase"] == "playing" and s["to_act"] == [0])
    table = server.rooms.get(room.room_id).table
    before = (table.version, table.state)
    hand = state["view"]["hand"]
    not_mine = next(t for t in ["66", "11", "44", "13", "55", "33"] if hand.count(t) == 0)
    attempts = {
        f"chain {' '.join(hand[:6])} | {not_mine} {hand[7]}": {
            "not_your_tiles",
            "wrong_tile_count",
        },
        "chain 66 | 11": {"chain_length", "not_your_tiles", "wrong_tile_count"},
        "chain 99 | 11": {"malformed_action"},
    }
    for action, codes in attempts.items():
        await client.send({"type": "act", "version": state["version"], "action": action})
        error = await client.expect("error")
        assert error["code"] in codes, (action, error)
        assert (table.version, table.state) == before
    await client.send(
        {"type": "act", "version": state["version"], "action": state["view"]["legal"][0]}
    )
    final = await client.until_state(lambda s: s["phase"] == "finished")
    assert final["view"]["result"]["scores"] == list(table.hand_scores[0])
    await client.close()
