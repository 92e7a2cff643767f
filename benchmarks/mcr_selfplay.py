"""MCR self-play in-process: hands per second and per-level results, optionally vs RLCard.

    .venv/bin/python benchmarks/mcr_selfplay.py --hands 200 --bots 1,1,1,1
    .venv/bin/python benchmarks/mcr_selfplay.py --hands 2000 --bots 3,1,3,1 --no-rlcard

Rates are per CPU-second of this process (``time.process_time``), and the two sides run in
alternating chunks, so a busy machine slows both alike. Plays whole hands of a match (winds
rotating, the deal passing every hand) with bots that see only their views, then prints
hands/s and each level's mean score, win, self-drawn and deal-in rates with 95% confidence
intervals, and RLCard's mahjong environment with random agents over as many games
(``pip install rlcard``; skipped with ``--no-rlcard``).
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict
from typing import Any

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.mcr.bot import make_bot
from paiju.engines.mcr.engine import McrEngine

ENGINE = McrEngine()


def play_hand(levels: list[int], seed: str, hand: int) -> tuple[tuple[int, ...], list[Any]]:
    """One hand with bots of ``levels`` per seat; its scores and per-seat stats."""
    options = ENGINE.normalize_options({})
    root = SeededRng(seed)
    match = MatchInfo(hand % 16, (0,) * 4)
    state = ENGINE.initial_state(options, root.derive(f"hand/{hand}"), match)
    bots = [make_bot(level, root.derive(f"bot/{hand}/{seat}")) for seat, level in enumerate(levels)]
    while not ENGINE.is_terminal(state):
        seat = min(ENGINE.to_act(state))
        text = bots[seat].choose(ENGINE.view(state, seat))
        state = ENGINE.apply(state, seat, ENGINE.parse_action(text)).state
    return ENGINE.scores(state), ENGINE.hand_stats(state)


def _ci(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


class SelfPlay:
    """Accumulates hands of self-play with ``levels`` (rotated over the seats hand by hand)."""

    def __init__(self, levels: list[int], seed: str) -> None:
        self.levels, self.seed = levels, seed
        self.samples: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        self.hands, self.cpu = 0, 0.0

    def play(self, count: int) -> None:
        cpu = time.process_time()
        for h in range(self.hands, self.hands + count):
            seated = self.levels[h % 4 :] + self.levels[: h % 4]
            scores, stats = play_hand(seated, self.seed, h)
            for seat, level in enumerate(seated):
                self.samples[level]["score"].append(float(scores[seat]))
                for key, value in stats[seat].items():
                    self.samples[level][key].append(value)
        self.cpu += time.process_time() - cpu
        self.hands += count

    def report(self) -> float:
        """Print the per-level results; return hands per CPU-second."""
        rate = self.hands / self.cpu
        print(f"paiju mcr: {self.hands} hands in {self.cpu:.1f}s CPU = {rate:.1f} hands/s")
        for level in sorted(self.samples):
            data = self.samples[level]
            parts = []
            for key in ("score", "win", "self_drawn", "deal_in"):
                mean, half = _ci(data[key])
                parts.append(f"{key} {mean:.3f}±{half:.3f}")
            print(f"  level {level} ({len(data['score'])} seat-hands): " + ", ".join(parts))
        return rate


class RlcardRun:
    """RLCard's mahjong environment with four random agents (``pip install rlcard``)."""

    def __init__(self) -> None:
        import rlcard  # type: ignore[import-untyped]
        from rlcard.agents import RandomAgent  # type: ignore[import-untyped]

        self.env = rlcard.make("mahjong", config={"seed": 0})
        agents = [RandomAgent(num_actions=self.env.num_actions) for _ in range(4)]
        self.env.set_agents(agents)
        self.games, self.cpu = 0, 0.0

    def play(self, count: int) -> None:
        cpu = time.process_time()
        for _ in range(count):
            self.env.run(is_training=False)
        self.cpu += time.process_time() - cpu
        self.games += count

    def report(self) -> float:
        rate = self.games / self.cpu
        print(f"rlcard mahjong (random agents): {self.games} games in {self.cpu:.1f}s CPU "
              f"= {rate:.1f} games/s")
        return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--bots", default="1,1,1,1")
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--chunk", type=int, default=25, help="hands per alternation")
    parser.add_argument("--no-rlcard", action="store_true")
    args = parser.parse_args()
    ours = SelfPlay([int(x) for x in args.bots.split(",")], args.seed)
    theirs: RlcardRun | None = None
    if not args.no_rlcard:
        try:
            theirs = RlcardRun()
        except ImportError:
            print("rlcard is not installed; skipping the comparison")
    # Alternate chunks so that both sides run under the same machine load.
    done = 0
    while done < args.hands:
        step = min(args.chunk, args.hands - done)
        ours.play(step)
        if theirs is not None:
            theirs.play(step)
        done += step
    rate = ours.report()
    if theirs is not None:
        print(f"ratio: {rate / theirs.report():.2f}x RLCard (floor 3x)")


if __name__ == "__main__":
    main()
