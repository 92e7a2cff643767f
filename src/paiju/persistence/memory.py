"""An in-memory ``Store`` for tests and throwaway servers."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

from paiju.persistence.store import Appended, RoomRecord, StoredEntry
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


class MemoryStore:
    """Keeps everything in dictionaries; nothing survives the process."""

    def __init__(self) -> None:
        self._rooms: dict[str, RoomRecord] = {}
        self._entries: dict[str, list[StoredEntry]] = {}
        self._snapshots: dict[str, int] = {}
        self._tokens: dict[str, tuple[str, int]] = {}

    def append(
        self, room_id: str, record: Record, entry: Entry, deadlines: Mapping[int, float]
    ) -> None:
        if isinstance(record, RoomCreated):
            if room_id in self._rooms:
                raise ValueError(f"room {room_id} exists")
            self._rooms[room_id] = RoomRecord.of(record)
            self._entries[room_id] = []
        self._entries[room_id].append(StoredEntry(entry, dict(deadlines)))
        if isinstance(record, RoomStatus):
            room = self._rooms[room_id]
            room.phase = record.phase
            room.totals = list(record.totals)
            room.seats = [dict(s) for s in record.seats]
        elif isinstance(record, Snapshot):
            self._snapshots[room_id] = entry.n

    def append_many(self, room_id: str, items: Sequence[Appended]) -> None:
        for record, entry, deadlines in items:
            self.append(room_id, record, entry, deadlines)

    def get_room(self, room_id: str) -> RoomRecord | None:
        room = self._rooms.get(room_id)
        return copy.deepcopy(room) if room is not None else None

    def list_rooms(self) -> list[RoomRecord]:
        return [copy.deepcopy(r) for r in sorted(self._rooms.values(), key=lambda r: r.created_at)]

    def open_rooms(self) -> list[str]:
        over = (FINISHED, CLOSED)
        return [r.room_id for r in sorted(self._rooms.values(), key=lambda r: r.created_at)
                if r.phase not in over]

    def entries(self, room_id: str, start: int = 0) -> list[StoredEntry]:
        return [e for e in self._entries.get(room_id, []) if e.entry.n >= start]

    def last_entry(self, room_id: str) -> int | None:
        entries = self._entries.get(room_id)
        return entries[-1].entry.n if entries else None

    def chain(self, room_id: str) -> list[Entry]:
        return [e.entry for e in self._entries.get(room_id, [])]

    def restore_entries(self, room_id: str) -> list[StoredEntry]:
        start = self._snapshots.get(room_id, 0)
        return [e for e in self.entries(room_id) if e.entry.n == 0 or e.entry.n >= start]

    def legacy_actions(self, room_id: str) -> list[ActionRecord]:
        return []

    def legacy_hands(self, room_id: str) -> list[HandRecord]:
        return []

    def save_token(self, token_hash: str, room_id: str, seat: int) -> None:
        self._tokens[token_hash] = (room_id, seat)

    def find_token(self, token_hash: str) -> tuple[str, int] | None:
        return self._tokens.get(token_hash)

    def revoke_tokens(self, room_id: str, seat: int | None = None) -> None:
        for key, (room, held) in list(self._tokens.items()):
            if room == room_id and (seat is None or held == seat):
                del self._tokens[key]

    def close(self) -> None:
        return None
