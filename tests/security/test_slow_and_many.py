"""Attacks with many or slow connections: spectator swarms, readers that stop reading."""

from __future__ import annotations

import asyncio
import json
import socket

from websockets.client import ClientProtocol
from websockets.frames import Close, Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from paiju.server.rooms import Room
from paiju.server.sessions import TOO_SLOW
from paiju.table.effects import SPECTATORS, Send
from tests.security.conftest import eventually, running
from tests.server.client import Client
from tests.server.test_app import play_my_turns


class Stalled:
    """A spectator that stops reading after ``joined``, on a plain socket with a small
    receive buffer (the WebSocket is spoken with websockets' sans-I/O protocol)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.protocol = ClientProtocol(parse_uri("ws://127.0.0.1/"))
        self.frames: list[Frame] = []

    @classmethod
    async def watch(cls, port: int, room: str) -> Stalled:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        stalled = cls(*await asyncio.open_connection(sock=sock))
        stalled.protocol.send_request(stalled.protocol.connect())
        stalled._write()
        while stalled.protocol.state is not State.OPEN:
            await stalled._read()
        for message in ({"type": "hello", "protocol_version": 1},
                        {"type": "join", "room": room, "spectate": True}):
            stalled.protocol.send_text(json.dumps(message).encode())
        stalled._write()
        while not any(b'"joined"' in f.data for f in stalled.frames):
            await stalled._read()
        return stalled

    def _write(self) -> None:
        for data in self.protocol.data_to_send():
            self.writer.write(data)

    async def _read(self) -> bool:
        data = await self.reader.read(65536)
        if data:
            self.protocol.receive_data(data)
        else:
            self.protocol.receive_eof()
        self.frames += [e for e in self.protocol.events_received() if isinstance(e, Frame)]
        return bool(data)

    async def read_close(self) -> Close | None:
        """Read again, to the end: the close frame the server sent, if any."""
        while await self._read():
            closes = [f for f in self.frames if f.opcode is Opcode.CLOSE]
            if closes:
                return Close.parse(closes[0].data)
        return None

    def abort(self) -> None:
        self.writer.transport.abort()


async def watch(port: int, room: str) -> tuple[Client, dict[str, object]]:
    client = await Client.open(port)
    await client.send({"type": "join", "room": room, "spectate": True})
    answer = await client.recv()
    return client, answer


async def test_a_spectator_swarm_meets_the_room_cap_and_the_server_budget() -> None:
    async with running(max_spectators_per_room=3, max_spectators=5) as server:
        first = server.rooms.create("race").room_id
        second = server.rooms.create("race").room_id
        watchers = []
        for _ in range(3):
            client, answer = await watch(server.port, first)
            assert answer["type"] == "joined"
            watchers.append(client)
        client, answer = await watch(server.port, first)
        assert answer["type"] == "error" and answer["code"] == "spectators_full"
        assert answer["details"] == {"limit": 3}
        watchers.append(client)
        for expected in ("joined", "joined", "error"):  # 5 in all on the server
            client, answer = await watch(server.port, second)
            assert answer["type"] == expected
            watchers.append(client)
        assert answer["details"] == {"limit": 5}
        # A refused spectator can still play: the connection is unharmed.
        await client.send({"type": "join", "room": second, "name": "bob"})
        assert (await client.expect("joined"))["seat"] == 0
        for c in watchers:
            await c.close()


async def shout(room: Room, times: int, size: int = 20_000) -> None:
    """Send the spectators ``times`` big frames (more than any buffer holds), from the
    room's own task, as a busy table would."""
    frame = {"type": "pong", "nonce": "x" * size}
    for _ in range(times):
        await room.call(lambda table, now: (None, [Send(SPECTATORS, frame)]))


async def test_a_reader_that_stalls_is_closed_1008_and_the_room_plays_on() -> None:
    async with running(outbound_queue=16, send_timeout=3.0, socket_send_buffer=4096) as server:
        room = server.rooms.create("race", bots=1, bot_level=0, options={"hands": 3})
        stalled = await Stalled.watch(server.port, room.room_id)
        player = await Client.open(server.port)
        await player.send({"type": "join", "room": room.room_id, "name": "ann"})
        await player.expect("joined")
        await shout(room, 40)
        await eventually(lambda: any(s.close_code == 1008 for s in server.sessions))
        slow = next(s for s in server.sessions if s.close_code == 1008)
        assert slow.close_reason == TOO_SLOW and slow.outbox.bytes == 0
        # The room was never held up: the player plays the whole match.
        await player.send({"type": "ready"})
        final = await play_my_turns(player)
        assert final["phase"] == "finished"
        # A client that reads again gets the close frame: code 1008 and the reason.
        close = await stalled.read_close()
        assert close is not None and (close.code, close.reason) == (1008, TOO_SLOW)
        await player.close()


async def test_a_reader_that_never_reads_again_is_aborted() -> None:
    async with running(outbound_queue=16, send_timeout=0.5, socket_send_buffer=4096) as server:
        room = server.rooms.create("race")
        stalled = await Stalled.watch(server.port, room.room_id)
        sessions = set(server.sessions)
        await shout(room, 40)
        # Closed from outside within send_timeout of the overflow, though the close frame
        # itself cannot be sent: the socket and everything queued for it are let go.
        await eventually(lambda: not (sessions & server.sessions))
        await eventually(lambda: server.counts.total == 0)
        stalled.abort()


async def test_a_reader_whose_frames_fit_the_queue_but_not_the_socket_is_closed_in_time() -> None:
    # The writer times only sends that could wait (the transport's buffer near its mark):
    # a client that stops reading is still closed send_timeout after its sends stall.
    from paiju.server.link import SEND_TIMEOUT

    async with running(outbound_queue=1000, outbound_queue_bytes=10_000_000,
                       send_timeout=0.5, socket_send_buffer=4096) as server:
        room = server.rooms.create("race")
        stalled = await Stalled.watch(server.port, room.room_id)
        (session,) = server.sessions
        await shout(room, 20)
        # Not an overflow (the queue holds it all, close_code stays 0): the writer gave up.
        await eventually(lambda: session.outbox.ended)
        assert session.close_code == 0 and session.outbox.frames == []
        close = await stalled.read_close()  # unless the close itself was aborted by then
        assert close is None or (close.code, close.reason) == (1008, SEND_TIMEOUT)


def test_frames_that_fit_below_the_write_mark_are_sent_untimed() -> None:
    from types import SimpleNamespace
    from typing import Any

    from paiju.server.link import FRAME_OVERHEAD, may_wait

    def connection(buffered: int, paused: bool = False) -> Any:
        transport = SimpleNamespace(get_write_buffer_size=lambda: buffered)
        return SimpleNamespace(paused=paused, transport=transport, write_limit_high=1000)

    frames = [b"x" * 300, b"y" * 300]
    assert not may_wait(connection(0), frames)
    assert not may_wait(connection(1000 - 600 - 2 * FRAME_OVERHEAD), frames)
    assert may_wait(connection(1000 - 600 - 2 * FRAME_OVERHEAD + 1), frames)
    assert may_wait(connection(0, paused=True), [b"x"])
