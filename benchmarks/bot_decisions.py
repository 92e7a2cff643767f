"""How long a bot takes per decision, by variant and level (CPU time of this process).

    .venv/bin/python benchmarks/bot_decisions.py --hands 40
    .venv/bin/python benchmarks/bot_decisions.py --variant mcr --levels 3 --hands 200

Every seat plays the level measured; each ``choose`` (the view already built, as the table
hands it over) is timed with ``time.process_time``, so other processes on a shared machine
do not inflate the figures the way wall-clock time would. Prints, per variant and level, the
decisions timed and the mean, median, 99th percentile and maximum in milliseconds. A bot
runs inside the server's event loop: these are the times a room stalls for it.
"""

from __future__ import annotations

import argparse
import time

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.registry import get_variant

VARIANTS = ("mcr", "shengji", "diu", "dragon")


def measure(variant: str, level: int, hands: int, seed: str) -> list[float]:
    """Seconds of CPU per decision over ``hands`` hands with every seat at ``level``."""
    registered = get_variant(variant)
    engine = registered.engine()
    options = engine.normalize_options({})
    seats = engine.seat_count(options)
    times: list[float] = []
    for hand in range(hands):
        root = SeededRng(f"{seed}/{hand}")
        state = engine.initial_state(options, root, MatchInfo(0, (0,) * seats))
        bots = [registered.make_bot(level, root.derive(f"bot/{s}")) for s in range(seats)]
        while not engine.is_terminal(state):
            seat = min(engine.to_act(state))
            view = engine.view(state, seat)
            began = time.process_time()
            text = bots[seat].choose(view)
            times.append(time.process_time() - began)
            state = engine.apply(state, seat, engine.parse_action(text)).state
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    n = len(ordered)

    def ms(q: float) -> float:
        return 1000 * ordered[min(n - 1, int(q * n))]

    mean = 1000 * sum(ordered) / n
    return (f"{n:6d} decisions  mean {mean:6.2f}  median {ms(0.5):6.2f}  p99 {ms(0.99):7.2f}  "
            f"max {1000 * ordered[-1]:7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--variant", choices=VARIANTS, help="one variant (default: all)")
    parser.add_argument("--levels", help="comma-separated levels (default: all of the variant)")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", default="decisions")
    args = parser.parse_args()
    for variant in [args.variant] if args.variant else VARIANTS:
        registered = get_variant(variant)
        levels = [int(x) for x in args.levels.split(",")] if args.levels else registered.bot_levels
        for level in levels:
            times = measure(variant, level, args.hands, args.seed)
            print(f"{variant:8s} level {level}: {summary(times)}", flush=True)


if __name__ == "__main__":
    main()
