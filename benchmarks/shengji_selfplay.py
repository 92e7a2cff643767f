"""Self-play: a team of two level-1 bots (seats 0, 2) against two uniform random-legal
players (seats 1, 3), over independent hands with the landlord rotating over all seats.

``--bots 0,0,0,0`` measures the engine alone (random against random).
Prints hands per second, each team's mean hand score (levels won, zero-sum) with a 95%
confidence interval, the bot team's win rate and a z statistic for "the bot team scores
more than the random team" (score difference per hand against 0).

    .venv/bin/python benchmarks/shengji_selfplay.py --hands 500
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.bot import Bot, RandomBot
from paiju.engines.registry import get_engine
from paiju.engines.shengji.bot import SensibleBot


def play_hand(
    seed: int, levels_by_seat: tuple[int, ...] = (1, 0, 1, 0), levels: tuple[str, str] = ("2", "2")
) -> tuple[tuple[int, ...], list[dict[str, float]]]:
    """One hand; returns the per-seat scores and hand stats."""
    engine = get_engine("shengji")
    options = engine.normalize_options({})
    carry = {"levels": list(levels), "landlord": seed % 4}
    state = engine.initial_state(options, SeededRng(f"bench/{seed}"), MatchInfo(1, (0,) * 4, carry))
    bots: list[Bot] = [
        SensibleBot(SeededRng(f"bot/{seed}/{s}"))
        if level
        else RandomBot(SeededRng(f"bot/{seed}/{s}"))
        for s, level in enumerate(levels_by_seat)
    ]
    while not engine.is_terminal(state):
        seat = min(engine.to_act(state))
        text = bots[seat].choose(engine.view(state, seat))
        state = engine.apply(state, seat, engine.parse_action(text)).state
    return engine.scores(state), engine.hand_stats(state)  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--bots", default="1,0,1,0", help="bot level per seat (0 = random)")
    args = parser.parse_args()
    seats = tuple(int(x) for x in args.bots.split(","))
    diffs: list[float] = []
    wins = 0
    attacker_points_bot: list[float] = []
    start = time.perf_counter()
    for seed in range(args.hands):
        scores, stats = play_hand(seed, seats)
        diffs.append(float(scores[0] - scores[1]))
        wins += stats[0]["win"] > 0
        if stats[0]["declarer"] == 0.0:
            attacker_points_bot.append(stats[0]["attacker_points"])
    elapsed = time.perf_counter() - start
    n = len(diffs)
    mean = statistics.fmean(diffs) / 2  # per team: bot team's score = diff / 2
    sd = statistics.stdev(diffs) / 2
    half = 1.96 * sd / math.sqrt(n)
    z = mean / (sd / math.sqrt(n)) if sd > 0 else float("inf")
    rate = wins / n
    rate_half = 1.96 * math.sqrt(rate * (1 - rate) / n)
    print(f"hands: {n}  time: {elapsed:.1f}s  hands/s: {n / elapsed:.1f}")
    print(
        f"bot team mean score per hand: {mean:+.3f} ± {half:.3f} (95% CI); random team {-mean:+.3f}"
    )
    print(f"bot team win rate: {rate:.3f} ± {rate_half:.3f} (95% CI)")
    if attacker_points_bot:
        pts = statistics.fmean(attacker_points_bot)
        print(f"bot team's points as attackers: {pts:.1f} (n={len(attacker_points_bot)})")
    print(f"z (bot score > 0): {z:.1f}")


if __name__ == "__main__":
    main()
