"""The bare library's floor: server CPU per action when a server does nothing but carry a
table's messages, beside the same messages merged into one per seat.

    .venv/bin/python benchmarks/wire_floor.py --variant mcr --tables 1500 --seconds 30

A server made only of the ``websockets`` library on uvloop (no game, no records, no
checks) runs pinned to core 0. It carries frames recorded in process from paiju's own table
(``Table.handle`` of ``--variant``, level-1 bots, every seat connected, no spectator): for
each action of a table, the frames each seat was sent, in order (events, then its state).
On core 1 this process opens 4 connections per table; each table sends an act every 0.2-3.4 s
(mean 1.8 s: what a load.py MCR table does), from the seats in turn, and the server answers
it with the next recorded action's frames to the table's 4 connections. After a warm-up the
server's CPU time (``/proc``) over ``--seconds`` is divided by the acts it answered.

Two shapes are measured in turn, in the same run, each with a fresh server:

* ``split`` — each frame its own WebSocket message, ``await connection.send`` per message,
  as a server written on the library sends them (paiju: ~11.5 messages per MCR action);
* ``merged`` — one message per seat per action (its frames as a JSON array): what a protocol
  that folded a seat's events into its state would send.

The figures are the floor under paiju's ``us/act`` in ``benchmarks/load.py``: the socket,
framing and event-loop work that any server on this library pays for the same traffic,
without compression (``--compression deflate`` offers the library's own permessage-deflate).
Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pickle
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
SERVER_CORE, CLIENT_CORE = 0, 1

SERVER = r"""
import asyncio, os, pickle, sys
os.sched_setaffinity(0, {%(core)d})
from websockets.asyncio.server import serve
try:
    import uvloop
    new_loop = uvloop.new_event_loop
except ImportError:
    new_loop = asyncio.new_event_loop

with open(sys.argv[1], "rb") as f:
    actions = pickle.load(f)          # [action][seat] -> list of frames (str)
tables = {}                            # table -> [connections by seat, next action]

async def handler(connection):
    table, seat = map(int, (await connection.recv()).split())
    entry = tables.setdefault(table, [[None] * 4, table * 7])
    entry[0][seat] = connection
    async for _ in connection:
        frames = actions[entry[1] %% len(actions)]
        entry[1] += 1
        for peer, sent in zip(entry[0], frames):
            if peer is None:
                continue
            for frame in sent:
                await peer.send(frame)

async def main():
    async with serve(handler, "127.0.0.1", int(sys.argv[2]), compression=%(compression)s,
                     max_queue=None, ping_interval=None) as server:
        await server.serve_forever()

loop = new_loop()
loop.run_until_complete(main())
"""


def record(variant: str, actions: int, seed: str) -> list[list[list[bytes]]]:
    """Per action of ``variant`` played in process, the frames each seat was sent."""
    from paiju.core.rng import SeededRng
    from paiju.engines.registry import get_engine, get_variant
    from paiju.server.wire import encode_bytes
    from paiju.table.commands import Act, Join, Ready
    from paiju.table.effects import Send
    from paiju.table.table import FINISHED, HAND_OVER, Table, TableSettings

    engine = get_engine(variant)
    options = engine.normalize_options({})
    seats = engine.seat_count(options)
    views: dict[int, Any] = {}

    def frames_of(effects: list[Any]) -> list[list[bytes]]:
        out: list[list[bytes]] = [[] for _ in range(seats)]
        for e in effects:
            if isinstance(e, Send) and e.to >= 0:
                out[e.to].append(getattr(e, "frame", None) or encode_bytes(e.message))
                if e.message["type"] == "state":
                    views[e.to] = e.message["view"]
        return out

    def new_table(n: int) -> Table:
        table = Table(f"r{n}", get_engine(variant), options, f"{seed}/{n}",
                      TableSettings(timers={}), lambda s, lv: None)  # type: ignore[arg-type,return-value]
        table.watched = lambda: False
        for seat in range(seats):
            frames_of(table.handle(None, Join(f"p{seat}"), 0.0))
        for seat in range(seats):
            frames_of(table.handle(seat, Ready(), 0.0))
        return table

    bots = [get_variant(variant).make_bot(1, SeededRng(f"{seed}/bot/{s}")) for s in range(seats)]
    made, table = 0, new_table(0)
    recorded: list[list[list[bytes]]] = []
    while len(recorded) < actions:
        if table.phase == HAND_OVER:
            frames_of(table.tick(1e9))
            continue
        if table.phase == FINISHED:
            made += 1
            table = new_table(made)
            continue
        seat = min(table.decisions.waiting)
        text = bots[seat].choose(views[seat])
        recorded.append(frames_of(table.handle(seat, Act(table.shown_version(seat), text), 0.0)))
    return recorded


def merged(actions: list[list[list[bytes]]]) -> list[list[list[str]]]:
    """Each seat's frames of an action as one message (a JSON array of them)."""
    return [[[("[" + b",".join(f).decode() + "]")] if f else [] for f in action]
            for action in actions]


def split(actions: list[list[list[bytes]]]) -> list[list[list[str]]]:
    return [[[x.decode() for x in f] for f in action] for action in actions]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def steal_ticks() -> tuple[int, int]:
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith(f"cpu{SERVER_CORE} "):
            ticks = [int(x) for x in line.split()[1:]]
            return ticks[7], sum(ticks)
    return 0, 1


