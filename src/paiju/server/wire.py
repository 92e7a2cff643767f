"""Frames in and out, always through the protocol's models.

Every frame a client sends is parsed by ``CLIENT_ADAPTER`` straight from its text (so the JSON
reader and the schema are the same thing), and every message the server sends is validated by
``SERVER_ADAPTER`` and encoded by it: the bytes on the wire cannot drift from the schema that
``paiju schema`` publishes.

The table's own messages (``state`` and ``event``, plain JSON data, most of what a server
sends) are the exception on the hot path: checking each against the schema cost more than
building it, so they are written by orjson as they are (ten times faster than pydantic or the
standard library's ``json`` here; msgspec came close but no nearer). The tests run with
``PAIJU_CHECK_WIRE=1``, which checks every one of them against the schema as well, so a table
message that drifts from the schema fails the suite, and a test compares both encodings.
"""

from __future__ import annotations

import os
from typing import Any

import orjson
from pydantic import ValidationError

from paiju.core.errors import GameError
from paiju.server import protocol as p
from paiju.server.errors import InvalidMessage, MalformedFrame

INTERNAL_ERROR = (
    "the server failed to carry out the message; resume to reload the state if in doubt"
)


def parse_frame(frame: str | bytes) -> p.ClientMessage:
    """A client frame as a protocol model.

    Text and binary frames are read alike, from their bytes: a frame must be UTF-8 JSON.
    Raises ``MalformedFrame`` for bytes that are not one JSON object (invalid UTF-8, a lone
    surrogate escape, nesting too deep included) and ``InvalidMessage`` for an object that is
    not a valid message."""
    try:
        return p.CLIENT_ADAPTER.validate_json(frame)
    except ValidationError as exc:
        first = exc.errors()[0]
        if first["type"] == "json_invalid":
            raise MalformedFrame(f"the frame is not valid JSON: {first['msg']}") from None
        if first["type"] in ("dict_type", "model_type") and not first["loc"]:
            raise MalformedFrame("the frame must be a JSON object") from None
        where = ".".join(str(x) for x in first["loc"]) or "message"
        raise InvalidMessage(
            f"{where}: {first['msg']}", details={"errors": len(exc.errors())}
        ) from None


#: Whether the table's JSON data is checked against the schema before it is encoded.
CHECKED = os.environ.get("PAIJU_CHECK_WIRE", "") == "1"


def encode_bytes(message: p.ServerMessage | dict[str, Any]) -> bytes:
    """The frame for ``message`` (a model, or the table's JSON data of one) as the UTF-8 bytes
    that go on the wire. Encoded once, the same bytes can go to any number of connections.
    With ``CHECKED``, JSON data is validated by the schema first and raises
    ``ValidationError`` if it is not a server message (a bug)."""
    if not isinstance(message, dict):
        return p.SERVER_ADAPTER.dump_json(message)
    if CHECKED:
        return p.SERVER_ADAPTER.dump_json(p.SERVER_ADAPTER.validate_python(message))
    return orjson.dumps(message)


def frame_of(message: p.ServerMessage | dict[str, Any], frame: bytes | None) -> bytes:
    """The frame for ``message``: ``frame`` when the table encoded it already (checked as
    it is, with ``CHECKED``), else ``encode_bytes``."""
    if frame is None:
        return encode_bytes(message)
    if CHECKED:
        p.SERVER_ADAPTER.validate_json(frame)
    return frame


def encode(message: p.ServerMessage | dict[str, Any]) -> str:
    """``encode_bytes`` as text."""
    return encode_bytes(message).decode("utf-8")


def error(exc: GameError) -> p.Error:
    """The wire form of a refusal."""
    return p.Error(type="error", code=exc.code, message=exc.message, details=dict(exc.details))


def internal_error() -> p.Error:
    """What a client hears when the server failed (the details stay in the server's log)."""
    return p.Error(type="error", code=p.ErrorCode.INTERNAL_ERROR, message=INTERNAL_ERROR)
