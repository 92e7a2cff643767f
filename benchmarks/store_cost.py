"""CPU of the SQLite store's writes and restore reads, this checkout's ``SqliteStore`` beside
another checkout's (``--old``), in one process, run by run in turn.

    .venv/bin/python benchmarks/store_cost.py --old /work/main/src

The writes are the ones MCR tables make: a short game of ``--tables`` rooms is played once
(``room_cost.py``'s, on this checkout) and every ``append_many`` it made is recorded; each
run replays them, ``--copies`` times over with the rooms renamed (a larger file, as a busy
server's), into a new database and times them with ``time.process_time``. Then it reads
every room as a restore does (``restore_entries``) on a new connection. The old module is
loaded from its file under another name; it shares the rest of this checkout's package.
Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import importlib.util
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

Call = tuple[str, Sequence[Any]]


def recorded(tables: int, actions: int) -> list[Call]:
    """The ``append_many`` calls of a short MCR game on this checkout's store."""
    import room_cost  # type: ignore[import-not-found]
    import structlog

    import paiju.persistence.sqlite as sqlite

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    calls: list[Call] = []
    original = sqlite.SqliteStore

    class Recording(original):  # type: ignore[misc, valid-type]
        def append(self, room_id: str, record: Any, entry: Any, deadlines: Any) -> None:
            self.append_many(room_id, [(record, entry, deadlines)])

        def append_many(self, room_id: str, items: Sequence[Any]) -> None:
            calls.append((room_id, list(items)))
            super().append_many(room_id, items)

    sqlite.SqliteStore = Recording  # type: ignore[misc]
    try:
        with tempfile.TemporaryDirectory(prefix="paiju-store-cost-") as tmp:
            asyncio.run(room_cost.play(tables, actions, 0.0, Path(tmp)))
    finally:
        sqlite.SqliteStore = original  # type: ignore[misc]
    return calls


def renamed(calls: list[Call], copies: int) -> list[Call]:
    """The calls ``copies`` times over, interleaved, each copy's rooms renamed."""
    out: list[Call] = []
    for room_id, items in calls:
        for c in range(copies):
            name = f"{room_id}{c:03d}"
            fixed = []
            for record, entry, deadlines in items:
                if hasattr(record, "room"):
                    record = dataclasses.replace(record, room=name)
                fixed.append((record, entry, deadlines))
            out.append((name, fixed))
    return out


def load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def kind(items: Sequence[Any]) -> str:
    return "+".join(type(record).__name__.removesuffix("Record") for record, _, _ in items)


def one_run(modules: dict[str, ModuleType], calls: list[Call], folder: Path
            ) -> dict[str, dict[str, float]]:
    """µs of CPU per call of each kind, then per restored room, of each module: the stores
    take each call in turn (which goes first alternates), so that both see the same
    machine."""
    paths = {name: folder / f"{name}-{time.monotonic_ns()}.sqlite3" for name in modules}
    stores = {name: modules[name].SqliteStore(paths[name]) for name in modules}
    spent: dict[str, dict[str, float]] = {name: defaultdict(float) for name in modules}
    count: dict[str, int] = defaultdict(int)
    clock = time.process_time
    names = list(modules)
    for i, (room_id, items) in enumerate(calls):
        k = kind(items)
        count[k] += 1
        for name in names if i % 2 else reversed(names):
            start = clock()
            stores[name].append_many(room_id, items)
            spent[name][k] += clock() - start
    rooms = sorted({room_id for room_id, _ in calls})
    figures: dict[str, dict[str, float]] = {}
    for name in names:
        stores[name].close()
        figures[name] = {k: 1e6 * spent[name][k] / count[k] for k in count}
        figures[name]["all writes, per call"] = 1e6 * sum(spent[name].values()) / len(calls)
    stores = {name: modules[name].SqliteStore(paths[name]) for name in modules}
    read: dict[str, float] = defaultdict(float)
    for i, room_id in enumerate(rooms):
        for name in names if i % 2 else reversed(names):
            start = clock()
            stores[name].restore_entries(room_id)
            read[name] += clock() - start
    for name in names:
        stores[name].close()
        figures[name]["restore_entries, per room"] = 1e6 * read[name] / len(rooms)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--old", default="/work/main/src", help="the other checkout's src")
    args = parser.parse_args()
    calls = renamed(recorded(args.tables, args.actions), args.copies)
    modules = {
        "this": load(ROOT / "src/paiju/persistence/sqlite.py", "store_cost_this"),
        "old": load(Path(args.old) / "paiju/persistence/sqlite.py", "store_cost_old"),
    }
    counts: dict[str, int] = defaultdict(int)
    for _, items in calls:
        counts[kind(items)] += 1
    print(f"{len(calls)} calls: " + ", ".join(f"{k} {n}" for k, n in counts.items()))
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in modules}
    with tempfile.TemporaryDirectory(prefix="paiju-store-cost-") as tmp:
        for n in range(args.runs):
            figures = one_run(modules, calls, Path(tmp))
            for name in modules:
                runs[name].append(figures[name])
            print(f"run {n + 1}: " + "  ".join(
                f"{name} {runs[name][-1]['all writes, per call']:.1f}" for name in modules),
                flush=True)
    print(f"{'median µs CPU':32s} {'this':>9s} {'old':>9s} {'this/old':>9s}")
    for key in runs["this"][0]:
        this = statistics.median(r[key] for r in runs["this"])
        old = statistics.median(r.get(key, float("nan")) for r in runs["old"])
        print(f"{key:32s} {this:9.1f} {old:9.1f} {this / old:9.2f}")


if __name__ == "__main__":
    main()
