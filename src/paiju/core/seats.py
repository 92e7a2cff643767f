"""Seats are numbered 0..n-1 in turn order (counter-clockwise at a Chinese table)."""

from __future__ import annotations

Seat = int


def seat_range(count: int) -> tuple[Seat, ...]:
    """All seats of a table of ``count`` seats, in turn order."""
    return tuple(range(count))


def next_seat(seat: Seat, count: int, step: int = 1) -> Seat:
    """The seat ``step`` places after ``seat`` in turn order."""
    return (seat + step) % count


def seats_from(start: Seat, count: int) -> tuple[Seat, ...]:
    """Every seat once, in turn order, beginning at ``start``."""
    return tuple((start + i) % count for i in range(count))
