"""What the table asks its host to do. The server carries these out in order; a ``Persist``
always precedes the sends it caused, so nothing is shown that is not yet on disk."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paiju.core.seats import Seat

#: ``Send.to`` value addressing every spectator of the room.
SPECTATORS = -1


@dataclass(frozen=True)
class Send:
    """Send ``message`` (a protocol message as JSON data) to one seat or to the spectators."""

    to: Seat
    message: dict[str, Any]


@dataclass(frozen=True)
class ActionRecord:
    """One accepted action, as it goes into the room's log."""

    hand: int
    seq: int
    seat: Seat
    action: str
    source: str  # "player", "bot", "timeout" or "bot_fallback" (a failed bot's timeout)
    version: int


@dataclass(frozen=True)
class HandRecord:
    """The end of a hand: its per-seat scores and the match totals after it."""

    hand: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class RoomStatus:
    """The room's phase changed (or its seats did); persist the summary."""

    phase: str
    totals: tuple[int, ...]
    seats: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Persist:
    """Write ``record`` to the room's durable log before anything after it is sent."""

    record: ActionRecord | HandRecord | RoomStatus


@dataclass(frozen=True)
class Incident:
    """Something the host must report (log) though the table carried on: a bot that failed
    and was replaced by the timeout action, with the error and its traceback."""

    kind: str
    seat: Seat
    error: str


Effect = Send | Persist | Incident
