"""Protocol-level rejections (the rules' and the table's are in the same ``GameError`` family)."""

from __future__ import annotations

from paiju.core.errors import GameError
from paiju.table.errors import WrongPhase


class MalformedFrame(GameError):
    """The frame is not a JSON object."""

    code = "malformed_json"


class InvalidMessage(GameError):
    """Unknown ``type``, a missing field, or a field of the wrong kind."""

    code = "invalid_message"


class UnsupportedVersion(GameError):
    """The client speaks a protocol version this server does not."""

    code = "unsupported_version"


class HelloRequired(GameError):
    """The first message must be ``hello``."""

    code = "hello_required"


class RateLimited(GameError):
    """Too many messages in too short a time."""

    code = "rate_limited"


class UnknownRoom(GameError):
    """No room with that id."""

    code = "unknown_room"


class BadToken(GameError):
    """The resume token is unknown or revoked."""

    code = "bad_token"


class AlreadyJoined(GameError):
    """This connection already holds a seat or watches a room."""

    code = "already_joined"


class InvalidName(GameError):
    """A player name that is empty, too long, or holds control or bidirectional characters."""

    code = "invalid_name"


class RoomsDisabled(GameError):
    """The operator does not let players open rooms (setting ``player_rooms``)."""

    code = "rooms_disabled"


class UnknownPreset(GameError):
    """No room preset by that name."""

    code = "unknown_preset"


class SpectatorsFull(GameError):
    """The room, or the whole server, has as many spectators as it takes."""

    code = "spectators_full"


class Draining(GameError):
    """The server is draining for a restart: no new rooms, seats or matches."""

    code = "draining"


class RoomPaused(GameError):
    """An operator paused the room: no action is taken until it resumes."""

    code = "room_paused"


class UnknownConnection(GameError):
    """No open connection with that id (admin channel)."""

    code = "unknown_connection"


class RoomClosed(WrongPhase):
    """The room was closed (or its server is stopping); nothing more happens in it."""


class StorageFailed(GameError):
    """The change could not be written to disk; it was undone (the room was rebuilt from
    what is on disk), so the room is as it was before the message."""

    code = "storage_failed"


#: Every code a client can receive, with its meaning (docs/protocol.md mirrors this).
ERROR_CODES: dict[str, str] = {
    "malformed_json": "the frame is not a JSON object",
    "invalid_message": "unknown type, missing field or wrong field",
    "unsupported_version": "the hello named a protocol version the server does not speak",
    "hello_required": "the first message of a connection must be hello",
    "rate_limited": "messages cost more than the connection's budget; slow down (repeated "
    "floods close the connection)",
    "unknown_room": "no room with that id",
    "bad_token": "the resume token is unknown or revoked",
    "already_joined": "this connection already holds a seat or watches a room",
    "not_seated": "the message needs a seat; join or resume first",
    "room_full": "every seat of the room is taken",
    "seat_taken": "the requested seat is taken or does not exist",
    "wrong_phase": "the message does not fit the room's phase (or the room is closed)",
    "stale_version": "the action names an older state than the seat's decision, or a newer one",
    "already_answered": "the seat already answered the decision the other seats still make",
    "not_your_turn": "the seat is not among those the game waits for",
    "malformed_action": "the action text is not in the variant's notation",
    "illegal_action": "the rules do not allow this action now (variants add rule-naming codes)",
    "game_over": "the hand or match is over",
    "invalid_options": "a table option is unknown or has an unsupported value",
    "unknown_variant": "no variant by that name",
    "variant_unavailable": "the variant is registered but cannot be loaded (the message says why)",
    "not_provided": "the variant does not provide what was asked for (a judge)",
    "invalid_name": "the name is empty, longer than 24 characters, or has control characters",
    "rooms_disabled": "the operator does not let players open rooms",
    "unknown_preset": "no room preset by that name",
    "spectators_full": "the room (or the server) has as many spectators as it takes",
    "draining": "the server is draining for a restart: no new rooms, seats or matches",
    "room_paused": "an operator paused the room; act again once it resumes",
    "unknown_connection": "no open connection with that id (admin channel)",
    "seed_refused": "the client seed cannot be taken (wrong hand, already sent, too long, or "
    "the room deals without client seeds)",
    "not_a_person": "the seat is empty or held by a bot (only a person's seat has a trustee)",
    "storage_failed": "the change could not be saved to disk and was undone; the room is as "
    "it was",
    "internal_error": "the server failed to carry out the message; resume if in doubt",
}
