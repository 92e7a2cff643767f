"""Dragon bots. They read only the seat's view (its own tiles, the options, ``best``).

Level 1 plays the solver's optimal arrangement (the same as the timeout trustee).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.core.rng import Rng
from paiju.engines.dragon.actions import Arrange, DeclareBust, format_action
from paiju.engines.dragon.rules import scoring_options
from paiju.engines.dragon.solver import solve_cached
from paiju.engines.dragon.tiles import kind_of

#: The levels ``make_bot`` makes (0, random-legal, is every variant's).
BOT_LEVELS = (1,)


class SolverBot:
    """Arranges its hand optimally under the table's scoring options."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng  # unused: the optimal arrangement is deterministic

    def choose(self, view: Mapping[str, Any]) -> str:
        """The optimal arrangement of ``view["hand"]``: the view's ``best`` (the engine's
        solver, under the table's scoring options), else solved here. It does not read
        ``legal``: the solver's arrangement is always legal, the table checks it anyway,
        and a bot's view writes that list only for a reader (``LegalWhenRead``).

        Raises ``ValueError`` if the seat is not to act.
        """
        if view["seat"] not in view["to_act"]:
            raise ValueError("this seat has nothing to do")
        best = view.get("best")
        if best is not None:
            return str(best)
        hand = tuple(sorted(kind_of(code) for code in view["hand"]))
        options = {k: v for k, v in dict(view.get("options", {})).items()}
        solution = solve_cached(hand, scoring_options(options))
        action = Arrange(solution.chain, solution.leftover) if solution.chain else DeclareBust()
        return format_action(action)


def make_bot(level: int, rng: Rng) -> SolverBot:
    """The dragon bot of ``level`` (only level 1 exists); ``ValueError`` for another level."""
    if level not in BOT_LEVELS:
        raise ValueError(f"dragon bots have levels {BOT_LEVELS}, not {level}")
    return SolverBot(rng)
