"""``paiju serve`` with probes, for the load benchmarks: pinned to a core, and writing the
garbage collector's pauses and the event loop's lag to a file once a second.

    python benchmarks/probe_server.py STATS_FILE CPU -- serve --config ... --port ...

Each line of STATS_FILE is a JSON object: ``t`` (monotonic seconds), ``gc`` (pauses since
the last line: ``[generation, seconds, CPU seconds]``, the pause and the thread's CPU time in
it, which time taken by other processes on the core does not inflate) and ``lag`` (event-loop
lag samples in seconds, each the overshoot of a 50 ms sleep). The probes cost little: one
callback per collection and one timer every 50 ms. With ``PROBE_GC_CENSUS=FILE`` in its
environment, SIGUSR1 counts the cyclic garbage the server makes (``_census``;
``benchmarks/gc_census.py``).
"""

from __future__ import annotations

import asyncio
import collections
import gc
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Coroutine
from typing import Any

PAUSES: list[list[float]] = []
LAGS: list[float] = []
_started: dict[int, tuple[float, float]] = {}


def _on_gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _started[info["generation"]] = (time.perf_counter(), time.thread_time())
    elif info["generation"] in _started:
        began, cpu = _started.pop(info["generation"])
        PAUSES.append(
            [info["generation"], time.perf_counter() - began, time.thread_time() - cpu]
        )


async def _lag_probe() -> None:
    while True:
        began = time.perf_counter()
        await asyncio.sleep(0.05)
        LAGS.append(max(0.0, time.perf_counter() - began - 0.05))


def _writer(path: str) -> None:
    with open(path, "a", encoding="utf-8") as out:
        while True:
            time.sleep(1.0)
            pauses, lags = PAUSES[:], LAGS[:]
            del PAUSES[: len(pauses)], LAGS[: len(lags)]
            out.write(json.dumps({"t": time.monotonic(), "gc": pauses, "lag": lags}) + "\n")
            out.flush()


def _patched_run(original: Any) -> Any:
    """``asyncio.Runner.run`` with the lag probe beside the server (``asyncio.run`` runs
    through it too, so a checkout of either kind is probed, on either loop)."""

    def run(self: asyncio.Runner, main: Coroutine[Any, Any, Any], **kwargs: Any) -> Any:
        async def probed() -> Any:
            probe = asyncio.create_task(_lag_probe())
            try:
                return await main
            finally:
                probe.cancel()

        return original(self, probed(), **kwargs)

    return run


def _census(path: str) -> Any:
    """The SIGUSR1 handler of ``PROBE_GC_CENSUS``: every signal collects everything (frozen
    objects too); the first starts keeping what collections reclaim (``gc.DEBUG_SAVEALL``),
    the next writes the count per type of what was reclaimed since to ``path`` (JSON), and
    so on in turn. The server's collector keeps its policy meanwhile."""
    counting = [False]

    def on_signal(signum: int, frame: Any) -> None:
        gc.unfreeze()
        gc.collect()
        found = collections.Counter(
            f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage
        )
        gc.garbage.clear()
        counting[0] = not counting[0]
        gc.set_debug(gc.DEBUG_SAVEALL if counting[0] else 0)
        gc.collect()
        gc.freeze()
        if not counting[0]:
            with open(path + ".tmp", "w", encoding="utf-8") as out:
                json.dump({"objects": sum(found.values()), "types": found.most_common(40)}, out)
            os.replace(path + ".tmp", path)

    return on_signal


def main() -> int:
    stats, cpu, separator, *argv = sys.argv[1:]
    assert separator == "--", "usage: probe_server.py STATS_FILE CPU -- paiju args..."
    if cpu != "-":
        os.sched_setaffinity(0, {int(cpu)})
    gc.callbacks.append(_on_gc)
    if os.environ.get("PROBE_GC_CENSUS"):
        signal.signal(signal.SIGUSR1, _census(os.environ["PROBE_GC_CENSUS"]))
    threading.Thread(target=_writer, args=(stats,), daemon=True).start()
    asyncio.Runner.run = _patched_run(asyncio.Runner.run)  # type: ignore[method-assign]
    from paiju.cli.__main__ import main as paiju_main

    return paiju_main(argv)


if __name__ == "__main__":
    sys.exit(main())
