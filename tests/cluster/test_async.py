"""The Redis calls of a cluster node are awaited (docs/cluster.md): a stopped Redis holds up
the rooms that write, never the node's pings and health checks; each room still writes one
change at a time, in order, and acknowledges an action only once Redis has it; a fenced
write drops its room alone."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.asyncio.client import connect

from paiju.persistence.redisstore import RedisStore, key
from paiju.persistence.restore import check_chain
from paiju.persistence.store import actions
from paiju.server.app import PaijuServer
from tests.cluster.harness import TOKEN, Node, until
from tests.redisd import RedisServer
from tests.server.client import Client
from tests.server.conftest import running
from tests.server.http_get import get

pytestmark = pytest.mark.xdist_group("cluster")

#: Longer than the Redis stop below: the leases outlive it, the node keeps its rooms.
LONG_LEASE = 30.0


@pytest.fixture
def redis_own(tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis of this test alone (it is stopped with SIGSTOP)."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    yield server
    if server.proc is not None:
        server.proc.send_signal(signal.SIGCONT)
    server.stop()


@contextlib.asynccontextmanager
async def node(redis_url: str, name: str) -> AsyncIterator[PaijuServer]:
    store = RedisStore(redis_url, node=name, retry_for=5.0, timeout=0.5)
    async with running(store, lease_ttl=LONG_LEASE) as server:
        yield server


async def seated(port: int, room: str) -> tuple[Client, dict[str, Any]]:
    """Ann in seat 0 of a dragon room with three bots, asked to act."""
    client = await Client.open(port)
    await client.send({"type": "join", "room": room, "name": "ann"})
    await client.expect("joined")
    await client.send({"type": "ready"})
    state = await client.until_state(lambda s: s["phase"] == "playing" and s["to_act"] == [0])
    return client, state


def probe(url: str) -> tuple[int, str]:
    """GET a health probe; it must answer within 5 s (the node's loop is never held)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


async def act(client: Client, state: dict[str, Any]) -> str:
    action: str = state["view"]["legal"][0]
    await client.send({"type": "act", "version": state["version"], "action": action})
    return action


async def test_a_stopped_redis_holds_up_the_action_but_not_the_node(
    tmp_path: Path, redis_own: RedisServer
) -> None:
    # the node in a process of its own: a node that blocked on Redis could not fool the test
    node_a = Node(tmp_path, "a", redis_own.url, f"lease_ttl={LONG_LEASE}", "redis_retry=60.0")
    node_a.start()
    try:
        made = await node_a.admin(command="create", variant="dragon", bots=3,
                                  options={"hands": 50})
        ann, state = await seated(node_a.port, made["room"])
        other = await Client.open(node_a.port)
        assert redis_own.proc is not None
        redis_own.proc.send_signal(signal.SIGSTOP)
        try:
            seen = len(ann.seen)
            await act(ann, state)
            await asyncio.wait_for(ann.ws.ping(), 5)  # the node has read the act
            # an operator's listing waits for Redis too, holding up nothing else
            operator = await connect(f"{node_a.url}admin",
                                     additional_headers={"Authorization": f"Bearer {TOKEN}"})
            await operator.send(json.dumps({"type": "admin", "command": "list"}))
            await asyncio.wait_for(operator.ping(), 5)
            for nonce in range(3):  # meanwhile the node answers everyone else at once
                await other.send({"type": "ping", "nonce": str(nonce)})
                pong = await asyncio.wait_for(other.expect("pong"), 5)
                assert pong["nonce"] == str(nonce)
                assert await asyncio.wait_for(get(f"http://127.0.0.1:{node_a.port}/healthz"),
                                              5) == (200, "ok\n")
            # ... but nothing the act caused is sent before Redis has it
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(ann.ws.recv(), 0.5)
            assert ann.seen[seen:] == []
        finally:
            redis_own.proc.send_signal(signal.SIGCONT)
        acked = await ann.until_state(lambda s: s["version"] > state["version"])
        assert acked["hand"] == state["hand"]
        listed = json.loads(await asyncio.wait_for(operator.recv(), 10))
        assert [row["room"] for row in listed["result"]] == [made["room"]]
        await operator.close()
        store = RedisStore(redis_own.url)
        logged = [a.action for a in actions(store, made["room"]) if a.seat == 0]
        assert logged == [state["view"]["legal"][0]]
        check_chain(store, made["room"])
        assert node_a.lines("room_write_failed") == []
        await ann.close()
        await other.close()
    finally:
        node_a.stop()


async def test_rooms_writing_at_once_each_write_in_order_and_acknowledge_after_the_write(
    redis_own: RedisServer,
) -> None:
    async with node(redis_own.url, "a") as a:
        store = RedisStore(redis_own.url)  # the test's own view of Redis
        bots_only = [a.rooms.create("dragon", bots=4, options={"hands": 3}) for _ in range(4)]
        played = [a.rooms.create("dragon", bots=3, options={"hands": 50}) for _ in range(4)]

        async def play(room_id: str) -> None:
            ann, state = await seated(a.port, room_id)
            for _ in range(5):
                action = await act(ann, state)
                acked = await ann.until_state(lambda s, v=state["version"]: s["version"] > v)
                # acknowledged: Redis holds the action already
                logged = [x.action for x in actions(store, room_id) if x.seat == 0]
                assert logged[-1] == action
                state = await ann.until_state(
                    lambda s, v=acked["version"]: s["version"] >= v and s["to_act"] == [0])
            await ann.close()

        await asyncio.gather(*(play(room.room_id) for room in played))
        rooms = [*bots_only, *played]

        def all_written() -> bool:  # (a table is ahead of Redis while its write is awaited)
            return all(store.last_entry(r.room_id) == r.table.ledger.next_n - 1 for r in rooms)

        await until(lambda: all(r.table.phase == "finished" for r in bots_only), timeout=30)
        await until(all_written)
        for room in rooms:
            check_chain(store, room.room_id)  # every entry next to the one before


async def test_a_fenced_write_drops_that_room_and_no_other(redis_own: RedisServer) -> None:
    async with node(redis_own.url, "a") as a:
        fenced = a.rooms.create("dragon", bots=3, options={"hands": 50})
        other = a.rooms.create("dragon", bots=3, options={"hands": 50})
        ann, state = await seated(a.port, fenced.room_id)
        bob, bob_state = await seated(a.port, other.room_id)
        written = a.store.last_entry(fenced.room_id)
        # another node holds the room now (as after this one's lease ran out): epoch 2
        raw = redis.Redis.from_url(redis_own.url, decode_responses=True)
        raw.incr(key("epoch", fenced.room_id))
        raw.hset(key("lease", fenced.room_id), mapping={"node": "z", "epoch": "2"})
        await act(ann, state)
        moved = await ann.expect("redirect")  # refused in Redis: never acknowledged
        assert moved["room"] == fenced.room_id and moved["node"] == "z"
        assert all(m["type"] != "state" or m["version"] <= state["version"] for m in ann.seen)
        assert a.store.last_entry(fenced.room_id) == written
        assert fenced.room_id not in a.rooms.rooms and fenced.room_id not in a.store.fence
        # the other room plays on
        await act(bob, bob_state)
        await bob.until_state(lambda s: s["version"] > bob_state["version"])
        assert other.room_id in a.rooms.rooms
        await ann.close()
        await bob.close()


async def test_readyz_tells_a_stopped_redis_from_the_heartbeats_without_waiting_for_it(
    redis_own: RedisServer,
) -> None:
    store = RedisStore(redis_own.url, node="a", retry_for=30.0, timeout=0.5)
    async with running(store, lease_ttl=1.0) as a:
        readyz = f"{a.url}readyz"
        assert await asyncio.to_thread(probe, readyz) == (200, "ready\n")
        assert redis_own.proc is not None
        redis_own.proc.send_signal(signal.SIGSTOP)
        try:
            deadline = asyncio.get_running_loop().time() + 10
            while True:  # not ready once a heartbeat is a lease overdue; answered at once
                status, body = await asyncio.to_thread(probe, readyz)
                if status == 503:
                    break
                assert status == 200
                assert asyncio.get_running_loop().time() < deadline, "timed out"
                await asyncio.sleep(0.05)
            assert body.startswith("store unreachable: Redis has not accepted a heartbeat")
        finally:
            redis_own.proc.send_signal(signal.SIGCONT)
        deadline = asyncio.get_running_loop().time() + 10
        while await asyncio.to_thread(probe, readyz) != (200, "ready\n"):
            assert asyncio.get_running_loop().time() < deadline, "timed out"
            await asyncio.sleep(0.05)


async def test_a_room_being_adopted_is_not_let_go_by_the_nodes_own_round(
    redis_own: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with node(redis_own.url, "b") as b:
        assert b.cluster is not None
        room_id = b.rooms.create("dragon", bots=3, options={"hands": 50}).room_id
        await b.cluster.drop(room_id, "test")  # an orphan: live, nobody's lease
        gate = asyncio.Event()
        restore = b.rooms.adopt

        async def slow_restore(room: str) -> Any:
            await gate.wait()  # claimed, not in memory yet: a round runs meanwhile
            return await restore(room)

        monkeypatch.setattr(b.rooms, "adopt", slow_restore)
        asked: list[str] = []
        adopt = b.cluster.adopt

        async def counted(room: str) -> Any:
            asked.append(room)
            return await adopt(room)

        monkeypatch.setattr(b.cluster, "adopt", counted)
        adopting = asyncio.get_running_loop().create_task(b.cluster.adopt(room_id))
        await until(lambda: room_id in b.store.fence)
        await asyncio.wait_for(b.cluster.step(), 10)  # (it must not wait for the gate)
        # a player who comes meanwhile waits for the room, rather than being sent away
        watcher = await Client.open(b.port)
        await watcher.send({"type": "join", "room": room_id, "spectate": True})
        await until(lambda: len(asked) == 2)  # the join waits for the adoption
        gate.set()
        assert await adopting is not None
        assert (await watcher.recv())["type"] == "joined"
        await watcher.close()
        raw = redis.Redis.from_url(redis_own.url, decode_responses=True)
        assert raw.hget(key("lease", room_id), "node") == "b"
        assert b.cluster.holds(room_id) and room_id in b.rooms.rooms


async def test_the_first_chain_check_reads_a_clustered_room_from_redis(
    redis_own: RedisServer,
) -> None:
    store = RedisStore(redis_own.url, node="a", retry_for=5.0, timeout=0.5)
    async with running(store, lease_ttl=LONG_LEASE, chain_check_delay=1.0) as a:
        room = a.rooms.create("dragon", bots=3)  # waits for its player: it writes no more
        raw = redis.Redis.from_url(redis_own.url, decode_responses=True)
        assert raw.llen(key("entries", room.room_id)) > 1
        first = json.loads(raw.lindex(key("entries", room.room_id), 1))
        first[4] = "0" * 64  # entry 1 no longer matches its hash
        raw.lset(key("entries", room.room_id), 1, json.dumps(first))
        await until(lambda: room.room_id in a.rooms.damaged)
        assert a.rooms.damaged[room.room_id].startswith("record 1:")
        await until(lambda: room.room_id not in a.rooms.rooms)  # stopped
