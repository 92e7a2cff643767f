"""Cluster mode: many nodes, one room space, in one Redis (docs/cluster.md).

Each node registers itself (``node:{id}``: its URL, rooms, heartbeat) and renews it every
third of ``lease_ttl``. Each live room has one owner holding its lease (``lease:{room}``:
node and epoch, expiring after ``lease_ttl`` unless renewed); the epoch (``epoch:{room}``)
grows on every change of owner, and the Redis store fences every append by it. A node that
cannot renew a lease (it was paused, cut off, or another node holds the room) drops the
room: its members are redirected, and its writes were refused in Redis already.

A live room nobody leases is claimed by the node the room was placed on (``placed:{room}``,
a hand-off), else by the live node that rendezvous hashing designates (so the rooms of a
dead node spread over the others), else at once by any node a player of it reaches.
Redis is reached with the asyncio client (``RedisStore.aclient``): a slow or stopped Redis
holds up the cluster's own steps, never the node's other work. Only ``claim_new`` (a room
being made, ``RoomManager.create``) uses the synchronous client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import redis
import structlog

from paiju.core.errors import GameError
from paiju.persistence.redisstore import RedisStore, key
from paiju.persistence.store import Store
from paiju.server import protocol as p
from paiju.server.config import ServerConfig
from paiju.server.errors import UnknownRoom
from paiju.server.lobby import room_rows
from paiju.server.nodes import CLAIM, RELEASE, RENEW, NodeInfo, designated, live_nodes
from paiju.server.rooms import Elsewhere, Recipient, Room, RoomManager
from paiju.server.sessions import Session
from paiju.table.table import CLOSED, FINISHED, PLAYING

log = structlog.get_logger("paiju.cluster")

#: A hand-off's placement is honoured this long before any node may claim the room.
PLACEMENT_SECONDS = 10.0
#: Seconds between looks at the hands still in play while a node drains.
DRAIN_POLL = 0.1
#: Rooms claimed, restored or let go at once: their round trips overlap, so that the
#: failover of a thousand rooms does not wait for them one after the other.
GROUP = 32


class Cluster:
    """This node's side of the cluster: registration, leases, claims, hand-offs."""

    def __init__(self, store: RedisStore, rooms: RoomManager, lease_ttl: float, url: str,
                 on_drained: Callable[[], None] | None = None) -> None:
        self.store = store
        self.client = store.aclient
        self.rooms = rooms
        self.node = store.node
        self.url = url
        self.ttl = lease_ttl
        self.draining = False
        self.drain_timeout = 120.0
        self.failed: set[str] = set()  # rooms this node could not restore: left to others
        # rooms being claimed and restored (not in memory yet) -> the room once it is here
        self.adopting: dict[str, asyncio.Future[Room | None]] = {}
        self._on_drained = on_drained
        self._claim = self.client.register_script(CLAIM)
        self._claim_now = store.client.register_script(CLAIM)
        self._renew = self.client.register_script(RENEW)
        self._release = self.client.register_script(RELEASE)
        self._task: asyncio.Task[None] | None = None
        self._drainer: asyncio.Task[None] | None = None
        self._handed: dict[str, tuple[str, str]] = {}  # room -> (node, url) it is handed to
        self._renewed = 0.0  # monotonic time of the last renewal
        self._heard = time.monotonic()  # ... and of the last heartbeat Redis accepted
        self.log = log.bind(node=self.node)

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Register, then keep the heartbeat, the leases and the claims going."""
        await self.store.acall(self.heartbeat)
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="cluster")
        self.log.info("node_joined", url=self.url)

    async def stop(self) -> None:
        """Stop the loop; let go of every lease (the rooms' tasks have ended) and leave."""
        for task in (self._task, self._drainer):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        with contextlib.suppress(Exception):
            await in_groups(list(self.store.fence), self.release)
            await self.client.delete(key("node", self.node))
            await self.client.srem(key("nodes"), self.node)
        with contextlib.suppress(Exception):
            await self.store.aclose()
        self.log.info("node_left")

    async def _loop(self) -> None:
        task = asyncio.current_task()
        while True:
            try:
                await self.step()
            except Exception:
                if task is not None and task.cancelling():
                    raise asyncio.CancelledError from None  # (see below)
                self.log.warning("cluster_step_failed", exc_info=True)
            if task is not None and task.cancelling():
                # A stop cancelled the round while a Redis call was in flight, and the client
                # turned the cancellation into its own error (or swallowed it): without this
                # the loop went on and the stop waited for it forever.
                raise asyncio.CancelledError
            await asyncio.sleep(self.ttl / 3)

    async def step(self) -> None:
        """One round: heartbeat, renew the leases (drop the rooms lost), let go of the rooms
        that left memory, follow a drain request, claim the orphans this node should take."""
        await self.keep_alive()
        gone = [r for r in self.store.fence if r not in self.rooms.rooms
                and r not in self.adopting]
        await in_groups(gone, self.release)
        asked = None if self.draining else await self.client.get(key("drain", self.node))
        if asked is not None:
            # in a task of its own: the rounds go on renewing while hands are finished
            self.draining = True
            self._drainer = asyncio.get_running_loop().create_task(
                self.drain(at_once=str(asked) == "now"), name="drain")
            return
        if self.draining or self.rooms.draining:  # (a SIGTERM drain: no new rooms here)
            return
        orphans = await self.orphans()
        for first in range(0, len(orphans), GROUP):
            await in_groups(orphans[first:first + GROUP], self.adopt)
            if time.monotonic() - self._renewed > self.ttl / 3:
                await self.keep_alive()  # many rooms to restore: keep those claimed already

    async def keep_alive(self) -> None:
        """Heartbeat and renew every lease; drop the rooms whose lease was lost."""
        self._renewed = time.monotonic()
        await self.heartbeat()
        self._heard = time.monotonic()
        for room_id in await self.renew():
            await self.drop(room_id, "lease_lost")

    def store_problem(self) -> str | None:
        """Why Redis looks unreachable (``/readyz``), from the heartbeats, without a round
        trip of its own: ``None`` while the last one is under ``lease_ttl`` old."""
        silent = time.monotonic() - self._heard
        if silent <= self.ttl:
            return None
        return f"Redis has not accepted a heartbeat for {silent:.1f} s"

    async def heartbeat(self) -> None:
        """Say this node is alive (its record expires after ``lease_ttl``)."""
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.hset(key("node", self.node), mapping={
                "url": self.url, "rooms": len(self.rooms.rooms), "beat": repr(time.time()),
                "draining": "1" if self.draining or self.rooms.draining else "0",
                # the lobby of the cluster: each node publishes its public rooms' rows
                "lobby": json.dumps(room_rows(self.rooms), ensure_ascii=False),
            })
            pipe.pexpire(key("node", self.node), int(self.ttl * 1000))
            pipe.sadd(key("nodes"), self.node)
            await pipe.execute()

    # ------------------------------------------------------------------ leases

    def _claim_args(self, room_id: str, new: bool) -> tuple[list[str], list[str | int]]:
        args: list[str | int] = [
            self.node, int(self.ttl * 1000), "1" if new else "0", room_id, repr(time.time())
        ]
        keys = [key("lease", room_id), key("epoch", room_id), key("live"), key("room", room_id)]
        return keys, args

    def _claimed(self, room_id: str, epoch: int) -> bool:
        if epoch:
            self.store.fence[room_id] = epoch
            self.log.info("lease_claimed", room=room_id, epoch=epoch)
        return epoch > 0

    async def claim(self, room_id: str) -> bool:
        """Take the lease of a live room nobody holds; ``True`` if taken."""
        keys, args = self._claim_args(room_id, new=False)
        return self._claimed(room_id, int(await self.store.acall(
            lambda: self._claim(keys=keys, args=args))))

    def claim_new(self, room_id: str) -> bool:
        """Take the lease of a room being made here (``RoomManager.create``, synchronous
        as the room's first write is); ``False`` if the room exists."""
        keys, args = self._claim_args(room_id, new=True)
        return self._claimed(room_id, int(self.store.call(
            lambda: self._claim_now(keys=keys, args=args))))

    def holds(self, room_id: str) -> bool:
        """Whether this node holds the room's lease (as far as it knows: a write says)."""
        return room_id in self.store.fence

    async def renew(self) -> list[str]:
        """Renew every lease held; the rooms whose lease was lost (their fence is gone)."""
        held = list(self.store.fence.items())
        if not held:
            return []
        keys = [key("lease", room) for room, _ in held]
        args: list[str | int] = [self.node, int(self.ttl * 1000), *(e for _, e in held)]
        kept = await self._renew(keys=keys, args=args)
        lost = [room for (room, _), ok in zip(held, kept, strict=True) if not ok]
        for room in lost:
            self.store.fence.pop(room, None)
        return lost

    async def release(self, room_id: str, to: str = "") -> None:
        """Give the lease up (``to``: the node that should claim it next)."""
        epoch = self.store.fence.pop(room_id, None)
        if epoch is None:
            return
        await self._release(keys=[key("lease", room_id), key("placed", room_id)],
                            args=[self.node, epoch, to, int(PLACEMENT_SECONDS * 1000)])
        self.log.info("lease_released", room=room_id, to=to or None)

    async def lobby_rows(self) -> list[dict[str, Any]]:
        """The public rooms the other live nodes published with their last heartbeat."""
        named = await self.client.smembers(key("nodes"))
        others = sorted(str(n) for n in named if n != self.node)
        if not others:
            return []
        async with self.client.pipeline(transaction=False) as pipe:
            for other in others:
                pipe.hget(key("node", other), "lobby")
            found = await pipe.execute()
        return [row for rows in found if rows for row in json.loads(rows)]

    # ------------------------------------------------------------------ rooms

    async def owner(self, room_id: str) -> tuple[str, str] | None:
        """(node, url) of the room's owner, or ``None`` while nobody holds it."""
        node = await self.client.hget(key("lease", room_id), "node")
        if node is None:
            return None
        url = await self.client.hget(key("node", str(node)), "url")
        return str(node), str(url or "")

    async def locate(self, room_id: str) -> Room:
        """The room, here: loaded, or claimed now if nobody holds it (and it was not handed
        to another node). Raises ``Elsewhere`` when another node serves it, ``UnknownRoom``
        when it is not live anywhere."""
        room = await self._here(room_id)
        if room is not None:
            return room
        owner = await self.store.acall(lambda: self.owner(room_id))
        if owner is not None and owner[0] == self.node:
            room = await self._here(room_id)  # (its adoption began meanwhile)
            if room is not None:
                return room
            # a lease of this node's name from before its restart: it runs out soon
            raise Elsewhere(room_id, "", "")
        if owner is not None:
            raise Elsewhere(room_id, *owner)
        placed = await self.client.get(key("placed", room_id))
        alive = {n.node: n for n in await live_nodes(self.client)}
        if placed is not None and str(placed) in alive and str(placed) != self.node:
            raise Elsewhere(room_id, str(placed), alive[str(placed)].url)
        if not (self.draining or self.rooms.draining):
            adopted = await self.adopt(room_id)
            if adopted is not None:
                return adopted
        owner = await self.owner(room_id)  # another node claimed it meanwhile
        if owner is not None:
            raise Elsewhere(room_id, *owner)
        raise UnknownRoom(f"no room {room_id!r}")

    async def _here(self, room_id: str) -> Room | None:
        """The room if it is in memory, or once this node's adoption of it is over."""
        if room_id in self.adopting:
            await self.adopt(room_id)
        return self.rooms.rooms.get(room_id)

    async def adopt(self, room_id: str) -> Room | None:
        """Claim a live room nobody holds and restore it here from its snapshot and log
        (its stored deadlines re-armed); ``None`` if another node got it first. A room this
        node is adopting already is awaited (a player's join and the node's round)."""
        pending = self.adopting.get(room_id)
        if pending is not None:
            return await asyncio.shield(pending)
        if room_id in self.rooms.rooms:
            return None
        # claimed but not in memory yet: not to be let go by a round meanwhile
        pending = self.adopting[room_id] = asyncio.get_running_loop().create_future()
        room = None
        try:
            room = await self._adopt(room_id)
        finally:
            del self.adopting[room_id]
            pending.set_result(room)  # (those waiting retry, should this one have failed)
        return room

    async def _adopt(self, room_id: str) -> Room | None:
        if not await self.claim(room_id):
            return None
        try:
            room = await self.rooms.adopt(room_id)
        except Exception:
            self.log.exception("room_adopt_failed", room=room_id)
            self.failed.add(room_id)
            with contextlib.suppress(redis.exceptions.RedisError):
                await self.release(room_id)
            return None
        self.log.info("room_adopted", room=room_id, epoch=self.store.fence.get(room_id))
        return room

    async def orphans(self) -> list[str]:
        """The live rooms nobody leases that this node should claim now."""
        live = await self.store.live_rooms_async()
        candidates = sorted(live - set(self.rooms.rooms) - self.failed)
        if not candidates:
            return []
        async with self.client.pipeline(transaction=False) as pipe:
            for room in candidates:
                pipe.exists(key("lease", room))
                pipe.get(key("placed", room))
            answers = await pipe.execute()
        alive = [n.node for n in await live_nodes(self.client) if not n.draining]
        mine = []
        for i, room in enumerate(candidates):
            leased, placed = answers[2 * i], answers[2 * i + 1]
            if leased:
                continue
            if placed is not None and str(placed) in alive:
                if str(placed) == self.node:
                    mine.append(room)
            elif designated(room, alive) == self.node:
                mine.append(room)
        return mine

    async def relocate(self, room: Room, members: list[Recipient]) -> list[Recipient]:
        """Tell the members of a room leaving this node where it went; those it does not
        tell (the room is over, or they are no players) just leave."""
        if room.table.phase in (FINISHED, CLOSED):
            return members
        owner = self._handed.get(room.room_id)
        if owner is None and any(isinstance(m, Session) and m.room is room for m in members):
            try:
                owner = await self.owner(room.room_id) or ("", "")
            except redis.exceptions.RedisError:
                owner = ("", "")
        left: list[Recipient] = []
        for member in members:
            if not isinstance(member, Session):
                left.append(member)
            elif member.room is room and owner is not None:
                member.room, member.seat = None, None
                member.send(p.Redirect(type="redirect", room=room.room_id, node=owner[0],
                                       url=owner[1]))
        return left

    async def drop(self, room_id: str, reason: str, to: str = "") -> None:
        """Stop serving a room: end its task, hand its lease over (``to``) or leave it to
        expire, redirect its members."""
        room = self.rooms.rooms.pop(room_id, None)
        if room is not None:
            await room.stop()
        with contextlib.suppress(redis.exceptions.RedisError):
            await self.release(room_id, to)
            target = await self.client.hget(key("node", to), "url") if to else None
            if target is not None:
                self._handed[room_id] = (to, str(target))
        if room is not None:
            await room.release()
        self._handed.pop(room_id, None)
        self.log.info("room_dropped", room=room_id, reason=reason, to=to or None)

    # ------------------------------------------------------------------ placement, drain

    async def least_loaded(self) -> NodeInfo | None:
        """The live, not draining node with the fewest rooms (this one on a tie)."""
        alive = [n for n in await live_nodes(self.client) if not n.draining]
        if not alive:
            return None
        return min(alive, key=lambda n: (n.rooms, n.node != self.node, n.node))

    async def place(self, room: Room) -> dict[str, Any]:
        """A room just made here goes to the least loaded node; where it is now."""
        target = await self.least_loaded()
        if target is None or target.node == self.node:
            return {"node": self.node, "url": self.url}
        await self.drop(room.room_id, "placed", to=target.node)
        # counted at once, so that rooms made in a burst spread before the next heartbeats
        await self.client.hincrby(key("node", target.node), "rooms", 1)
        await self.heartbeat()
        return {"node": target.node, "url": target.url}

    async def drain(self, at_once: bool = False) -> None:
        """Move every room to the other nodes, then stop this node: each room at the end of
        the hand in play (it deals no other here; after ``drain_timeout`` seconds the rest
        go mid-hand), or all ``at_once`` (each is restored there from its log)."""
        self.draining = True
        await self.heartbeat()
        self.log.info("node_draining", rooms=len(self.rooms.rooms), at_once=at_once)
        give_up = time.monotonic() + self.drain_timeout  # then the hands move mid-play
        while self.rooms.rooms:
            at_once = at_once or time.monotonic() > give_up
            for room_id, room in list(self.rooms.rooms.items()):
                if at_once or room.table.phase != PLAYING:
                    target = await self.least_loaded()
                    await self.drop(room_id, "drain",
                                    to=target.node if target is not None else "")
                elif not room.draining:
                    room.draining = True  # holds at the hand's end; woken to see it
                    with contextlib.suppress(GameError):
                        await room.call(lambda table, now: (None, []))
            if self.rooms.rooms:
                await asyncio.sleep(DRAIN_POLL)
        await self.client.delete(key("drain", self.node))
        if self._on_drained is not None:
            self._on_drained()


async def in_groups(items: Sequence[str], act: Callable[[str], Awaitable[Any]]) -> None:
    """``act`` on every item, ``GROUP`` at a time, each group's round trips overlapping.
    Every item of a group is seen to even if another fails; then the first error is
    raised."""
    for first in range(0, len(items), GROUP):
        done = await asyncio.gather(*(act(i) for i in items[first:first + GROUP]),
                                    return_exceptions=True)
        for outcome in done:
            if isinstance(outcome, BaseException):
                raise outcome


def cluster_of(config: ServerConfig, store: Store, rooms: RoomManager,
               on_drained: Callable[[], None]) -> Cluster | None:
    """This node's cluster when its store is a fenced Redis store (``store`` setting),
    else ``None``; the room manager learns of it."""
    if not isinstance(store, RedisStore) or not store.node:
        return None
    cluster = Cluster(store, rooms, config.lease_ttl, config.public_url, on_drained)
    cluster.drain_timeout = config.drain_timeout
    rooms.cluster = cluster
    return cluster


def page_sources(config: ServerConfig) -> list[str]:
    """Where the browser page may open WebSockets besides its own origin, in cluster mode:
    the other nodes, named by ``allowed_origins`` (the same list lets their pages in here),
    as ``ws://`` / ``wss://`` sources of the page's Content-Security-Policy."""
    return [
        origin.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
        for origin in config.allowed_origins if origin.startswith(("http://", "https://"))
    ]
