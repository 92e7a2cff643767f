"""Benchmark the dragon solver against a brute force, on the same hands, in the same run.

    .venv/bin/python benchmarks/dragon_solver.py [--hands 20000] [--brute 300] [--seed S]

Deals a fixed seeded set of random 8-tile hands from the 32-tile set, then measures on one
core: the exact solver (``solve``: best arrangement with its chain laid out; no memo), the
full enumeration of every legal arrangement (what ``legal_actions`` needs), and a brute force
that tries every 6/7-tile subset, every order and every orientation (pruning only lines whose
touching halves differ) on the first ``--brute`` hands, checking that both agree.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations

from paiju.core.rng import SeededRng
from paiju.engines.dragon.rules import ScoringOptions
from paiju.engines.dragon.scoring import BUST, Key, leftover_key
from paiju.engines.dragon.solver import arrangements, solve
from paiju.engines.dragon.tiles import FULL_SET, TILES, Kind


def deal_hands(count: int, seed: str) -> list[tuple[Kind, ...]]:
    """``count`` hands of 8, each the first 8 tiles of a freshly shuffled set."""
    rng = SeededRng(seed)
    hands = []
    for _ in range(count):
        deck = list(FULL_SET)
        rng.shuffle(deck)
        hands.append(tuple(sorted(deck[:8])))
    return hands


def _line_exists(tiles: Sequence[Kind], end: int, free: list[bool], left: int) -> bool:
    """Whether the free tiles can all be laid after an end showing ``end`` (-1: empty line)."""
    if left == 0:
        return True
    for i, kind in enumerate(tiles):
        if free[i]:
            t = TILES[kind]
            for a, b in {(t.low, t.high), (t.high, t.low)}:
                if end in (-1, a):
                    free[i] = False
                    found = _line_exists(tiles, b, free, left - 1)
                    free[i] = True
                    if found:
                        return True
    return False


def _splits(hand: Sequence[Kind]) -> Iterator[tuple[list[Kind], list[Kind]]]:
    for size in (6, 7):
        for chosen in combinations(range(8), size):
            yield [hand[i] for i in chosen], [hand[i] for i in range(8) if i not in chosen]


def brute_best(hand: Sequence[Kind], opts: ScoringOptions) -> Key:
    """The best key over every subset/order/orientation (no graph theory)."""
    best = BUST
    for tiles, rest in _splits(hand):
        key = leftover_key(rest, opts)
        if key > best and _line_exists(tiles, -1, [True] * len(tiles), len(tiles)):
            best = key
    return best


def _timed(work: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Best-of-``repeat`` (wall seconds, CPU seconds of this process) of ``work()``.

    The CPU time is what one core spends, whatever else the machine is running.
    """
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def _line(label: str, count: int, times: tuple[float, float]) -> str:
    wall, cpu = times
    return (
        f"{label:<24}{count:>6} hands: {count / cpu:>9,.0f} hands/s CPU"
        f" ({cpu * 1e6 / count:7.1f} µs/hand), {count / wall:>9,.0f} hands/s wall"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000, help="hands for the solver")
    parser.add_argument("--brute", type=int, default=300, help="hands for the brute force")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best is kept")
    parser.add_argument("--seed", default="dragon-bench", help="seed of the hand set")
    args = parser.parse_args()
    opts = ScoringOptions()
    hands = deal_hands(args.hands, args.seed)
    subset = hands[: args.brute]
    enum = hands[: min(len(hands), 2000)]

    solve(hands[0], opts)  # warm the option tables
    solver_t = _timed(lambda: [solve(h, opts) for h in hands], args.repeat)
    brute_t = _timed(lambda: [brute_best(h, opts) for h in subset], 1)

    def enumerate_all() -> None:
        arrangements.cache_clear()
        for h in enum:
            arrangements(h)

    enum_t = _timed(enumerate_all, args.repeat)

    solutions = [solve(h, opts) for h in hands]
    mismatches = sum(brute_best(h, opts) != s.key for h, s in zip(subset, solutions, strict=False))
    counts = [len(arrangements(h)) for h in enum]
    busts = sum(s.key == BUST for s in solutions)
    pairs = sum(s.key[0] == 3 for s in solutions)
    print(f"dragon solver benchmark: seed {args.seed!r}, default options, best of {args.repeat}")
    print(_line("exact solver", len(hands), solver_t))
    print(_line("brute force", len(subset), brute_t))
    print(_line("all legal arrangements", len(enum), enum_t))
    print(f"arrangements per hand: mean {sum(counts) / len(counts):.1f}, max {max(counts)}")
    speedup = (brute_t[1] / len(subset)) / (solver_t[1] / len(hands))
    print(f"solver speed-up over the brute force (CPU): {speedup:,.0f}x")
    print(f"agreement on the brute-force subset: {len(subset) - mismatches}/{len(subset)}")
    print(f"categories: {pairs / len(hands):.1%} pair, {busts / len(hands):.1%} bust")
    if mismatches:
        raise SystemExit(f"{mismatches} hands disagree with the brute force")


if __name__ == "__main__":
    main()
