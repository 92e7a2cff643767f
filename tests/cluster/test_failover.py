"""Real nodes (``paiju serve`` subprocesses) on a real Redis: a node killed with SIGKILL
mid-hand, one frozen with SIGSTOP past its lease, a Redis restart mid-game, a drain. Every
room comes back and every player resumes, with no acknowledged action lost."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from paiju.cli.__main__ import main
from paiju.persistence.redisstore import RedisStore, key
from paiju.persistence.restore import check_chain
from paiju.persistence.store import actions
from tests.cluster.harness import VARIANTS, Node, Player, seats_of, until
from tests.redisd import RedisServer

pytestmark = pytest.mark.xdist_group("cluster")

Make = Callable[..., Node]


@pytest.fixture
def redis_own(tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis of this test alone (some tests restart it)."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def make_node(tmp_path: Path, redis_own: RedisServer) -> Iterator[Make]:
    made: list[Node] = []

    def make(name: str, *settings: str) -> Node:
        node = Node(tmp_path, name, redis_own.url, *settings)
        node.start()
        made.append(node)
        return node

    yield make
    for node in made:
        node.stop()


def owners(url: str) -> dict[str, str]:
    client = redis.Redis.from_url(url, decode_responses=True)
    found = {}
    for room in client.smembers(key("live")):
        node = client.hget(key("lease", room), "node")
        if node is not None:
            found[str(room)] = str(node)
    return found


def assert_nothing_acknowledged_lost(store: RedisStore, player: Player) -> None:
    """The room's log holds every action the player was acknowledged, in order (and at
    most one more: written, its state lost with the node)."""
    logged = [a.action for a in actions(store, player.room) if a.seat == 0
              and a.source == "player"]
    assert logged[: len(player.acked)] == player.acked, (player.room, logged, player.acked)
    assert len(logged) <= len(player.acked) + 1
    check_chain(store, player.room)


async def make_rooms(entry: Node, count: int) -> list[Player]:
    players = []
    for i in range(count):
        variant = VARIANTS[i % len(VARIANTS)]
        made = await entry.admin(command="create", variant=variant, bots=seats_of(variant) - 1,
                                 options={"hands": 50} if variant == "dragon" else {})
        player = Player(made["room"])
        await player.join(made["url"])
        players.append(player)
    return players


async def test_kill_9_mid_hand_every_room_comes_back_with_nothing_acknowledged_lost(
    make_node: Make, redis_own: RedisServer
) -> None:
    nodes = [make_node(name) for name in ("n1", "n2", "n3")]
    players = await make_rooms(nodes[0], 8)  # every variant twice, spread by load
    for player in players:
        await player.play(2)
    held = owners(redis_own.url)
    assert set(held) == {p.room for p in players}
    # (rooms are placed on the least loaded node; test_leases checks the spread)
    victim = max(nodes, key=lambda n: sum(owner == n.name for owner in held.values()))
    moved = [p for p in players if held[p.room] == victim.name]
    assert moved
    victim.signal(signal.SIGKILL)  # mid-hand: every room is in play
    survivors = [n for n in nodes if n is not victim]
    for i, player in enumerate(players):
        await player.close()
        state = await player.resume(survivors[i % 2].url)  # via any node: redirected
        assert state["version"] >= player.version
    store = RedisStore(redis_own.url)
    for player in players:
        assert_nothing_acknowledged_lost(store, player)
    after = owners(redis_own.url)
    assert {after[p.room] for p in moved} <= {n.name for n in survivors}
    for player in players:  # and every room plays on
        await player.play(1)
        await player.close()
    for player in players:
        assert_nothing_acknowledged_lost(store, player)


async def test_a_node_stopped_past_its_lease_writes_nothing_and_gives_its_rooms_up(
    make_node: Make, redis_own: RedisServer
) -> None:
    a = make_node("a")
    (player,) = await make_rooms(a, 1)
    await player.play(1)
    b = make_node("b")
    stale = player.client
    player.client = None
    a.signal(signal.SIGSTOP)
    await until(lambda: owners(redis_own.url).get(player.room) == "b")
    await player.resume(b.url)
    await player.play(2)
    assert player.client is not None  # b is quiet once only the player is asked again
    await player.client.until_state(lambda s: s["to_act"] == [0]
                                    and s["version"] >= player.version)
    store = RedisStore(redis_own.url)
    length = store.last_entry(player.room)
    a.signal(signal.SIGCONT)
    # a wakes up, finds its lease gone: it drops the room and redirects the old connection
    assert stale is not None
    moved = await stale.expect("redirect")
    assert moved["node"] == "b" and moved["url"] == b.url
    await until(lambda: a.lines("room_dropped"))
    assert a.lines("room_dropped")[0]["reason"] == "lease_lost"
    assert store.last_entry(player.room) == length  # nothing more was written
    await player.play(1)  # b goes on
    assert_nothing_acknowledged_lost(store, player)
    await stale.close()
    await player.close()


async def test_a_redis_restart_mid_game_pauses_the_room_and_loses_nothing(
    make_node: Make, redis_own: RedisServer
) -> None:
    a = make_node("a", "lease_ttl=3.0", "redis_retry=10.0")
    (player,) = await make_rooms(a, 1)
    await player.play(2)
    redis_own.stop()  # SIGTERM: Redis writes its AOF out and exits
    assert player.client is not None
    playing = asyncio.get_running_loop().create_task(player.play(1))
    await asyncio.sleep(0.3)  # the act waits on the unreachable Redis: no state is sent
    assert not playing.done()
    redis_own.start()
    await asyncio.wait_for(playing, 20)
    await player.play(1)
    store = RedisStore(redis_own.url)
    assert_nothing_acknowledged_lost(store, player)
    assert owners(redis_own.url)[player.room] == "a"
    await player.close()


async def test_a_drained_node_hands_its_rooms_over_and_stops(
    make_node: Make, redis_own: RedisServer
) -> None:
    a = make_node("a")
    players = await make_rooms(a, 3)
    for player in players:
        await player.play(1)
    b = make_node("b")
    command = ["node", "drain", "a", "--now", "--store", redis_own.url, "--wait", "20"]
    assert await asyncio.to_thread(main, command) == 0
    assert a.proc is not None and a.proc.wait(10) == 0
    # b claims the rooms handed to it at its next round (or when a player reaches it)
    await until(lambda: owners(redis_own.url) == {p.room: "b" for p in players})
    store = RedisStore(redis_own.url)
    for player in players:
        assert player.client is not None
        moved = await player.client.expect("redirect")
        assert moved["url"] == b.url
        await player.close()
        await player.resume(moved["url"])
        await player.play(1)
        assert_nothing_acknowledged_lost(store, player)
        await player.close()
