"""Recovery after a crash: 1,000 rooms with logs of 60 and of 500 actions, kill -9, restart.

For each log length, and for today's code (this checkout: snapshot + tail, quiet replay) and
the release before it (``--old``, default 89d5626, whose restore replays every room's whole
log through the live path, views and all), the script:

1. makes a database of ``--rooms`` rooms, each a player and three bots of ``--variant``,
   played until its log holds ``--actions`` actions (with that code, in a subprocess), and
   keeps each player's seat token;
2. starts ``paiju serve`` on it, then kills it with SIGKILL once its port accepts (or 3 s
   into its start, whichever comes first);
3. starts it again and measures, from the moment it is spawned, the seconds until its port
   accepts, and until the last room has answered a ``resume`` with its state.

The server runs pinned to core 0, the resuming clients (this process) to core 1. The old
code is taken from git (``git archive``) into the work folder, and today's is copied there
(the checkout may change while the benchmark runs). Beside the wall-clock times it prints the
server's own CPU seconds, which other load on the machine does not inflate. Not a test: the
figures depend on the machine.

    .venv/bin/python benchmarks/recovery.py [--rooms 1000] [--actions 60 500]
        [--variant dragon] [--old 89d5626] [--work DIR] [--snapshot-every N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "benchmark-admin-token-0123456789abcdef"
SERVER_CORE, CLIENT_CORE = 0, 1
#: The first server is killed once its port accepts, or this many seconds into its start
#: (the old code takes minutes to restore long logs; its crash need not wait for that).
CRASH_AFTER = 3.0
#: Options that make a match long enough for 500 actions.
LONG_MATCH: dict[str, dict[str, Any]] = {
    "dragon": {"hands": 1000}, "diu": {"match_hands": 6, "players": 4}, "mcr": {"rounds": 4},
}


def compiled(src: Path) -> None:
    """Write the bytecode of ``src`` as an install does (pip compiles a wheel's modules):
    with PYTHONDONTWRITEBYTECODE set, as on this machine, every start would otherwise compile
    the whole package again, some 0.3 s of a restart that a deployed server never pays."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(src)], check=True)


# ---------------------------------------------------------------- making the databases


async def generate(db: str, rooms: int, actions: int, variant: str, out: str,
                   snapshot_every: int | None = None) -> None:
    """Run with the code under test on ``PYTHONPATH``: its own RoomManager plays each room
    (the player always answers with its first legal action; bots act at once), taking a
    snapshot every ``snapshot_every`` actions of a hand (default: that code's own)."""
    import logging

    import structlog

    from paiju.persistence.sqlite import SqliteStore
    from paiju.server.config import ServerConfig
    from paiju.server.rooms import RoomManager
    from paiju.server.sessions import new_token, token_hash
    from paiju.table.commands import Act, Join, Ready

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.CRITICAL))
    empty = tempfile.mkdtemp()
    every = {} if snapshot_every is None else {"snapshot_every": snapshot_every}
    config = ServerConfig(rooms_dir=empty, bot_delay=0.0, between_hands=0.0,
                          timers={"default": 600.0}, max_rooms=rooms + 10, **every)
    store = SqliteStore(db)
    manager = RoomManager(config, store)
    tokens = []
    for _ in range(rooms):
        room = manager.create(variant, bots=3, options=LONG_MATCH.get(variant, {}))
        token = new_token()

        def seat(table: Any, now: float, room: Any = room, token: str = token) -> Any:
            effects = table.handle(None, Join("p"), now)
            store.save_token(token_hash(token), room.room_id, 0)
            return None, effects + table.handle(0, Ready(), now)

        def act(table: Any, now: float) -> Any:
            if table.seq >= actions:
                return True, []
            legal = sorted(table.engine.format_action(a)
                           for a in table.engine.legal_actions(table.state, 0))
            return False, table.handle(0, Act(table.shown_version(0), legal[0]), now)

        await room.call(seat)
        while not await room.call(act):
            pass
        await room.stop()
        tokens.append([room.room_id, token])
    store.close()
    Path(out).write_text(json.dumps(tokens))


