"""``paiju judge mcr``: score one hand per JSON request (the Botzone fan-calculator format).

Request: ``{"id", "packs": [["CHI"|"PENG"|"GANG", tile, offer], ...], "hand": [tiles],
"win_tile", "flowers", "self_drawn", "fourth_tile", "about_kong", "wall_last", "seat_wind",
"prevalent_wind"}`` with Botzone tile codes (CHI's tile is the middle tile; GANG offer 0 =
concealed kong). Optional ``"kong_pair_five": true`` scores one melded + one concealed kong as
明暗杠 (5) instead of Melded Kong + Concealed Kong.

Answer: ``{"id", "hu", "fans": [[english_name, points, count], ...], "total"}``; ``hu`` is
false with no fans and total 0 when the tiles are not a complete hand; ``total`` includes
flowers and ignores the 8-fan minimum. A bad request raises ``ValueError`` with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.core.errors import MalformedAction
from paiju.engines.mcr.fans import WinContext, evaluate
from paiju.engines.mcr.hand import Pack
from paiju.engines.mcr.tiles import Tile, is_flower, parse_tile, rank_of, suit_of

_FLAGS = ("self_drawn", "fourth_tile", "about_kong", "wall_last")


def _tile(value: Any, where: str) -> Tile:
    try:
        t = parse_tile(value)
    except MalformedAction:
        raise ValueError(f"{where}: not a tile code: {value!r}") from None
    if is_flower(t):
        raise ValueError(f"{where}: flowers are counted in 'flowers', not passed as tiles")
    return t


def _int(req: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = req.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"'{key}' must be an integer {low}..{high}, got {value!r}")
    return value


def _bool(req: Mapping[str, Any], key: str, default: bool | None = None) -> bool:
    value = req.get(key, default)
    if not isinstance(value, bool):
        raise ValueError(f"'{key}' must be true or false, got {value!r}")
    return value


def _pack(raw: Any, i: int) -> Pack:
    where = f"packs[{i}]"
    if not isinstance(raw, list | tuple) or len(raw) != 3:
        raise ValueError(f"{where}: expected [kind, tile, offer]")
    kind, code, offer = raw
    if kind not in ("CHI", "PENG", "GANG"):
        raise ValueError(f"{where}: kind must be CHI, PENG or GANG, got {kind!r}")
    tile = _tile(code, where)
    if isinstance(offer, bool) or not isinstance(offer, int) or not 0 <= offer <= 3:
        raise ValueError(f"{where}: offer must be 0..3, got {offer!r}")
    if kind != "GANG" and offer == 0:
        raise ValueError(f"{where}: offer 0 (concealed) exists only for GANG")
    if kind == "CHI" and (suit_of(tile) > 2 or not 2 <= rank_of(tile) <= 8):
        raise ValueError(f"{where}: a CHI is named by its middle tile, a suited 2..8")
    return Pack(kind, tile, offer)


def parse_request(req: Mapping[str, Any]) -> WinContext:
    """Validate a request and build the ``WinContext``; ValueError names the first problem."""
    packs_raw = req.get("packs", [])
    hand_raw = req.get("hand")
    if not isinstance(packs_raw, list) or len(packs_raw) > 4:
        raise ValueError("'packs' must be a list of at most 4 packs")
    if not isinstance(hand_raw, list):
        raise ValueError("'hand' must be a list of tile codes")
    packs = tuple(_pack(p, i) for i, p in enumerate(packs_raw))
    hand = tuple(_tile(t, f"hand[{i}]") for i, t in enumerate(hand_raw))
    if len(hand) != 13 - 3 * len(packs):
        raise ValueError(
            f"'hand' must hold 13 - 3 * packs = {13 - 3 * len(packs)} tiles, got {len(hand)}"
        )
    win = _tile(req.get("win_tile"), "win_tile")
    seen = [0] * 34
    for t in (*hand, win, *(x for p in packs for x in p.tiles())):
        seen[t] += 1
    if max(seen) > 4:
        raise ValueError("more than 4 copies of a tile")
    return WinContext(
        packs=packs,
        hand=hand,
        win_tile=win,
        flowers=_int(req, "flowers", 0, 8) if "flowers" in req else 0,
        self_drawn=_bool(req, "self_drawn", False),
        fourth_tile=_bool(req, "fourth_tile", False),
        about_kong=_bool(req, "about_kong", False),
        wall_last=_bool(req, "wall_last", False),
        seat_wind=_int(req, "seat_wind", 0, 3) if "seat_wind" in req else 0,
        prevalent_wind=_int(req, "prevalent_wind", 0, 3) if "prevalent_wind" in req else 0,
        kong_pair_five=_bool(req, "kong_pair_five", False),
    )


def answer(request: Mapping[str, Any]) -> dict[str, Any]:
    """The judge's answer for one request (see the module docstring)."""
    if not isinstance(request, Mapping):
        raise ValueError("a request must be a JSON object")
    ctx = parse_request(request)
    result = evaluate(ctx)
    if result is None:
        return {"id": request.get("id"), "hu": False, "fans": [], "total": 0}
    return {
        "id": request.get("id"),
        "hu": True,
        "fans": [[name, points, count] for name, points, count in result.fans],
        "total": result.total,
    }
