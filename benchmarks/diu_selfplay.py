"""Self-play benchmark for diu: engine speed and the level-1 bot against random-legal seats.

Usage: ``.venv/bin/python benchmarks/diu_selfplay.py [--hands 1000] [--seed s] [--speed 300]``

* speed: random-legal play on every seat, hands per second (engine only, no views);
* strength: each hand one seat (rotating over A, B, C) is the level-1 bot and the other two
  pick uniformly from ``view["legal"]`` (the generic level-0 bot). Reports the bot's mean
  score per hand and 丢 rate against the random seats', with 95% confidence intervals, and a
  paired z statistic for (bot score − mean random score) per hand.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from typing import Any

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.diu.bot_level2 import make_bot
from paiju.engines.registry import get_engine


def _mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def speed(hands: int, seed: str) -> float:
    """Hands per second of random-legal play (engine only)."""
    engine = get_engine("diu")
    opts = engine.normalize_options({})
    start = time.perf_counter()
    for h in range(hands):
        state = engine.initial_state(opts, SeededRng(f"{seed}/speed/{h}"), MatchInfo(0, (0,) * 3))
        chooser = random.Random(h)
        while not engine.is_terminal(state):
            seat = min(engine.to_act(state))
            actions = sorted(engine.legal_actions(state, seat), key=engine.format_action)
            state = engine.apply(state, seat, chooser.choice(actions)).state
    return hands / (time.perf_counter() - start)


def play(hands: int, seed: str) -> dict[str, Any]:
    """Bot (one rotating seat) vs two random-legal seats over ``hands`` hands."""
    engine = get_engine("diu")
    opts = engine.normalize_options({})
    diffs: list[float] = []
    bot_scores: list[float] = []
    rnd_scores: list[float] = []
    bot_wins: list[float] = []
    rnd_wins: list[float] = []
    start = time.perf_counter()
    for h in range(hands):
        rng = SeededRng(f"{seed}/{h}")
        bot_seat = h % 3
        bot = make_bot(1, rng.derive("bot"))
        chooser = random.Random(f"{seed}/{h}/random")
        state = engine.initial_state(opts, rng.derive("deal"), MatchInfo(0, (0,) * 3))
        while not engine.is_terminal(state):
            seat = min(engine.to_act(state))
            view = engine.view(state, seat)
            text = bot.choose(view) if seat == bot_seat else chooser.choice(view["legal"])
            state = engine.apply(state, seat, engine.parse_action(text)).state
        scores = engine.scores(state)
        others = [s for s in range(3) if s != bot_seat]
        bot_scores.append(scores[bot_seat])
        rnd_scores.extend(scores[s] for s in others)
        diffs.append(scores[bot_seat] - sum(scores[s] for s in others) / 2)
        bot_wins.append(float(state.winner == bot_seat))
        rnd_wins.extend(float(state.winner == s) for s in others)
    elapsed = time.perf_counter() - start
    d_mean, d_ci = _mean_ci(diffs)
    sd = d_ci / 1.96 * math.sqrt(len(diffs))
    z = d_mean / (sd / math.sqrt(len(diffs))) if sd else float("inf")
    return {
        "hands": hands,
        "hands_per_s": hands / elapsed,
        "bot_score": _mean_ci(bot_scores),
        "random_score": _mean_ci(rnd_scores),
        "bot_diu_rate": _mean_ci(bot_wins),
        "random_diu_rate": _mean_ci(rnd_wins),
        "diff": (d_mean, d_ci),
        "z": z,
        "p_two_sided": math.erfc(abs(z) / math.sqrt(2)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--speed", type=int, default=300)
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    print(f"engine speed (random legal, no views): {speed(args.speed, args.seed):.1f} hands/s")
    r = play(args.hands, args.seed)
    print(
        f"bot (level 1, 1 seat) vs 2 random-legal seats, {r['hands']} hands, "
        f"{r['hands_per_s']:.1f} hands/s with views and bot"
    )
    for key in ("bot_score", "random_score", "bot_diu_rate", "random_diu_rate", "diff"):
        mean, ci = r[key]
        print(f"  {key:16s} {mean:+.3f} ± {ci:.3f} (95% CI)")
    p = r["p_two_sided"]
    print(f"  paired z = {r['z']:.1f}, two-sided p {'< 1e-300' if p == 0 else f'= {p:.2g}'}")


if __name__ == "__main__":
    main()
