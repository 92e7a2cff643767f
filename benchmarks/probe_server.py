"""``paiju serve`` with probes, for the load benchmarks: pinned to a core, and writing the
garbage collector's pauses and the event loop's lag to a file once a second.

    python benchmarks/probe_server.py STATS_FILE CPU -- serve --config ... --port ...

Each line of STATS_FILE is a JSON object: ``t`` (monotonic seconds), ``gc`` (pauses since
the last line: ``[generation, seconds]``) and ``lag`` (event-loop lag samples in seconds,
each the overshoot of a 50 ms sleep). The probes cost little: one callback per collection and
one timer every 50 ms.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import threading
import time
from collections.abc import Coroutine
from typing import Any

PAUSES: list[list[float]] = []
LAGS: list[float] = []
_started: dict[int, float] = {}


def _on_gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _started[info["generation"]] = time.perf_counter()
    elif info["generation"] in _started:
        began = _started.pop(info["generation"])
        PAUSES.append([info["generation"], time.perf_counter() - began])


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
    def run(main: Coroutine[Any, Any, Any], **kwargs: Any) -> Any:
        async def probed() -> Any:
            probe = asyncio.create_task(_lag_probe())
            try:
                return await main
            finally:
                probe.cancel()

        return original(probed(), **kwargs)

    return run


def main() -> int:
    stats, cpu, separator, *argv = sys.argv[1:]
    assert separator == "--", "usage: probe_server.py STATS_FILE CPU -- paiju args..."
    if cpu != "-":
        os.sched_setaffinity(0, {int(cpu)})
    gc.callbacks.append(_on_gc)
    threading.Thread(target=_writer, args=(stats,), daemon=True).start()
    asyncio.run = _patched_run(asyncio.run)  # type: ignore[method-assign]
    from paiju.cli.__main__ import main as paiju_main

    return paiju_main(argv)


if __name__ == "__main__":
    sys.exit(main())
