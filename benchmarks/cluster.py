"""Cluster mode (docs/cluster.md) on a real redis-server: action-to-broadcast latency with one
node and with two, and the failover time after kill -9 of a node.

1. **Load**: for each count of ``--tables``, that many dragon tables (one player, three
   bots, zero bot delay) are made through the admin channel; each player acts as soon as
   it is asked, for ``--seconds``.
   The time from sending ``act`` to receiving the state that follows it (Redis has accepted
   the write before that state is sent) is recorded; p50 and p99 per set-up. Set-ups: one node
   pinned to core 0; two nodes pinned to cores 0 and 1 (the rooms are placed on the least
   loaded node). Redis and this client share the machine's cores (the machine has two).
2. **Failover**: ``--rooms`` (100 and 1,000 by default) rooms with a seated player, in play, on
   node A; node B idles. A is killed with SIGKILL; the time until the last player has resumed
   through B (redirects followed) is the failover time, with ``lease_ttl`` = ``--lease``.
   Node A runs on core 0, B on core 1; the clients move to core 0 once A is dead.

    .venv/bin/python benchmarks/cluster.py [--tables 5 10 20] [--seconds 10]
        [--rooms 100 1000] [--lease 2.0] [--fsync always|everysec]

Needs ``redis-server`` (Debian package). Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

TOKEN = "benchmark-admin-token-0123456789abcdef"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, proc: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"{what} exited") from None
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not open its port")


@contextlib.contextmanager
def redis_server(folder: Path, fsync: str = "always") -> Iterator[str]:
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    port = free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
         "--appendonly", "yes", "--appendfsync", fsync, "--save", "",
         "--loglevel", "warning"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wait_port(port, proc, "redis-server")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)


class Node:
    """A ``paiju serve`` cluster node, pinned to one core."""

    def __init__(self, folder: Path, name: str, store: str, core: int, lease: float) -> None:
        self.name, self.port = name, free_port()
        rooms = folder / "rooms"
        rooms.mkdir(parents=True, exist_ok=True)
        (rooms / "dragon.toml").write_text('variant = "dragon"\ntitle = "Dragon"\n')
        (folder / "none.toml").write_text("")
        args = [
            "taskset", "-c", str(core), sys.executable, "-m", "paiju.cli", "serve",
            "--port", str(self.port), "--database", str(folder / f"{name}.sqlite3"),
            "--admin-token", TOKEN, "--rooms-dir", str(rooms), "--config",
            str(folder / "none.toml"), "--set", f"node_id={name}",
            "--set", f"lease_ttl={lease}", "--set", "bot_delay=0.0", "--set",
            "between_hands=0.0", "--set", "log_level=\"warning\"", "--set",
            "trustee_delay=600.0", "--set", "max_rooms=5000", "--set",
            "timers={arrange=600.0}", "--set", "max_connections_per_address=0",
            "--set", "rate_per_second=10000.0", "--set", "rate_burst=10000",
        ] + (["--set", f"store={store}"] if store else [])  # none: SQLite, one node
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port, self.proc, f"node {name}")

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    async def admin(self, **request: Any) -> Any:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with connect(f"{self.url}admin", additional_headers=headers) as ws:
            await ws.send(json.dumps({"type": "admin", **request}))
            reply = json.loads(await ws.recv())
            assert reply["ok"], reply
            return reply["result"]


async def recv(ws: ClientConnection, *kinds: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 300))
        if message["type"] in kinds:
            return message


async def enter(url: str, message: dict[str, Any], fallback: str) -> tuple[ClientConnection,
                                                                             dict[str, Any]]:
    """Connect, send ``message`` (join or resume), follow redirects: socket and ``joined``."""
    for _ in range(200):
        try:
            ws = await connect(url, max_size=None)
        except OSError:
            url = fallback
            await asyncio.sleep(0.1)
            continue
        await ws.send(json.dumps({"type": "hello", "protocol_version": 1}))
        await recv(ws, "welcome")
        await ws.send(json.dumps(message))
        answer = await recv(ws, "joined", "redirect", "error")
        if answer["type"] == "joined":
            return ws, answer
        await ws.close()
        url = answer.get("url") or fallback
        if not answer.get("url"):
            await asyncio.sleep(0.1)
    raise RuntimeError(f"could not enter: {message}")


async def player_loop(url: str, room: str, until: float, latencies: list[float]) -> None:
    """Act whenever asked, until ``until``; a room that moves (a lease lost on a loaded
    machine) is followed and resumed."""
    ws, joined = await enter(url, {"type": "join", "room": room, "name": "p"}, url)
    resume = {"type": "resume", "room": room, "token": joined["token"]}
    await ws.send(json.dumps({"type": "ready"}))
    acted, sent = -1, 0.0
    while time.monotonic() < until:
        message = await recv(ws, "state", "error", "redirect")
        if message["type"] == "redirect":
            await ws.close()
            ws, _ = await enter(message["url"] or url, resume, url)
            acted = -1
            continue
        if message["type"] == "error":
            print(f"refused: {message['code']}", file=sys.stderr)
            acted = -1  # asked again by the same state
            continue
        if acted >= 0 and message["version"] > acted:  # the state after the act: written
            latencies.append(time.perf_counter() - sent)
            acted = -1
        if acted < 0 and message["to_act"] == [0] and message["view"].get("legal"):
            acted, sent = message["version"], time.perf_counter()
            await ws.send(json.dumps({"type": "act", "version": acted,
                                      "action": message["view"]["legal"][0]}))
    await ws.close()


async def load(nodes: list[Node], tables: int, seconds: float) -> dict[str, Any]:
    rooms = []
    for i in range(tables):
        made = await nodes[i % len(nodes)].admin(command="create", variant="dragon", bots=3,
                                                 options={"hands": 1000})
        rooms.append((made.get("url") or nodes[0].url, made["room"]))
    latencies: list[float] = []
    until = time.monotonic() + seconds
    await asyncio.gather(*(player_loop(url, room, until, latencies) for url, room in rooms))
    latencies.sort()
    return {
        "actions": len(latencies),
        "actions_per_s": round(len(latencies) / seconds, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 2),
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2),
    }


async def failover(folder: Path, store: str, rooms: int, lease: float) -> dict[str, Any]:
    a = Node(folder, "a", store, 0, lease)
    seated: list[tuple[str, str]] = []
    try:
        limit = asyncio.Semaphore(50)

        async def seat() -> None:
            async with limit:
                made = await a.admin(command="create", variant="dragon", bots=3,
                                     options={"hands": 1000})
                ws, joined = await enter(a.url, {"type": "join", "room": made["room"],
                                                 "name": "p"}, a.url)
                await ws.send(json.dumps({"type": "ready"}))
                await recv(ws, "state")
                await ws.close()
                seated.append((made["room"], joined["token"]))

        await asyncio.gather(*(seat() for _ in range(rooms)))
        b = Node(folder, "b", store, 1, lease)
        try:
            await asyncio.sleep(lease)  # b is registered and idle
            killed = time.perf_counter()
            a.kill()
            os.sched_setaffinity(0, {0})  # the clients take the dead node's core
            resumed: list[float] = []

            async def resume(room: str, token: str) -> None:
                async with limit:
                    ws, _ = await enter(b.url, {"type": "resume", "room": room, "token": token},
                                        b.url)
                    await recv(ws, "state")
                    resumed.append(time.perf_counter() - killed)
                    await ws.close()

            await asyncio.gather(*(resume(room, token) for room, token in seated))
            os.sched_setaffinity(0, {1})
            return {"rooms": rooms, "lease_ttl": lease,
                    "first_resumed_s": round(min(resumed), 2),
                    "last_resumed_s": round(max(resumed), 2)}
        finally:
            b.kill()
    finally:
        a.kill()


async def baseline(folder: Path, tables: int, seconds: float) -> None:
    """The same load on one node without a cluster (SQLite): what Redis adds."""
    node = Node(folder, "sqlite", "", 0, 1.0)
    try:
        figures = await load([node], tables, seconds)
    finally:
        node.kill()
    print(json.dumps({"nodes": "1, SQLite", "tables": tables, **figures}), flush=True)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="*", default=[5, 10, 20],
                        help="table counts to load in turn (the largest with p99 under 100 ms "
                        "is what a set-up holds)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rooms", type=int, nargs="*", default=[100, 1000])
    parser.add_argument("--lease", type=float, default=2.0)
    parser.add_argument("--fsync", default="always", choices=["always", "everysec"],
                        help="Redis's appendfsync policy (docs/cluster.md)")
    args = parser.parse_args()
    os.sched_setaffinity(0, {1})  # the clients; node 1 shares this core in the two-node run
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for tables in args.tables:
            await baseline(folder / f"sqlite-{tables}", tables, args.seconds)
            for count in (1, 2):
                run = folder / f"redis-{count}-{tables}"
                run.mkdir()
                with redis_server(run, args.fsync) as store:
                    nodes = [Node(run, f"n{i}", store, i, args.lease) for i in range(count)]
                    try:
                        await asyncio.sleep(args.lease / 2)  # heartbeats seen before placing
                        figures = await load(nodes, tables, args.seconds)
                    finally:
                        for node in nodes:
                            node.kill()
                print(json.dumps({"nodes": count, "appendfsync": args.fsync, "tables": tables,
                                  **figures}), flush=True)
        for rooms in args.rooms:
            target = folder / f"failover-{rooms}"
            target.mkdir()
            with redis_server(target, args.fsync) as store:
                print(json.dumps(await failover(target, store, rooms, args.lease)), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
