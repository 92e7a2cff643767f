"""The ``Store`` protocol and what it keeps.

A game is its seeds plus its records, so the records are what must survive: the table emits
a ``Persist`` effect for every change, as the next entry of the room's hash chain
(``paiju.table.ledger``), and the server writes it before sending anything it caused. The
store also keeps, per room, a summary row (for listings) and where the last snapshot is (so
a restore reads only the records after it), and the seat tokens (hashed).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from paiju.table.ledger import Entry, canonical
from paiju.table.records import ActionRecord, HandRecord, Record, RoomCreated


class Fenced(Exception):
    """A shared store refused a write: this process no longer owns the room (cluster mode,
    docs/cluster.md). Nothing was written; the room must leave this process."""


class Unreachable(Exception):
    """A shared store did not answer in time (cluster mode: Redis is down); nothing was
    written."""


@dataclass
class RoomRecord:
    """A room as listed: how it was made, and its latest summary."""

    room_id: str
    variant: str
    options: dict[str, Any]
    seed: str
    settings: dict[str, Any]
    created_at: float
    phase: str = "waiting"
    totals: list[int] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    scheme: str = "fair-v1"

    @classmethod
    def of(cls, created: RoomCreated) -> RoomRecord:
        """The summary row of a room just made."""
        return cls(
            room_id=created.room,
            variant=created.variant,
            options=dict(created.options),
            seed=created.seed,
            settings=dict(created.settings),
            created_at=created.created_at,
            scheme=created.scheme,
        )


@dataclass(frozen=True)
class StoredEntry:
    """An entry as stored, with the decisions open after it: seat -> deadline as a
    wall-clock time (seconds since the epoch)."""

    entry: Entry
    deadlines: Mapping[int, float] = field(default_factory=dict)


#: One entry to append: the record, its entry, the deadlines open after it.
Appended = tuple[Record, Entry, Mapping[int, float]]


@runtime_checkable
class AsyncAppender(Protocol):
    """What a shared store offers the event loop besides ``Store`` (cluster mode: Redis):
    the calls a room or a node makes while it plays, awaited instead of blocking the loop,
    so that one room waiting for its write (or for Redis to come back) holds up no other.
    The same guarantees as the synchronous calls: an append is fenced, all or none, and
    raises ``Fenced`` or ``Unreachable`` when it was not written."""

    async def append_many_async(self, room_id: str, items: Sequence[Appended]) -> None:
        """``Store.append_many``, awaited."""
        ...

    async def restore_entries_async(self, room_id: str) -> list[StoredEntry]:
        """``Store.restore_entries``, awaited: what rebuilding a room reads."""
        ...

    async def get_room_async(self, room_id: str) -> RoomRecord | None:
        """``Store.get_room``, awaited."""
        ...

    async def list_rooms_async(self) -> list[RoomRecord]:
        """``Store.list_rooms``, awaited: the operators' listing."""
        ...

    async def entries_async(self, room_id: str, start: int = 0) -> list[StoredEntry]:
        """``Store.entries``, awaited."""
        ...

    async def save_token_async(self, token_hash: str, room_id: str, seat: int) -> None:
        """``Store.save_token``, awaited."""
        ...

    async def find_token_async(self, token_hash: str) -> tuple[str, int] | None:
        """``Store.find_token``, awaited."""
        ...

    async def revoke_tokens_async(self, room_id: str, seat: int | None = None) -> None:
        """``Store.revoke_tokens``, awaited."""
        ...


#: Whether a store class has an asynchronous side, per class: a check against the protocol
#: walks its members each time, and rooms ask on every resume, write and unload (2% of a
#: restarted server's samples while 1,000 rooms were restored and resumed).
_ASYNC_KINDS: dict[type, bool] = {}


def async_appender(store: object) -> AsyncAppender | None:
    """The store's asynchronous side, when it has one (an embedded store has none: its
    calls are short and local, and stay synchronous)."""
    kind = type(store)
    known = _ASYNC_KINDS.get(kind)
    if known is None:
        known = _ASYNC_KINDS[kind] = isinstance(store, AsyncAppender)
    return store if known else None  # type: ignore[return-value]


