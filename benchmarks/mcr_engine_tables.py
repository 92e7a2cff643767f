"""CPU of the MCR engine alone per action at many tables: ``apply`` and the four seats'
views of the state it makes, at N tables taken in turn (one action each), each table with
an engine of its own, as a server's rooms have. Unlike ``mcr_engine_cost.py`` (one engine,
warm memos), the engine's memos here meet N tables' states between two actions of one.

    .venv/bin/python benchmarks/mcr_engine_tables.py --tables 1500 --actions 20000
    .venv/bin/python benchmarks/mcr_engine_tables.py --tables 1500 --against /tmp/base/src

Each table replays a hand of its own, played beforehand by level-1 bots (their time is not
counted); the engine's shared memos (``lru_cache``) are then emptied, since a server's bots
play in other processes and its caches meet each table's hands for the first time. Timed
with ``time.process_time``. Prints microseconds per action (median of the runs), split into
``apply`` and the views. ``--against SRC`` measures another checkout's ``src`` the same way
in a subprocess, alternating run by run with this one.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import pkgutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def measure(tables: int, actions: int) -> dict[str, float]:
    from paiju.core.rng import SeededRng
    from paiju.engines.base import MatchInfo
    from paiju.engines.registry import get_engine, make_bot

    options = get_engine("mcr").normalize_options({})

    def dealt(engine: Any, n: int) -> Any:
        return engine.initial_state(options, SeededRng(f"mcr/{n}"), MatchInfo(n % 16, (0,) * 4))

    def played(n: int, most: int) -> list[tuple[int, Any]]:
        """Up to ``most`` (seat, action) of hand ``n`` played by level-1 bots."""
        engine = get_engine("mcr")
        state = dealt(engine, n)
        bots = [make_bot("mcr", 1, SeededRng(f"mcr/{n}/{s}")) for s in range(4)]
        out: list[tuple[int, Any]] = []
        while not engine.is_terminal(state) and len(out) < most:
            seat = min(engine.to_act(state))
            action = engine.parse_action(bots[seat].choose(engine.view(state, seat)))
            out.append((seat, action))
            state = engine.apply(state, seat, action).state
        return out

    hands = [played(n, -(-actions // tables) + 1) for n in range(tables)]
    import paiju.engines.mcr as package

    for module in pkgutil.iter_modules(package.__path__):
        found = importlib.import_module(f"paiju.engines.mcr.{module.name}")
        for value in vars(found).values():
            if hasattr(value, "cache_clear") and getattr(value, "__module__", "") == found.__name__:
                value.cache_clear()

    def start(n: int) -> list[Any]:
        engine = get_engine("mcr")
        state = dealt(engine, n)
        for seat in range(4):
            engine.view(state, seat)
        return [engine, state, 0]

    at = [start(n) for n in range(tables)]
    gc.collect()
    applying = viewing = 0.0
    for step in range(actions):
        n = step % tables
        if at[n][2] >= len(hands[n]):  # (a hand that ended: dealt again)
            at[n] = start(n)
        engine, state, done = at[n]
        seat, action = hands[n][done]
        began = time.process_time()
        state = engine.apply(state, seat, action).state
        applied = time.process_time()
        for viewer in range(4):
            engine.view(state, viewer)
        viewing += time.process_time() - applied
        applying += applied - began
        at[n] = [engine, state, done + 1]
    return {"us": 1e6 * (applying + viewing) / actions, "apply": 1e6 * applying / actions,
            "views": 1e6 * viewing / actions}


def one_run(args: argparse.Namespace, src: str) -> dict[str, float]:
    cmd = [sys.executable, __file__, "--tables", str(args.tables), "--actions",
           str(args.actions), "--json"]
    env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out.splitlines()[-1]))


def row(label: str, figures: list[dict[str, float]]) -> str:
    med = {k: statistics.median(f[k] for f in figures) for k in figures[0]}
    return (f"{label:10s} {med['us']:8.1f} us/action  apply {med['apply']:7.1f}  "
            f"views {med['views']:7.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=1500)
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", help="another checkout's src, measured in turn")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.tables, args.actions)))
        return
    mine: list[dict[str, float]] = []
    theirs: list[dict[str, float]] = []
    for _ in range(args.runs):
        mine.append(one_run(args, str(ROOT / "src")))
        if args.against:
            theirs.append(one_run(args, args.against))
    print(f"mcr engine ({args.actions} actions x {args.runs} runs, {args.tables} tables)")
    print(row("this", mine))
    if theirs:
        print(row("against", theirs))


if __name__ == "__main__":
    main()
