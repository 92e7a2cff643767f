"""Rebuild a game from its seed and action log (a fold of ``Engine.apply``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from paiju.core.rng import SeededRng
from paiju.engines.base import Engine, MatchInfo
from paiju.table.effects import ActionRecord


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
    """Every hand of the log, rebuilt in order. Raises ``GameError`` if the log is not legal."""
    seats = engine.seat_count(options)
    totals = (0,) * seats
    carry: dict[str, Any] = {}
    by_hand: dict[int, list[ActionRecord]] = {}
    for record in log:
        by_hand.setdefault(record.hand, []).append(record)
    for hand in range(max(by_hand, default=-1) + 1):
        match = MatchInfo(hand=hand, totals=totals, carry=carry)
        state = engine.initial_state(options, SeededRng(seed).derive(str(hand)), match)
        records = by_hand.get(hand, [])
        for record in records:
            state = engine.apply(state, record.seat, engine.parse_action(record.action)).state
        terminal = engine.is_terminal(state)
        scores = tuple(engine.scores(state)) if terminal else None
        if scores is not None:
            totals = tuple(t + s for t, s in zip(totals, scores, strict=True))
            carry = engine.carry(state)
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