class Store(Protocol):
    """Where rooms, their chains and seat tokens live."""

    def append(
        self, room_id: str, record: Record, entry: Entry, deadlines: Mapping[int, float]
    ) -> None:
        """Store ``entry`` (which holds ``record``) as the room's next one, atomically with
        the summary it changes. Entry 0 (a ``RoomCreated``) makes the room: ``ValueError``
        if the id exists. Raises if it cannot be written; then nothing is."""
        ...

    def append_many(self, room_id: str, items: Sequence[Appended]) -> None:
        """Store several consecutive entries of a room, in order, all or none (one
        transaction, one round trip): what one change of a table persists at once."""
        ...

    def get_room(self, room_id: str) -> RoomRecord | None:
        """The room's summary, or ``None``."""
        ...

    def list_rooms(self) -> list[RoomRecord]:
        """Every room, oldest first."""
        ...

    def open_rooms(self) -> list[str]:
        """The ids of the rooms neither finished nor closed, oldest first: what a start
        restores (not every room ever stored, read and parsed to be skipped)."""
        ...

    def entries(self, room_id: str, start: int = 0) -> list[StoredEntry]:
        """The room's entries numbered ``start`` and above, in order."""
        ...

    def last_entry(self, room_id: str) -> int | None:
        """The number of the room's last entry (``None``: no such room)."""
        ...

    def chain(self, room_id: str) -> list[Entry]:
        """The room's entries alone (no deadlines), in order: what a chain check reads."""
        ...

    def restore_entries(self, room_id: str) -> list[StoredEntry]:
        """What a restore reads: entry 0, then the entries from the last snapshot on (all
        of them when there is none yet)."""
        ...

    def legacy_actions(self, room_id: str) -> list[ActionRecord]:
        """The actions of a room stored before the chain existed (empty for other rooms)."""
        ...

    def legacy_hands(self, room_id: str) -> list[HandRecord]:
        """The hand results stored before the chain existed."""
        ...

    def save_token(self, token_hash: str, room_id: str, seat: int) -> None:
        """Remember that the token with this hash holds ``seat`` of ``room_id``."""
        ...

    def find_token(self, token_hash: str) -> tuple[str, int] | None:
        """The (room, seat) a token hash holds, or ``None``."""
        ...

    def revoke_tokens(self, room_id: str, seat: int | None = None) -> None:
        """Forget the tokens of one seat (or of every seat) of a room."""
        ...

    def close(self) -> None:
        """Flush and release the store."""
        ...


def actions(store: Store, room_id: str) -> list[ActionRecord]:
    """Every accepted action of a room, in order: those stored before the chain, then the
    chained ones."""
    found = store.legacy_actions(room_id)
    for stored in store.entries(room_id):
        if stored.entry.kind == ActionRecord.kind:
            found.append(ActionRecord(**stored.entry.data()))
    return found


def hands(store: Store, room_id: str, stored: list[StoredEntry] | None = None
          ) -> list[HandRecord]:
    """Every finished hand of a room: those stored before the chain, then the chained ones
    (of ``stored`` when the caller read the entries already)."""
    read = store.entries(room_id) if stored is None else stored
    chained = [e.entry for e in read if e.entry.kind == HandRecord.kind]
    found = store.legacy_hands(room_id)
    for entry in chained:
        data = entry.data()
        found.append(HandRecord(data["hand"], tuple(data["scores"]), tuple(data["totals"])))
    return found


def legacy_digest(actions: Sequence[ActionRecord], results: Sequence[HandRecord]) -> str:
    """SHA-256 (hex) of a pre-chain room's records, pinned in the room's entry 0 when the
    database is upgraded: canonical JSON of ``{"actions": [[seq, hand, seat, action, source,
    version], ...], "hands": [[hand, scores, totals], ...]}``."""
    data = {
        "actions": [[a.seq, a.hand, a.seat, a.action, a.source, a.version] for a in actions],
        "hands": [[h.hand, list(h.scores), list(h.totals)] for h in results],
    }
    return hashlib.sha256(canonical(data).encode("utf-8")).hexdigest()
