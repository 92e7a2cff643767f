"""One connection per seat, finished rooms leaving memory, and spectator fan-out encoded once."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from websockets.exceptions import ConnectionClosed

from paiju.cli.__main__ import main
from paiju.persistence.sqlite import SqliteStore
from paiju.server import audience as audience_module
from paiju.server.protocol import AdminRequest
from paiju.table.effects import SPECTATORS, Send
from tests.security.conftest import running
from tests.server.client import Client
from tests.server.test_app import play_my_turns


async def test_a_second_resume_takes_the_seat_over_and_closes_the_first() -> None:
    async with running() as server:
        room = server.rooms.create("race", options={"hands": 1})
        first = await Client.open(server.port)
        await first.send({"type": "join", "room": room.room_id, "name": "ann"})
        token = (await first.expect("joined"))["token"]
        second = await Client.open(server.port)
        await second.send({"type": "resume", "room": room.room_id, "token": token})
        assert (await second.expect("joined"))["seat"] == 0
        told = await first.expect("taken_over")
        assert told == {"type": "taken_over", "room": room.room_id, "seat": 0}
        with pytest.raises(ConnectionClosed) as info:
            while True:
                await first.recv()
        assert info.value.rcvd is not None
        assert (info.value.rcvd.code, info.value.rcvd.reason) == (
            4001, "seat taken over by another connection"
        )
        assert room.members[0] == {s for s in server.sessions if s.seat == 0}
        assert len(room.members[0]) == 1
        # The seat still shows as connected: its new connection holds it.
        await second.send({"type": "ready"})
        state = await second.until_state(lambda s: s["seats"][0]["ready"])
        assert state["seats"][0]["connected"] is True
        await second.close()


async def test_a_finished_room_leaves_memory_and_stays_readable(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    database = f"{tmp_path}/paiju.sqlite3"
    async with running(SqliteStore(database), finished_room_grace=0.2) as server:
        room = server.rooms.create("race", bots=1, bot_level=0, options={"hands": 1})
        room_id = room.room_id
        player = await Client.open(server.port)
        await player.send({"type": "join", "room": room_id, "name": "ann"})
        token = (await player.expect("joined"))["token"]
        await player.send({"type": "ready"})
        assert (await play_my_turns(player))["phase"] == "finished"
        assert (await player.expect("left"))["room"] == room_id  # after the grace period
        assert room_id not in server.rooms.rooms
        await player.send({"type": "resume", "room": room_id, "token": token})
        assert (await player.expect("error"))["code"] == "bad_token"
        shown = await server.admin.command(
            AdminRequest(type="admin", command="show", room=room_id)
        )
        assert shown["phase"] == "finished" and shown["live"] is False
        assert len(shown["hand_scores"]) == 1
        await player.close()
    assert main(["replay", room_id, "--database", database]) == 0
    printed = capsys.readouterr().out
    assert "player" in printed and "bot" in printed  # every action, with who took it


async def test_spectator_fan_out_is_encoded_once_per_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with running(max_spectators_per_room=0, max_spectators=0) as server:
        room = server.rooms.create("race")
        received: list[bytes] = []

        class Member:
            def send_frame(self, frame: bytes) -> None:
                received.append(frame)

            def left_room(self, room_id: str) -> None:
                pass

            def when_written(self, done: Callable[[], None]) -> None:
                done()

        for _ in range(500):
            room.spectators.add(Member())
        calls = []
        real = audience_module.frame_of

        def counting(message: object, frame: bytes | None) -> bytes:
            calls.append(message)
            return real(message, frame)  # type: ignore[arg-type]

        monkeypatch.setattr(audience_module, "frame_of", counting)
        await room.call(
            lambda table, now: (None, [Send(SPECTATORS, {"type": "pong", "nonce": 1})])
        )
        assert len(calls) == 1 and len(received) == 500
        assert all(frame is received[0] for frame in received)  # the very same bytes
