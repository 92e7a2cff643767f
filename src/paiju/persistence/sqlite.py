"""A SQLite ``Store`` (stdlib ``sqlite3``, WAL mode): rooms survive a restart and an upgrade.

Writes are small and synchronous: each entry is one short transaction (the entry and the
summary it changes), which with WAL and ``synchronous=NORMAL`` costs tens of microseconds, so
the room task writes inline before it sends what the write describes.

Durability: in WAL mode a transaction is committed once its pages are written to the log
(``-wal``) file; with ``synchronous=NORMAL`` that write is not followed by an fsync. A
committed transaction is then in the operating system's hands: it survives the process being
killed (kill -9, a crash) and is found in the log by the next open; a power cut or a kernel
crash may lose the last transactions since the log's last fsync (at each checkpoint), never
the database's consistency. (``synchronous=FULL`` would fsync every commit; ``OFF`` would
give up consistency after a power cut.) Checkpoints stay with the writing connection: run by
a thread of the store's own on a second connection they made this thread's commits slower
(~50 -> ~65 µs each, the same files written meanwhile) and did not take the stalls away.

What a write costs is mostly its pages written to the log, and the checkpoints' fsyncs: an
action is ~2.3 pages (the table's last leaf, a leaf of the key's index), an action with a
snapshot ~5.6 when the snapshot also updated the room's row (counted before a snapshot during
a hand stopped doing so; ``benchmarks/store_cost.py`` measures the writes of an MCR game
against another checkout). An action and the snapshot after it, entries alone, are one
multi-row ``INSERT`` in autocommit (one statement is atomic): 57 -> 52 µs against ``BEGIN``,
two inserts and ``COMMIT``. Measured against this and not kept: the entries ``WITHOUT
ROWID`` (clustered by room) 1.4x the CPU, rows of kilobytes landing mid-tree; pages of 2 or
8 KiB 1.04x; a larger cache 1.04-1.10x; a batch as one multi-row ``INSERT`` inside ``BEGIN``
and ``COMMIT`` 1.02-1.04x; ``mmap_size``,
``temp_store`` and ``journal_size_limit`` no change; ``foreign_keys`` off 1%. Two would save
CPU at a price: ``locking_mode=EXCLUSIVE`` ~12% (no shared-memory locks per transaction) but
no other process could read the file while the server runs (``paiju verify`` or ``replay
--database``); a checkpoint every 4,000 pages rather than 1,000 ~7%, but each would hold the
loop ~50 ms rather than ~20 ms.

The schema has a version (``PRAGMA user_version``) and migrations run in order when a store
opens an older file, each in one transaction. Version 0 is the unversioned schema of the
first releases (rooms, actions, hands, tokens); version 1 adds the hash-chained ``entries``
and gives every room already stored an entry 0 that pins its older records (their count and
SHA-256, ``legacy_digest``) so they verify as "pre-chain" records.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import orjson

from paiju.core.fairness import SEEDED_V0
from paiju.persistence.store import Appended, RoomRecord, StoredEntry, legacy_digest
from paiju.table.ledger import Entry, Ledger
from paiju.table.phases import CLOSED, FINISHED
from paiju.table.records import (
    ActionRecord,
    DealRecord,
    HandRecord,
    Record,
    RoomCreated,
    RoomStatus,
    SeedRecord,
    Snapshot,
    record_body,
)

#: The schema of the first releases (version 0); every migration starts from it.
SCHEMA_V0 = """
CREATE TABLE IF NOT EXISTS rooms (
    room_id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    settings TEXT NOT NULL,
    created_at REAL NOT NULL,
    phase TEXT NOT NULL,
    totals TEXT NOT NULL,
    seats TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    room_id TEXT NOT NULL REFERENCES rooms(room_id),
    seq INTEGER NOT NULL,
    hand INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    source TEXT NOT NULL,
    version INTEGER NOT NULL,
    PRIMARY KEY (room_id, seq)
);
CREATE TABLE IF NOT EXISTS hands (
    room_id TEXT NOT NULL REFERENCES rooms(room_id),
    hand INTEGER NOT NULL,
    scores TEXT NOT NULL,
    totals TEXT NOT NULL,
    PRIMARY KEY (room_id, hand)
);
CREATE TABLE IF NOT EXISTS tokens (
    token_hash TEXT PRIMARY KEY,
    room_id TEXT NOT NULL REFERENCES rooms(room_id),
    seat INTEGER NOT NULL
);
"""

ROOM_COLUMNS = (
    "room_id, variant, options, seed, settings, created_at, phase, totals, seats, scheme"
)


#: Versions a room stored before the chain may have used after its last stored action (the
#: first releases stored the version with actions only: joins, readies and reconnections
#: moved it unseen); a migrated room's versions start this far above that action's.
PRE_CHAIN_VERSIONS = 1000


def _migrate_to_1(db: sqlite3.Connection) -> None:
    """Hash-chained entries; every stored room gets entry 0 pinning its older records."""
    db.execute(
        """CREATE TABLE entries (
            room_id TEXT NOT NULL REFERENCES rooms(room_id),
            n INTEGER NOT NULL,
            kind TEXT NOT NULL,
            body TEXT NOT NULL,
            prev TEXT NOT NULL,
            hash TEXT NOT NULL,
            deadlines TEXT NOT NULL DEFAULT '{}',
            PRIMARY KEY (room_id, n)
        )"""
    )
    db.execute(f"ALTER TABLE rooms ADD COLUMN scheme TEXT NOT NULL DEFAULT '{SEEDED_V0}'")
    db.execute("ALTER TABLE rooms ADD COLUMN snapshot_n INTEGER NOT NULL DEFAULT 0")
    rows = db.execute(
        "SELECT room_id, variant, options, seed, settings, created_at, phase, totals, seats "
        "FROM rooms"
    ).fetchall()
    for room_id, variant, options, seed, settings, created_at, phase, totals, seats in rows:
        actions, results = _legacy(db, room_id)
        created = RoomCreated(
            room=room_id,
            variant=variant,
            options=json.loads(options),
            seed=seed,
            settings=json.loads(settings),
            created_at=created_at,
            scheme=SEEDED_V0,
            pre_chain={
                "actions": len(actions),
                "hands": len(results),
                "digest": legacy_digest(actions, results),
            },
            status={"phase": phase, "totals": json.loads(totals), "seats": json.loads(seats)},
            version=max((a.version for a in actions), default=0) + PRE_CHAIN_VERSIONS,
        )
        entry = Ledger().append(created.kind, record_body(created))
        db.execute(
            "INSERT INTO entries (room_id, n, kind, body, prev, hash) VALUES (?, ?, ?, ?, ?, ?)",
            (room_id, entry.n, entry.kind, entry.body, entry.prev, entry.hash),
        )


#: Migration ``i`` takes a database from version ``i`` to ``i + 1``.
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_migrate_to_1]
SCHEMA_VERSION = len(MIGRATIONS)


def _legacy(db: sqlite3.Connection, room_id: str) -> tuple[list[ActionRecord], list[HandRecord]]:
    actions = db.execute(
        "SELECT hand, seq, seat, action, source, version FROM actions "
        "WHERE room_id = ? ORDER BY seq",
        (room_id,),
    ).fetchall()
    results = db.execute(
        "SELECT hand, scores, totals FROM hands WHERE room_id = ? ORDER BY hand", (room_id,)
    ).fetchall()
    return [ActionRecord(*row) for row in actions], [
        HandRecord(h, tuple(json.loads(s)), tuple(json.loads(t))) for h, s, t in results
    ]


class SqliteStore:
    """Rooms, their chains and seat tokens in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._migrate()
        # The writes go through one cursor of their own: ``Connection.execute`` makes a new
        # cursor (an object the collector tracks) for every statement.
        self._write = self._db.cursor().execute

    def _migrate(self) -> None:
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise ValueError(
                f"the database has schema version {version}; this paiju knows up to "
                f"{SCHEMA_VERSION} (it was written by a newer release)"
            )
        if version == SCHEMA_VERSION:
            return
        with self._transaction():
            for statement in SCHEMA_V0.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            for step in MIGRATIONS[version:]:
                step(self._db)
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    @property
    def schema_version(self) -> int:
        """The schema version of the open database."""
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def append(
        self, room_id: str, record: Record, entry: Entry, deadlines: Mapping[int, float]
    ) -> None:
        self.append_many(room_id, ((record, entry, deadlines),))

    def append_many(self, room_id: str, items: Sequence[Appended]) -> None:
        if len(items) == 1 and isinstance(items[0][0], _ENTRY_ONLY):
            # One statement is a transaction of its own (autocommit): atomic and committed
            # alike, without the two statements BEGIN and COMMIT.
            record, entry, deadlines = items[0]
            self._insert(room_id, entry, deadlines)
            return
        if all(_entry_only(record) for record, _, _ in items):
            # So are several rows in one statement: an action and the snapshot after it
            # (every second action) 57 -> 52 us, against BEGIN, two INSERTs and COMMIT.
            self._insert_many(room_id, items)
            return
        # BEGIN ... COMMIT inline: this is every hand boundary's path, and a context manager
        # costs its object and two calls.
        write = self._write
        write("BEGIN IMMEDIATE")
        try:
            for record, entry, deadlines in items:
                self._append(room_id, record, entry, deadlines)
            write("COMMIT")
        except BaseException:
            # A COMMIT that fails (a deferred constraint, an I/O error) leaves the
            # transaction open: the next lone INSERT would run inside it, be acknowledged,
            # and never be committed.
            _roll_back(self._db)
            raise

    def _append(
        self, room_id: str, record: Record, entry: Entry, deadlines: Mapping[int, float]
    ) -> None:
        if isinstance(record, RoomCreated):
            self._create(RoomRecord.of(record))
        self._insert(room_id, entry, deadlines)
        if isinstance(record, RoomStatus):
            self._write(
                "UPDATE rooms SET phase = ?, totals = ?, seats = ? WHERE room_id = ?",
                (record.phase, json.dumps(record.totals), json.dumps(record.seats), room_id),
            )
        elif isinstance(record, Snapshot) and not _entry_only(record):
            # Only a hand's first snapshot moves ``snapshot_n``: a restore finds the last
            # snapshot by the key (``restore_entries``), and the room's row, updated with
            # every snapshot during a hand, cost each a page more in the log and a statement
            # (store_cost's Action+Snapshot 72 -> 60 us).
            self._write(
                "UPDATE rooms SET snapshot_n = ? WHERE room_id = ?", (entry.n, room_id)
            )

    def _insert(self, room_id: str, entry: Entry, deadlines: Mapping[int, float]) -> None:
        self._write(
            "INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?)",
            (room_id, entry.n, entry.kind, entry.body, entry.prev, entry.hash,
             deadlines_text(deadlines)),
        )

    def _insert_many(self, room_id: str, items: Sequence[Appended]) -> None:
        values: list[Any] = []
        for _, entry, deadlines in items:
            values += (room_id, entry.n, entry.kind, entry.body, entry.prev, entry.hash,
                       deadlines_text(deadlines))
        statement = _INSERTS.get(len(items))
        if statement is None:
            rows = ", ".join(["(?, ?, ?, ?, ?, ?, ?)"] * len(items))
            statement = _INSERTS[len(items)] = f"INSERT INTO entries VALUES {rows}"
        self._write(statement, values)

    def _create(self, room: RoomRecord) -> None:
        try:
            self._db.execute(
                f"INSERT INTO rooms ({ROOM_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    room.room_id,
                    room.variant,
                    json.dumps(room.options),
                    room.seed,
                    json.dumps(room.settings),
                    room.created_at,
                    room.phase,
                    json.dumps(room.totals),
                    json.dumps(room.seats),
                    room.scheme,
                ),
            )
        except sqlite3.IntegrityError as exc:
            raise ValueError(f"room {room.room_id} exists") from exc

    def get_room(self, room_id: str) -> RoomRecord | None:
        row = self._db.execute(
            f"SELECT {ROOM_COLUMNS} FROM rooms WHERE room_id = ?", (room_id,)
        ).fetchone()
        return _room(row) if row is not None else None

    def list_rooms(self) -> list[RoomRecord]:
        rows = self._db.execute(
            f"SELECT {ROOM_COLUMNS} FROM rooms ORDER BY created_at, room_id"
        ).fetchall()
        return [_room(row) for row in rows]

    def open_rooms(self) -> list[str]:
        rows = self._db.execute(
            "SELECT room_id FROM rooms WHERE phase NOT IN (?, ?) ORDER BY created_at, room_id",
            (FINISHED, CLOSED),
        ).fetchall()
        return [str(row[0]) for row in rows]

    def entries(self, room_id: str, start: int = 0) -> list[StoredEntry]:
        rows = self._db.execute(
            "SELECT n, kind, body, prev, hash, deadlines FROM entries "
            "WHERE room_id = ? AND n >= ? ORDER BY n",
            (room_id, start),
        ).fetchall()
        return [_stored(row) for row in rows]

    def last_entry(self, room_id: str) -> int | None:
        row = self._db.execute(
            "SELECT max(n) FROM entries WHERE room_id = ?", (room_id,)
        ).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def chain(self, room_id: str) -> list[Entry]:
        rows = self._db.execute(
            "SELECT n, kind, body, prev, hash FROM entries WHERE room_id = ? ORDER BY n",
            (room_id,),
        ).fetchall()
        return [Entry(*row) for row in rows]

    def restore_entries(self, room_id: str) -> list[StoredEntry]:
        # Two ranges of the primary key, so that only they are read (an OR would scan all).
        # The last snapshot is found by walking the key back from the room's last entry (a
        # snapshot is taken every few actions: a few rows are looked at), no further back
        # than ``snapshot_n``, the hand's first snapshot (older releases read it alone).
        rows = self._db.execute(
            "SELECT n, kind, body, prev, hash, deadlines FROM entries WHERE room_id = ?1 "
            "AND n = 0 UNION ALL "
            "SELECT n, kind, body, prev, hash, deadlines FROM entries WHERE room_id = ?1 "
            "AND n >= max(1, (SELECT snapshot_n FROM rooms WHERE room_id = ?1), "
            "coalesce((SELECT n FROM entries WHERE room_id = ?1 AND kind = 'snapshot' "
            "ORDER BY n DESC LIMIT 1), 0)) ORDER BY n",
            (room_id,),
        ).fetchall()
        return [_stored(row) for row in rows]

    def legacy_actions(self, room_id: str) -> list[ActionRecord]:
        return _legacy(self._db, room_id)[0]

    def legacy_hands(self, room_id: str) -> list[HandRecord]:
        return _legacy(self._db, room_id)[1]

    def save_token(self, token_hash: str, room_id: str, seat: int) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO tokens VALUES (?, ?, ?)", (token_hash, room_id, seat)
        )

    def find_token(self, token_hash: str) -> tuple[str, int] | None:
        row = self._db.execute(
            "SELECT room_id, seat FROM tokens WHERE token_hash = ?", (token_hash,)
        ).fetchone()
        return (str(row[0]), int(row[1])) if row is not None else None

    def revoke_tokens(self, room_id: str, seat: int | None = None) -> None:
        if seat is None:
            self._db.execute("DELETE FROM tokens WHERE room_id = ?", (room_id,))
        else:
            self._db.execute("DELETE FROM tokens WHERE room_id = ? AND seat = ?", (room_id, seat))

    def close(self) -> None:
        self._db.close()


