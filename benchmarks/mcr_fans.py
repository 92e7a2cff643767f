"""Fan evaluation speed: paiju's pure-Python ``fans.evaluate`` vs the Botzone C++ calculator
(``pymahjonggb``, module ``MahjongGB``) on the same winning hands, in the same run.

Hands come from the differential test's generator (every form, random packs and flags). The
headline figure gives each side its own input format built before timing (a ``WinContext``
for paiju, the tile-code tuples for the oracle); a second oracle figure includes converting
each ``WinContext`` to the oracle's tuples, which is what a Python engine calling the oracle
would pay. Timing alternates between the sides in chunks of 1000 hands and keeps each side's
best pass, to damp noise on a shared machine; the spread of the per-pass ratios is printed.
Agreement on every hand is checked first (with the oracle's 明暗杠 reading switched on).

Caching: paiju memoises per suit group (9 or 7 counts), per small feature code (the shared
base fans) and per chow-pair fan combination -- never whole hands. Repeated passes still
repeat hands, so the last line times one pass over a second set of hands that neither side
has seen before.

Run: ``.venv/bin/python benchmarks/mcr_fans.py [hands] [passes]`` (default 20000, 5).
Floor (issue 3): paiju >= 0.2x the oracle's rate.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import MahjongGB  # type: ignore[import-not-found]  # benchmark reference only

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.engines.mcr.test_oracle import oracle, oracle_args, random_case

from paiju.engines.mcr.fans import WinContext, evaluate

FLOOR = 0.2
CHUNK = 1000


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


def _one_pass(
    ctxs: Sequence[WinContext], args: Sequence[tuple[Any, ...]]
) -> tuple[float, float, float]:
    """Seconds for (paiju, oracle pre-built, oracle converting), chunk by chunk.

    Each side runs in a bare loop (no wrapper call), so neither pays for the harness."""
    calc = MahjongGB.MahjongFanCalculator
    clock = time.perf_counter
    ours = theirs = conv = 0.0
    for k in range(0, len(ctxs), CHUNK):
        chunk_args, chunk_ctxs = args[k : k + CHUNK], ctxs[k : k + CHUNK]
        start = clock()
        for a in chunk_args:
            calc(*a)  # every generated hand wins, so the oracle never raises
        theirs += clock() - start
        start = clock()
        for ctx in chunk_ctxs:
            evaluate(ctx)
        ours += clock() - start
        start = clock()
        for ctx in chunk_ctxs:
            calc(*oracle_args(vars_of(ctx)))
        conv += clock() - start
    return ours, theirs, conv


def main(n: int = 20000, passes: int = 5) -> None:
    rng = random.Random(42)
    cases = [random_case(rng) for _ in range(n)]
    fresh_cases = [random_case(rng) for _ in range(n)]
    ctxs = [WinContext(kong_pair_five=True, **c) for c in cases]
    args = [oracle_args(c) for c in cases]
    for case, ctx in zip(cases[:3000], ctxs, strict=False):
        result = evaluate(ctx)
        assert (None if result is None else result.fans) == oracle(case), case
    runs = [_one_pass(ctxs, args) for _ in range(passes)]
    ours = n / min(r[0] for r in runs)
    theirs = n / min(r[1] for r in runs)
    conv = n / min(r[2] for r in runs)
    ratios = sorted(r[1] / r[0] for r in runs)
    fresh = _one_pass(
        [WinContext(kong_pair_five=True, **c) for c in fresh_cases],
        [oracle_args(c) for c in fresh_cases],
    )
    verdict = "meets" if ours / theirs >= FLOOR else "BELOW"
    print(f"hands: {n} generated winning hands (every form, random packs and flags)")
    print(f"best of {passes} interleaved passes:")
    print(f"  MahjongGB (C++), arguments pre-built:  {theirs:10,.0f} hands/s")
    print(f"  MahjongGB (C++), converting each hand: {conv:10,.0f} hands/s")
    print(f"  paiju fans.evaluate:                   {ours:10,.0f} hands/s")
    print(
        f"  ratio {ours / theirs:.3f}x pre-built (floor {FLOOR}x: {verdict}), "
        f"{ours / conv:.3f}x with conversion; per-pass ratio {ratios[0]:.3f}-{ratios[-1]:.3f}"
    )
    print(
        f"one pass over {n} hands never seen before: paiju {n / fresh[0]:,.0f}/s, "
        f"C++ {n / fresh[1]:,.0f}/s, ratio {fresh[1] / fresh[0]:.3f}x"
    )


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 20000,
        int(sys.argv[2]) if len(sys.argv) > 2 else 5,
    )
