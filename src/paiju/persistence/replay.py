"""Rebuild a game from its seed and action log (a fold of ``Engine.apply``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from paiju.engines.base import Engine
from paiju.table.effects import ActionRecord
from paiju.table.match import Match


@dataclass(frozen=True)
class ReplayedHand:
    """One hand rebuilt from the log: its actions in notation and how it ended."""

    hand: int
    actions: tuple[ActionRecord, ...]
    final_state: Any
    terminal: bool
    scores: tuple[int, ...] | None


def replay_hands(
    engine: Engine[Any, Any], options: dict[str, Any], seed: str, log: Sequence[ActionRecord]
) -> Iterator[ReplayedHand]:
    """Every hand of the log, rebuilt in order with the table's own hand bookkeeping.

    Raises ``GameError`` if the log is not legal."""
    match = Match(engine, options, seed)
    by_hand: dict[int, list[ActionRecord]] = {}
    for record in log:
        by_hand.setdefault(record.hand, []).append(record)
    for hand in range(max(by_hand, default=-1) + 1):
        state = match.deal()
        records = by_hand.get(hand, [])
        for record in records:
            state = engine.apply(state, record.seat, engine.parse_action(record.action)).state
        terminal = engine.is_terminal(state)
        scores = match.finish(state) if terminal else None
        match.advance()
        yield ReplayedHand(hand, tuple(records), state, terminal, scores)


def replay_text(
    engine: Engine[Any, Any], options: dict[str, Any], seed: str, log: Sequence[ActionRecord]
) -> str:
    """The game in notation, hand by hand, as ``paiju replay`` prints it."""
    lines: list[str] = []
    for played in replay_hands(engine, options, seed, log):
        lines.append(f"hand {played.hand}")
        for record in played.actions:
            lines.append(
                f"  {record.seq:>5}  seat {record.seat}  {record.action}  ({record.source})"
            )
        if played.scores is not None:
            lines.append(f"  result: {' '.join(f'{s:+d}' for s in played.scores)}")
        else:
            lines.append("  (in progress)")
    return "\n".join(lines)
