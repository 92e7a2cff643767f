"""Bot seats. A bot reads only its seat's view (the same JSON a client gets) and answers with
an action in the variant's notation, which the table validates like any other action.

Each variant provides ``paiju.bots.<variant>.make_bot(level, rng) -> Bot``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol

from paiju.core.errors import UnknownVariant
from paiju.core.rng import Rng


class Bot(Protocol):
    """A seat player that needs no person."""

    def choose(self, view: Mapping[str, Any]) -> str:
        """An action (canonical notation) for the seat whose view this is."""
        ...


class RandomBot:
    """Level 0 of every variant: a uniformly random legal action (a baseline for self-play)."""

    def __init__(self, rng: Rng) -> None:
        self._rng = rng

    def choose(self, view: Mapping[str, Any]) -> str:
        legal = list(view.get("legal", []))
        if not legal:
            raise ValueError("the view offers no legal action")
        return str(legal[self._rng.randbelow(len(legal))])


def make_bot(variant: str, level: int, rng: Rng) -> Bot:
    """The bot of ``variant`` at ``level`` (0 is random-legal), drawing from its own ``rng``."""
    if level == 0:
        return RandomBot(rng)
    try:
        module = importlib.import_module(f"paiju.bots.{variant}")
    except ModuleNotFoundError as exc:
        raise UnknownVariant(f"no bot for variant {variant!r}") from exc
    bot: Bot = module.make_bot(level, rng)
    return bot
