"""The server's CPU time per accepted action, and act -> state latency, in a steady game load.

A real server (``paiju serve`` on SQLite in a temporary folder, no bot delays, no timers,
started as ``load.py`` starts it) runs pinned to core 0; on core 1, ``--tables`` clients each
open an MCR room against three bots and answer every decision at once, rematching when a
match ends. After a warm-up the server's CPU time (user + system, from /proc) is read over
``--seconds`` and divided by the actions it accepted meanwhile (rows of the SQLite log:
players', bots' and timeouts' actions alike).

    .venv/bin/python benchmarks/server_cost.py [--seconds 20] [--tables 4] [--runs 3]
    .venv/bin/python benchmarks/server_cost.py --against /path/to/another/checkout

``--root`` runs the server from another checkout (its ``src`` on ``PYTHONPATH``), so
the same command measures a build before and after a change; ``--against`` runs two
checkouts in turn, run by run, so that each pair meets the same load on the machine, and
prints the median of the paired differences: the cost of the metrics is that difference
between a checkout with them and one without. With
``--scrape`` the metrics endpoint of the server under test is read once a second (as a
Prometheus server would, every 15-60 s usually), and that cost is included.

Prints one line per run and the medians. Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from load import TOKEN, Server  # the load benchmark's server: pinned to core 0, any checkout
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
HELLO = json.dumps({"type": "hello", "protocol_version": 1})
#: No delays, no timers, no budgets in the way: the server works as fast as it can.
FLAT_OUT = {
    "bot_delay": 0.0, "between_hands": 0.0, "timers": "{turn=0.0, claim=0.0}",
    "rate_per_second": 100000.0, "rate_burst": 100000,
}


def actions(database: Path) -> int:
    """Actions stored so far: entries of the record chain (and rows of the older ``actions``
    table, which a database from before the chain has instead)."""
    with sqlite3.connect(database) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if "entries" in tables:
            query = "SELECT COUNT(*) FROM entries WHERE kind = 'action'"
        else:
            query = "SELECT COUNT(*) FROM actions"
        return int(db.execute(query).fetchone()[0])


async def table(port: int, n: int, stop: float, latencies: list[float]) -> None:
    """Play MCR against three random bots until ``stop``, timing act -> next state."""
    async with connect(f"ws://127.0.0.1:{port}/", max_size=None) as ws:
        await ws.send(HELLO)
        await ws.recv()
        await ws.send(json.dumps({"type": "create_room", "preset": "mcr", "bots": 3,
                                  "bot_level": 0, "name": f"table{n}"}))
        sent_at: float | None = None
        rematched: set[str] = set()
        while time.monotonic() < stop:
            message = json.loads(await ws.recv())
            if message["type"] == "error":
                raise RuntimeError(f"table {n}: {message}")
            if message["type"] == "joined" and message["room"] not in rematched:
                await ws.send(json.dumps({"type": "ready"}))  # the rematch room waits
            if message["type"] != "state":
                continue
            if sent_at is not None:
                latencies.append(time.monotonic() - sent_at)
                sent_at = None
            if message["phase"] == "finished" and message["room"] not in rematched:
                rematched.add(message["room"])
                await ws.send(json.dumps({"type": "rematch"}))
            elif message["phase"] == "playing" and message["you"] in message["to_act"]:
                action = message["view"]["legal"][0]
                await ws.send(json.dumps({"type": "act", "version": message["version"],
                                          "action": action}))
                sent_at = time.monotonic()


def scrape(port: int) -> bool:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/metrics",
                                     headers={"Authorization": f"Bearer {TOKEN}"})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return bool(answer.read())
    except OSError:
        return False


async def measure(server: Server, workdir: Path, args: argparse.Namespace) -> dict[str, Any]:
    port, database = server.port, server.database(workdir)
    latencies: list[float] = []
    start = time.monotonic()
    stop = start + args.warmup + args.seconds
    load = asyncio.gather(*(table(port, n, stop, latencies) for n in range(args.tables)))
    await asyncio.sleep(args.warmup)
    cpu0, acts0, lat0 = server.cpu_seconds(), actions(database), len(latencies)
    scrapes = 0
    while time.monotonic() < stop - 0.5:
        await asyncio.sleep(1.0)
        if args.scrape:
            scrapes += await asyncio.to_thread(scrape, port)
    cpu1, acts1 = server.cpu_seconds(), actions(database)
    measured = sorted(x * 1000 for x in latencies[lat0:])
    await load
    done = acts1 - acts0
    return {
        "actions": done,
        "us_per_action": (cpu1 - cpu0) / done * 1e6 if done else float("nan"),
        "p50_ms": statistics.median(measured) if measured else float("nan"),
        "scrapes": scrapes,
    }


def run(args: argparse.Namespace, root: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="paiju-cost-") as tmp:
        server = Server(Path(root) / "src", overrides=FLAT_OUT)
        server.start(Path(tmp))
        try:
            return asyncio.run(measure(server, Path(tmp), args))
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--root", default=str(ROOT), help="checkout to serve from")
    parser.add_argument("--against", help="another checkout, run in turn with --root: each "
                                          "pair of runs shares the machine's load of the moment")
    parser.add_argument("--scrape", action="store_true", help="read /metrics once a second")
    args = parser.parse_args()
    os.sched_setaffinity(0, {1})
    roots = [args.root] + ([args.against] if args.against else [])
    results: dict[str, list[dict[str, Any]]] = {root: [] for root in roots}
    print(f"{'run':>3} {'actions':>8} {'CPU us/action':>14} {'p50 act->state ms':>18}  server")
    for n in range(args.runs):
        for root in roots:
            result = run(args, root)
            results[root].append(result)
            print(f"{n + 1:>3} {result['actions']:>8} {result['us_per_action']:>14.1f} "
                  f"{result['p50_ms']:>18.2f}  {root}"
                  + (f" (scrapes {result['scrapes']})" if args.scrape else ""), flush=True)
    for root, rows in results.items():
        cost = statistics.median(r["us_per_action"] for r in rows)
        p50 = statistics.median(r["p50_ms"] for r in rows)
        print(f"median {root}: {cost:.1f} us of server CPU per action, "
              f"act->state p50 {p50:.2f} ms")
    if args.against:
        pairs = zip(results[args.root], results[args.against], strict=True)
        differences = [a["us_per_action"] - b["us_per_action"] for a, b in pairs]
        print(f"median of the paired differences (--root minus --against): "
              f"{statistics.median(differences):+.1f} us per action")


if __name__ == "__main__":
    main()
