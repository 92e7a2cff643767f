"""A Redis ``Store``: the records of every room in one Redis, shared by a cluster of nodes.

Two clients share the same keys and scripts: redis-py's asyncio client for what a node does
while it plays (``AsyncAppender``: a room awaits its append before it sends what the append
describes, and the other rooms, pings and health checks go on meanwhile; the cluster's
heartbeats, leases and claims, ``paiju.server.cluster``), and the synchronous client for the
``Store`` protocol (the command-line tools, room creation, the operators' listings).

Keys (``PREFIX`` is ``paiju:``; docs/cluster.md lists them):

- ``room:{id}``: hash ``created`` (the creation summary, JSON), ``status`` (phase, totals
  and seats, JSON), ``snapshot_n``;
- ``entries:{id}``: list of entries, index ``n`` holding entry ``n`` as JSON
  ``[n, kind, body, prev, hash, deadlines]``;
- ``rooms``: sorted set of room ids by creation time; ``live``: set of rooms neither
  finished nor closed (what a cluster keeps owned);
- ``tokens``: hash token hash -> ``room seat``; ``tokens:{id}``: set of a room's token hashes;
- ``lease:{id}`` and ``epoch:{id}``: ownership (``paiju.server.cluster``).

Every append runs one Lua script, so the entry, the summary it changes and the fencing check
are one atomic step. With a ``fence`` (cluster mode) the script refuses the write unless the
room's lease is held by this node with the epoch it claimed: a node that lost its lease can
never append to that room again (``LeaseLost``).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import redis
import redis.asyncio
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from paiju.persistence.store import Appended, Fenced, RoomRecord, StoredEntry, Unreachable
from paiju.table.ledger import Entry
from paiju.table.phases import CLOSED, FINISHED
from paiju.table.records import (
    ActionRecord,
    HandRecord,
    Record,
    RoomCreated,
    RoomStatus,
    Snapshot,
)

T = TypeVar("T")

PREFIX = "paiju:"
#: Phases after which a room is no longer kept owned by a node.
OVER = frozenset({"finished", "closed"})

APPEND = """
-- KEYS: room, entries, rooms, live, lease
-- ARGV: room id, node, epoch, then per entry: n, entry json, mode, summary, created_at, phase
-- Every check comes before any write: the entries are stored all or none.
if ARGV[2] ~= '' then
  local held = redis.call('HMGET', KEYS[5], 'node', 'epoch')
  if held[1] ~= ARGV[2] or held[2] ~= ARGV[3] then
    return redis.error_reply('FENCED the lease of room ' .. ARGV[1] .. ' is not held')
  end
