"""What writing a new dragon hand's legal list costs (a seat's first view of a hand, and
every resumed seat after a restart): the walk views use (``listing.legal_notation``) beside
the path it replaced (``solver.arrangements``, then each arrangement's notation), and the
exact solver's best arrangement for scale, on the same hands, cold (caches cleared), CPU
time in one process, runs alternating, the best of each kept. Checks the lists agree.

    .venv/bin/python benchmarks/dragon_legal.py [--hands 2000] [--repeat 5] [--against SRC]

``--against SRC`` times another checkout's walk too (its ``listing.py``, loaded from
``SRC/paiju/engines/dragon``, the rest of the engine this one's), on the same hands.

Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time
from collections.abc import Callable
from typing import Any

from paiju.engines.dragon import engine, listing, solver
from paiju.engines.dragon.actions import arrangement_text
from paiju.engines.dragon.tiles import FULL_SET, Kind


def other_walk(src: str) -> Callable[[tuple[int, ...]], list[str]]:
    """``legal_notation`` of another checkout's ``listing.py``."""
    path = f"{src}/paiju/engines/dragon/listing.py"
    spec = importlib.util.spec_from_file_location("other_listing", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    walk: Callable[[tuple[int, ...]], list[str]] = module.legal_notation
    return walk


def by_the_solver(hand: tuple[Kind, ...]) -> list[str]:
    """The list as views wrote it before the walk: the solver's arrangements, each written."""
    found = solver.arrangements.__wrapped__(hand)
    if not found:
        return ["bust"]
    return sorted(arrangement_text(chain, leftover) for chain, leftover in found)


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
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--against", help="another checkout's src: its walk is timed too")
    args = parser.parse_args()
    rng = random.Random(1)
    hands = []
    for _ in range(args.hands):
        deck = list(FULL_SET)
        rng.shuffle(deck)
        hands.append(tuple(sorted(deck[: 8])))
    differ = sum(listing.legal_notation(h) != by_the_solver(h) for h in hands)
    if differ:
        raise SystemExit(f"{differ} hands list differently")
    listed = sum(len(listing.legal_notation(h)) for h in hands) / len(hands)
    works = {"before (solver + notation)": by_the_solver, "walk (listing)": listing.legal_notation,
             "best arrangement only": solver.solve}
    if args.against:
        theirs = other_walk(args.against)
        differ = sum(theirs(h) != listing.legal_notation(h) for h in hands)
        if differ:
            raise SystemExit(f"{differ} hands list differently in {args.against}")
        works["walk (--against)"] = theirs
    best = dict.fromkeys(works, float("inf"))
    for _ in range(args.repeat):
        for name, work in works.items():
            best[name] = min(best[name], cold(hands, work))
    print(f"{len(hands)} hands, {listed:.1f} listed a hand, CPU per hand, best of {args.repeat}:")
    for name, us in best.items():
        print(f"  {name:<28}{us:7.1f} us")
    before, walk = best["before (solver + notation)"], best["walk (listing)"]
    print(f"  the walk takes {walk / before:.0%} of the time before ({before / walk:.1f}x faster)")
    if args.against:
        other = best["walk (--against)"]
        print(f"  the walk takes {walk / other:.0%} of the --against walk's time")


if __name__ == "__main__":
    main()
