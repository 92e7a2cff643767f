"""What listing every legal arrangement of a new dragon hand costs (a seat's first view of a
hand, and every resumed seat after a restart), beside the exact solver's best arrangement on
the same hands, cold (caches cleared), CPU time in one process.

    .venv/bin/python benchmarks/dragon_legal.py [--hands 2000]

Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from paiju.engines.dragon import engine, solver
from paiju.engines.dragon.tiles import FULL_SET


def cold(hands: list[tuple[int, ...]], work: Callable[[tuple[int, ...]], Any]) -> float:
    """Microseconds of CPU per hand for ``work``, with every memo emptied first."""
    for memo in (solver.arrangements, solver.solve_cached, engine.legal_for_hand,
                 engine.legal_texts):
        memo.cache_clear()
    start = time.process_time()
    for hand in hands:
        work(hand)
    return (time.process_time() - start) / len(hands) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    args = parser.parse_args()
    rng = random.Random(1)
    hands = []
    for _ in range(args.hands):
        deck = list(FULL_SET)
        rng.shuffle(deck)
        hands.append(tuple(sorted(deck[: 8])))
    listed = sum(len(engine.legal_texts(h)) for h in hands) / len(hands)
    for _ in range(3):
        every = cold(hands, engine.legal_texts)
        best = cold(hands, solver.solve)
        print(f"every legal arrangement as text {every:7.1f} us/hand ({listed:.1f} listed)   "
              f"best arrangement only {best:6.1f} us/hand")


if __name__ == "__main__":
    main()
