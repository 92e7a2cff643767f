"""The cyclic garbage a loaded server makes: per action, and per connection that closes.

    .venv/bin/python benchmarks/gc_census.py --tables 100 --seconds 20 [--variant mcr]
        [--src OTHER/src]

A real server (``paiju serve`` through ``probe_server.py`` with ``PROBE_GC_CENSUS``, pinned to
core 0 as ``load.py`` starts it) meets ``load.py``'s players at ``--tables`` tables. For
``--seconds`` every object a collection reclaims is kept (``gc.DEBUG_SAVEALL``) and then
counted by type, divided by the actions stored meanwhile; then every connection is dropped
and what their closing left is counted the same way. Garbage in cycles is what only a full
collection reclaims once the collector has frozen it (``paiju.server.collector``): the fewer
per action, the less a thaw is needed. Counts, not times: the machine's load does not matter.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

from load import Load, Server
from server_cost import actions

ROOT = Path(__file__).resolve().parents[1]


def census(server: Server, path: Path) -> dict[str, Any]:
    """Signal the server to end a census and read what it counted."""
    assert server.proc is not None
    path.unlink(missing_ok=True)
    server.proc.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 60
    while not path.exists():
        if time.monotonic() > deadline:
            raise RuntimeError("the server wrote no census")
        time.sleep(0.05)
    found: dict[str, Any] = json.loads(path.read_text())
    return found


def show(title: str, found: dict[str, Any], per: int) -> None:
    print(f"{title}: {found['objects']} objects in reclaimed cycles, "
          f"{found['objects'] / max(1, per):.2f} each")
    for name, count in found["types"][:15]:
        print(f"  {count:8d} {count / max(1, per):8.2f}  {name}")


async def run(server: Server, path: Path, database: Path, args: argparse.Namespace) -> None:
    players = argparse.Namespace(think_min=1.0, think_max=3.0, claim_min=0.2, claim_max=0.6)
    load = Load(server.port, args.variant, players)
    await load.grow(args.tables)
    await asyncio.sleep(3.0)
    assert server.proc is not None
    server.proc.send_signal(signal.SIGUSR1)  # start counting
    await asyncio.sleep(0.5)
    before = actions(database)
    await asyncio.sleep(args.seconds)
    played = actions(database) - before
    show(f"{played} actions at {args.tables} tables", census(server, path), played)
    server.proc.send_signal(signal.SIGUSR1)
    await asyncio.sleep(0.5)
    connections = sum(len(table.players) for table in load.tables)
    await load.close()
    await asyncio.sleep(3.0)
    show(f"{connections} connections dropped", census(server, path), connections)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--variant", default="mcr", choices=["mcr", "dragon", "shengji", "diu"])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    args = parser.parse_args()
    os.sched_setaffinity(0, {1})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "census.json"
        os.environ["PROBE_GC_CENSUS"] = str(path)
        server = Server(args.src.resolve())
        server.start(Path(tmp))
        try:
            asyncio.run(run(server, path, server.database(Path(tmp)), args))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
