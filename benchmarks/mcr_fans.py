"""Fan evaluation speed: paiju's pure-Python ``fans.evaluate`` vs the Botzone C++ calculator
(``pymahjonggb``, module ``MahjongGB``) on the same winning hands, in the same run.

Hands come from the differential test's generator (every form, random packs and flags). The
headline figure gives each side its own input format built before timing; a second oracle
figure includes converting each ``WinContext`` to the oracle's tile-code tuples, which is what
a Python engine calling the oracle would pay. Timing alternates between the two in
chunks and keeps each side's best pass, to damp noise on a shared machine. Agreement on every
hand is checked first (with the oracle's 明暗杠 reading switched on on our side).

Run: ``.venv/bin/python benchmarks/mcr_fans.py [hands]`` (default 20000). Floor: 0.2x.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

import MahjongGB  # type: ignore[import-not-found]  # benchmark reference only

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.engines.mcr.test_oracle import oracle, random_case

from paiju.engines.mcr.fans import WinContext, evaluate
from paiju.engines.mcr.tiles import tile_code


def _oracle_args(case: dict[str, Any]) -> tuple[Any, ...]:
    return (
        tuple((p.kind, tile_code(p.tile), p.offer) for p in case["packs"]),
        tuple(tile_code(t) for t in case["hand"]),
        tile_code(case["win_tile"]),
        case["flowers"],
        case["self_drawn"],
        case["fourth_tile"],
        case["about_kong"],
        case["wall_last"],
        case["seat_wind"],
        case["prevalent_wind"],
    )


def main(n: int = 20000) -> None:
    rng = random.Random(42)
    cases = [random_case(rng) for _ in range(n)]
    ctxs = [WinContext(kong_pair_five=True, **c) for c in cases]
    args = [_oracle_args(c) for c in cases]
    for case, ctx in zip(cases[:3000], ctxs, strict=False):
        result = evaluate(ctx)
        assert (None if result is None else result.fans) == oracle(case), case
    calc = MahjongGB.MahjongFanCalculator
    best_ours = best_theirs = best_conv = float("inf")
    for _ in range(3):
        t_ours = t_theirs = t_conv = 0.0
        for k in range(0, n, 1000):
            start = time.perf_counter()
            for a in args[k : k + 1000]:
                calc(*a)  # every generated hand wins, so the oracle never raises
            t_theirs += time.perf_counter() - start
            start = time.perf_counter()
            for ctx in ctxs[k : k + 1000]:
                evaluate(ctx)
            t_ours += time.perf_counter() - start
            start = time.perf_counter()
            for ctx in ctxs[k : k + 1000]:
                calc(*_oracle_args(vars_of(ctx)))
            t_conv += time.perf_counter() - start
        best_ours, best_theirs = min(best_ours, t_ours), min(best_theirs, t_theirs)
        best_conv = min(best_conv, t_conv)
    ours, theirs, conv = n / best_ours, n / best_theirs, n / best_conv
    print(f"hands: {n} generated winning hands (every form, random packs and flags)")
    print(f"MahjongGB (C++), arguments pre-built:      {theirs:10,.0f} hands/s")
    print(f"MahjongGB (C++), converting each hand:     {conv:10,.0f} hands/s")
    print(f"paiju fans.evaluate:                       {ours:10,.0f} hands/s")
    print(f"ratio: {ours / theirs:.2f}x (pre-built), {ours / conv:.2f}x (with conversion)")


def vars_of(ctx: WinContext) -> dict[str, Any]:
    """The WinContext fields the oracle takes, as the generator's dict."""
    return {
        "packs": ctx.packs,
        "hand": ctx.hand,
        "win_tile": ctx.win_tile,
        "flowers": ctx.flowers,
        "self_drawn": ctx.self_drawn,
        "fourth_tile": ctx.fourth_tile,
        "about_kong": ctx.about_kong,
        "wall_last": ctx.wall_last,
        "seat_wind": ctx.seat_wind,
        "prevalent_wind": ctx.prevalent_wind,
    }


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20000)
