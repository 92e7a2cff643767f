"""Hu check speed: paiju's MCR ``is_complete`` vs the riichi ``mahjong`` package's
``Agari().is_agari`` on the same 14-tile concealed hands, in the same run.

Both take the same 34-count lists (the two packages share the 34-kind order: three suits of
nine, then the seven honors); paiju is also timed from a plain tile list (counting included).
Half of the hands are complete (four sets + pair, seven pairs, thirteen orphans), half are
random draws. Timing alternates whole passes and keeps each side's best; the spread of the
per-pass ratios is printed.

Caching: paiju memoises facts per suit group (9 or 7 counts), never whole hands; the last
line times one pass over a second set of hands neither side has seen.

Run: ``.venv/bin/python benchmarks/mcr_hu.py [hands] [passes]`` (default 20000, 5).
Floor (issue 3): paiju >= 3x Agari.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence

from mahjong.agari import Agari  # benchmark reference only

from paiju.engines.mcr.hand import is_complete, is_complete_counts
from paiju.engines.mcr.tiles import TERMINALS_AND_HONORS, counts

FLOOR = 3.0


def _complete(rng: random.Random) -> list[int]:
    while True:
        used = [0] * 34
        tiles: list[int] = []
        form = rng.random()
        if form < 0.1:
            pairs = rng.sample(range(34), 7)
            tiles = [t for t in pairs for _ in range(2)]
        elif form < 0.13:
            tiles = [*TERMINALS_AND_HONORS, rng.choice(TERMINALS_AND_HONORS)]
        else:
            for _ in range(4):
                if rng.random() < 0.5:
                    s, r = rng.randrange(3), rng.randrange(7)
                    tiles += [9 * s + r, 9 * s + r + 1, 9 * s + r + 2]
                else:
                    tiles += [rng.randrange(34)] * 3
            tiles += [rng.randrange(34)] * 2
        for t in tiles:
            used[t] += 1
        if max(used) <= 4:
            return tiles


def make_hands(n: int, seed: int = 1) -> list[list[int]]:
    rng = random.Random(seed)
    wall = [t for t in range(34) for _ in range(4)]
    hands = []
    for i in range(n):
        if i % 2:
            hands.append(_complete(rng))
        else:
            hands.append(rng.sample(wall, 14))
    return hands


def _rate(fn: Callable[[Sequence[int]], bool], items: Sequence[Sequence[int]]) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return len(items) / (time.perf_counter() - start)


def main(n: int = 20000, passes: int = 5) -> None:
    hands = make_hands(n)
    arrays = [counts(h) for h in hands]
    fresh = [counts(h) for h in make_hands(n, seed=2)]
    agari = Agari()
    # same answers on the forms both rule sets share
    assert all(is_complete_counts(c) == agari.is_agari(c) for c in arrays[:2000])
    runs = []
    for _ in range(passes):  # interleave, keep the best of each, to damp machine noise
        theirs = _rate(agari.is_agari, arrays)
        ours = _rate(is_complete_counts, arrays)
        runs.append((theirs, ours, _rate(is_complete, hands)))
    theirs = max(r[0] for r in runs)
    ours = max(r[1] for r in runs)
    ours_list = max(r[2] for r in runs)
    ratios = sorted(r[1] / r[0] for r in runs)
    fresh_theirs = _rate(agari.is_agari, fresh)
    fresh_ours = _rate(is_complete_counts, fresh)
    verdict = "meets" if ours / theirs >= FLOOR else "BELOW"
    print(f"hands: {n} (half complete), 14 concealed tiles; best of {passes} interleaved passes")
    print(f"  mahjong Agari.is_agari (34 counts):    {theirs:10,.0f} hands/s")
    print(f"  paiju is_complete_counts (34 counts):  {ours:10,.0f} hands/s")
    print(f"  paiju is_complete (tile list):         {ours_list:10,.0f} hands/s")
    print(
        f"  ratio {ours / theirs:.2f}x (floor {FLOOR}x: {verdict}); per-pass ratio "
        f"{ratios[0]:.2f}-{ratios[-1]:.2f}; tile list {ours_list / theirs:.2f}x"
    )
    print(
        f"one pass over {n} hands never seen before: paiju {fresh_ours:,.0f}/s, "
        f"Agari {fresh_theirs:,.0f}/s, ratio {fresh_ours / fresh_theirs:.2f}x"
    )


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 20000,
        int(sys.argv[2]) if len(sys.argv) > 2 else 5,
    )
