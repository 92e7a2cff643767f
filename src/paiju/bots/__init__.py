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


def make_bot(variant: str, level: int, rng: Rng) -> Bot:
    """The bot of ``variant`` at ``level`` (1 is the simplest), drawing from its own ``rng``."""
    try:
        module = importlib.import_module(f"paiju.bots.{variant}")
    except ModuleNotFoundError as exc:
        raise UnknownVariant(f"no bot for variant {variant!r}") from exc
    bot: Bot = module.make_bot(level, rng)
    return bot
