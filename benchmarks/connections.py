"""Memory per idle connection: paiju (every connection seated at a table) beside a bare
``websockets`` server that only holds its connections, with and without permessage-deflate.

    .venv/bin/python benchmarks/connections.py --connections 5000 [--src OTHER/src]
        [--variant dragon|mcr] [--compression deflate|none]

Each server runs in its own process pinned to core 0; the clients run here on core 1. For
each server and each compression setting: open the connections (paiju: ``hello``, ``join`` a
seat of a 4-seat room of ``--variant``, dragon by default, ``ready`` so the hand is dealt
and every seat holds a state), let the server settle, and read its resident memory before
and after; KiB per connection is the difference divided by the count. Prints one row per
server and setting, and the ratio paiju / bare.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "connections-benchmark-admin-token-0123456789"

BARE = """
import asyncio, os, sys
from websockets.asyncio.server import serve
os.sched_setaffinity(0, {0})
async def hold(ws):
    await ws.wait_closed()
async def main():
    async with serve(hold, "127.0.0.1", int(sys.argv[1]), max_size=65536):
        await asyncio.Future()
asyncio.run(main())
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def wait_for_port(port: int, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        if proc.poll() is not None:
            raise RuntimeError("the server exited")
        time.sleep(0.05)
    raise RuntimeError("the server did not open its port")


def start_bare(port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", BARE, str(port)])


def start_paiju(port: int, workdir: Path, src: Path) -> subprocess.Popen[bytes]:
    sets = {
        "max_connections": 100000,
        "max_connections_per_address": 0,
        "max_rooms": 100000,
        "hello_timeout": 600.0,
        "bot_delay": 0.0,
        "timers": "{}",
    }
    command = [
        sys.executable, str(ROOT / "benchmarks" / "probe_server.py"),
        str(workdir / f"stats-{port}.jsonl"), "0", "--", "serve",
        "--config", os.devnull, "--port", str(port),
        "--database", str(workdir / f"conn-{port}.sqlite3"), "--admin-token", TOKEN,
        *[arg for k, v in sets.items() for arg in ("--set", f"{k}={v}")],
    ]
    return subprocess.Popen(command, env={**os.environ, "PYTHONPATH": str(src)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def open_bare(port: int, count: int, compression: str | None) -> list[ClientConnection]:
    clients = []
    for start in range(0, count, 200):
        batch = [connect(f"ws://127.0.0.1:{port}/", compression=compression)
                 for _ in range(min(200, count - start))]
        clients += await asyncio.gather(*batch)
    return clients


VARIANT = {"name": "dragon", "options": {"seats": 4}}


async def open_seated(port: int, count: int, compression: str | None) -> list[ClientConnection]:
    clients: list[ClientConnection] = []
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with connect(f"ws://127.0.0.1:{port}/admin", additional_headers=headers) as admin:
        for _ in range(count // 4):
            await admin.send(json.dumps({"type": "admin", "command": "create",
                                         "variant": VARIANT["name"],
                                         "options": VARIANT["options"]}))
            room = json.loads(await admin.recv())["result"]["room"]
            seats = [await _seat(port, room, seat, compression) for seat in range(4)]
            clients += seats
    return clients


async def _seat(port: int, room: str, seat: int, compression: str | None) -> ClientConnection:
    ws = await connect(f"ws://127.0.0.1:{port}/", compression=compression, max_size=None)
    for message in ({"type": "hello", "protocol_version": 1},
                    {"type": "join", "room": room, "name": f"p{seat}", "seat": seat},
                    {"type": "ready"}):
        await ws.send(json.dumps(message))
    return ws


async def drain(clients: list[ClientConnection], seconds: float) -> None:
    """Read what the server sends for a while, so nothing sits unread in its buffers."""
    async def read(ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            while True:
                await ws.recv()

    readers = [asyncio.create_task(read(ws)) for ws in clients]
    await asyncio.sleep(seconds)
    for task in readers:
        task.cancel()


async def measure(kind: str, count: int, compression: str | None, workdir: Path,
                  src: Path = ROOT / "src") -> float:
    port = free_port()
    proc = start_bare(port) if kind == "bare" else start_paiju(port, workdir, src)
    try:
        wait_for_port(port, proc)
        if kind != "bare":  # warm the server once: imports, the engine's tables, caches
            await drain(await open_seated(port, 4, compression), 1.0)
        await asyncio.sleep(1.0)
        before = rss_kib(proc.pid)
        opener: Any = open_bare if kind == "bare" else open_seated
        clients = await opener(port, count, compression)
        await drain(clients, 3.0)
        after = rss_kib(proc.pid)
        for ws in clients:
            with contextlib.suppress(Exception):
                await ws.close()
        return (after - before) / len(clients)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        gc.collect()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=5000)
    parser.add_argument("--src", type=Path, default=ROOT / "src",
                        help="the checkout's src whose server is measured (default: this one)")
    parser.add_argument("--variant", default="dragon", choices=["dragon", "mcr"],
                        help="the 4-seat rooms the connections sit at")
    parser.add_argument("--compression", choices=["deflate", "none"],
                        help="one setting only (default: both)")
    args = parser.parse_args()
    VARIANT.update(name=args.variant, options={"seats": 4} if args.variant == "dragon" else {})
    os.sched_setaffinity(0, {1})
    count = args.connections - args.connections % 4
    print(f"{count} idle connections; KiB per connection (server RSS growth / connections)")
    print(f"{'compression':<12} {'bare':>8} {'paiju':>8} {'ratio':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for label, compression in (("deflate", "deflate"), ("none", None)):
            if args.compression and label != args.compression:
                continue
            bare = asyncio.run(measure("bare", count, compression, Path(tmp)))
            paiju = asyncio.run(measure("paiju", count, compression, Path(tmp), args.src))
            print(f"{label:<12} {bare:>8.1f} {paiju:>8.1f} {paiju / bare:>6.2f}x", flush=True)


if __name__ == "__main__":
    main()
