"""The shengji engine's own CPU per action, as a table asks it: for every action of recorded
hands, the legal key of each seat to act (``Decisions.refresh``), the view of each of the
four seats (``Output._broadcast_states``) and the answer's check and application. Without
the table's records, digests and encodings, so a change to the engine is measured with less
of the noise that ``action_cost.py`` carries.

    .venv/bin/python benchmarks/shengji_engine_cost.py --hands 12 --runs 7 --against OTHER/src

The hands (level-1 bots answering their views, one engine per hand as one room has) are
recorded once, with this checkout, and replayed by every run: ``--against SRC`` replays
them with another checkout's ``src`` in a subprocess, alternating run by run with this one,
and prints the paired medians (microseconds per action, ``time.process_time``). The rules
must be the same in both (``shengji_digest.py`` says whether they are).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def record(hands: int, seed: str) -> list[list[tuple[int, str]]]:
    """Each hand's actions as (seat, text), played by level-1 bots from their views."""
    from paiju.core.rng import SeededRng
    from paiju.engines.base import MatchInfo
    from paiju.engines.registry import get_engine, get_variant

    engine = get_engine("shengji")
    bots = [get_variant("shengji").make_bot(1, SeededRng(f"{seed}/bot/{s}")) for s in range(4)]
    options = engine.normalize_options({})
    out = []
    for hand in range(hands):
        match = MatchInfo(hand=0, totals=(0,) * 4)
        state = engine.initial_state(options, SeededRng(f"{seed}/{hand}"), match)
        actions = []
        while not engine.is_terminal(state):
            seat = min(engine.to_act(state))
            text = bots[seat].choose(engine.view(state, seat))
            actions.append((seat, text))
            state = engine.apply(state, seat, engine.parse_action(text)).state
        out.append(actions)
    return out


def replay(recorded: list[list[tuple[int, str]]], seed: str) -> float:
    """Microseconds of engine CPU per action over the recorded hands."""
    from paiju.core.rng import SeededRng
    from paiju.engines.base import MatchInfo
    from paiju.engines.registry import get_engine

    spent = 0.0
    count = 0
    for hand, actions in enumerate(recorded):
        engine = get_engine("shengji")  # an engine per hand, as per room
        options = engine.normalize_options({})
        match = MatchInfo(hand=0, totals=(0,) * 4)
        began = time.process_time()
        state = engine.initial_state(options, SeededRng(f"{seed}/{hand}"), match)
        for seat, text in actions:
            for asked in engine.to_act(state):
                engine.legal_key(state, asked)
            for viewer in range(4):
                engine.view(state, viewer)
            state = engine.apply(state, seat, engine.parse_action(text)).state
        spent += time.process_time() - began
        count += len(actions)
    return 1e6 * spent / count


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", default="engine-cost")
    parser.add_argument("--against", help="another checkout's src, replayed in turn")
    parser.add_argument("--replay", help=argparse.SUPPRESS)  # a recorded file: one run
    args = parser.parse_args()
    if args.replay:
        print(json.dumps(replay(json.loads(Path(args.replay).read_text()), args.seed)))
        return
    recorded = record(args.hands, args.seed)
    actions = sum(map(len, recorded))
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(recorded, file)
    try:
        figures: dict[str, list[float]] = {"this": [], "against": []}
        for _ in range(args.runs):
            for label, src in (("this", ROOT / "src"), ("against", args.against)):
                if src is None:
                    continue
                env: dict[str, Any] = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
                cmd = [sys.executable, __file__, "--replay", file.name, "--seed", args.seed]
                out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
                figures[label].append(float(out.stdout.splitlines()[-1]))
    finally:
        os.unlink(file.name)
    print(f"shengji engine ({args.hands} hands, {actions} actions x {args.runs} runs)")
    for label, found in figures.items():
        if found:
            spread = f"{min(found):.0f}-{max(found):.0f}"
            print(f"{label:10s} {statistics.median(found):8.1f} us/action  (runs {spread})")


if __name__ == "__main__":
    main()
