"""The dragon referee behind ``paiju judge dragon``: one JSON request in, one JSON answer out.

Requests (``options`` is optional: the scoring options of rules §4, defaults otherwise):

* ``{"id", "kind": "solve", "tiles": [8 tiles]}`` ->
  ``{"id", "category": "pair"|"points"|"bust", "leftover": [tiles],
  "chain": [[tile, [left_pips, right_pips]], ...]}`` — one optimal arrangement, the chain in
  order as laid. A bust hand answers ``"chain": []`` with all 8 tiles as its leftover. With
  ``"specials": true`` a bonus hand (天王, 地王, 天杠, 地杠) answers ``"category": "bonus"``.
* ``{"id", "kind": "showdown", "hands": [[8 tiles], [8 tiles]]}`` -> ``{"id", "winner": 0|1|null}``
  — both hands arranged optimally; ``null`` is a tie (a copy).

Tiles are codes, low half first (``66``, ``13``, ``24``); a civil tile may also be given as an
oracle id with a copy letter (``66a``, ``66b``). A bad request raises ``JudgeError`` whose
message names the problem: a wrong tile count, an unknown tile, a tile more often than the set
holds it, an unknown kind or option.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.core.errors import InvalidOptions
from paiju.engines.dragon.rules import ScoringOptions, scoring_options
from paiju.engines.dragon.scoring import category, compare
from paiju.engines.dragon.solver import solve
from paiju.engines.dragon.tiles import BY_CODE, TILES, Kind, over_copies, tile_code
from paiju.engines.dragon.view import chain_json


class JudgeError(ValueError):
    """A request the judge cannot answer; the message says why."""


def _tile(value: Any) -> Kind:
    if isinstance(value, str):
        code = value[:2] if len(value) == 3 and value[2] in "ab" else value
        kind = BY_CODE.get(code)
        if kind is not None and (code == value or TILES[kind].civil):
            return kind
    raise JudgeError(f"unknown tile {value!r}: tiles are pip codes low half first, like 66 or 24")


def _hand(value: Any, what: str) -> list[Kind]:
    if not isinstance(value, list):
        raise JudgeError(f"{what} must be a list of 8 tiles")
    if len(value) != 8:
        raise JudgeError(f"{what} must have 8 tiles, not {len(value)}")
    return [_tile(v) for v in value]


def _check_copies(kinds: list[Kind], what: str) -> None:
    extra = over_copies(kinds)
    if extra:
        names = ", ".join(f"{tile_code(k)} (the set has {TILES[k].copies})" for k in extra)
        raise JudgeError(f"{what} hold a tile more often than the set: {names}")


def _options(request: Mapping[str, Any]) -> ScoringOptions:
    raw = request.get("options", {})
    if not isinstance(raw, Mapping):
        raise JudgeError("options must be an object")
    try:
        return scoring_options(raw)
    except InvalidOptions as exc:
        raise JudgeError(exc.message) from exc


def _solve(request: Mapping[str, Any], opts: ScoringOptions) -> dict[str, Any]:
    hand = _hand(request.get("tiles"), "tiles")
    _check_copies(hand, "the tiles")
    sol = solve(hand, opts)
    return {
        "id": request.get("id"),
        "category": category(sol.key),
        "leftover": [tile_code(k) for k in sol.leftover],
        "chain": chain_json(sol.chain),
    }


def _showdown(request: Mapping[str, Any], opts: ScoringOptions) -> dict[str, Any]:
    hands = request.get("hands")
    if not isinstance(hands, list) or len(hands) != 2:
        raise JudgeError("hands must be a list of two hands of 8 tiles")
    first, second = _hand(hands[0], "hands[0]"), _hand(hands[1], "hands[1]")
    _check_copies(first + second, "the two hands together")
    result = compare(solve(first, opts).key, solve(second, opts).key)
    winner = None if result == 0 else (0 if result > 0 else 1)
    return {"id": request.get("id"), "winner": winner}


def answer(request: Mapping[str, Any]) -> dict[str, Any]:
    """The answer to one request; ``JudgeError`` for a request that cannot be answered."""
    if not isinstance(request, Mapping):
        raise JudgeError("a request must be a JSON object")
    kind = request.get("kind")
    opts = _options(request)
    if kind == "solve":
        return _solve(request, opts)
    if kind == "showdown":
        return _showdown(request, opts)
    raise JudgeError(f"unknown kind {kind!r}: expected 'solve' or 'showdown'")
