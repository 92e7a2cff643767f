"""Table-level rejections, in the same ``GameError`` family as the rules' own."""

from __future__ import annotations

from paiju.core.errors import GameError


class RoomFull(GameError):
    """No empty seat is left."""

    code = "room_full"


class SeatTaken(GameError):
    """The requested seat is occupied or does not exist."""

    code = "seat_taken"


class NotSeated(GameError):
    """The command needs a seat and the sender has none."""

    code = "not_seated"


class WrongPhase(GameError):
    """The command does not fit the room's current phase (e.g. acting before the start)."""

    code = "wrong_phase"


class AlreadyAnswered(GameError):
    """The seat already answered the simultaneous decision that the others still decide."""

    code = "already_answered"
