"""How well the seed's riffle mixes, against Fisher–Yates (rules §1.7, A-S1/A-S2).

Usage: ``.venv/bin/python benchmarks/diu_shuffle.py [--trials 5000] [--deck 84]``

For each shuffle, over ``trials`` shuffles of an ordered deck of ``deck`` distinct cards:

* TV: total-variation distance between the distribution of the final position of the
  original top card and the uniform distribution (0 = perfect; sampling noise alone gives
  about sqrt(deck / (2·π·trials)));
* top10: P(the original top card ends in the first 10 positions), ideal 10/deck;
* adjacent: P(original card 1 still directly follows card 0), ideal 1/deck.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

from paiju.core.rng import Rng, SeededRng
from paiju.engines.diu.deck import fisher_yates, seed_riffle

Shuffler = Callable[[list[str], Rng], list[str]]


def measure(shuffler: Shuffler, deck: int, trials: int, seed: str) -> dict[str, float]:
    """TV distance, top-10 and adjacency figures for one shuffler."""
    cards = [str(i) for i in range(deck)]
    rng = SeededRng(seed)
    counts = [0] * deck
    top10 = adjacent = 0
    for _ in range(trials):
        out = shuffler(cards, rng)
        p0, p1 = out.index("0"), out.index("1")
        counts[p0] += 1
        top10 += p0 < 10
        adjacent += p1 == p0 + 1
    tv = 0.5 * sum(abs(c / trials - 1 / deck) for c in counts)
    return {"tv": tv, "top10": top10 / trials, "adjacent": adjacent / trials}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=5000)
    parser.add_argument("--deck", type=int, default=84)
    args = parser.parse_args()
    shufflers: dict[str, Shuffler] = {
        "seed_riffle x3": lambda c, r: seed_riffle(c, r, 3, 9),
        "seed_riffle x7": lambda c, r: seed_riffle(c, r, 7, 9),
        "seed_riffle x12": lambda c, r: seed_riffle(c, r, 12, 9),
        "fisher_yates": fisher_yates,
    }
    noise = math.sqrt(args.deck / (2 * math.pi * args.trials))
    print(
        f"deck {args.deck}, {args.trials} trials; ideal top10 {10 / args.deck:.3f}, "
        f"adjacent {1 / args.deck:.3f}; TV noise floor ≈ {noise:.3f}"
    )
    print(f"{'shuffle':16s} {'TV':>6s} {'top10':>6s} {'adjacent':>8s} {'shuffles/s':>10s}")
    for name, shuffler in shufflers.items():
        start = time.perf_counter()
        r = measure(shuffler, args.deck, args.trials, f"shuffle/{name}")
        rate = args.trials / (time.perf_counter() - start)
        print(f"{name:16s} {r['tv']:6.3f} {r['top10']:6.3f} {r['adjacent']:8.3f} {rate:10.0f}")


if __name__ == "__main__":
    main()
