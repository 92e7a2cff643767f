"""CPU per action on the server's hot path, in one process: the table's ``handle`` (engine,
records, every viewer's state) and the encoding of each message it sends, without sockets.
Timed with ``time.process_time``, so other processes on a shared machine count for little.

    .venv/bin/python benchmarks/action_cost.py --variant mcr --actions 3000
    .venv/bin/python benchmarks/action_cost.py --variant dragon --against /work/main/src
    .venv/bin/python benchmarks/action_cost.py --variant mcr --profile 30
    .venv/bin/python benchmarks/action_cost.py --variant dragon --tables 1500 --actions 6000

Every seat is a connected person (no spectator unless ``--watched``) answering with the
level-1 bot's choice from the view it was sent; the bot's own time is not counted. A
finished hand is followed by the next (``tick``: its deal is counted with the action before
it), a finished match by a new table. Prints per variant: microseconds per
action (median of the runs), messages and encoded KiB per action, and the collector's
generation-0/2 collections per 1,000 actions (its work grows with what an action allocates).

``--against SRC`` runs the same measurement with another checkout's ``src`` in a subprocess,
alternating run by run with this one, so both meet the same load on a shared machine, and
prints the paired medians. ``--profile N`` prints the N costliest functions (cProfile).
``--tables N`` plays N tables in turn, one action at each, as a server with N busy tables
does: a cache that all tables share (a function's ``lru_cache``) then meets N tables' states
between two actions of one table. Each table has an engine of its own, as each room has.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def play(variant: str, actions: int, watched: bool, seed: str, rotate: int = 1) -> dict[str, float]:
    """Seconds per action and per-action counts over ``actions`` actions, taken in turn at
    ``rotate`` tables (one action each, as a server with that many busy tables does)."""
    from paiju.core.rng import SeededRng
    from paiju.engines.registry import get_engine, get_variant
    from paiju.server.wire import encode_bytes
    from paiju.table.commands import Act, Join, Ready
    from paiju.table.effects import Send
    from paiju.table.table import FINISHED, HAND_OVER, Table, TableSettings

    engine = get_engine(variant)
    bots = get_variant(variant)
    options = engine.normalize_options({})

    #: each table's seats' views, from the last state each was sent
    seats_views: dict[str, dict[int, Any]] = {}

    def frame(send: Any) -> bytes:
        """The bytes the server sends: the table's own encoding when it made one (a state,
        in checkouts that have ``Send.frame``)."""
        return getattr(send, "frame", None) or encode_bytes(send.message)

    def seen(effects: list[Any], table: Table) -> list[Any]:
        views = seats_views.setdefault(table.room_id, {})
        for e in effects:
            if isinstance(e, Send) and e.to >= 0 and e.message["type"] == "state":
                views[e.to] = e.message["view"]
        return effects

    def new_table(n: int) -> Table:
        # An engine of its own, as each room of the server has (``rooms.py``): what an
        # engine keeps between states and views is then the table's alone.
        table = Table(f"r{n}", get_engine(variant), options, f"{seed}/{n}",
                      TableSettings(timers={}),
                      lambda s, lv: None)  # type: ignore[arg-type,return-value]
        if hasattr(table, "watched"):  # the host's switch (older checkouts build them always)
            table.watched = lambda: watched
        for seat in range(engine.seat_count(options)):
            seen(table.handle(None, Join(f"p{seat}"), 0.0), table)
        for seat in range(engine.seat_count(options)):
            seen(table.handle(seat, Ready(), 0.0), table)
        return table

    players = [bots.make_bot(1, SeededRng(f"{seed}/bot/{s}")) for s in range(8)]
    tables = rotate - 1
    at = [new_table(n) for n in range(rotate)]
    spent = 0.0
    sent = 0
    size = 0
    gc0 = [s["collections"] for s in gc.get_stats()]
    for step in range(actions):
        table = at[step % rotate]
        while table.phase != "playing":
            if table.phase == HAND_OVER:
                began = time.process_time()
                dealt = table.tick(1e9)
                sent += len([frame(e) for e in dealt if isinstance(e, Send)])
                spent += time.process_time() - began
                seen(dealt, table)
            elif table.phase == FINISHED:
                tables += 1
                table = at[step % rotate] = new_table(tables)
        seat = min(table.decisions.waiting)
        # The view the seat was sent (the bot does not warm the engine's caches for the table).
        text = players[seat].choose(seats_views[table.room_id][seat])
        version = table.shown_version(seat)
        began = time.process_time()
        effects = table.handle(seat, Act(version, text), 0.0)
        frames = [frame(e) for e in effects if isinstance(e, Send)]
        spent += time.process_time() - began
        seen(effects, table)
        sent += len(frames)
        size += sum(len(f) for f in frames)
    collections = [s["collections"] - g for s, g in zip(gc.get_stats(), gc0, strict=True)]
    return {
        "us": 1e6 * spent / actions,
        "messages": sent / actions,
        "kib": size / actions / 1024,
        "gc0": 1000 * collections[0] / actions,
        "gc2": 1000 * collections[2] / actions,
    }


def one_run(args: argparse.Namespace) -> dict[str, float]:
    if args.src is not None:
        cmd = [sys.executable, __file__, "--variant", args.variant, "--actions",
               str(args.actions), "--seed", args.seed, "--tables", str(args.tables), "--json"]
        if args.watched:
            cmd.append("--watched")
        env = {**os.environ, "PYTHONPATH": str(Path(args.src).resolve())}
        out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
        return dict(json.loads(out.splitlines()[-1]))
    return play(args.variant, args.actions, args.watched, args.seed, args.tables)


def row(label: str, figures: list[dict[str, float]]) -> str:
    med = {k: statistics.median(f[k] for f in figures) for k in figures[0]}
    return (f"{label:10s} {med['us']:8.0f} us/action  {med['messages']:5.2f} msgs  "
            f"{med['kib']:6.2f} KiB  gc0 {med['gc0']:6.1f}  gc2 {med['gc2']:5.2f} /1000 actions")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--variant", default="mcr", choices=("mcr", "shengji", "diu", "dragon"))
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", default="cost")
    parser.add_argument("--watched", action="store_true", help="a spectator watches each table")
    parser.add_argument("--tables", type=int, default=1,
                        help="tables played in turn, an action each (caches shared by every "
                             "table meet what a busy server's do)")
    parser.add_argument("--against", help="another checkout's src, measured in turn")
    parser.add_argument("--profile", type=int, default=0)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.src = None
    if args.json:
        print(json.dumps(play(args.variant, args.actions, args.watched, args.seed, args.tables)))
        return
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(play, args.variant, args.actions, args.watched, args.seed, args.tables)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)
        return
    here = argparse.Namespace(**{**vars(args), "src": str(ROOT / "src")})
    there = argparse.Namespace(**{**vars(args), "src": args.against})
    mine: list[dict[str, float]] = []
    theirs: list[dict[str, float]] = []
    for _ in range(args.runs):
        mine.append(one_run(here))
        if args.against:
            theirs.append(one_run(there))
    print(f"{args.variant} ({args.actions} actions x {args.runs} runs, {args.tables} tables"
          f"{', watched' if args.watched else ''})")
    print(row("this", mine))
    if theirs:
        print(row("against", theirs))


if __name__ == "__main__":
    main()
