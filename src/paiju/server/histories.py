"""Signed hand histories over plain HTTP, on the server's own port.

``GET /history/key`` answers the server's public key; ``GET /history/<room>/<hand>`` the
signed history of that finished hand (docs/fairness.md). Anyone who knows a room's id may
fetch its finished hands, as anyone who knows it may watch the room; nothing is ever said of
a hand in progress: such a request is answered 404, as is an unknown room.
"""

from __future__ import annotations

import json
import re
from http import HTTPStatus

from websockets.http11 import Response

from paiju.persistence.histories import Histories
from paiju.server.http import json_response, text_response

PREFIX = "/history/"
HAND_PATH = re.compile(r"^/history/([A-Za-z0-9_-]{1,64})/(\d{1,6})$")


def history_response(histories: Histories, request_path: str) -> Response | None:
    """The answer to a ``/history/...`` request, or ``None`` for any other path."""
    path = request_path.split("?", 1)[0]
    if not path.startswith(PREFIX):
        return None
    if path == PREFIX + "key":
        key = {"algorithm": "Ed25519", "public_key": histories.key.public_hex}
        return json_response(json.dumps(key).encode("utf-8"))
    match = HAND_PATH.match(path)
    found = histories.get(match[1], int(match[2])) if match else None
    if found is None:
        return text_response(HTTPStatus.NOT_FOUND, "no history: unknown room, or hand not over\n")
    return json_response(json.dumps(found, ensure_ascii=False).encode("utf-8"))
