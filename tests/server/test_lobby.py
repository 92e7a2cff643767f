"""The lobby over real sockets: presets, the room list, rooms players open, bots in and out,
rematches, name checks."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from paiju.persistence.memory import MemoryStore
from paiju.server.app import PaijuServer
from paiju.server.lobby import check_name
from tests.server.client import Client
from tests.server.conftest import ADMIN_TOKEN, make_config
from tests.server.test_app import play_my_turns


async def lobby(client: Client) -> dict[str, Any]:
    await client.send({"type": "lobby"})
    return await client.expect("lobby")


async def create(client: Client, **fields: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    await client.send({"type": "create_room", "name": "mei", **fields})
    joined = await client.expect("joined")
    return joined, await client.expect("state")


async def refused(client: Client, message: dict[str, Any]) -> str:
    """Send ``message``, expect an error, and check the connection still answers."""
    await client.send(message)
    error = await client.expect("error")
    assert error["message"]
    await client.send({"type": "ping", "nonce": "alive"})
    assert (await client.expect("pong"))["nonce"] == "alive"
    code: str = error["code"]
    return code


async def test_the_lobby_lists_every_preset_with_its_choices(server: PaijuServer) -> None:
    client = await Client.open(server.port)
    answer = await lobby(client)
    presets = {p["name"]: p for p in answer["presets"]}
    assert set(presets) == {"diu", "dragon", "mcr", "shengji"}
    assert answer["player_rooms"] is True
    assert presets["mcr"]["seats"] == 4 and presets["diu"]["seats"] == 3
    assert presets["mcr"]["choices"]["rounds"] == [1, 2, 4]
    assert presets["mcr"]["timers"] == {"claim": 10.0, "turn": 20.0}
    assert presets["dragon"]["options"]["hands"] == 4  # normalized: every option is there
    await client.close()


async def test_play_now_seats_the_player_with_bots_and_starts_on_ready(
    server: PaijuServer,
) -> None:
    client = await Client.open(server.port)
    joined, state = await create(client, preset="dragon", bots=3)
    assert joined["seat"] == 0 and joined["token"]
    assert [s["kind"] for s in state["seats"]] == ["human", "bot", "bot", "bot"]
    assert state["preset"] == "dragon" and state["private"] is False
    await client.send({"type": "ready"})
    playing = await client.until_state(lambda s: s["phase"] == "playing")
    assert playing["view"]["legal"]
    await client.close()


async def test_public_rooms_are_listed_and_private_ones_are_not(server: PaijuServer) -> None:
    alice, bob, carol = [await Client.open(server.port) for _ in range(3)]
    public, _ = await create(alice, preset="mcr", bots=2)
    hidden, _ = await create(bob, preset="mcr", bots=2, private=True)
    rows = {r["room"]: r for r in (await lobby(carol))["rooms"]}
    assert public["room"] in rows and hidden["room"] not in rows
    assert rows[public["room"]]["free"] == [1] and rows[public["room"]]["phase"] == "waiting"
    assert len(hidden["room"]) == 16  # 64 random bits: the link is the only way in
    # The link works: a third player takes the free seat of the private room.
    await carol.send({"type": "join", "room": hidden["room"], "name": "carol"})
    assert (await carol.expect("joined"))["seat"] == 1


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"preset": "nosuch"}, "unknown_preset"),
        ({"preset": "mcr", "options": {"min_fan": 0}}, "invalid_options"),  # not a choice
        ({"preset": "mcr", "options": {"rounds": 3}}, "invalid_options"),  # not allowed
        ({"preset": "mcr", "options": {"multiple_win": 1}}, "invalid_options"),  # 1 is no bool
        ({"preset": "mcr", "bots": 4}, "invalid_options"),  # no seat left for the player
        ({"preset": "dragon", "bots": 1, "bot_level": 5}, "invalid_options"),
        ({"preset": "mcr", "name": "   "}, "invalid_name"),
        ({"preset": "mcr", "name": "x" * 25}, "invalid_name"),
        ({"preset": "mcr", "name": "evil\u202etxt"}, "invalid_name"),
        ({"preset": "mcr", "name": "bell\x07"}, "invalid_name"),
    ],
)
async def test_bad_room_requests_are_refused_and_make_no_room(
    server: PaijuServer, fields: dict[str, Any], code: str
) -> None:
    client = await Client.open(server.port)
    before = set(server.rooms.rooms)
    assert await refused(client, {"type": "create_room", "name": "mei", **fields}) == code
    assert set(server.rooms.rooms) == before
    await client.close()


async def test_the_operator_can_turn_player_rooms_off() -> None:
    srv = PaijuServer(make_config(player_rooms=False), MemoryStore(), ADMIN_TOKEN)
    await srv.start()
    try:
        client = await Client.open(srv.port)
        welcome = client.seen[-1]
        assert welcome["type"] == "welcome" and welcome["player_rooms"] is False
        message = {"type": "create_room", "preset": "dragon", "name": "mei"}
        assert await refused(client, message) == "rooms_disabled"
        assert srv.rooms.rooms == {}
        await client.close()
    finally:
        await srv.stop()


async def test_players_add_and_remove_bots_while_waiting(server: PaijuServer) -> None:
    client = await Client.open(server.port)
    await create(client, preset="mcr", bots=0)
    await client.send({"type": "add_bot", "seat": 2, "level": 2})
    state = await client.until_state(lambda s: s["seats"][2]["kind"] == "bot")
    assert [s["kind"] for s in state["seats"]] == ["human", "empty", "bot", "empty"]
    assert await refused(client, {"type": "add_bot", "seat": 0}) == "seat_taken"
    assert await refused(client, {"type": "remove_bot", "seat": 1}) == "seat_taken"
    assert await refused(client, {"type": "add_bot", "seat": 1, "level": 9}) == "invalid_options"
    await client.send({"type": "remove_bot", "seat": 2})
    await client.until_state(lambda s: s["seats"][2]["kind"] == "empty")
    await client.close()


async def test_seat_changes_need_a_seat(server: PaijuServer) -> None:
    client = await Client.open(server.port)
    assert await refused(client, {"type": "add_bot", "seat": 1}) == "not_seated"
    assert await refused(client, {"type": "rematch"}) == "not_seated"
    await client.close()


async def test_the_last_player_leaving_closes_a_player_room(server: PaijuServer) -> None:
    client = await Client.open(server.port)
    joined, _ = await create(client, preset="dragon", bots=3)
    await client.send({"type": "leave"})
    await client.expect("left")
    assert joined["room"] not in server.rooms.rooms
    await client.close()


async def test_a_rematch_reseats_both_players_in_a_new_room(server: PaijuServer) -> None:
    ann, bob = await Client.open(server.port), await Client.open(server.port)
    joined, _ = await create(ann, preset="dragon", bots=2, options={"hands": 1})
    old = joined["room"]
    assert await refused(ann, {"type": "rematch"}) == "wrong_phase"
    await bob.send({"type": "join", "room": old, "name": "bob"})
    assert (await bob.expect("joined"))["seat"] == 1
    for client in (ann, bob):
        await client.send({"type": "ready"})
    await asyncio.gather(play_my_turns(ann), play_my_turns(bob))
    await ann.send({"type": "rematch"})
    moved = await ann.expect("joined")
    assert moved["room"] != old and moved["seat"] == 0 and moved["token"]
    offered = await bob.until_state(lambda s: s["rematch"] is not None)
    assert offered["rematch"] == moved["room"] and offered["phase"] == "finished"
    await bob.send({"type": "rematch"})
    bob_moved = await bob.expect("joined")
    assert (bob_moved["room"], bob_moved["seat"]) == (moved["room"], 1)
    fresh = await bob.expect("state")
    assert [s["kind"] for s in fresh["seats"]] == ["human", "human", "bot", "bot"]
    assert fresh["phase"] == "waiting" and fresh["preset"] == "dragon"
    assert server.rooms.get(moved["room"]).table.options["hands"] == 1


@pytest.mark.parametrize(
    ("raw", "shown"),
    [("  Mei ", "Mei"), ("李小龙", "李小龙"), ("a" * 24, "a" * 24), ("o'Brien <b>", "o'Brien <b>")],
)
def test_good_names_are_kept_as_text(raw: str, shown: str) -> None:
    assert check_name(raw) == shown


async def _seat_of_a_program(server: PaijuServer, bot: bool) -> dict[str, Any]:
    """The seat a client takes after a hello that says ``bot``, as a second client sees it."""
    room = server.rooms.create("dragon", options={"seats": 2})
    program = await Client.open(server.port, hello=False)
    await program.send({"type": "hello", "protocol_version": 1, "client": "t", "bot": bot})
    await program.expect("welcome")
    await program.send({"type": "join", "room": room.room_id, "name": "ada"})
    await program.expect("joined")
    person = await Client.open(server.port)
    await person.send({"type": "join", "room": room.room_id, "name": "mei"})
    state = await person.expect("state")
    await program.close()
    await person.close()
    seat: dict[str, Any] = state["seats"][0]
    assert seat["name"] == "ada" and seat["kind"] == "human"  # the seat stays a person's
    return seat


async def test_a_seat_taken_by_a_program_is_marked_for_everyone(server: PaijuServer) -> None:
    assert (await _seat_of_a_program(server, bot=True))["program"] is True
    assert (await _seat_of_a_program(server, bot=False))["program"] is False


async def test_the_operator_can_keep_programs_unmarked() -> None:
    from tests.server.conftest import running

    async with running(show_programs=False) as server:
        assert (await _seat_of_a_program(server, bot=True))["program"] is False
