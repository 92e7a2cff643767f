"""The garbage collector's pauses with many rooms in memory, in one process, per setting.

    .venv/bin/python benchmarks/gc_pauses.py --tables 2500 --actions 30000
    .venv/bin/python benchmarks/gc_pauses.py --modes default,freeze,thresholds=10000:20:100

``--tables`` MCR tables of four connected people are dealt, then ``--actions`` actions are
played on tables drawn at random (a finished table is replaced by a new one), each followed
by the encoding of what it sends; the last 2,000 actions' frames stay alive, as outboxes
keep them. Each mode runs in a fresh process: ``default``; ``freeze`` (``gc.freeze()`` once
the tables are dealt, as ``paiju serve`` does once it has restored its rooms);
``thresholds=A:B:C`` (``gc.set_threshold``), ``collector`` (the policy ``paiju serve`` runs,
``paiju.server.collector``, with a tick every ``--tick-actions`` actions: 60 by default, about
its 0.1 s at 600 actions a second),
and modes joined with ``+``. Prints per mode the
live objects the collector tracks, the per-action latency (p99, p99.9, max) and per
generation the collections, their longest pause and their sum. Times are CPU time of the
process (``time.process_time``): on a shared machine wall-clock pauses mostly measure the
other processes.
"""

from __future__ import annotations

import argparse
import array
import gc
import random
import subprocess
import sys
import time

from paiju.core.rng import SeededRng
from paiju.engines.registry import get_engine, get_variant
from paiju.server.collector import NEVER, Collector, thaw
from paiju.server.wire import encode_bytes
from paiju.table.commands import Act, Join, Ready
from paiju.table.effects import Send
from paiju.table.table import HAND_OVER, PLAYING, Table, TableSettings

#: Actions between two ticks of the ``collector`` mode (``--tick-actions``).
TICK_ACTIONS = 60


def playing(tables: list[Table], k: int, made: int) -> int:
    """Bring table ``k`` to a decision: deal its next hand, or seat a new table once its
    match is over. Returns how many tables have been made."""
    while tables[k].phase != PLAYING:
        if tables[k].phase == HAND_OVER:
            tables[k].tick(1e9)
        else:
            made += 1
            tables[k] = new_table(made)
    return made


def new_table(n: int) -> Table:
    engine = get_engine("mcr")
    table = Table(f"r{n}", engine, engine.normalize_options({}), f"gc/{n}",
                  TableSettings(timers={}), lambda s, lv: None)  # type: ignore[arg-type,return-value]
    for seat in range(4):
        table.handle(None, Join(f"p{seat}"), 0.0)
    for seat in range(4):
        table.handle(seat, Ready(), 0.0)
    return table


def run(mode: str, count: int, actions: int, tick_actions: int = TICK_ACTIONS) -> str:
    tables = [new_table(n) for n in range(count)]
    made = count
    players = [get_variant("mcr").make_bot(1, SeededRng(f"gc/{s}")) for s in range(4)]
    for part in mode.split("+"):
        if part == "freeze":
            gc.collect()
            gc.freeze()
        elif part.startswith("thresholds="):
            gc.set_threshold(*(int(x) for x in part.split("=")[1].split(":")))
        elif part == "collector":
            collector = Collector()
            gc.set_threshold(gc.get_threshold()[0], NEVER, NEVER)
            thaw()
            collector.policy.settled(time.process_time(), collector.memory())
    pauses: list[tuple[int, float]] = []
    began: dict[int, float] = {}

    def probe(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[info["generation"]] = time.process_time()
        else:
            pauses.append((info["generation"], time.process_time() - began.pop(info["generation"])))

    gc.callbacks.append(probe)
    rng = random.Random(1)
    kept: list[list[bytes]] = []
    latencies = array.array("d")  # not a container the collector walks at every pass
    ticking = "collector" in mode.split("+")
    for n in range(actions):
        if ticking and n % tick_actions == 0:
            collector.run_once(time.process_time())
        k = rng.randrange(count)
        made = playing(tables, k, made)
        table = tables[k]
        seat = min(table.decisions.waiting)
        text = players[seat].choose(table.engine.view(table.state, seat))
        start = time.process_time()
        effects = table.handle(seat, Act(table.shown_version(seat), text), 0.0)
        kept.append([encode_bytes(e.message) for e in effects if isinstance(e, Send)])
        latencies.append(time.process_time() - start)
        if len(kept) > 2000:
            kept.pop(0)
    gc.callbacks.remove(probe)
    ordered = sorted(latencies)

    def q(p: float) -> float:
        return 1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    gens = []
    for g in (0, 1, 2):
        times = [t for gen, t in pauses if gen == g]
        gens.append(f"gen{g} {len(times):4d} max {1000 * max(times, default=0):5.1f} "
                    f"sum {sum(times):5.2f} s")
    return (f"{mode:28s} objects {len(gc.get_objects()) // 1000:4d}k  action p99 {q(0.99):5.2f} "
            f"p99.9 {q(0.999):6.2f} max {1000 * ordered[-1]:6.1f} ms | " + " | ".join(gens))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=2500)
    parser.add_argument("--actions", type=int, default=30000)
    parser.add_argument("--modes", default="default,freeze,thresholds=10000:20:100")
    parser.add_argument("--tick-actions", type=int, default=TICK_ACTIONS,
                        help="actions between two ticks of the collector mode")
    parser.add_argument("--mode", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mode:
        print(run(args.mode, args.tables, args.actions, args.tick_actions))
        return
    for mode in args.modes.split(","):
        cmd = [sys.executable, __file__, "--mode", mode, "--tables", str(args.tables),
               "--actions", str(args.actions), "--tick-actions", str(args.tick_actions)]
        print(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip(),
              flush=True)


if __name__ == "__main__":
    main()