# ---------------------------------------------------------------- measuring


def pinned(core: int) -> Any:
    return lambda: os.sched_setaffinity(0, {core})


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def spawn(src: Path, db: Path, port: int, work: Path) -> subprocess.Popen[bytes]:
    (work / "rooms").mkdir(exist_ok=True)
    (work / "none.toml").write_text("")
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, "-m", "paiju.cli", "serve", "--config", str(work / "none.toml"),
               "--database", str(db), "--port", str(port), "--admin-token", TOKEN,
               "--rooms-dir", str(work / "rooms"), "--set", "max_connections_per_address=0",
               "--set", "bot_delay=0.0"]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, preexec_fn=pinned(SERVER_CORE))


def wait_for_port(port: int, proc: subprocess.Popen[bytes], limit: float = 600.0) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("the server exited") from None
            time.sleep(0.005)
    raise RuntimeError("the port never accepted")


async def resume_all(port: int, tokens: list[list[str]], concurrency: int,
                     mark: Callable[[], tuple[float, float]]) -> tuple[float, float]:
    """Resume every room's seat; returns ``mark()`` taken when the last one has answered
    with its state. The connections stay open until then: a player who drops is handed to
    the trustee, whose moves would be work the restart did not cause."""
    from websockets.asyncio.client import ClientConnection, connect

    gate = asyncio.Semaphore(concurrency)
    held: list[ClientConnection] = []

    async def one(room: str, token: str) -> bool:
        async with gate:
            ws = await connect(f"ws://127.0.0.1:{port}/", max_size=None, open_timeout=120)
            held.append(ws)
            await ws.send(json.dumps({"type": "hello", "protocol_version": 1}))
            await ws.send(json.dumps({"type": "resume", "room": room, "token": token}))
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "state":
                    return True
                if message["type"] == "error":
                    raise RuntimeError(f"room {room}: {message}")

    try:
        answers = await asyncio.gather(*(one(room, token) for room, token in tokens))
        marked = mark()
    finally:
        await asyncio.gather(*(ws.close() for ws in held), return_exceptions=True)
    if sum(answers) != len(tokens):
        raise RuntimeError(f"{sum(answers)} of {len(tokens)} rooms answered")
    return marked


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def fresh_copy(db: Path, work: Path) -> Path:
    """A copy of ``db`` (with its write-ahead log, if any) to run one measurement on."""
    run = work / f"run-{db.name}"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{run}{suffix}").unlink(missing_ok=True)
        if Path(f"{db}{suffix}").exists():
            shutil.copyfile(f"{db}{suffix}", f"{run}{suffix}")
    return run


def measure(src: Path, db: Path, tokens: list[list[str]], work: Path, concurrency: int,
            limit: float) -> tuple[float, float, float, float]:
    """Crash the server once, start it again: seconds to accept and to the last resume, and
    the server's CPU seconds by then (the machine's other load does not count in those);
    infinite when the port does not accept within ``limit`` seconds.

    Each measurement runs on a fresh copy of the generated database: a run changes what it
    restores (the resuming clients close before the server is killed, and every seat whose
    close it took in time is stored as handed to the trustee, who then plays at the next
    start), so a reused database made each run slower than the one before, and the two codes'
    databases drifted apart."""
    db = fresh_copy(db, work)
    port = free_port()
    first = spawn(src, db, port, work)
    with contextlib.suppress(RuntimeError):  # killed once it serves, or 3 s into its start
        wait_for_port(port, first, limit=CRASH_AFTER)
    first.send_signal(signal.SIGKILL)
    first.wait()
    port = free_port()
    start = time.monotonic()
    proc = spawn(src, db, port, work)
    try:
        try:
            wait_for_port(port, proc, limit)
        except RuntimeError:  # a full replay of long logs can take longer than anyone waits
            return math.inf, math.inf, cpu_seconds(proc.pid), math.inf
        accepted, cpu_accepted = time.monotonic() - start, cpu_seconds(proc.pid)

        def mark() -> tuple[float, float]:
            return time.monotonic() - start, cpu_seconds(proc.pid)

        resumed, cpu_resumed = asyncio.run(resume_all(port, tokens, concurrency, mark))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    return accepted, resumed, cpu_accepted, cpu_resumed


