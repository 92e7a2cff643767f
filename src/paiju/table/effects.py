"""What the table asks its host to do. The server carries these out in order; a ``Persist``
always precedes the sends it caused, so nothing is shown that is not yet on disk."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from paiju.core.seats import Seat
from paiju.table.ledger import Entry
from paiju.table.records import (
    ActionRecord,
    DealRecord,
    HandRecord,
    Record,
    RoomStatus,
    SeedRecord,
    Snapshot,
)

__all__ = [
    "SPECTATORS",
    "ActionRecord",
    "DealRecord",
    "Effect",
    "HandRecord",
    "Incident",
    "Persist",
    "RoomStatus",
    "SeedRecord",
    "Send",
    "Snapshot",
]

#: ``Send.to`` value addressing every spectator of the room.
SPECTATORS = -1


class Send(NamedTuple):
    """Send ``message`` (a protocol message as JSON data) to one seat or to the spectators.

    ``frame`` is the message already encoded (UTF-8 JSON), when the table encoded it (a state
    for its digest, an event once for all its viewers): the host sends those bytes rather
    than encode it again.

    A named tuple, not a frozen dataclass: as immutable, and built in a third of the time (a
    frozen dataclass sets each field through ``object.__setattr__``; an action sends about a
    dozen of these). Being a tuple, two are equal when their frames are equal too."""

    to: Seat
    message: dict[str, Any]
    frame: bytes | None = None

    def __repr__(self) -> str:  # the frame repeats the message
        return f"Send(to={self.to!r}, message={self.message!r})"


@dataclass(frozen=True)
class Persist:
    """Write ``record`` to the room's durable log before anything after it is sent.

    ``entry`` is the record as the next entry of the room's hash chain; ``deadlines`` are the
    decisions open after the record, seat -> deadline on the table's clock (the host stores
    them as wall-clock times, so a restart keeps each decision's remaining time)."""

    record: Record
    entry: Entry
    deadlines: Mapping[Seat, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Incident:
    """Something the host must report (log) though the table carried on: a bot that failed
    and was replaced by the timeout action, with the error and its traceback."""

    kind: str
    seat: Seat
    error: str


Effect = Send | Persist | Incident
