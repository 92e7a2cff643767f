"""The MCR engine's own CPU per action and per view, without the table: ``--hands N`` hands
of random legal play (a hu whenever one is legal) are recorded, then replayed with a fresh
engine: every recorded action applied (``McrEngine.apply``), then every state viewed by
its four seats in turn (``McrEngine.view``). Timed with ``time.process_time``; the best of
``--runs`` passes.

    PYTHONPATH=src .venv/bin/python benchmarks/mcr_engine_cost.py
    .venv/bin/python benchmarks/mcr_engine_cost.py --against /tmp/base/src --pairs 3

A replay meets each state once, as a table does; unlike a table, it asks the legal actions
of a state first in its view (a table's decisions ask them first), and the waits of every
hand after the first pass come from the engine's memo. ``--against SRC`` runs the same
measurement with another checkout's ``src`` in a subprocess, alternating pair by pair.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def record(seed: int) -> list[tuple[Any, Any, Any]]:
    """The (state, seat, action) of every action of one hand, and its last state."""
    from paiju.core.rng import SeededRng
    from paiju.engines.base import MatchInfo
    from paiju.engines.mcr.actions import format_action, parse_action
    from paiju.engines.mcr.engine import McrEngine

    engine = McrEngine()
    chooser = random.Random(seed)
    options = engine.normalize_options({})
    state = engine.initial_state(options, SeededRng(f"cost/{seed}"), MatchInfo(seed % 16, (0,) * 4))
    out: list[tuple[Any, Any, Any]] = []
    while not engine.is_terminal(state):
        seat = chooser.choice(sorted(engine.to_act(state)))
        texts = sorted(format_action(a) for a in engine.legal_actions(state, seat))
        action = parse_action("hu" if "hu" in texts else chooser.choice(texts))
        out.append((state, seat, action))
        state = engine.apply(state, seat, action).state
    out.append((state, None, None))
    return out


def measure(hands: int, runs: int) -> dict[str, float]:
    from paiju.engines.mcr.engine import McrEngine

    played = [record(seed) for seed in range(hands)]
    actions = sum(len(h) - 1 for h in played)
    views = 4 * sum(len(h) for h in played)
    best_apply = best_view = float("inf")
    for _ in range(runs):
        engine = McrEngine()
        began = time.process_time()
        for hand in played:
            for state, seat, action in hand[:-1]:
                engine.apply(state, seat, action)
        best_apply = min(best_apply, time.process_time() - began)
        engine = McrEngine()
        began = time.process_time()
        for hand in played:
            for state, _, _ in hand:
                for viewer in (0, 1, 2, 3):
                    engine.view(state, viewer)
        best_view = min(best_view, time.process_time() - began)
    return {"apply_us": 1e6 * best_apply / actions, "view_us": 1e6 * best_view / views,
            "actions": actions}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pairs", type=int, default=1, help="alternations with --against")
    parser.add_argument("--against", help="another checkout's src, measured in turn")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.hands, args.runs)))
        return
    sources = [("this", str(ROOT / "src"))]
    if args.against:
        sources.append(("against", args.against))
    results: dict[str, list[dict[str, float]]] = {name: [] for name, _ in sources}
    for _ in range(args.pairs):
        for name, src in sources:
            out = subprocess.run(
                [sys.executable, __file__, "--json", "--hands", str(args.hands),
                 "--runs", str(args.runs)],
                env={**os.environ, "PYTHONPATH": src}, check=True, capture_output=True,
                text=True,
            ).stdout
            results[name].append(json.loads(out))
    for name, src in sources:
        rows = results[name]
        apply = sorted(r["apply_us"] for r in rows)[len(rows) // 2]
        view = sorted(r["view_us"] for r in rows)[len(rows) // 2]
        print(f"{name} ({src}): apply {apply:.2f} us per action, view {view:.2f} us per view "
              f"(median of {len(rows)}, {rows[0]['actions']:.0f} actions)")


if __name__ == "__main__":
    main()
