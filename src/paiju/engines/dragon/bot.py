"""Dragon bots. They read only the seat's view (its own tiles, the options, ``legal``).

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
        """The optimal arrangement of ``view["hand"]`` (one of ``view["legal"]``).

        Raises ``ValueError`` if the view offers no legal action (the seat is not to act).
        """
        legal = list(view["legal"])
        if not legal:
            raise ValueError("this seat has nothing to do")
        hand = tuple(sorted(kind_of(code) for code in view["hand"]))
        options = {k: v for k, v in dict(view.get("options", {})).items()}
        solution = solve_cached(hand, scoring_options(options))
        action = Arrange(solution.chain, solution.leftover) if solution.chain else DeclareBust()
        text = format_action(action)
        # The solver's arrangement is always legal; fall back rather than submit garbage.
        return text if text in legal else legal[0]


def make_bot(level: int, rng: Rng) -> SolverBot:
    """The dragon bot of ``level`` (only level 1 exists); ``ValueError`` for another level."""
    if level not in BOT_LEVELS:
        raise ValueError(f"dragon bots have levels {BOT_LEVELS}, not {level}")
    return SolverBot(rng)
