"""One hand bookkeeping for a whole match, shared by the table, replay and self-play.

A match is its seed plus its hands: ``Match`` deals each hand from the seed (the same
generator everywhere, so a replay or a self-play deal is the table's deal), adds each finished
hand's scores to the totals, keeps what the engine carries to the next hand, and says when the
match is over. It is pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from paiju.core.rng import Rng, SeededRng
from paiju.engines.base import Engine, MatchInfo


@dataclass
class Match:
    """The hands of one match: the next hand's number, the totals, the carried data."""

    engine: Engine[Any, Any]
    options: Mapping[str, Any]
    seed: str
    hand: int = 0
    totals: tuple[int, ...] = ()
    carry: dict[str, Any] = field(default_factory=dict)
    hand_scores: list[tuple[int, ...]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.totals:
            self.totals = (0,) * self.engine.seat_count(self.options)

    def info(self) -> MatchInfo:
        """What the engine is told about the match before dealing hand ``hand``."""
        return MatchInfo(hand=self.hand, totals=self.totals, carry=self.carry)

    def over(self) -> bool:
        """Whether the match ends before hand ``hand`` would be dealt."""
        return self.engine.match_over(self.options, self.info())

    def hand_rng(self) -> Rng:
        """The generator that deals hand ``hand``: derived from the match seed by the hand's
        number, so it does not depend on anything played before."""
        return SeededRng(self.seed).derive(str(self.hand))

    def deal(self) -> Any:
        """The first state of hand ``hand``."""
        return self.engine.initial_state(self.options, self.hand_rng(), self.info())

    def finish(self, state: Any) -> tuple[int, ...]:
        """Book the finished hand ``state``: its scores go to the totals and its carried data
        to the next hand (``hand`` still names it until ``advance``). Returns its scores."""
        scores = tuple(self.engine.scores(state))
        self.totals = tuple(t + s for t, s in zip(self.totals, scores, strict=True))
        self.hand_scores.append(scores)
        self.carry = self.engine.carry(state)
        return scores

    def advance(self) -> None:
        """Move on to the next hand."""
        self.hand += 1

    def restart(self) -> None:
        """Back to the first hand of a new match (same seed)."""
        self.hand, self.carry, self.hand_scores = 0, {}, []
        self.totals = (0,) * self.engine.seat_count(self.options)
