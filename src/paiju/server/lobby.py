"""The lobby: what a player sees before taking a seat, and the checks on what players send.

Rooms made by players come from presets (``paiju/presets/*.toml`` and ``rooms_dir``); each
preset names the options a player may choose (``choices``). The room list shows live public
rooms only: private rooms are reached by their link (an id of 64 random bits) and never listed.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from paiju.engines.registry import get_engine
from paiju.server.errors import InvalidName
from paiju.server.presets import RoomPreset
from paiju.server.rooms import Room, RoomManager
from paiju.table.table import CLOSED, FINISHED

#: Longest name, in characters, after trimming.
MAX_NAME = 24
#: The lobby lists at most this many rooms (newest first).
MAX_LISTED = 100

#: Characters that reorder the text around them: a name holding one could make the seat list
#: (or a chat line) read as something else.
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)


def check_name(raw: str) -> str:
    """The name to show for ``raw``: trimmed, 1-24 characters, no control characters (Unicode
    category Cc, line and paragraph separators) and no bidirectional controls.

    Raises ``InvalidName`` saying what is wrong."""
    name = raw.strip()
    if not name:
        raise InvalidName("a name needs at least one visible character")
    if len(name) > MAX_NAME:
        raise InvalidName(f"a name has at most {MAX_NAME} characters, not {len(name)}")
    for ch in name:
        if ch in BIDI_CONTROLS or unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs"):
            raise InvalidName(f"a name may not contain the character U+{ord(ch):04X}")
    return name


def preset_info(preset: RoomPreset) -> dict[str, Any]:
    """A preset as the lobby shows it (options normalized, seat count worked out)."""
    engine = get_engine(preset.variant)
    options = engine.normalize_options(preset.options)
    return {
        "name": preset.name,
        "variant": preset.variant,
        "title": preset.title or preset.name,
        "seats": engine.seat_count(options),
        "options": options,
        "timers": dict(preset.timers),
        "choices": {k: list(v) for k, v in preset.choices.items()},
    }


def room_row(room: Room) -> dict[str, Any]:
    """A room as the lobby lists it: public facts only."""
    table = room.table
    seats = table.info().public_seats()
    return {
        "room": room.room_id,
        "variant": table.engine.name,
        "preset": table.preset,
        "phase": table.phase,
        "hand": table.hand,
        "seats": seats,
        "free": [s["seat"] for s in seats if s["kind"] == "empty"],
        "spectators": len(room.spectators),
    }


def listed(room: Room) -> bool:
    """Whether the lobby shows ``room``: live, public, not over."""
    return not room.table.private and room.table.phase not in (FINISHED, CLOSED)


def room_rows(rooms: RoomManager) -> list[dict[str, Any]]:
    """The rows of the live public rooms in this process, newest first."""
    shown = [room for room in reversed(list(rooms.rooms.values())) if listed(room)]
    return [room_row(room) for room in shown[:MAX_LISTED]]


def lobby_message(rooms: RoomManager, player_rooms: bool,
                  elsewhere: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The ``lobby`` answer: presets and the newest live public rooms (in cluster mode, then
    the rows the other nodes published, ``elsewhere``)."""
    return {
        "type": "lobby",
        "player_rooms": player_rooms,
        "presets": [preset_info(p) for p in rooms.presets.values()],
        "rooms": [*room_rows(rooms), *(elsewhere or [])][:MAX_LISTED],
    }
