"""The spectators' delay: a spectator sees exactly what an undelayed watcher sees, each
message no sooner than the delay after it happened (seconds), or after that many more actions;
one who joins late is shown the last state let go, never the live one."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from paiju.persistence.memory import MemoryStore
from paiju.persistence.store import actions
from paiju.server.app import PaijuServer
from paiju.server.room import Room
from paiju.table.effects import Effect
from paiju.table.table import PLAYING, Table
from tests.server.client import Client
from tests.server.conftest import running

DELAY = 0.3


class Recorder:
    """An undelayed watcher of the room (as an operator's ``watch`` is): when each public
    message happened, how many actions were accepted by then, whether a hand was in play,
    and the message."""

    def __init__(self, room: Room, store: MemoryStore) -> None:
        self.room, self.store = room, store
        self.seen: list[tuple[float, int, bool, dict[str, Any]]] = []
        # The room's clock when the feed took the message: the delay runs from there. (The
        # loop's time when this watcher is handed the message can be a few milliseconds
        # later on a loaded machine, which once made the test fail by 3 ms.)
        self.pushed_at: float | None = None
        push = room.feed.push

        def noted(message: dict[str, Any], now: float) -> None:
            self.pushed_at = now
            push(message, now)

        room.feed.push = noted  # type: ignore[method-assign]

    def send_frame(self, frame: bytes) -> None:
        assert self.pushed_at is not None, "a public message the feed did not take"
        done = len(actions(self.store, self.room.room_id))
        self.seen.append(
            (self.pushed_at, done, self.room.table.phase == PLAYING, json.loads(frame)))
        self.pushed_at = None

    def left_room(self, room_id: str) -> None:
        pass

    def when_written(self, done: Callable[[], None]) -> None:
        done()


async def watch(room: Room, recorder: Recorder) -> None:
    def job(table: Table, now: float) -> tuple[None, list[Effect]]:
        room.watchers.add(recorder)
        return None, []

    await room.call(job)


async def spectate(server: PaijuServer, room: Room, store: MemoryStore, out: list[Any],
                   until: Callable[[dict[str, Any]], bool]) -> None:
    """Watch as a spectator over the socket, noting for each message when it came, how many
    actions the room had accepted by then and whether a hand was in play."""
    client = await Client.open(server.port)
    await client.send({"type": "join", "room": room.room_id, "spectate": True})
    await client.expect("joined")
    loop = asyncio.get_running_loop()
    while True:
        message = await client.recv()
        in_play = room.table.phase == PLAYING
        out.append((loop.time(), len(actions(store, room.room_id)), in_play, message))
        if until(message):
            break
    await client.close()


async def play(server: PaijuServer, room: Room) -> None:
    """A person plays the room's match to its end against the bot."""
    client = await Client.open(server.port)
    await client.send({"type": "join", "room": room.room_id, "name": "ann"})
    await client.expect("joined")
    await client.send({"type": "ready"})
    state = await client.until_state(lambda s: s["phase"] == "playing")
    while state["phase"] != "finished":
        if state["phase"] == "playing" and state["you"] in state["to_act"]:
            legal = state["view"]["legal"]
            await client.send({"type": "act", "version": state["version"],
                               "action": legal[-1]})
        state = await client.expect("state")
    await client.close()


def finished(message: dict[str, Any]) -> bool:
    return bool(message["type"] == "state" and message["phase"] == "finished")


async def watched_game(options: dict[str, Any], **delay: Any) -> tuple[Recorder, list[Any]]:
    """A race match with a spectator delay, played to its end while an undelayed recorder
    and a spectator watch; what each saw."""
    store = MemoryStore()
    async with running(store) as server:
        room = server.rooms.create("race", bots=1, bot_level=0, options=options, **delay)
        recorder = Recorder(room, store)
        await watch(room, recorder)
        seen: list[Any] = []
        spectator = asyncio.create_task(spectate(server, room, store, seen, finished))
        await asyncio.sleep(0)
        await play(server, room)
        await asyncio.wait_for(spectator, 10)
    live = [message for _, _, _, message in recorder.seen]
    late = [message for _, _, _, message in seen[1:]]
    # The spectator's first state is the room as it was opened; then the same messages.
    assert seen[0][3]["type"] == "state" and seen[0][3]["phase"] == "waiting"
    assert late == live[: len(late)] and finished(late[-1])
    return recorder, seen


async def test_a_spectator_sees_everything_and_nothing_before_the_delay() -> None:
    recorder, seen = await watched_game({"hands": 2}, spectator_delay=DELAY)
    late = [message for _, _, _, message in seen[1:]]
    assert any(m["type"] == "event" and m["event"]["kind"] == "added" for m in late)
    for (happened, _, _, _), (shown, _, _, _) in zip(recorder.seen, seen[1:], strict=False):
        assert shown >= happened + DELAY


async def test_a_spectator_is_held_back_by_actions() -> None:
    recorder, seen = await watched_game({"hands": 2, "target": 9}, spectator_delay_actions=2)
    held = 0
    for (_, actions_then, in_play_then, _), (_, actions_shown, in_play, _) in zip(
        recorder.seen, seen[1:], strict=False
    ):
        if in_play_then:  # what happened in a hand: two more actions first, or its end
            assert actions_shown >= actions_then + 2 or not in_play
            held += actions_shown >= actions_then + 2
    assert held > 5


async def test_a_late_spectator_gets_the_last_state_let_go_not_the_live_one() -> None:
    async with running() as server:
        room = server.rooms.create("race", bots=1, bot_level=0,
                                   options={"hands": 1, "target": 50},
                                   spectator_delay=30.0)
        ann = await Client.open(server.port)
        await ann.send({"type": "join", "room": room.room_id, "name": "ann"})
        await ann.expect("joined")
        await ann.send({"type": "ready"})
        await ann.until_state(lambda s: s["phase"] == "playing")
        late = await Client.open(server.port)
        await late.send({"type": "join", "room": room.room_id, "spectate": True})
        await late.expect("joined")
        await late.send({"type": "ping", "nonce": 1})
        # Thirty seconds have not passed: not even the room as it opened is shown yet.
        assert (await late.recv())["type"] == "pong"
        assert room.spectator_state(room.now()) is None
        assert room.table.snapshot(None, room.now())["phase"] == "playing"
        for client in (ann, late):
            await client.close()
