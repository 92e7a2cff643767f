"""What the Prometheus metrics cost per action, measured in one process without sockets: the
same all-bot MCR matches (random bots, no delays, a SQLite store, an operator watching each
room so that every public message is encoded and counted) are played with the server's real
``Metrics`` and with one whose every update does nothing, in turn, and the CPU time of this
process (``time.process_time``, so other processes' load counts little) is divided by the
actions accepted.

    .venv/bin/python benchmarks/metrics_cost.py [--matches 6] [--rounds 5]

``benchmarks/server_cost.py --against OTHER_CHECKOUT`` measures the whole server over real
sockets (the players' side too: messages read, the act -> state latency), before and after.
Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from paiju.persistence.sqlite import SqliteStore
from paiju.server.config import ServerConfig
from paiju.server.metrics import Metrics
from paiju.server.rooms import RoomManager
from paiju.table.effects import Effect
from paiju.table.table import FINISHED, Table


class _Nothing:
    """A metric child whose updates do nothing."""

    def inc(self, amount: float = 1.0) -> None:
        pass

    def observe(self, amount: float) -> None:
        pass


class NoMetrics(Metrics):
    """``Metrics`` with every update a no-op (the registry is built, never touched)."""

    def __init__(self) -> None:
        super().__init__()
        nothing = _Nothing()

        def children(*labels: str) -> _Nothing:
            return nothing

        for name in ("received", "sent", "errors", "actions", "timeouts", "connections",
                     "bot_decision", "store_write"):
            setattr(self, name, children)
        self.action_latency = nothing  # type: ignore[assignment]
        self.loop_lag = nothing  # type: ignore[assignment]


class Watcher:
    """An operator watching a room: takes every public frame."""

    frames = 0

    def send_frame(self, frame: bytes) -> None:
        self.frames += 1

    def left_room(self, room_id: str) -> None:
        pass

    def when_written(self, done: Callable[[], None]) -> None:
        done()


async def play(metrics: Metrics, matches: int, folder: Path) -> tuple[float, int]:
    """CPU seconds and actions for ``matches`` all-bot MCR matches."""
    config = ServerConfig(bot_delay=0.0, between_hands=0.0, timers={})
    store = SqliteStore(folder / f"cost-{id(metrics)}-{time.monotonic_ns()}.sqlite3")
    manager = RoomManager(config, store, metrics)
    start = time.process_time()
    rooms = []
    for n in range(matches):
        room = manager.create("mcr", bots=4, bot_level=0, options={"rounds": 1},
                              seed=f"cost/{n}")
        watcher = Watcher()

        def watch(table: Table, now: float, room: Any = room, watcher: Watcher = watcher
                  ) -> tuple[None, list[Effect]]:
            room.watchers.add(watcher)
            return None, []

        await room.call(watch)
        rooms.append(room)
    while any(room.table.phase != FINISHED for room in rooms):
        await asyncio.sleep(0.01)
    spent = time.process_time() - start
    actions = sum(  # the record chain's entries of kind action (one per accepted action)
        e.entry.kind == "action" for room in rooms for e in store.entries(room.room_id)
    )
    await manager.shutdown()
    store.close()
    return spent, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=6, help="matches per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="measurements of each kind")
    args = parser.parse_args()
    costs: dict[str, list[float]] = {"with metrics": [], "without": []}
    with tempfile.TemporaryDirectory(prefix="paiju-metrics-") as tmp:
        for n in range(args.rounds):
            for name, metrics in (("with metrics", Metrics()), ("without", NoMetrics())):
                spent, actions = asyncio.run(play(metrics, args.matches, Path(tmp)))
                costs[name].append(spent / actions * 1e6)
                print(f"{n + 1:>2} {name:<13} {actions:>6} actions  "
                      f"{spent / actions * 1e6:7.1f} us CPU/action", flush=True)
    with_, without = (statistics.median(costs[k]) for k in ("with metrics", "without"))
    paired = statistics.median(a - b for a, b in zip(costs["with metrics"], costs["without"],
                                                     strict=True))
    print(f"median: {with_:.1f} us/action with metrics, {without:.1f} without; "
          f"paired difference {paired:+.1f} us ({paired / without:+.1%})")


if __name__ == "__main__":
    main()
