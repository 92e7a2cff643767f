"""Self-play throughput: whole matches per second in-process, bots on every seat.

    .venv/bin/python benchmarks/selfplay.py --variant dragon --games 200 --bots 1,1,1,1

Also prints the per-level report (level 0 = random-legal), so the same run shows speed and
strength. Single process, single core.
"""

from __future__ import annotations

import argparse
import time

from paiju.bots.selfplay import report, run_selfplay
from paiju.engines.registry import get_engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="dragon")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bots", help="levels per seat, e.g. 1,1,1,1 (default: all 1)")
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    engine = get_engine(args.variant)
    seats = engine.seat_count(engine.normalize_options({}))
    levels = [int(x) for x in args.bots.split(",")] if args.bots else [1] * seats
    start = time.perf_counter()
    result = run_selfplay(args.variant, args.games, levels, seed=args.seed)
    seconds = time.perf_counter() - start
    print(f"selfplay {args.variant}: {args.games} matches in {seconds:.2f} s "
          f"= {args.games / seconds:.1f} matches/s ({result.hands / seconds:.1f} hands/s)")
    print(report(result, seconds))


if __name__ == "__main__":
    main()
