"""Writes records into a store the way a table does: a chain of entries."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.persistence.store import Store
from paiju.table.effects import Effect, Persist
from paiju.table.ledger import Ledger
from paiju.table.records import Record, RoomCreated, record_body


def created(
    room_id: str = "r1",
    created_at: float = 1.0,
    variant: str = "race",
    options: Mapping[str, Any] | None = None,
    scheme: str = "fair-v1",
) -> RoomCreated:
    """A creation record with no settings of note."""
    opts = dict(options) if options is not None else {"seats": 2}
    return RoomCreated(room_id, variant, opts, "seed", {"bot_delay": 0.0}, created_at, scheme)


class Writer:
    """Appends records to one room of a store, chained."""

    def __init__(self, store: Store, room_id: str) -> None:
        self.store, self.room_id, self.ledger = store, room_id, Ledger()

    def add(self, record: Record, deadlines: dict[int, float] | None = None) -> None:
        entry = self.ledger.append(record.kind, record_body(record))
        self.store.append(self.room_id, record, entry, deadlines or {})


def write_effects(store: Store, room_id: str, effects: list[Effect]) -> None:
    """Write the ``Persist`` effects of a table, as the server does."""
    for effect in effects:
        if isinstance(effect, Persist):
            store.append(room_id, effect.record, effect.entry, {})
