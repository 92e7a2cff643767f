"""A SQLite ``Store`` (stdlib ``sqlite3``, WAL mode): rooms survive a restart.

Writes are small and synchronous: each is one statement in its own transaction, which with
WAL and ``synchronous=NORMAL`` costs tens of microseconds, so the room task writes inline
before it sends what the write describes.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from paiju.persistence.store import RoomRecord
from paiju.table.effects import ActionRecord, HandRecord, RoomStatus

SCHEMA = """
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


class SqliteStore:
    """Rooms, logs and seat tokens in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def create_room(self, room: RoomRecord) -> None:
        try:
            self._db.execute(
                "INSERT INTO rooms VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                ),
            )
        except sqlite3.IntegrityError as exc:
            raise ValueError(f"room {room.room_id} exists") from exc

    def append_action(self, room_id: str, record: ActionRecord) -> None:
        self._db.execute(
            "INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                room_id,
                record.seq,
                record.hand,
                record.seat,
                record.action,
                record.source,
                record.version,
            ),
        )

    def record_hand(self, room_id: str, record: HandRecord) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO hands VALUES (?, ?, ?, ?)",
            (room_id, record.hand, json.dumps(record.scores), json.dumps(record.totals)),
        )

    def update_status(self, room_id: str, status: RoomStatus) -> None:
        self._db.execute(
            "UPDATE rooms SET phase = ?, totals = ?, seats = ? WHERE room_id = ?",
            (status.phase, json.dumps(status.totals), json.dumps(status.seats), room_id),
        )

    def get_room(self, room_id: str) -> RoomRecord | None:
        row = self._db.execute("SELECT * FROM rooms WHERE room_id = ?", (room_id,)).fetchone()
        return _room(row) if row is not None else None

    def list_rooms(self) -> list[RoomRecord]:
        rows = self._db.execute("SELECT * FROM rooms ORDER BY created_at, room_id").fetchall()
        return [_room(row) for row in rows]

    def actions(self, room_id: str) -> list[ActionRecord]:
        rows = self._db.execute(
            "SELECT hand, seq, seat, action, source, version FROM actions "
            "WHERE room_id = ? ORDER BY seq",
            (room_id,),
        ).fetchall()
        return [ActionRecord(*row) for row in rows]

    def hands(self, room_id: str) -> list[HandRecord]:
        rows = self._db.execute(
            "SELECT hand, scores, totals FROM hands WHERE room_id = ? ORDER BY hand", (room_id,)
        ).fetchall()
        return [HandRecord(h, tuple(json.loads(s)), tuple(json.loads(t))) for h, s, t in rows]

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


def _room(row: tuple[Any, ...]) -> RoomRecord:
    room_id, variant, options, seed, settings, created_at, phase, totals, seats = row
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
    )
