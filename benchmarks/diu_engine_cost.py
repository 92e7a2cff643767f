"""The diu engine's own CPU per action, as a table asks it: read the action's text, apply
it (its check included), then for the new state who is to act, each asked seat's options
(``legal_key``) and every seat's view. Without the table, its records and the wire, which
``action_cost.py`` adds (and whose noise hides an engine change of a few microseconds).

    .venv/bin/python benchmarks/diu_engine_cost.py --against /tmp/base-diu/src

The actions are the level-1 bots' choices over ``--hands`` hands, recorded once per run
(not timed); the replay is timed with ``time.perf_counter`` with the collector off, and the
best of ``--repeat`` replays counts (each on fresh state objects, so nothing a state
remembers carries over). ``--against SRC`` measures another checkout in a subprocess, run by
run in turn with this one, and prints the paired medians.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def record(hands: int, seed: str) -> list[tuple[Any, int, str]]:
    """(state, seat, action text) of every action of ``hands`` hands of level-1 bots."""
    from paiju.core.rng import SeededRng
    from paiju.engines.base import MatchInfo
    from paiju.engines.registry import get_engine, get_variant

    engine = get_engine("diu")
    opts = engine.normalize_options({})
    n = engine.seat_count(opts)
    bots = [get_variant("diu").make_bot(1, SeededRng(f"{seed}/bot/{s}")) for s in range(n)]
    out = []
    for h in range(hands):
        state = engine.initial_state(opts, SeededRng(f"{seed}/{h}"), MatchInfo(h, (0,) * n))
        while not engine.is_terminal(state):
            seat = min(engine.to_act(state))
            text = bots[seat].choose(engine.view(state, seat))
            out.append((state, seat, text))
            state = engine.apply(state, seat, engine.parse_action(text)).state
    return out


def measure(hands: int, seed: str, repeat: int) -> float:
    """Microseconds of engine work per action (best of ``repeat`` replays)."""
    from paiju.engines.registry import get_engine

    actions = record(hands, seed)
    players = actions[0][0].config.players
    best = float("inf")
    gc.collect()
    gc.disable()
    for _ in range(repeat):
        engine = get_engine("diu")  # (its remembered spectator view starts empty)
        # fresh copies: a state remembers its options and views once worked out
        states = [(_fresh(s), seat, text) for s, seat, text in actions]
        for state, seat, _ in states:  # the table asked these when it opened the decision
            engine.legal_key(state, seat)
        began = time.perf_counter()
        for state, seat, text in states:
            new = engine.apply(state, seat, engine.parse_action(text)).state
            for asked in engine.to_act(new):
                engine.legal_key(new, asked)
            for viewer in range(players):
                engine.view(new, viewer)
        best = min(best, time.perf_counter() - began)
    gc.enable()
    return 1e6 * best / len(actions)


def _fresh(state: Any) -> Any:
    """A copy of ``state`` without what it remembers (its fields only)."""
    import copy

    return copy.copy(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed", default="engine-cost")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", help="another checkout's src, measured in turn")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.hands, args.seed, args.repeat)))
        return
    srcs = [str(Path(__file__).resolve().parents[1] / "src")]
    if args.against:
        srcs.append(str(Path(args.against).resolve()))
    figures: dict[str, list[float]] = {src: [] for src in srcs}
    for _ in range(args.runs):
        for src in srcs:
            cmd = [sys.executable, __file__, "--json", "--hands", str(args.hands),
                   "--seed", args.seed, "--repeat", str(args.repeat)]
            env = {**os.environ, "PYTHONPATH": src}
            out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
            figures[src].append(float(out.stdout.splitlines()[-1]))
    for label, src in zip(("this", "against"), srcs, strict=False):
        runs = " ".join(f"{f:.1f}" for f in figures[src])
        print(f"{label:8s} {statistics.median(figures[src]):7.1f} us/action  (runs: {runs})  {src}")


if __name__ == "__main__":
    main()
