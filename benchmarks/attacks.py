"""Other tables' latency under each attack of tests/security, at full size, with the default
limits; and the server's memory per stalled connection.

The server (``paiju serve --memory``, default settings but no bot delays) runs pinned to
core 0; the probes and, in a process of their own, the attackers run on core 1. Each probe
table is an MCR room of one player and three bots; the probe answers every decision at once
and times act -> next state (it answers each decision after 0.15 s, a person's pace within the
message budget). Attackers come from many loopback addresses (127.0.x.y), as a
botnet would, so that the per-connection defences are measured, not only the per-address cap.

    .venv/bin/python benchmarks/attacks.py [--seconds 8] [--probes 4]

Prints one line per attack: p50 and p99 of act -> state in ms, acts measured, and what the
defence did. Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus, WebSocketException

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "benchmark-admin-token-0123456789abcdef"
HELLO = json.dumps({"type": "hello", "protocol_version": 1})


def address(n: int) -> str:
    """The n-th attacker address (127.0.1.0 onwards; probes use 127.0.0.200+)."""
    return f"127.0.{1 + n // 250}.{n % 250 + 1}"


async def open_ws(port: int, source: str, hello: bool = True) -> ClientConnection:
    ws = await connect(f"ws://127.0.0.1:{port}/", local_addr=(source, 0), max_size=None,
                       open_timeout=30)
    if hello:
        await ws.send(HELLO)
        await ws.recv()
    return ws


# ---------------------------------------------------------------- probes


#: Seconds a probe waits before it answers a decision.
THINK = 0.15


async def probe(port: int, n: int, stop: float, latencies: list[float]) -> None:
    """Play an MCR room against three bots, timing each act until the next state."""
    ws = await open_ws(port, f"127.0.0.{200 + n}")
    await ws.send(json.dumps({"type": "create_room", "preset": "mcr", "bots": 3,
                              "bot_level": 0, "name": f"probe{n}"}))
    await ws.send(json.dumps({"type": "ready"}))
    sent_at: float | None = None
    while time.monotonic() < stop:
        message = json.loads(await ws.recv())
        if message["type"] == "error" and sent_at is not None:
            # The act was refused (it raced a newer state): no state answers it, so it is not
            # timed; the next state asks again. Logged, so a server that refuses good acts shows.
            print(f"probe {n}: {message['code']}: {message['message']}", file=sys.stderr)
            sent_at = None
        if message["type"] == "state":
            if sent_at is not None:
                latencies.append(time.monotonic() - sent_at)
                sent_at = None
            if message["phase"] == "finished":
                await ws.send(json.dumps({"type": "rematch"}))
            elif message["phase"] == "playing" and message["you"] in message["to_act"]:
                # A person's pace: answering at once against instant bots would spend more
                # than the connection's message budget (act costs 2 of 20 a second).
                await asyncio.sleep(THINK)
                legal = message["view"]["legal"]
                await ws.send(json.dumps({"type": "act", "version": message["version"],
                                          "action": legal[0]}))
                sent_at = time.monotonic()
    await ws.close()


# ---------------------------------------------------------------- attacks (own process)


async def idle(port: int, stop: float, note: dict[str, Any]) -> None:
    """1,500 sockets that never send a byte, and 300 WebSockets that never say hello."""
    sockets, dropped = [], 0
    for i in range(1500):
        sock = socket.socket()
        sock.bind((address(i // 30), 0))
        sock.setblocking(False)
        with contextlib.suppress(OSError):
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        sockets.append(sock)
    silent = []
    for i in range(300):
        with contextlib.suppress(OSError, WebSocketException):
            silent.append(await open_ws(port, address(100 + i // 20), hello=False))
    readers = [asyncio.create_task(drain(ws)) for ws in silent]  # to see the server's close
    await asyncio.sleep(max(0.0, stop - time.monotonic()))
    for sock in sockets:
        try:
            dropped += sock.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            dropped += 1
        sock.close()
    note["sockets closed by the server"] = f"{dropped}/1500"
    note["silent websockets opened"] = f"{len(silent)}/300"
    note["their close codes"] = close_codes(silent)
    for reader in readers:
        reader.cancel()


async def push(port: int, stop: float, frame_of: Callable[[int], str]
               ) -> tuple[int, int, list[ClientConnection]]:
    """100 connections sending ``frame_of(i)`` as fast as they can until ``stop`` or until
    the server closes them. Returns the frames sent, the answers read and the connections."""
    sent, answered, opened = [0], [0], []

    async def one(i: int) -> None:
        ws = await open_ws(port, address(i // 25))
        opened.append(ws)
        reader = asyncio.create_task(drain(ws, answered))
        with contextlib.suppress(WebSocketException):
            while time.monotonic() < stop and ws.close_code is None:
                await ws.send(frame_of(i))
                sent[0] += 1
                # A send that fits the buffers does not yield: without this one connection
                # would hold the loop, and no answer or close would ever be read.
                await asyncio.sleep(0)
        await asyncio.sleep(0.5)  # the answers and closes on their way
        reader.cancel()

    await asyncio.gather(*(one(i) for i in range(100)), return_exceptions=True)
    return sent[0], answered[0], opened


async def heavy(port: int, stop: float, note: dict[str, Any]) -> None:
    """100 connections sending 64 kB frames as fast as TCP lets them."""
    frame = json.dumps({"type": "ping", "nonce": "x" * 65_000})
    sent, answered, opened = await push(port, stop, lambda i: frame)
    # permessage-deflate shrinks these frames to a few hundred bytes on the wire, so the
    # kernel's buffers take many of them; the server reads at its byte budget all the same.
    note["MB sent (before compression)"] = round(sent * len(frame) / 1e6, 1)
    note["frames the server answered"] = answered
    note["close codes"] = close_codes(opened)


def close_codes(connections: list[ClientConnection]) -> dict[str, int]:
    """How many connections the server closed with each code ("open": not closed)."""
    codes: dict[str, int] = {}
    for ws in connections:
        key = "open" if ws.close_code is None else str(ws.close_code)
        codes[key] = codes.get(key, 0) + 1
    return dict(sorted(codes.items()))


async def drain(ws: ClientConnection, count: list[int] | None = None) -> None:
    with contextlib.suppress(WebSocketException):
        async for _ in ws:
            if count is not None:
                count[0] += 1


async def spectators(port: int, stop: float, note: dict[str, Any]) -> None:
    """1,500 spectators try to watch one busy room."""
    admin = await connect(f"ws://127.0.0.1:{port}/admin", local_addr=(address(900), 0),
                          additional_headers={"Authorization": f"Bearer {TOKEN}"})
    await admin.send(json.dumps({"type": "admin", "command": "create", "preset": "mcr",
                                 "bots": 4}))
    room = json.loads(await admin.recv())["result"]["room"]
    await admin.send(json.dumps({"type": "admin", "command": "start", "room": room}))
    await admin.recv()
    watchers, readers, refused = [], [], 0
    for i in range(1500):
        ws = await open_ws(port, address(i // 30))
        await ws.send(json.dumps({"type": "join", "room": room, "spectate": True}))
        if json.loads(await ws.recv())["type"] == "error":
            refused += 1
            await ws.close()
        else:
            watchers.append(ws)
            readers.append(asyncio.create_task(drain(ws)))
    note["spectators refused"] = f"{refused}/1500"
    await asyncio.sleep(max(0.0, stop - time.monotonic()))


async def stalled(port: int, stop: float, note: dict[str, Any]) -> None:
    """200 spectators of busy rooms that stop reading (small receive buffers)."""
    admin = await connect(f"ws://127.0.0.1:{port}/admin", local_addr=(address(900), 0),
                          additional_headers={"Authorization": f"Bearer {TOKEN}"})
    rooms = []
    for _ in range(4):
        await admin.send(json.dumps({"type": "admin", "command": "create", "preset": "mcr",
                                     "bots": 4}))
        rooms.append(json.loads(await admin.recv())["result"]["room"])
        await admin.send(json.dumps({"type": "admin", "command": "start", "room": rooms[-1]}))
        await admin.recv()
    held = []
    for i in range(200):
        ws = await connect(f"ws://127.0.0.1:{port}/", local_addr=(address(i // 25), 0),
                           max_size=None)
        sock = ws.transport.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        await ws.send(HELLO)
        await ws.recv()
        await ws.send(json.dumps({"type": "join", "room": rooms[i % 4], "spectate": True}))
        ws.transport.pause_reading()
        # websockets resumes reading when its queue drains; keep it paused.
        ws.transport.resume_reading = lambda: None  # type: ignore[method-assign]
        held.append(ws)
    await asyncio.sleep(max(0.0, stop - time.monotonic()))
    note["stalled connections"] = len(held)


async def flood(port: int, stop: float, note: dict[str, Any]) -> None:
    """100 connections sending pings and lobby requests as fast as they can."""
    sent, answered, opened = await push(
        port, stop, lambda i: '{"type": "lobby"}' if i % 2 else '{"type": "ping"}'
    )
    note["messages sent"] = sent
    note["answers"] = answered
    note["close codes (no reconnecting)"] = close_codes(opened)


async def surrogates(port: int, stop: float, note: dict[str, Any]) -> None:
    """20 connections sending lone surrogates and invalid UTF-8 within their budget."""
    bad = ['{"type": "ping", "nonce": "\\ud800"}', b'{"type": "ping", "nonce": "\xff"}']

    async def one(i: int) -> None:
        ws = await open_ws(port, address(i))
        reader = asyncio.create_task(drain(ws))
        with contextlib.suppress(WebSocketException):
            while time.monotonic() < stop:
                for frame in bad:
                    await ws.send(frame, text=True)
                await asyncio.sleep(0.1)
        note.setdefault("open at the end", 0)
        note["open at the end"] += ws.close_code is None
        reader.cancel()

    await asyncio.gather(*(one(i) for i in range(20)), return_exceptions=True)


async def admin_guess(port: int, stop: float, note: dict[str, Any]) -> None:
    """Guess the admin token from 20 addresses, as fast as the server answers."""
    statuses: dict[int, int] = {}

    async def one(i: int) -> None:
        while time.monotonic() < stop:
            try:
                async with connect(f"ws://127.0.0.1:{port}/admin", local_addr=(address(i), 0),
                                   additional_headers={"Authorization": f"Bearer guess{i}"}):
                    statuses[101] = statuses.get(101, 0) + 1
            except InvalidStatus as exc:
                code = exc.response.status_code
                statuses[code] = statuses.get(code, 0) + 1

    await asyncio.gather(*(one(i) for i in range(20)), return_exceptions=True)
    note["answers"] = dict(sorted(statuses.items()))


ATTACKS: dict[str, Callable[[int, float, dict[str, Any]], Awaitable[None]]] = {
    "idle sockets": idle, "heavy frames": heavy, "spectator swarm": spectators,
    "stalled readers": stalled, "message flood": flood, "surrogates": surrogates,
    "admin brute force": admin_guess,
}


def attack_process(name: str, port: int, stop: float, notes: Any) -> None:
    os.sched_setaffinity(0, {1})
    # The attackers share core 1 with the probes: at the lowest priority they take only what
    # the probes leave, so a probe's latency is the server's, not its own core's queue.
    os.nice(19)
    note: dict[str, Any] = {}
    with contextlib.suppress(Exception):
        asyncio.run(ATTACKS[name](port, stop, note))
    notes[name] = note


# ---------------------------------------------------------------- the run


def start_server(port: int) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-m", "paiju.cli", "serve", "--memory", "--port", str(port),
            "--config", str(ROOT / "configs" / "server.toml"), "--admin-token", TOKEN,
            "--set", "bot_delay=0.0", "--set", "between_hands=0.0",
            "--set", "timers={turn=0.0, claim=0.0}", "--set", "drain_timeout=0.0"]
    server = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              preexec_fn=lambda: os.sched_setaffinity(0, {0}))
    assert server.stdout is not None
    server.stdout.readline()  # "paiju: serving ..."
    return server


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run(name: str | None, seconds: float, probes: int, notes: Any) -> dict[str, Any]:
    port = free_port()
    server = start_server(port)
    try:
        latencies: list[float] = []
        stop = time.monotonic() + seconds + 3
        attacker = None
        before = rss_kib(server.pid)
        if name is not None:
            attacker = multiprocessing.Process(target=attack_process,
                                               args=(name, port, stop, notes))
            attacker.start()
            time.sleep(2)  # let the attack build up before measuring

        async def measure() -> None:
            await asyncio.gather(*(probe(port, n, stop, latencies) for n in range(probes)))

        asyncio.run(measure())
        during = rss_kib(server.pid)
        if attacker is not None:
            attacker.join(60)
        ms = sorted(x * 1000 for x in latencies)
        return {
            "p50": statistics.median(ms) if ms else float("nan"),
            "p99": ms[int(len(ms) * 0.99)] if ms else float("nan"),
            "acts": len(ms), "rss_before_kib": before, "rss_during_kib": during,
        }
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--probes", type=int, default=4)
    parser.add_argument("--only", help="one attack by name")
    args = parser.parse_args()
    os.sched_setaffinity(0, {1})
    notes = multiprocessing.Manager().dict()
    names: list[str | None] = [None, *ATTACKS] if not args.only else [None, args.only]
    print(f"{'attack':<20} {'p50 ms':>8} {'p99 ms':>8} {'acts':>6} {'RSS+ MiB':>9}  defence")
    for name in names:
        figures = run(name, args.seconds, args.probes, notes)
        note = dict(notes.get(name, {})) if name else {}
        if name == "stalled readers":
            grown = figures["rss_during_kib"] - figures["rss_before_kib"]
            note["server RSS growth per stalled connection"] = f"{grown / 200:.0f} KiB"
        grown = (figures["rss_during_kib"] - figures["rss_before_kib"]) / 1024
        print(f"{name or 'no attack':<20} {figures['p50']:8.1f} {figures['p99']:8.1f} "
              f"{figures['acts']:6d} {grown:9.1f}  {note}", flush=True)


if __name__ == "__main__":
    main()
