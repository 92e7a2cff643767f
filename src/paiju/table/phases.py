"""The phases of a room."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Room phases, in order. ``hand_over`` shows a finished hand until the next one is dealt;
    ``finished`` shows the match result; ``closed`` is the end (the operator closed it)."""

    WAITING = "waiting"
    PLAYING = "playing"
    HAND_OVER = "hand_over"
    FINISHED = "finished"
    CLOSED = "closed"


WAITING, PLAYING, HAND_OVER, FINISHED, CLOSED = (
    Phase.WAITING,
    Phase.PLAYING,
    Phase.HAND_OVER,
    Phase.FINISHED,
    Phase.CLOSED,
)
