"""An in-memory ``Store`` for tests and throwaway servers."""

from __future__ import annotations

import copy

from paiju.persistence.store import RoomRecord
from paiju.table.effects import ActionRecord, HandRecord, RoomStatus


class MemoryStore:
    """Keeps everything in dictionaries; nothing survives the process."""

    def __init__(self) -> None:
        self._rooms: dict[str, RoomRecord] = {}
        self._actions: dict[str, list[ActionRecord]] = {}
        self._hands: dict[str, list[HandRecord]] = {}
        self._tokens: dict[str, tuple[str, int]] = {}

    def create_room(self, room: RoomRecord) -> None:
        if room.room_id in self._rooms:
            raise ValueError(f"room {room.room_id} exists")
        self._rooms[room.room_id] = copy.deepcopy(room)
        self._actions[room.room_id] = []
        self._hands[room.room_id] = []

    def append_action(self, room_id: str, record: ActionRecord) -> None:
        self._actions[room_id].append(record)

    def record_hand(self, room_id: str, record: HandRecord) -> None:
        self._hands[room_id].append(record)

    def update_status(self, room_id: str, status: RoomStatus) -> None:
        room = self._rooms[room_id]
        room.phase = status.phase
        room.totals = list(status.totals)
        room.seats = [dict(s) for s in status.seats]

    def get_room(self, room_id: str) -> RoomRecord | None:
        room = self._rooms.get(room_id)
        return copy.deepcopy(room) if room is not None else None

    def list_rooms(self) -> list[RoomRecord]:
        return [copy.deepcopy(r) for r in sorted(self._rooms.values(), key=lambda r: r.created_at)]

    def actions(self, room_id: str) -> list[ActionRecord]:
        return list(self._actions.get(room_id, []))

    def hands(self, room_id: str) -> list[HandRecord]:
        return list(self._hands.get(room_id, []))

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
