"""Trustee mode (托管) of a person's seat: who plays it, and the timeouts that lead to it.

A mixin of ``Table``; docs/operations.md describes the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paiju.core.seats import Seat
from paiju.engines.base import Engine
from paiju.table.decisions import Decisions, TableSettings
from paiju.table.effects import Effect
from paiju.table.errors import NotAPerson
from paiju.table.phases import PLAYING, Phase
from paiju.table.seats import Seats


class Trustees:
    """Taking a seat back, the operator's switch, and the count of timeouts."""

    engine: Engine[Any, Any]
    state: Any
    phase: Phase
    seat_count: int
    seats: Seats
    settings: TableSettings
    decisions: Decisions
    _changed: Callable[[float], list[Effect]]  # from ``Table``

    def _take_back(self, seat: Seat, now: float) -> list[Effect]:
        if not self.seats[seat].trustee:
            return []
        self._trustee(seat, False, now)
        return self._changed(now)

    def _set_trustee(self, seat: Seat, on: bool, now: float) -> list[Effect]:
        if not 0 <= seat < self.seat_count or self.seats.kind(seat) != "human":
            raise NotAPerson(f"seat {seat} is not held by a person")
        if self.seats[seat].trustee == on:
            return []
        self._trustee(seat, on, now)
        return self._changed(now)

    def _trustee(self, seat: Seat, on: bool, now: float) -> None:
        """Put a person's seat in trustee mode or take it out; an open decision of the seat
        gets a fresh deadline (the trustee's constant delay, or the person's timer)."""
        slot = self.seats[seat]
        if slot.trustee == on:
            return
        slot.trustee = on
        if self.phase == PLAYING:
            delay = self.settings.trustee_delay if on else None
            self.decisions.reschedule(self.engine, self.state, seat, now, delay)

    def count_timeouts(self, seat: Seat, source: str) -> bool:
        """Book who acted for a person's seat: their own action takes the seat back from the
        trustee and clears the count; a timeout adds one, and ``trustee_after`` in a row put
        the seat in trustee mode. Returns whether the seats changed as others see them."""
        slot = self.seats[seat]
        if slot.kind != "human":
            return False
        if source == "player":
            slot.timeouts = 0
            was = slot.trustee
            slot.trustee = slot.away = False
            return was
        if source != "timeout":
            return False
        slot.timeouts += 1
        limit = self.settings.trustee_after
        if limit and slot.timeouts >= limit and not slot.trustee:
            slot.trustee = True
            return True
        return False
