"""Hu check speed: paiju's MCR ``is_complete`` vs the riichi ``mahjong`` package's
``Agari().is_agari`` on the same 14-tile concealed hands, in the same run.

Both take the same 34-count arrays (the two packages share the 34-kind order: three suits of
nine, then the seven honors); paiju is also timed from a plain tile list. Half of the hands
are complete (four sets + pair, seven pairs, thirteen orphans), half are random draws.

Run: ``.venv/bin/python benchmarks/mcr_hu.py [hands]`` (default 20000). Floor: paiju >= 3x.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence

from mahjong.agari import Agari  # benchmark reference only

from paiju.engines.mcr.hand import is_complete, is_complete_counts
from paiju.engines.mcr.tiles import TERMINALS_AND_HONORS, counts


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


def main(n: int = 20000) -> None:
    hands = make_hands(n)
    arrays = [counts(h) for h in hands]
    agari = Agari()
    # same answers on the forms both rule sets share
    assert all(is_complete_counts(c) == agari.is_agari(c) for c in arrays[:2000])
    ours = theirs = ours_list = 0.0
    for _ in range(3):  # interleave, keep the best of each, to damp machine noise
        theirs = max(theirs, _rate(agari.is_agari, arrays))
        ours = max(ours, _rate(is_complete_counts, arrays))
        ours_list = max(ours_list, _rate(is_complete, hands))
    print(f"hands: {n} (half complete), 14 concealed tiles")
    print(f"mahjong Agari.is_agari (34 counts): {theirs:12,.0f} hands/s")
    print(f"paiju is_complete_counts (34 counts): {ours:10,.0f} hands/s  ({ours / theirs:.1f}x)")
    print(f"paiju is_complete (tile list): {ours_list:17,.0f} hands/s  ({ours_list / theirs:.1f}x)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20000)
