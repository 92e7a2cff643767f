"""CPU per action of the server's side of a table without sockets, in one process: rooms on
a SQLite store, players' frames parsed and dispatched as a connection's reader does, each
seat's outbox drained as its writer does (the frames are parsed by the seat, not sent), the
metrics counted. Timed with ``time.process_time``.

    .venv/bin/python benchmarks/room_cost.py --tables 200 --actions 6000
    .venv/bin/python benchmarks/room_cost.py --against /work/main/src

Every table is an MCR room of four people; each answers its decisions with the first legal
action after ``--think`` seconds (uniform up to it: 0 plays flat out, every room at once).
The seats' own work (parsing what they are sent, choosing) is counted too, the same for any
checkout: compare checkouts with ``--against SRC`` (run by run, in turn), not absolute
figures. Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


async def play(tables: int, actions: int, think: float, folder: Path) -> dict[str, float]:
    import orjson

    from paiju.persistence.sqlite import SqliteStore
    from paiju.server.config import ServerConfig
    from paiju.server.metrics import Metrics
    from paiju.server.players import Players
    from paiju.server.rooms import RoomManager
    from paiju.server.sessions import Outbox, Session
    from paiju.server.throttle import TokenBucket
    from paiju.server.wire import parse_frame

    config = ServerConfig(bot_delay=0.0, between_hands=1.0, timers={})
    store = SqliteStore(folder / f"cost-{time.monotonic_ns()}.sqlite3")
    metrics = Metrics()
    manager = RoomManager(config, store, metrics)
    players = Players(config, manager, store)
    done = asyncio.Event()
    counted = {"acts": 0}
    rng = random.Random(7)

    async def seat(room_id: str, n: int) -> None:
        session = Session(f"s{room_id}{n}", Outbox(1000, 1 << 24), TokenBucket(1e9, 1e9),
                          metrics=metrics)
        await players.dispatch(session, parse_frame(json.dumps(
            {"type": "join", "room": room_id, "name": f"p{n}"})))
        await players.dispatch(session, parse_frame(b'{"type":"ready"}'))
        queued = asyncio.Event()  # the outbox wakes its writer; here, this seat
        session.outbox.waker = queued.set
        while not done.is_set():
            frames = session.outbox.take()
            if frames is None:
                if session.outbox.ended:
                    return
                queued.clear()
                await queued.wait()
                continue
            latest = None
            for frame in frames:
                message = orjson.loads(frame)
                if message["type"] == "state":
                    latest = message
            if latest is None or latest["phase"] != "playing":
                continue
            if latest["you"] not in latest["to_act"]:
                continue
            if think:
                await asyncio.sleep(rng.uniform(0, think))
            act = {"type": "act", "version": latest["version"],
                   "action": latest["view"]["legal"][0]}
            session.arrived_at = asyncio.get_running_loop().time()
            await players.dispatch(session, parse_frame(orjson.dumps(act)))
            counted["acts"] += 1
            if counted["acts"] >= actions:
                done.set()

    rooms = [manager.create("mcr", options={"rounds": 4}, seed=f"cost/{n}")
             for n in range(tables)]
    young = gc.get_stats()[0]["collections"]
    start, wall = time.process_time(), time.perf_counter()
    seats = [asyncio.create_task(seat(room.room_id, n)) for room in rooms for n in range(4)]
    while not done.is_set():  # a run that stalls (a lost race of the seats) ends early
        before = counted["acts"]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), 3.0)
        if counted["acts"] == before:
            print(f"stalled after {before} actions", file=sys.stderr)
            break
    spent, wall = time.process_time() - start, time.perf_counter() - wall
    young = gc.get_stats()[0]["collections"] - young
    gc.collect()
    held = sys.getallocatedblocks()  # what the rooms and seats hold after the run
    for task in seats:
        task.cancel()
    await asyncio.gather(*seats, return_exceptions=True)
    await manager.shutdown()
    store.close()
    acts = counted["acts"]
    return {"us": 1e6 * spent / acts, "wall": 1e6 * wall / acts, "gc0": 1000 * young / acts,
            "kblocks": held / 1000}


def one_run(args: argparse.Namespace, src: str | None) -> dict[str, float]:
    if src is not None:
        cmd = [sys.executable, __file__, "--tables", str(args.tables), "--actions",
               str(args.actions), "--think", str(args.think), "--json"]
        env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
        out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
        return dict(json.loads(out.splitlines()[-1]))
    with tempfile.TemporaryDirectory(prefix="paiju-room-cost-") as tmp:
        return asyncio.run(play(args.tables, args.actions, args.think, Path(tmp)))


def figures(run: dict[str, float]) -> str:
    """A run's figures: CPU and wall time per action, young collections per 1,000."""
    return (f"{run['us']:7.1f} us CPU {run['wall']:7.1f} us wall "
            f"{run.get('gc0', float('nan')):5.1f} gc0/1000 "
            f"{run.get('kblocks', float('nan')):6.0f}k blocks held")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--actions", type=int, default=6000)
    parser.add_argument("--think", type=float, default=0.0, help="seconds, uniform up to")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", help="another checkout's src, measured in turn")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        import structlog  # the rooms' log lines are not what is measured

        structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
        with tempfile.TemporaryDirectory(prefix="paiju-room-cost-") as tmp:
            print(json.dumps(asyncio.run(play(args.tables, args.actions, args.think,
                                              Path(tmp)))))
        return
    mine: list[dict[str, float]] = []
    theirs: list[dict[str, float]] = []
    for n in range(args.runs):
        mine.append(one_run(args, str(ROOT / "src")))
        line = f"{n + 1:>2} this {figures(mine[-1])}"
        if args.against:
            theirs.append(one_run(args, args.against))
            line += f"   against {figures(theirs[-1])}"
        print(line, flush=True)
    for label, runs in (("this", mine), ("against", theirs)):
        if runs:
            print(f"median {label}: " + figures(
                {k: statistics.median(r[k] for r in runs) for k in runs[0]}))


if __name__ == "__main__":
    main()
