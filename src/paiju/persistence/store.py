"""The ``Store`` protocol and the records it keeps.

A game is its seed plus its action log, so the log is what must survive: the table emits a
``Persist`` effect for every accepted action and the server writes it before sending anything
the action caused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from paiju.table.effects import ActionRecord, HandRecord, RoomStatus


@dataclass
class RoomRecord:
    """A room as stored: how it was made, and its latest summary."""

    room_id: str
    variant: str
    options: dict[str, Any]
    seed: str
    settings: dict[str, Any]
    created_at: float
    phase: str = "waiting"
    totals: list[int] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)


class Store(Protocol):
    """Where rooms, their logs and seat tokens live."""

    def create_room(self, room: RoomRecord) -> None:
        """Add a new room; ``ValueError`` if the id exists."""
        ...

    def append_action(self, room_id: str, record: ActionRecord) -> None:
        """Append one accepted action to the room's log."""
        ...

    def record_hand(self, room_id: str, record: HandRecord) -> None:
        """Store the result of a finished hand."""
        ...

    def update_status(self, room_id: str, status: RoomStatus) -> None:
        """Store the room's latest phase, totals and seats."""
        ...

    def get_room(self, room_id: str) -> RoomRecord | None:
        """The room, or ``None``."""
        ...

    def list_rooms(self) -> list[RoomRecord]:
        """Every room, oldest first."""
        ...

    def actions(self, room_id: str) -> list[ActionRecord]:
        """The room's action log in order."""
        ...

    def hands(self, room_id: str) -> list[HandRecord]:
        """The room's finished hands in order."""
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


def write(store: Store, room_id: str, record: ActionRecord | HandRecord | RoomStatus) -> None:
    """Write a table ``Persist`` record to ``store``."""
    if isinstance(record, ActionRecord):
        store.append_action(room_id, record)
    elif isinstance(record, HandRecord):
        store.record_hand(room_id, record)
    else:
        store.update_status(room_id, record)
