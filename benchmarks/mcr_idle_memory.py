"""What the MCR engine holds per seated idle seat: ``--tables N`` tables in one process,
each dealt (every seat joined and ready, every seat's state built, the sends dropped as a
server drops them once written), then tracemalloc's count of the live blocks allocated in
``engines/mcr`` (and in all of paiju), per seat. A quick in-process companion of
``connections.py`` (which measures a whole server's resident memory, minutes per run).

    PYTHONPATH=src .venv/bin/python benchmarks/mcr_idle_memory.py --tables 500
    .venv/bin/python benchmarks/mcr_idle_memory.py --against /tmp/base/src

``--against SRC`` runs the same measurement with another checkout's ``src`` in a
subprocess and prints both. ``--lines N``: the N lines of ``engines/mcr`` holding most.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measure(tables: int, lines: int) -> dict[str, object]:
    from paiju.engines.registry import get_engine
    from paiju.table.commands import Join, Ready
    from paiju.table.table import Table, TableSettings

    def new_table(n: int) -> Table:
        engine = get_engine("mcr")
        table = Table(f"r{n}", engine, engine.normalize_options({}), f"idle/{n}",
                      TableSettings(timers={}),
                      lambda s, lv: None)  # type: ignore[arg-type,return-value]
        for seat in range(4):
            table.handle(None, Join(f"p{seat}"), 0.0)
        for seat in range(4):
            table.handle(seat, Ready(), 0.0)
        return table

    new_table(-1)  # (imports, module tables, first-use caches)
    gc.collect()
    tracemalloc.start(1)
    before = tracemalloc.take_snapshot()
    held = [new_table(n) for n in range(tables)]
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    seats = 4 * len(held)
    stats = after.compare_to(before, "lineno")
    mcr = [s for s in stats if "engines/mcr/" in s.traceback[0].filename]
    paiju = [s for s in stats if "/paiju/" in s.traceback[0].filename]
    top = sorted(mcr, key=lambda s: -s.size_diff)[:lines]
    return {
        "mcr": sum(s.size_diff for s in mcr) / seats,
        "paiju": sum(s.size_diff for s in paiju) / seats,
        "lines": [[f"{Path(s.traceback[0].filename).name}:{s.traceback[0].lineno}",
                   s.size_diff / seats, s.count_diff / seats] for s in top],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--lines", type=int, default=12)
    parser.add_argument("--against", help="another checkout's src, measured beside this one")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.tables, args.lines)))
        return
    runs = [("this", str(ROOT / "src"))] + ([("against", args.against)] if args.against else [])
    for name, src in runs:
        out = subprocess.run(
            [sys.executable, __file__, "--json", "--tables", str(args.tables),
             "--lines", str(args.lines)],
            env={**os.environ, "PYTHONPATH": src}, check=True, capture_output=True, text=True,
        ).stdout
        result = json.loads(out)
        print(f"{name} ({src}): engines/mcr {result['mcr']:.0f} B per seat, "
              f"all paiju {result['paiju']:.0f} B per seat ({args.tables} dealt tables)")
        for where, size, count in result["lines"]:
            print(f"    {size:7.0f} B {count:5.2f} blocks  {where}")


if __name__ == "__main__":
    main()
