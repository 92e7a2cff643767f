"""Bots: seat players that need no person. Each variant's bots live in its own package.

A bot reads only its seat's view (the same JSON a client gets) and answers with an action in
the variant's notation, which the table validates like any other action. Level 0 of every
variant is ``RandomBot``; a variant's ``Variant.make_bot(level, rng)`` makes the others.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from paiju.core.errors import NotYourTurn
from paiju.core.rng import Rng


class Bot(Protocol):
    """A seat player that needs no person."""

    def choose(self, view: Mapping[str, Any]) -> str:
        """An action (canonical notation) for the seat whose view this is."""
        ...


class RandomBot:
    """Level 0 of every variant: a uniformly random action of ``view["legal"]`` (a baseline
    for self-play). Where the list is not complete it still picks among the listed ones."""

    def __init__(self, rng: Rng) -> None:
        self._rng = rng

    def choose(self, view: Mapping[str, Any]) -> str:
        """One of ``view["legal"]``; ``NotYourTurn`` if the view offers none."""
        legal = list(view.get("legal", []))
        if not legal:
            raise NotYourTurn("the view offers no legal action")
        return str(legal[self._rng.randbelow(len(legal))])
