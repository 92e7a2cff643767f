"""What the cluster keeps in Redis besides the records (docs/cluster.md): the lease scripts,
the nodes' heartbeats, and reading them (``paiju cluster status`` reads them too)."""

from __future__ import annotations

import hashlib
import os
import secrets
import socket
import time
from dataclasses import dataclass
from typing import Any

import redis
import redis.asyncio

from paiju.persistence.redisstore import key

CLAIM = """
-- KEYS: lease, epoch, live, room; ARGV: node, ttl ms, new ('1': the room is being made), room, now
if ARGV[3] == '1' then
  if redis.call('EXISTS', KEYS[4]) == 1 then return 0 end
elseif redis.call('SISMEMBER', KEYS[3], ARGV[4]) == 0 then
  return 0
end
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local epoch = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], 'node', ARGV[1], 'epoch', epoch, 'since', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return epoch
"""

RENEW = """
-- KEYS: leases; ARGV: node, ttl ms, then one epoch per lease. Returns 1 (renewed) or 0 (lost).
local kept = {}
for i, lease in ipairs(KEYS) do
  local held = redis.call('HMGET', lease, 'node', 'epoch')
  if held[1] == ARGV[1] and held[2] == ARGV[i + 2] then
    redis.call('PEXPIRE', lease, ARGV[2])
    kept[i] = 1
  else
    kept[i] = 0
  end
end
return kept
"""

RELEASE = """
-- KEYS: lease, placed; ARGV: node, epoch, target node ('' for none), placement ms
local held = redis.call('HMGET', KEYS[1], 'node', 'epoch')
if held[1] ~= ARGV[1] or held[2] ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
if ARGV[3] ~= '' then redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[4]) end
return 1
"""


@dataclass(frozen=True)
class NodeInfo:
    """A node as its last heartbeat says."""

    node: str
    url: str
    rooms: int
    beat: float  # wall-clock time of the heartbeat
    draining: bool

    @classmethod
    def read(cls, node: str, fields: dict[str, str]) -> NodeInfo:
        return cls(node, fields.get("url", ""), int(fields.get("rooms", 0)),
                   float(fields.get("beat", 0)), fields.get("draining") == "1")


@dataclass(frozen=True)
class Lease:
    """A room's lease: its owner and epoch, seconds left until it expires unless renewed,
    and seconds since the owner claimed it."""

    node: str
    epoch: int
    left: float
    held_for: float


def default_node_id() -> str:
    """A node name unique to this process: host, pid and a random suffix."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(2)}"


def nodes(client: redis.Redis) -> list[NodeInfo]:
    """Every node whose heartbeat has not run out, by name (forgets the others)."""
    names = sorted(str(n) for n in client.smembers(key("nodes")))
    pipe = client.pipeline(transaction=False)
    for name in names:
        pipe.hgetall(key("node", name))
    found, gone = _heard(names, pipe.execute() if names else [])
    if gone:
        client.srem(key("nodes"), *gone)
    return found


async def live_nodes(client: redis.asyncio.Redis) -> list[NodeInfo]:
    """``nodes``, on the asyncio client (what a running node asks)."""
    names = sorted(str(n) for n in await client.smembers(key("nodes")))
    answers: list[Any] = []
    if names:
        async with client.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.hgetall(key("node", name))
            answers = await pipe.execute()
    found, gone = _heard(names, answers)
    if gone:
        await client.srem(key("nodes"), *gone)
    return found


def _heard(names: list[str], records: list[Any]) -> tuple[list[NodeInfo], list[str]]:
    """The nodes whose record is there, and the names whose record ran out."""
    found: list[NodeInfo] = []
    gone: list[str] = []
    for name, fields in zip(names, records, strict=True):
        if fields:
            found.append(NodeInfo.read(name, {str(k): str(v) for k, v in fields.items()}))
        else:
            gone.append(name)
    return found, gone


def leases(client: redis.Redis, rooms: list[str]) -> dict[str, Lease]:
    """The leases of the rooms that are leased."""
    pipe = client.pipeline(transaction=False)
    for room in rooms:
        pipe.hmget(key("lease", room), "node", "epoch", "since")
        pipe.pttl(key("lease", room))
    answers = pipe.execute()
    found: dict[str, Lease] = {}
    now = time.time()
    for i, room in enumerate(rooms):
        (node, epoch, since), ttl = answers[2 * i], answers[2 * i + 1]
        if node is not None:
            found[room] = Lease(str(node), int(epoch), max(0, int(ttl)) / 1000,
                                max(0.0, now - float(since or now)))
    return found


def request_drain(client: redis.Redis, node: str, at_once: bool = False) -> None:
    """Ask ``node`` to move its rooms to the others and stop (``paiju node drain``): each
    room at the end of its hand in play, or all ``at_once``."""
    client.set(key("drain", node), "now" if at_once else "hand", ex=3600)



def designated(room_id: str, alive: list[str]) -> str | None:
    """The node that claims an orphaned room: the highest rendezvous hash of room and node,
    so the rooms of a dead node spread evenly over the live ones."""
    if not alive:
        return None
    return max(alive, key=lambda n: hashlib.sha256(f"{room_id}\0{n}".encode()).digest())
