"""A cluster node's round loop stops when it is cancelled, even when the Redis client turns
the cancellation of a call in flight into an error of its own or swallows it."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from paiju.server.cluster import Cluster


def node(step: Any) -> Any:
    log = SimpleNamespace(warning=lambda *a, **k: None)
    return SimpleNamespace(step=step, log=log, ttl=0.03)


@pytest.mark.parametrize("swallow", ["as_error", "silently"])
async def test_a_cancelled_round_ends_the_loop(swallow: str) -> None:
    started = asyncio.Event()

    async def step() -> None:
        started.set()
        try:
            await asyncio.sleep(10)  # a Redis call in flight
        except asyncio.CancelledError:
            if swallow == "as_error":
                raise ConnectionError("Connection closed by server.") from None

    loop_task = asyncio.get_running_loop().create_task(Cluster._loop(node(step)))
    await started.wait()
    loop_task.cancel()
    done, _ = await asyncio.wait({loop_task}, timeout=2)
    assert loop_task in done and loop_task.cancelled()


async def test_a_failed_round_is_logged_and_the_loop_goes_on() -> None:
    rounds: list[int] = []

    async def step() -> None:
        rounds.append(1)
        raise ConnectionError("Redis is away")

    loop_task = asyncio.get_running_loop().create_task(Cluster._loop(node(step)))
    while len(rounds) < 3:
        await asyncio.sleep(0.01)
    loop_task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await loop_task
