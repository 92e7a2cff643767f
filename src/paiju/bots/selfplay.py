"""In-process self-play: bots of chosen levels play whole matches; a report compares levels.

Seats are assigned levels round-robin (game ``g`` gives seat ``s`` the level at position
``(s + g) mod n``) so no level keeps the seat advantage. Each bot sees only its seat's view.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju.core.rng import SeededRng
from paiju.engines.base import Engine
from paiju.engines.bot import Bot
from paiju.engines.registry import get_variant
from paiju.table.match import Match

Z95 = 1.959964


@dataclass
class Sample:
    """Running mean and variance of one figure (Welford)."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (value - self.mean)

    @property
    def stderr(self) -> float:
        """Standard error of the mean (0 with fewer than two values)."""
        if self.n < 2:
            return 0.0
        return math.sqrt(self.m2 / (self.n - 1) / self.n)

    def interval(self) -> str:
        """``mean ± half-width`` of the 95% confidence interval."""
        return f"{self.mean:+.3f} ± {Z95 * self.stderr:.3f}"


@dataclass
class LevelStats:
    """Every figure gathered for one bot level, per seat-hand."""

    score: Sample = field(default_factory=Sample)
    win: Sample = field(default_factory=Sample)
    extra: dict[str, Sample] = field(default_factory=dict)


@dataclass
class SelfPlayResult:
    """What a self-play run measured."""

    variant: str
    games: int
    hands: int
    actions: int
    levels: dict[int, LevelStats]


def play_match(
    engine: Engine[Any, Any], options: dict[str, Any], seed: str, bots: Sequence[Bot]
) -> tuple[list[tuple[int, ...]], list[list[dict[str, float]]], int]:
    """Play one match: each hand's scores, each hand's ``hand_stats``, the action count.

    The hands are dealt and booked as the table does (``paiju.table.match.Match``), so a
    self-play match with a seed is the match a room with that seed would deal."""
    match = Match(engine, options, seed)
    actions = 0
    stats: list[list[dict[str, float]]] = []
    while not match.over():
        state = match.deal()
        while not engine.is_terminal(state):
            seat = min(engine.to_act(state))
            text = bots[seat].choose(engine.view(state, seat))
            state = engine.apply(state, seat, engine.parse_action(text)).state
            actions += 1
        match.finish(state)
        stats.append(engine.hand_stats(state))
        match.advance()
    return match.hand_scores, stats, actions


def run_selfplay(
    variant: str,
    games: int,
    levels: Sequence[int],
    seed: str = "selfplay",
    options: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SelfPlayResult:
    """Play ``games`` matches with bots of ``levels`` (one per seat, rotated every game)."""
    registered = get_variant(variant)
    engine = registered.engine()
    normalized = engine.normalize_options(options or {})
    seats = engine.seat_count(normalized)
    if len(levels) != seats:
        raise ValueError(f"{variant} has {seats} seats; give {seats} bot levels, not {len(levels)}")
    result = SelfPlayResult(variant, games, 0, 0, {lvl: LevelStats() for lvl in set(levels)})
    for game in range(games):
        assigned = [levels[(s + game) % seats] for s in range(seats)]
        root = SeededRng(f"{seed}/{game}")
        bots = [registered.make_bot(lvl, root.derive(f"bot/{s}")) for s, lvl in enumerate(assigned)]
        scores, stats, actions = play_match(engine, normalized, root.seed, bots)
        result.hands += len(scores)
        result.actions += actions
        for hand_scores, hand_stats in zip(scores, stats, strict=True):
            for seat, level in enumerate(assigned):
                _record(result.levels[level], hand_scores[seat], hand_stats[seat])
        if progress is not None:
            progress(game + 1, games)
    return result


def _record(stats: LevelStats, score: int, extra: dict[str, float]) -> None:
    stats.score.add(score)
    stats.win.add(1.0 if score > 0 else 0.0)
    for key, value in extra.items():
        stats.extra.setdefault(key, Sample()).add(value)


def report(result: SelfPlayResult, seconds: float | None = None) -> str:
    """A plain-text report: per level, each figure with its 95% interval; then level contrasts."""
    lines = [
        f"{result.variant}: {result.games} games, {result.hands} hands, {result.actions} actions"
    ]
    if seconds is not None and seconds > 0:
        lines.append(
            f"speed: {result.games / seconds:.1f} games/s, {result.hands / seconds:.1f} hands/s, "
            f"{result.actions / seconds:.0f} actions/s"
        )
    for level in sorted(result.levels):
        st = result.levels[level]
        extras = "  ".join(f"{k} {v.interval()}" for k, v in sorted(st.extra.items()))
        lines.append(
            f"level {level}: n={st.score.n}  score/hand {st.score.interval()}  "
            f"win rate {st.win.interval()}  {extras}".rstrip()
        )
    ordered = sorted(result.levels)
    for i, low in enumerate(ordered):
        for high in ordered[i + 1 :]:
            lines.append(_contrast(high, low, result.levels[high].score, result.levels[low].score))
    return "\n".join(lines)


def _contrast(high: int, low: int, a: Sample, b: Sample) -> str:
    diff = a.mean - b.mean
    se = math.sqrt(a.stderr**2 + b.stderr**2)
    z = diff / se if se > 0 else float("inf") if diff else 0.0
    verdict = "significant" if abs(z) > Z95 else "not significant"
    return (
        f"level {high} - level {low}: {diff:+.3f} ± {Z95 * se:.3f} score/hand "
        f"(z = {z:.2f}, {verdict} at 95%)"
    )