end
local have = redis.call('LLEN', KEYS[2])
local exists = redis.call('EXISTS', KEYS[1]) == 1
local nxt = have
local todo = {}
for i = 4, #ARGV, 6 do
  local n, mode = tonumber(ARGV[i]), ARGV[i + 2]
  if mode ~= 'create' and n < have and redis.call('LINDEX', KEYS[2], n) == ARGV[i + 1] then
    -- a retry of a write that was applied: nothing more to do for it
  else
    if mode == 'create' then
      if exists then return redis.error_reply('EXISTS room ' .. ARGV[1] .. ' exists') end
      exists = true
    elseif not exists then
      return redis.error_reply('NOROOM no room ' .. ARGV[1])
    end
    if n ~= nxt then
      return redis.error_reply('GAP room ' .. ARGV[1] .. ' has ' .. nxt .. ' entries, not ' .. n)
    end
    nxt = n + 1
    todo[#todo + 1] = i
  end
end
for _, i in ipairs(todo) do
  local mode, summary = ARGV[i + 2], ARGV[i + 3]
  if mode == 'create' then
    redis.call('HSET', KEYS[1], 'created', summary, 'snapshot_n', '0')
    redis.call('ZADD', KEYS[3], ARGV[i + 4], ARGV[1])
    redis.call('SADD', KEYS[4], ARGV[1])
  end
  redis.call('RPUSH', KEYS[2], ARGV[i + 1])
  if mode == 'status' then
    redis.call('HSET', KEYS[1], 'status', summary)
    if ARGV[i + 5] == 'finished' or ARGV[i + 5] == 'closed' then
      redis.call('SREM', KEYS[4], ARGV[1])
    end
  elseif mode == 'snapshot' then
    redis.call('HSET', KEYS[1], 'snapshot_n', ARGV[i])
  end
end
return #todo
"""


class LeaseLost(Fenced):
    """This node does not hold the room's lease (any more): it must not write to it."""


class StoreUnavailable(Unreachable):
    """Redis did not answer within the store's retry budget."""


def key(*parts: str) -> str:
    """A key of paiju's in Redis."""
    return PREFIX + ":".join(parts)


class Backoff:
    """How long to wait before trying Redis again: 50 ms doubling to 1 s, for ``retry_for``
    seconds in all (then ``StoreUnavailable``)."""

    def __init__(self, url: str, retry_for: float) -> None:
        self.url = url
        self.give_up = time.monotonic() + retry_for
        self.pause = 0.05

    def next_pause(self, exc: Exception) -> float:
        """The pause before the next try; raises ``StoreUnavailable`` past the budget."""
        if time.monotonic() + self.pause > self.give_up:
            raise StoreUnavailable(f"Redis at {self.url} does not answer: {exc}") from exc
        pause, self.pause = self.pause, min(self.pause * 2, 1.0)
        return pause


class RedisStore:
    """Rooms, their chains and seat tokens in Redis (``redis://HOST:PORT/DB``).

    ``retry_for`` is how long (seconds) a call keeps retrying, with backoff, while Redis is
    unreachable before it raises ``StoreUnavailable``; the room waits meanwhile (it never
    goes on unwritten). ``fence`` maps the rooms this node owns to their lease epochs; when
    it is set (``node``), every append is refused unless the lease matches."""

    def __init__(self, url: str, *, node: str = "", retry_for: float = 5.0,
                 timeout: float = 1.0) -> None:
        self.url = url
        options: dict[str, Any] = {
            "socket_timeout": timeout, "socket_connect_timeout": timeout,
            "retry_on_timeout": False, "decode_responses": True,
        }
        self.client: redis.Redis = redis.Redis.from_url(url, **options)
        # connects lazily, on the event loop that first uses it (one per process)
        self.aclient: redis.asyncio.Redis = redis.asyncio.Redis.from_url(url, **options)
        self.node = node
        self.fence: dict[str, int] = {}
        self.retry_for = retry_for
        self._append = self.client.register_script(APPEND)
        self._append_async = self.aclient.register_script(APPEND)

    # ------------------------------------------------------------------ resilience

    def call(self, what: Callable[[], T]) -> T:
        """``what()``, retried with backoff (50 ms doubling to 1 s) while Redis cannot be
        reached, for up to ``retry_for`` seconds. Raises ``StoreUnavailable`` then."""
        backoff = Backoff(self.url, self.retry_for)
        while True:
            try:
                return what()
            except (RedisConnectionError, RedisTimeoutError) as exc:
                time.sleep(backoff.next_pause(exc))

    async def acall(self, what: Callable[[], Awaitable[T]]) -> T:
        """``call`` for the asyncio client: ``await what()``, retried the same way, the
        event loop free while it waits."""
        backoff = Backoff(self.url, self.retry_for)
        while True:
            try:
                return await what()
            except (RedisConnectionError, RedisTimeoutError) as exc:
                await asyncio.sleep(backoff.next_pause(exc))

    # ------------------------------------------------------------------ records

    def append(
        self, room_id: str, record: Record, entry: Entry, deadlines: Mapping[int, float]
    ) -> None:
        self.append_many(room_id, [(record, entry, deadlines)])

    def append_many(self, room_id: str, items: Sequence[Appended]) -> None:
        keys, args = self._append_args(room_id, items)
        try:
            self.call(lambda: self._append(keys=keys, args=args))
        except ResponseError as exc:
            raise self._refused(room_id, exc) from None

    async def append_many_async(self, room_id: str, items: Sequence[Appended]) -> None:
        keys, args = self._append_args(room_id, items)
        try:
            await self.acall(lambda: self._append_async(keys=keys, args=args))
        except ResponseError as exc:
            raise self._refused(room_id, exc) from None

    def _append_args(self, room_id: str, items: Sequence[Appended]
                     ) -> tuple[list[str], list[str | int]]:
        """The keys and arguments of the append script; ``LeaseLost`` without a lease."""
        epoch = ""
        if self.node:
            held = self.fence.get(room_id)
            if held is None:
                raise LeaseLost(f"this node holds no lease on room {room_id}")
            epoch = str(held)
        keys = [key("room", room_id), key("entries", room_id), key("rooms"), key("live"),
                key("lease", room_id)]
        args: list[str | int] = [room_id, self.node, epoch]
        for record, entry, deadlines in items:
            args += _entry_args(record, entry, deadlines)
        return keys, args

    def _refused(self, room_id: str, exc: ResponseError) -> Exception:
        """What a refusal of the append script means: fenced, an existing room, or else."""
        text = str(exc)
        if text.startswith("FENCED"):
            self.fence.pop(room_id, None)
            return LeaseLost(text)
        if text.startswith("EXISTS"):
            return ValueError(f"room {room_id} exists")
        return exc

    def get_room(self, room_id: str) -> RoomRecord | None:
        fields = self.call(lambda: self.client.hmget(key("room", room_id), "created", "status"))
        return _room(fields[0], fields[1]) if fields[0] is not None else None

    def list_rooms(self) -> list[RoomRecord]:
        ids = [str(i) for i in self.call(lambda: self.client.zrange(key("rooms"), 0, -1))]
        if not ids:
            return []

        def read() -> list[Any]:
            pipe = self.client.pipeline(transaction=False)
            for room_id in ids:
                pipe.hmget(key("room", room_id), "created", "status")
            return pipe.execute()

        return [_room(created, status) for created, status in self.call(read)
                if created is not None]

    def open_rooms(self) -> list[str]:
        # (A cluster node restores nothing at its start: this is for the protocol's sake.)
        return [r.room_id for r in self.list_rooms() if r.phase not in (FINISHED, CLOSED)]

    async def get_room_async(self, room_id: str) -> RoomRecord | None:
        fields = await self.acall(
            lambda: self.aclient.hmget(key("room", room_id), "created", "status"))
        return _room(fields[0], fields[1]) if fields[0] is not None else None

    async def list_rooms_async(self) -> list[RoomRecord]:
        found = await self.acall(lambda: self.aclient.zrange(key("rooms"), 0, -1))
        ids = [str(i) for i in found]
        if not ids:
            return []

        async def read() -> list[Any]:
            async with self.aclient.pipeline(transaction=False) as pipe:
                for room_id in ids:
                    pipe.hmget(key("room", room_id), "created", "status")
                return await pipe.execute()

        return [_room(created, status) for created, status in await self.acall(read)
                if created is not None]

    async def entries_async(self, room_id: str, start: int = 0) -> list[StoredEntry]:
        rows = await self.acall(lambda: self.aclient.lrange(key("entries", room_id), start, -1))
        return [_stored(row) for row in rows]

    def live_rooms(self) -> set[str]:
        """Rooms neither finished nor closed: those a cluster keeps owned."""
        return {str(room) for room in self.call(lambda: self.client.smembers(key("live")))}

    def entries(self, room_id: str, start: int = 0) -> list[StoredEntry]:
        rows = self.call(lambda: self.client.lrange(key("entries", room_id), start, -1))
        return [_stored(row) for row in rows]

    def last_entry(self, room_id: str) -> int | None:
        count = int(self.call(lambda: self.client.llen(key("entries", room_id))))
        return count - 1 if count else None

    def chain(self, room_id: str) -> list[Entry]:
        return [stored.entry for stored in self.entries(room_id)]

    def restore_entries(self, room_id: str) -> list[StoredEntry]:
        def read() -> list[Any]:
            entries = key("entries", room_id)
            snapshot = self.client.hget(key("room", room_id), "snapshot_n")
            start = max(1, int(snapshot or 0))
            pipe = self.client.pipeline(transaction=True)  # one consistent read
            pipe.lrange(entries, 0, 0)
            pipe.lrange(entries, start, -1)
            return pipe.execute()

        first, rest = self.call(read)
        return [_stored(row) for row in [*first, *rest]]

    async def restore_entries_async(self, room_id: str) -> list[StoredEntry]:
        async def read() -> list[Any]:
            entries = key("entries", room_id)
            snapshot = await self.aclient.hget(key("room", room_id), "snapshot_n")
            start = max(1, int(snapshot or 0))
            async with self.aclient.pipeline(transaction=True) as pipe:
                pipe.lrange(entries, 0, 0)
                pipe.lrange(entries, start, -1)
                return await pipe.execute()

        first, rest = await self.acall(read)
        return [_stored(row) for row in [*first, *rest]]

    async def live_rooms_async(self) -> set[str]:
        """``live_rooms``, awaited."""
        return {str(room) for room in await self.acall(lambda: self.aclient.smembers(key("live")))}

    def legacy_actions(self, room_id: str) -> list[ActionRecord]:
        return []  # a Redis store is never older than the chain

    def legacy_hands(self, room_id: str) -> list[HandRecord]:
        return []

    # ------------------------------------------------------------------ tokens

    def save_token(self, token_hash: str, room_id: str, seat: int) -> None:
        def write() -> None:
            pipe = self.client.pipeline(transaction=True)
            pipe.hset(key("tokens"), token_hash, f"{room_id} {seat}")
            pipe.sadd(key("tokens", room_id), token_hash)
            pipe.execute()

        self.call(write)

    async def save_token_async(self, token_hash: str, room_id: str, seat: int) -> None:
        async def write() -> None:
            async with self.aclient.pipeline(transaction=True) as pipe:
                pipe.hset(key("tokens"), token_hash, f"{room_id} {seat}")
                pipe.sadd(key("tokens", room_id), token_hash)
                await pipe.execute()

        await self.acall(write)

    def find_token(self, token_hash: str) -> tuple[str, int] | None:
        return _holder(self.call(lambda: self.client.hget(key("tokens"), token_hash)))

    async def find_token_async(self, token_hash: str) -> tuple[str, int] | None:
        return _holder(await self.acall(lambda: self.aclient.hget(key("tokens"), token_hash)))

    def revoke_tokens(self, room_id: str, seat: int | None = None) -> None:
        def write() -> None:
            hashes = list(self.client.smembers(key("tokens", room_id)))
            if seat is not None:
                held = self.client.hmget(key("tokens"), hashes) if hashes else []
                hashes = _of_seat(room_id, seat, hashes, held)
            if not hashes:
                return
            pipe = self.client.pipeline(transaction=True)
            pipe.hdel(key("tokens"), *hashes)
            pipe.srem(key("tokens", room_id), *hashes)
            pipe.execute()

        self.call(write)

    async def revoke_tokens_async(self, room_id: str, seat: int | None = None) -> None:
        async def write() -> None:
            hashes = list(await self.aclient.smembers(key("tokens", room_id)))
            if seat is not None:
                held = await self.aclient.hmget(key("tokens"), hashes) if hashes else []
                hashes = _of_seat(room_id, seat, hashes, held)
            if not hashes:
                return
            async with self.aclient.pipeline(transaction=True) as pipe:
                pipe.hdel(key("tokens"), *hashes)
                pipe.srem(key("tokens", room_id), *hashes)
                await pipe.execute()

        await self.acall(write)

    def close(self) -> None:
        self.client.close()

    async def aclose(self) -> None:
        """Close the asyncio client (on the loop that used it)."""
        await self.aclient.aclose()


def _holder(found: Any) -> tuple[str, int] | None:
    """The (room, seat) of a stored token hash's value."""
    if found is None:
        return None
    room_id, seat = str(found).rsplit(" ", 1)
    return room_id, int(seat)


def _of_seat(room_id: str, seat: int, hashes: list[Any], held: list[Any]) -> list[Any]:
    """The token hashes among ``hashes`` (values ``held``) that hold ``seat``."""
    return [h for h, v in zip(hashes, held, strict=True)
            if v is not None and v == f"{room_id} {seat}"]


def _entry_args(record: Record, entry: Entry, deadlines: Mapping[int, float]) -> list[str | int]:
    """An entry's arguments of the append script: n, entry, mode, summary, time, phase."""
    mode, summary, phase, created_at = "plain", "", "", "0"
    if isinstance(record, RoomCreated):
        mode, summary = "create", json.dumps(_created(RoomRecord.of(record)))
        created_at = repr(record.created_at)
    elif isinstance(record, RoomStatus):
        mode, phase = "status", record.phase
        summary = json.dumps(
            {"phase": record.phase, "totals": list(record.totals),
             "seats": [dict(s) for s in record.seats]}
        )
    elif isinstance(record, Snapshot):
        mode = "snapshot"
    stored = json.dumps([entry.n, entry.kind, entry.body, entry.prev, entry.hash,
                         {str(k): v for k, v in deadlines.items()}])
    return [entry.n, stored, mode, summary, created_at, phase]


def _created(room: RoomRecord) -> dict[str, Any]:
    return {
        "room_id": room.room_id, "variant": room.variant, "options": room.options,
        "seed": room.seed, "settings": room.settings, "created_at": room.created_at,
        "scheme": room.scheme,
    }


def _room(created: Any, status: Any) -> RoomRecord:
    made = json.loads(created)
    room = RoomRecord(**made)
    if status is not None:
        latest = json.loads(status)
        room.phase, room.totals, room.seats = latest["phase"], latest["totals"], latest["seats"]
    return room


def _stored(row: Any) -> StoredEntry:
    n, kind, body, prev, hash_, deadlines = json.loads(row)
    return StoredEntry(
        Entry(n, kind, body, prev, hash_),
        {int(seat): float(at) for seat, at in deadlines.items()},
    )
