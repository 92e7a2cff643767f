"""Load a room from its store: check its chain, rebuild its table quietly.

A restore reads entry 0 (how the room was made) and the entries from the room's last
snapshot on; it checks that entry 0 is intact, that every entry from the snapshot on links to
the one before and matches its hash, and that the snapshot goes with entry 0; then it
rebuilds the table from the snapshot and the entries after it (``paiju.table.restore``). The
time this takes does not grow with the room's history. The records before the snapshot are
pinned by its hash; ``check_chain`` checks every one of them (the server runs it on every
restored room once the port is open, and ``paiju verify --room`` does too).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from paiju.core.errors import GameError
from paiju.persistence.store import Store, StoredEntry, legacy_digest
from paiju.table.ledger import GENESIS_PREV, Entry, Ledger, first_break
from paiju.table.records import Record, RoomCreated, Snapshot, parse_record
from paiju.table.restore import Rebuild, RecordMismatch
from paiju.table.table import Table

#: Builds the table of a room from its creation record (settings, bots).
TableMaker = Callable[[RoomCreated], Table]


class Damaged(Exception):
    """A room whose stored records do not verify: ``n`` is the first record that fails."""

    def __init__(self, room_id: str, n: int, reason: str) -> None:
        super().__init__(f"room {room_id}: record {n} fails: {reason}")
        self.room_id = room_id
        self.n = n
        self.reason = reason


@dataclass(frozen=True)
class Restored:
    """A rebuilt table and what it was rebuilt from."""

    table: Table
    created: RoomCreated
    last: StoredEntry


def parse(room_id: str, entry: Entry) -> Record:
    """The record an entry holds; ``Damaged`` if it cannot be read."""
    try:
        return parse_record(entry.kind, entry.data())
    except ValueError as exc:
        raise Damaged(room_id, entry.n, f"it cannot be read: {exc}") from None


def check_genesis(room_id: str, stored: list[StoredEntry]) -> RoomCreated:
    """Entry 0 of ``stored`` as a creation record, intact. Raises ``Damaged``."""
    if not stored or stored[0].entry.n != 0:
        raise Damaged(room_id, 0, "the room's creation record is missing")
    first = stored[0].entry
    if first.prev != GENESIS_PREV or not first.intact() or first.kind != RoomCreated.kind:
        raise Damaged(room_id, 0, "the room's creation record does not match its hash")
    created = parse(room_id, first)
    assert isinstance(created, RoomCreated)
    if created.room != room_id:
        raise Damaged(room_id, 0, f"the creation record is that of room {created.room}")
    return created


def check_chain(store: Store, room_id: str, entries: list[Entry] | None = None) -> None:
    """Check every stored record of a room (``entries``, when the caller read them already):
    entry 0, each link and hash, no gap, and the digest of the records from before the
    chain. Raises ``Damaged`` at the first failure."""
    if entries is None:
        entries = store.chain(room_id)
    created = check_genesis(room_id, [StoredEntry(e) for e in entries[:1]])
    broken = first_break(entries, GENESIS_PREV, 0)
    if broken is not None:
        raise Damaged(room_id, broken.n, broken.reason)
    if created.pre_chain is not None:
        digest = legacy_digest(store.legacy_actions(room_id), store.legacy_hands(room_id))
        if digest != created.pre_chain.get("digest"):
            raise Damaged(room_id, 0, "the records from before the chain were changed")


def restore_room(store: Store, room_id: str, make: TableMaker, now: float, wall: float,
                 stored: list[StoredEntry] | None = None) -> Restored:
    """The room rebuilt from its last snapshot at ``now`` (table clock) / ``wall`` (epoch
    seconds), from ``stored`` when the caller read it already (``restore_entries``, awaited).
    Raises ``Damaged`` for records that do not verify or do not replay."""
    if stored is None:
        stored = store.restore_entries(room_id)
    created = check_genesis(room_id, stored)
    tail = stored[1:]
    if tail and tail[0].entry.n > 1:
        if tail[0].entry.kind != Snapshot.kind:
            raise Damaged(room_id, tail[0].entry.n - 1, "the room's last snapshot is missing")
        broken = first_break([e.entry for e in tail])
    else:
        broken = first_break([e.entry for e in stored], GENESIS_PREV, 0)
    if broken is not None:
        raise Damaged(room_id, broken.n, broken.reason)
    table = make(created)
    table.genesis = stored[0].entry.hash
    table.ledger = Ledger.after(stored[-1].entry)
    rebuild = Rebuild(table)
    records = [parse(room_id, e.entry) for e in tail]
    try:
        rebuild.apply(created)
        if created.pre_chain is not None and not any(isinstance(r, Snapshot) for r in records):
            _replay_pre_chain(store, room_id, created, rebuild)
        for entry, record in zip(tail, records, strict=True):
            _apply(rebuild, room_id, entry.entry.n, record)
    except Damaged:
        raise
    except (GameError, ValueError) as exc:
        raise Damaged(room_id, 0, f"the records do not replay: {exc}") from None
    last = stored[-1]
    remaining = {seat: at - wall for seat, at in last.deadlines.items()}
    rebuild.finish(now, remaining)
    return Restored(table, created, last)


def _apply(rebuild: Rebuild, room_id: str, n: int, record: Record) -> None:
    try:
        rebuild.apply(record)
    except (RecordMismatch, GameError) as exc:
        message = exc.message if isinstance(exc, GameError) else str(exc)
        raise Damaged(room_id, n, message) from None


def _replay_pre_chain(store: Store, room_id: str, created: RoomCreated, rebuild: Rebuild
                      ) -> None:
    """Replay a pre-chain room's older actions, checking them against the digest its entry
    0 pinned when the database was upgraded."""
    actions = store.legacy_actions(room_id)
    pinned = created.pre_chain or {}
    if legacy_digest(actions, store.legacy_hands(room_id)) != pinned.get("digest"):
        raise Damaged(room_id, 0, "the records from before the chain were changed")
    try:
        rebuild.legacy(actions)
    except (RecordMismatch, GameError) as exc:
        message = exc.message if isinstance(exc, GameError) else str(exc)
        raise Damaged(room_id, 0, f"the records from before the chain do not replay: {message}"
                      ) from None