def make_database(src: Path, work: Path, name: str, args: argparse.Namespace, actions: int
                  ) -> tuple[Path, list[list[str]]]:
    every = args.snapshot_every if name == "new" else None
    stem = f"{name}-{actions}" + ("" if every is None else f"-every{every}")
    db, out = work / f"{stem}.sqlite3", work / f"{stem}.json"
    if not db.exists():
        env = {**os.environ, "PYTHONPATH": str(src)}
        extra = [] if every is None else [str(every)]
        subprocess.run([sys.executable, __file__, "generate", str(db), str(args.rooms),
                        str(actions), args.variant, str(out), *extra], env=env, check=True)
    return db, json.loads(out.read_text())


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "generate":
        db, rooms, actions, variant, out = sys.argv[2:7]
        every = int(sys.argv[7]) if len(sys.argv) > 7 else None
        asyncio.run(generate(db, int(rooms), int(actions), variant, out, every))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--actions", type=int, nargs="+", default=[60, 500])
    parser.add_argument("--variant", default="dragon")
    parser.add_argument("--old", default="89d5626", help="git ref of the code before")
    parser.add_argument("--work", help="folder for the databases (default: a temporary one)")
    parser.add_argument("--concurrency", type=int, default=50, help="resumes in flight")
    parser.add_argument("--codes", default="old,new", help="which code to measure: old,new")
    parser.add_argument("--snapshot-every", type=int, default=None,
                        help="the new code's rooms snapshot every N actions of a hand "
                             "(default: its server's setting)")
    parser.add_argument("--limit", type=float, default=600.0,
                        help="seconds to wait for the restarted server's port")
    args = parser.parse_args()
    os.sched_setaffinity(0, {CLIENT_CORE})
    work = Path(args.work or tempfile.mkdtemp(prefix="paiju-recovery-"))
    work.mkdir(parents=True, exist_ok=True)
    old_src = work / "old"
    if not (old_src / "src").exists():
        old_src.mkdir(exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.old, "src"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(old_src)], input=archive, check=True)
    new_src = work / "new" / "src"  # a copy: the checkout may change while this runs
    if not new_src.exists():
        shutil.copytree(ROOT / "src", new_src, ignore=shutil.ignore_patterns("__pycache__"))
    for src in (old_src / "src", new_src):
        compiled(src)
    codes = [(f"before ({args.old}): full replay", old_src / "src", "old"),
             ("now: snapshot + tail", new_src, "new")]
    print(f"{args.rooms} {args.variant} rooms (a player and 3 bots each), kill -9, restart; "
          f"server on core {SERVER_CORE}, {args.concurrency} resuming clients on core "
          f"{CLIENT_CORE}")
    print(f"{'log':>6}  {'code':<34} {'port accepts':>13} {'last resume':>12}   "
          "server CPU by then")
    codes = [c for c in codes if c[2] in args.codes.split(",")]
    for actions in args.actions:
        for label, src, name in codes:
            db, tokens = make_database(src, work, name, args, actions)
            accepted, resumed, cpu_a, cpu_r = measure(src, db, tokens, work, args.concurrency,
                                                      args.limit)
            if math.isinf(accepted):
                print(f"{actions:>6}  {label:<34} {'> ' + str(int(args.limit)):>11} s "
                      f"{'-':>10}     {cpu_a:.2f} s / -", flush=True)
                continue
            print(f"{actions:>6}  {label:<34} {accepted:>11.2f} s {resumed:>10.2f} s   "
                  f"{cpu_a:.2f} s / {cpu_r:.2f} s", flush=True)


if __name__ == "__main__":
    main()
