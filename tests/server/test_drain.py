"""The graceful drain: no new rooms, seats or matches; clients told why; the hands in play
finish (or the limit runs out), the server stops, and a restart resumes the rooms."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from paiju.persistence.sqlite import SqliteStore
from paiju.persistence.store import hands
from paiju.server.app import PaijuServer
from tests.server.client import Client
from tests.server.conftest import ADMIN_TOKEN, make_config
from tests.server.test_end_to_end import free_port, paiju


async def seat_and_start(server: PaijuServer, hands: int = 2) -> tuple[str, Client]:
    room = server.rooms.create("race", bots=1, bot_level=0, options={"hands": hands})
    client = await Client.open(server.port)
    await client.send({"type": "join", "room": room.room_id, "name": "ann"})
    await client.expect("joined")
    await client.send({"type": "ready"})
    await client.until_state(lambda s: s["phase"] == "playing" and s["you"] in s["to_act"])
    return room.room_id, client


async def finish_the_hand(client: Client) -> dict[str, object]:
    state = client.last_state
    assert state is not None
    while state["phase"] == "playing":
        if state["you"] in state["to_act"]:
            action = state["view"]["legal"][-1]  # type: ignore[index]
            await client.send({"type": "act", "version": state["version"], "action": action})
        state = await client.expect("state")
    return state


async def test_a_drain_lets_the_hand_finish_refuses_new_work_and_stops(tmp_path: Path) -> None:
    db = tmp_path / "p.sqlite3"
    server = PaijuServer(make_config(drain_timeout=30.0), SqliteStore(db), ADMIN_TOKEN)
    await server.start()
    room_id, ann = await seat_and_start(server)
    waiting = server.rooms.create("race").room_id
    other = await Client.open(server.port)

    answer = await server.drain()
    assert answer == {"draining": True, "hands_in_play": 1, "timeout": 30.0}
    for client in (ann, other):
        notice = await client.expect("notice")
        assert notice["kind"] == "draining" and "restarting" in notice["text"]
    await other.send({"type": "join", "room": waiting, "name": "bob"})
    assert (await other.expect("error"))["code"] == "draining"
    await other.send({"type": "create_room", "preset": "dragon"})
    assert (await other.expect("error"))["code"] == "draining"
    await other.send({"type": "join", "room": room_id, "spectate": True})
    await other.expect("joined")  # watching is still fine
    assert not server.stopped.is_set()

    ended = await finish_the_hand(ann)
    assert ended["phase"] == "hand_over"  # and no next hand is dealt
    await asyncio.wait_for(server.stopped.wait(), 10)
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await ann.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
    assert closed.value.rcvd.reason == "server restarting"

    stored = SqliteStore(db)
    assert stored.get_room(room_id).phase == "hand_over"  # type: ignore[union-attr]
    assert len(hands(stored, room_id)) == 1
    stored.close()
    again = PaijuServer(make_config(), SqliteStore(db), ADMIN_TOKEN)
    await again.start()
    try:
        restored = again.rooms.get(room_id)
        for _ in range(100):  # the next hand is dealt now that the server runs
            if restored.table.hand == 1:
                break
            await asyncio.sleep(0.01)
        assert restored.table.hand == 1
    finally:
        await again.stop()


async def test_a_hand_that_outlasts_the_limit_is_resumed_after_the_restart(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.sqlite3"
    server = PaijuServer(make_config(drain_timeout=0.2), SqliteStore(db), ADMIN_TOKEN)
    await server.start()
    room_id, _ = await seat_and_start(server)
    before = server.rooms.get(room_id).table
    expected = (before.hand, before.state)
    await server.drain()
    await asyncio.wait_for(server.stopped.wait(), 10)  # ann never acted: the limit ran out
    again = PaijuServer(make_config(), SqliteStore(db), ADMIN_TOKEN)
    await again.start()
    try:
        restored = again.rooms.get(room_id).table
        assert (restored.hand, restored.state) == expected and restored.phase == "playing"
    finally:
        await again.stop()


async def test_the_admin_channel_starts_a_drain(server: PaijuServer) -> None:
    url = f"ws://127.0.0.1:{server.port}/admin"
    async with connect(url, additional_headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}) as ws:
        await ws.send(json.dumps({"type": "admin", "command": "drain"}))
        answer = json.loads(await ws.recv())
    assert answer["ok"] and answer["result"]["hands_in_play"] == 0
    await asyncio.wait_for(server.stopped.wait(), 10)


@pytest.mark.parametrize(("event_loop", "runs_on"), [("auto", "uvloop"), ("asyncio", "asyncio")])
async def test_sigterm_drains_the_real_server_which_exits_0(
    tmp_path: Path, event_loop: str, runs_on: str
) -> None:
    """On either event loop: a hand played, SIGTERM, the drain, exit 0."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")}
    command = paiju("serve", "--config", os.devnull, "--port", str(port), "--admin-token",
                    ADMIN_TOKEN, "--database", str(tmp_path / "p.sqlite3"),
                    "--set", f'event_loop="{event_loop}"',
                    "--set", "bot_delay=0.0", "--set", "between_hands=0.0",
                    "--set", "timers={turn=0.0, claim=0.0}")
    process = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert "serving" in process.stdout.readline()
        client = await Client.open(port)
        await client.send({"type": "create_room", "preset": "dragon", "bots": 3,
                           "bot_level": 0, "name": "ann"})
        await client.expect("joined")
        await client.send({"type": "ready"})
        await client.until_state(lambda s: s["phase"] == "playing" and s["you"] in s["to_act"])
        process.send_signal(signal.SIGTERM)
        assert (await client.expect("notice"))["kind"] == "draining"
        assert process.poll() is None  # the hand in play holds the server up
        await finish_the_hand(client)
        _, err = await asyncio.to_thread(process.communicate, timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    events = [line["event"] for line in lines]
    assert lines[events.index("server_started")]["event_loop"] == runs_on
    assert events.index("drain_started") < events.index("drain_finished")
    assert events[-1] == "server_stopped"


def test_the_drain_command_waits_for_the_stop(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")}
    common = ["--config", os.devnull, "--port", str(port), "--admin-token", ADMIN_TOKEN]
    process = subprocess.Popen(paiju("serve", *common, "--memory"), env=env, cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert process.stdout is not None and "serving" in process.stdout.readline()
        drained = subprocess.run(paiju("drain", *common, "--wait"), env=env, cwd=tmp_path,
                                 capture_output=True, text=True, timeout=30)
        assert drained.returncode == 0, drained.stderr
        assert "draining: 0 hand(s) in play; the server stopped" in drained.stdout
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
