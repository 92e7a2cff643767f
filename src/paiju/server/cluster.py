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
Redis is reached with the synchronous client, as the store is: each step is a few round trips.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
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
from paiju.server.nodes import CLAIM, RELEASE, RENEW, NodeInfo, designated, nodes
from paiju.server.rooms import Recipient, Room, RoomManager
from paiju.server.sessions import Session
from paiju.table.table import CLOSED, FINISHED, PLAYING

log = structlog.get_logger("paiju.cluster")

#: A hand-off's placement is honoured this long before any node may claim the room.
PLACEMENT_SECONDS = 10.0
#: Seconds between looks at the hands still in play while a node drains.
DRAIN_POLL = 0.1

class Elsewhere(Exception):
    """The room is served by another node (``url``; empty: between owners)."""

    def __init__(self, room_id: str, node: str, url: str) -> None:
        super().__init__(f"room {room_id} is on node {node or '(none yet)'}")
        self.room_id, self.node, self.url = room_id, node, url


class Cluster:
    """This node's side of the cluster: registration, leases, claims, hand-offs."""

    def __init__(self, store: RedisStore, rooms: RoomManager, lease_ttl: float, url: str,
                 on_drained: Callable[[], None] | None = None) -> None:
        self.store = store
        self.client = store.client
        self.rooms = rooms
        self.node = store.node
        self.url = url
        self.ttl = lease_ttl
        self.draining = False
        self.drain_timeout = 120.0
        self.failed: set[str] = set()  # rooms this node could not restore: left to others
        self._on_drained = on_drained
        self._claim = self.client.register_script(CLAIM)
        self._renew = self.client.register_script(RENEW)
        self._release = self.client.register_script(RELEASE)
        self._task: asyncio.Task[None] | None = None
        self._drainer: asyncio.Task[None] | None = None
        self._handed: dict[str, tuple[str, str]] = {}  # room -> (node, url) it is handed to
        self._renewed = 0.0  # monotonic time of the last renewal
        self.log = log.bind(node=self.node)

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Register, then keep the heartbeat, the leases and the claims going."""
        self.store.call(self.heartbeat)
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
            for room_id in list(self.store.fence):
                self.release(room_id)
            self.client.delete(key("node", self.node))
            self.client.srem(key("nodes"), self.node)
        self.log.info("node_left")

    async def _loop(self) -> None:
        while True:
            try:
                await self.step()
            except Exception:
                self.log.warning("cluster_step_failed", exc_info=True)
            await asyncio.sleep(self.ttl / 3)

    async def step(self) -> None:
        """One round: heartbeat, renew the leases (drop the rooms lost), let go of the rooms
        that left memory, follow a drain request, claim the orphans this node should take."""
        await self.keep_alive()
        for room_id in [r for r in self.store.fence if r not in self.rooms.rooms]:
            self.release(room_id)
        asked = None if self.draining else self.client.get(key("drain", self.node))
        if asked is not None:
            # in a task of its own: the rounds go on renewing while hands are finished
            self.draining = True
            self._drainer = asyncio.get_running_loop().create_task(
                self.drain(at_once=str(asked) == "now"), name="drain")
            return
        if self.draining or self.rooms.draining:  # (a SIGTERM drain: no new rooms here)
            return
        for room_id in self.orphans():
            self.adopt(room_id)
            await asyncio.sleep(0)
            if time.monotonic() - self._renewed > self.ttl / 3:
                await self.keep_alive()  # many rooms to restore: keep those claimed already

    async def keep_alive(self) -> None:
        """Heartbeat and renew every lease; drop the rooms whose lease was lost."""
        self._renewed = time.monotonic()
        self.heartbeat()
        for room_id in self.renew():
            await self.drop(room_id, "lease_lost")

    def heartbeat(self) -> None:
        """Say this node is alive (its record expires after ``lease_ttl``)."""
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(key("node", self.node), mapping={
            "url": self.url, "rooms": len(self.rooms.rooms), "beat": repr(time.time()),
            "draining": "1" if self.draining or self.rooms.draining else "0",
            # the lobby of the cluster: each node publishes its public rooms' rows
            "lobby": json.dumps(room_rows(self.rooms), ensure_ascii=False),
        })
        pipe.pexpire(key("node", self.node), int(self.ttl * 1000))
        pipe.sadd(key("nodes"), self.node)
        pipe.execute()

    # ------------------------------------------------------------------ leases

    def claim(self, room_id: str, new: bool = False) -> bool:
        """Take the room's lease (``new``: a room being made here); ``True`` if taken."""
        args: list[str | int] = [
            self.node, int(self.ttl * 1000), "1" if new else "0", room_id, repr(time.time())
        ]
        keys = [key("lease", room_id), key("epoch", room_id), key("live"), key("room", room_id)]
        epoch = int(self.store.call(lambda: self._claim(keys=keys, args=args)))
        if epoch:
            self.store.fence[room_id] = epoch
            self.log.info("lease_claimed", room=room_id, epoch=epoch)
        return epoch > 0

    def holds(self, room_id: str) -> bool:
        """Whether this node holds the room's lease (as far as it knows: a write says)."""
        return room_id in self.store.fence

    def renew(self) -> list[str]:
        """Renew every lease held; the rooms whose lease was lost (their fence is gone)."""
        held = list(self.store.fence.items())
        if not held:
            return []
        keys = [key("lease", room) for room, _ in held]
        args: list[str | int] = [self.node, int(self.ttl * 1000), *(e for _, e in held)]
        kept = self._renew(keys=keys, args=args)
        lost = [room for (room, _), ok in zip(held, kept, strict=True) if not ok]
        for room in lost:
            self.store.fence.pop(room, None)
        return lost

    def release(self, room_id: str, to: str = "") -> None:
        """Give the lease up (``to``: the node that should claim it next)."""
        epoch = self.store.fence.pop(room_id, None)
        if epoch is None:
            return
        self._release(keys=[key("lease", room_id), key("placed", room_id)],
                      args=[self.node, epoch, to, int(PLACEMENT_SECONDS * 1000)])
        self.log.info("lease_released", room=room_id, to=to or None)

    def lobby_rows(self) -> list[dict[str, Any]]:
        """The public rooms the other live nodes published with their last heartbeat."""
        others = sorted(str(n) for n in self.client.smembers(key("nodes")) if n != self.node)
        pipe = self.client.pipeline(transaction=False)
        for other in others:
            pipe.hget(key("node", other), "lobby")
        return [row for found in pipe.execute() if found for row in json.loads(found)]

    # ------------------------------------------------------------------ rooms

    def owner(self, room_id: str) -> tuple[str, str] | None:
        """(node, url) of the room's owner, or ``None`` while nobody holds it."""
        node = self.client.hget(key("lease", room_id), "node")
        if node is None:
            return None
        url = self.client.hget(key("node", str(node)), "url")
        return str(node), str(url or "")

    def locate(self, room_id: str) -> Room:
        """The room, here: loaded, or claimed now if nobody holds it (and it was not handed
        to another node). Raises ``Elsewhere`` when another node serves it, ``UnknownRoom``
        when it is not live anywhere."""
        room = self.rooms.rooms.get(room_id)
        if room is not None:
            return room
        owner = self.store.call(lambda: self.owner(room_id))
        if owner is not None and owner[0] == self.node:
            # a lease of this node's name from before its restart: it runs out soon
            raise Elsewhere(room_id, "", "")
        if owner is not None:
            raise Elsewhere(room_id, *owner)
        placed = self.client.get(key("placed", room_id))
        alive = {n.node: n for n in nodes(self.client)}
        if placed is not None and str(placed) in alive and str(placed) != self.node:
            raise Elsewhere(room_id, str(placed), alive[str(placed)].url)
        if not (self.draining or self.rooms.draining) and self.adopt(room_id) is not None:
            return self.rooms.rooms[room_id]
        owner = self.owner(room_id)  # another node claimed it meanwhile
        if owner is not None:
            raise Elsewhere(room_id, *owner)
        raise UnknownRoom(f"no room {room_id!r}")

    def adopt(self, room_id: str) -> Room | None:
        """Claim a live room nobody holds and restore it here from its snapshot and log
        (its stored deadlines re-armed); ``None`` if another node got it first."""
        if room_id in self.rooms.rooms or not self.claim(room_id):
            return None
        try:
            room = self.rooms.restore(room_id)
        except Exception:
            self.log.exception("room_adopt_failed", room=room_id)
            self.failed.add(room_id)
            self.release(room_id)
            return None
        self.log.info("room_adopted", room=room_id, epoch=self.store.fence.get(room_id))
        return room

    def orphans(self) -> list[str]:
        """The live rooms nobody leases that this node should claim now."""
        candidates = sorted(self.store.live_rooms() - set(self.rooms.rooms) - self.failed)
        if not candidates:
            return []
        pipe = self.client.pipeline(transaction=False)
        for room in candidates:
            pipe.exists(key("lease", room))
            pipe.get(key("placed", room))
        answers = pipe.execute()
        alive = [n.node for n in nodes(self.client) if not n.draining]
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

    def relocate(self, room: Room, member: Recipient) -> bool:
        """Tell a member of a room leaving this node where it went (``False``: the room is
        over, the member just leaves)."""
        if room.table.phase in (FINISHED, CLOSED) or not isinstance(member, Session):
            return False
        if member.room is not room:
            return True
        owner = self._handed.get(room.room_id)
        if owner is None:
            try:
                owner = self.owner(room.room_id) or ("", "")
            except redis.exceptions.RedisError:
                owner = ("", "")
        member.room, member.seat = None, None
        member.send(p.Redirect(type="redirect", room=room.room_id, node=owner[0], url=owner[1]))
        return True

    async def drop(self, room_id: str, reason: str, to: str = "") -> None:
        """Stop serving a room: end its task, hand its lease over (``to``) or leave it to
        expire, redirect its members."""
        room = self.rooms.rooms.pop(room_id, None)
        if room is not None:
            await room.stop()
        with contextlib.suppress(redis.exceptions.RedisError):
            self.release(room_id, to)
            target = self.client.hget(key("node", to), "url") if to else None
            if target is not None:
                self._handed[room_id] = (to, str(target))
        if room is not None:
            room.release()
        self._handed.pop(room_id, None)
        self.log.info("room_dropped", room=room_id, reason=reason, to=to or None)

    # ------------------------------------------------------------------ placement, drain

    def least_loaded(self) -> NodeInfo | None:
        """The live, not draining node with the fewest rooms (this one on a tie)."""
        alive = [n for n in nodes(self.client) if not n.draining]
        if not alive:
            return None
        return min(alive, key=lambda n: (n.rooms, n.node != self.node, n.node))

    async def place(self, room: Room) -> dict[str, Any]:
        """A room just made here goes to the least loaded node; where it is now."""
        target = self.least_loaded()
        if target is None or target.node == self.node:
            return {"node": self.node, "url": self.url}
        await self.drop(room.room_id, "placed", to=target.node)
        # counted at once, so that rooms made in a burst spread before the next heartbeats
        self.client.hincrby(key("node", target.node), "rooms", 1)
        self.heartbeat()
        return {"node": target.node, "url": target.url}

    async def drain(self, at_once: bool = False) -> None:
        """Move every room to the other nodes, then stop this node: each room at the end of
        the hand in play (it deals no other here; after ``drain_timeout`` seconds the rest
        go mid-hand), or all ``at_once`` (each is restored there from its log)."""
        self.draining = True
        self.heartbeat()
        self.log.info("node_draining", rooms=len(self.rooms.rooms), at_once=at_once)
        give_up = time.monotonic() + self.drain_timeout  # then the hands move mid-play
        while self.rooms.rooms:
            at_once = at_once or time.monotonic() > give_up
            for room_id, room in list(self.rooms.rooms.items()):
                if at_once or room.table.phase != PLAYING:
                    target = self.least_loaded()
                    await self.drop(room_id, "drain",
                                    to=target.node if target is not None else "")
                elif not room.draining:
                    room.draining = True  # holds at the hand's end; woken to see it
                    with contextlib.suppress(GameError):
                        await room.call(lambda table, now: (None, []))
            if self.rooms.rooms:
                await asyncio.sleep(DRAIN_POLL)
        self.client.delete(key("drain", self.node))
        if self._on_drained is not None:
            self._on_drained()


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