class Load:
    """Every table's clients, and what they measured."""

    def __init__(self, port: int, seed: int) -> None:
        self.port = port
        self.rng = random.Random(seed)
        self.acts = 0
        self.messages = 0
        self.latencies: list[float] = []
        self.sent_at: dict[int, float] = {}  # table -> when its open act was sent
        self.tasks: list[asyncio.Task[None]] = []
        self.connections: list[ClientConnection] = []

    async def add_table(self, table: int) -> None:
        seats = []
        for seat in range(4):
            connection = await connect(f"ws://127.0.0.1:{self.port}", compression=None,
                                       max_size=None, ping_interval=None)
            await connection.send(f"{table} {seat}")
            self.connections.append(connection)
            seats.append(connection)
            self.tasks.append(asyncio.create_task(self.read(table, seat, connection)))
        self.tasks.append(asyncio.create_task(self.play(table, seats)))

    async def read(self, table: int, seat: int, connection: ClientConnection) -> None:
        async for _ in connection:
            self.messages += 1
            began = self.sent_at.pop(table, None)
            if began is not None:  # the first frame back at the table answers its act
                self.latencies.append(time.perf_counter() - began)
                self.acts += 1

    async def play(self, table: int, seats: list[ClientConnection]) -> None:
        turn = table % 4
        while True:
            await asyncio.sleep(self.rng.uniform(0.2, 3.4))
            self.sent_at[table] = time.perf_counter()
            await seats[turn].send("act")
            turn = (turn + 1) % 4

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await asyncio.gather(*(c.close() for c in self.connections), return_exceptions=True)


async def measure(frames_file: Path, tables: int, seconds: float, compression: str,
                  seed: int) -> dict[str, float]:
    port = free_port()
    script = SERVER % {"core": SERVER_CORE,
                       "compression": '"deflate"' if compression == "deflate" else "None"}
    server = subprocess.Popen([sys.executable, "-c", script, str(frames_file), str(port)])
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                await asyncio.sleep(0.05)
        load = Load(port, seed)
        for table in range(tables):
            await load.add_table(table)
        await asyncio.sleep(5.0)  # every table's first act is in: the steady state
        acts0, messages0, cpu0, steal0 = load.acts, load.messages, cpu_seconds(server.pid), \
            steal_ticks()
        load.latencies.clear()
        gen0 = time.process_time()
        began = time.perf_counter()
        await asyncio.sleep(seconds)
        wall = time.perf_counter() - began
        acts, cpu = load.acts - acts0, cpu_seconds(server.pid) - cpu0
        steal1 = steal_ticks()
        lat = sorted(load.latencies)
        result = {
            "acts_s": acts / wall,
            "cpu": 100 * cpu / wall,
            "us_act": 1e6 * cpu / max(1, acts),
            "msgs_act": (load.messages - messages0) / max(1, acts),
            "p50": 1000 * lat[len(lat) // 2] if lat else float("nan"),
            "p99": 1000 * lat[int(len(lat) * 0.99)] if lat else float("nan"),
            "gen": 100 * (time.process_time() - gen0) / wall,
            "steal": 100 * (steal1[0] - steal0[0]) / max(1, steal1[1] - steal0[1]),
        }
        await load.close()
        return result
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--variant", default="mcr", choices=("mcr", "shengji", "diu", "dragon"))
    parser.add_argument("--tables", default="1500", help="comma-separated steps")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--actions", type=int, default=4000, help="actions recorded")
    parser.add_argument("--compression", default="none", choices=("none", "deflate"))
    parser.add_argument("--seed", default="floor")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    recorded = record(args.variant, args.actions, args.seed)
    print(f"{args.variant}: {len(recorded)} actions recorded, "
          f"{statistics.mean(sum(map(len, a)) for a in recorded):.2f} messages per action; "
          f"bare websockets server on core {SERVER_CORE}, clients on core {CLIENT_CORE}, "
          f"compression {args.compression}")
    os.sched_setaffinity(0, {CLIENT_CORE})
    try:
        import uvloop
        new_loop = uvloop.new_event_loop
    except ImportError:
        new_loop = asyncio.new_event_loop
    print(f"{'shape':7s} {'tables':>6s} {'acts/s':>7s} {'srvCPU':>7s} {'us/act':>7s} "
          f"{'msg/act':>7s} {'p50ms':>6s} {'p99ms':>7s} {'genCPU':>7s} {'steal':>6s}")
    with tempfile.TemporaryDirectory() as work:
        for shape, frames in (("split", split(recorded)), ("merged", merged(recorded))):
            path = Path(work) / f"{shape}.pickle"
            path.write_bytes(pickle.dumps(frames))
            for tables in (int(t) for t in args.tables.split(",")):
                loop = new_loop()
                r = loop.run_until_complete(
                    measure(path, tables, args.seconds, args.compression, 1))
                loop.close()
                print(f"{shape:7s} {tables:6d} {r['acts_s']:7.0f} {r['cpu']:6.0f}% "
                      f"{r['us_act']:7.0f} {r['msgs_act']:7.2f} {r['p50']:6.1f} {r['p99']:7.1f} "
                      f"{r['gen']:6.0f}% {r['steal']:5.1f}%", flush=True)


if __name__ == "__main__":
    main()