#: Records stored as their entry alone (no summary to change): one statement.
_ENTRY_ONLY = (ActionRecord, HandRecord, SeedRecord, DealRecord)
#: The statement that inserts so many entries at once, per count (made when first needed).
_INSERTS: dict[int, str] = {}


def _entry_only(record: Record) -> bool:
    """Whether ``record`` is stored as its entry alone: a snapshot during a hand too (only a
    hand's first snapshot moves ``snapshot_n``, see ``_append``)."""
    return isinstance(record, _ENTRY_ONLY) or (
        isinstance(record, Snapshot) and record.state is not None)


def deadlines_text(deadlines: Mapping[int, float]) -> str:
    """The open decisions' deadlines as stored: JSON, seat (as text) -> wall-clock time.
    orjson writes it some ten times faster than the standard library; a time that is not
    finite (never made: deadlines are clock readings plus seconds) is left to the standard
    library, which writes it so that it reads back."""
    if not deadlines:
        return "{}"
    if all(math.isfinite(at) for at in deadlines.values()):
        return orjson.dumps(deadlines, option=orjson.OPT_NON_STR_KEYS).decode()
    return json.dumps({str(seat): at for seat, at in deadlines.items()})


class _Transaction:
    """``BEGIN`` ... ``COMMIT``, or ``ROLLBACK`` when the block raises."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is not None:
            _roll_back(self._db)
            return
        try:
            self._db.execute("COMMIT")
        except BaseException:
            _roll_back(self._db)
            raise


def _roll_back(db: sqlite3.Connection) -> None:
    """End the open transaction, if any, undone. (A failed statement may already have
    ended it: SQLite rolls back by itself on some errors, and a second ROLLBACK raises.)"""
    if db.in_transaction:
        db.execute("ROLLBACK")


def _stored(row: tuple[Any, ...]) -> StoredEntry:
    n, kind, body, prev, hash_, deadlines = row
    return StoredEntry(
        Entry(n, kind, body, prev, hash_),
        # Most entries have no deadline: "{}" is not handed to the JSON reader.
        {} if deadlines == "{}" else
        {int(seat): float(at) for seat, at in json.loads(deadlines).items()},
    )


def _room(row: tuple[Any, ...]) -> RoomRecord:
    room_id, variant, options, seed, settings, created_at, phase, totals, seats, scheme = row
    return RoomRecord(
        room_id=room_id,
        variant=variant,
        options=json.loads(options),
        seed=seed,
        settings=json.loads(settings),
        created_at=created_at,
        phase=phase,
        totals=json.loads(totals),
        seats=json.loads(seats),
        scheme=scheme,
    )
