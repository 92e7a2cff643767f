"""MCR actions and their canonical text notation.

Notation (Botzone tile codes, one space between tokens):

* ``discard W5`` — discard a tile in one's own turn (打牌)
* ``hu`` — declare a win (和): self-drawn in one's turn, or on a discard / robbed kong tile
* ``angang W5`` — concealed kong (暗杠) of four held tiles, in one's turn after a draw
* ``bugang W5`` — added kong (加杠) of the tile just drawn onto one's own exposed pung
* ``chi W4`` — claim a discard for a chow (吃) whose **middle** tile is ``W4``
* ``peng`` — claim a discard for a pung (碰)
* ``gang`` — claim a discard for a melded kong (大明杠)
* ``pass`` — decline every claim in a claim window (过)

Draws are automatic inside ``apply``; they are never actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from paiju.core.errors import MalformedAction
from paiju.core.notation import split_tokens
from paiju.engines.mcr.tiles import Tile, is_flower, parse_tile, tile_code

DISCARD = "discard"
HU = "hu"
ANGANG = "angang"
BUGANG = "bugang"
CHI = "chi"
PENG = "peng"
GANG = "gang"
PASS = "pass"

_WITH_TILE = frozenset({DISCARD, ANGANG, BUGANG, CHI})
_BARE = frozenset({HU, PENG, GANG, PASS})


@dataclass(frozen=True, order=True)
class Action:
    """One player decision. ``tile`` is set exactly for discard/angang/bugang/chi."""

    kind: str
    tile: Tile | None = None


def parse_action(text: str) -> Action:
    """Read an action in canonical notation; ``MalformedAction`` if it is not one."""
    if not isinstance(text, str):
        raise MalformedAction(f"an action must be text, not {type(text).__name__}")
    return _parse(text)


@lru_cache(maxsize=1024)
def _parse(text: str) -> Action:
    # Memoised: a table reads every action's text, and a hand's texts are a few dozen (an
    # error is raised again each time, never kept).
    tokens = split_tokens(text)
    kind = tokens[0]
    if kind in _BARE and len(tokens) == 1:
        return Action(kind)
    if kind in _WITH_TILE and len(tokens) == 2:
        tile = parse_tile(tokens[1])
        if is_flower(tile):
            raise MalformedAction(f"a flower cannot be played: {text!r}", code="bad_tile")
        return Action(kind, tile)
    raise MalformedAction(f"not an MCR action: {text!r}")


@lru_cache(maxsize=1024)
def format_action(action: Action) -> str:
    """The canonical text of ``action`` (inverse of ``parse_action``)."""
    if action.tile is None:
        return action.kind
    return f"{action.kind} {tile_code(action.tile)}"
