"""When the garbage collector runs while the server serves.

A full (generation 2) collection walks every object the server holds: with a thousand tables
that is hundreds of milliseconds during which no table moves, and Python starts one whenever
enough objects have survived the young collections. The policy here takes those away:

* automatic full collections are off (the young generations still collect automatically);
* every ``tick`` seconds the young generations are collected and what survived is frozen
  (``gc.freeze``), so that the next young collections walk only what is new;
* a thaw (``gc.unfreeze``, a full collection, ``gc.freeze``) reclaims the cycles that were
  frozen in passing, only once the memory in use has grown by ``growth`` times since the last
  one and at least ``spacing`` seconds after it: the one long pause is rare, and memory stays
  within a bounded factor of what is live.

The policy (``CollectorPolicy``) is plain arithmetic on a clock and a memory reading, so it is
tested without sleeping; ``Collector`` runs it on the event loop.
"""

from __future__ import annotations

import asyncio
import gc
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

#: Seconds between two young collections with their freeze.
TICK = 1.0
#: How much the memory in use must grow since the last thaw before the next one.
GROWTH = 1.5
#: The least seconds between two thaws.
SPACING = 60.0
#: The full-collection threshold meaning "never by itself" (the young thresholds are kept).
NEVER = 2**30

Step = Literal["young", "thaw"]


@dataclass
class CollectorPolicy:
    """Which collection is due at ``now`` with ``memory`` in use (any unit that grows with
    what the process holds: ``sys.getallocatedblocks`` in the server)."""

    growth: float = GROWTH
    spacing: float = SPACING
    thawed_at: float = 0.0
    memory_at_thaw: int = 0

    def settled(self, now: float, memory: int) -> None:
        """A full collection has just run (at start, or a thaw): measure growth from here."""
        self.thawed_at, self.memory_at_thaw = now, memory

    def step(self, now: float, memory: int) -> Step:
        """``thaw`` when memory grew enough since the last full collection and that was long
        enough ago, ``young`` otherwise."""
        grown = memory >= self.growth * max(1, self.memory_at_thaw)
        if grown and now - self.thawed_at >= self.spacing:
            return "thaw"
        return "young"


def young() -> None:
    """Collect the young generations, freeze the survivors."""
    gc.collect(1)
    gc.freeze()


def thaw() -> None:
    """Collect everything, frozen objects included, and freeze what is left."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


class Collector:
    """Runs ``CollectorPolicy`` every ``tick`` seconds on the running loop from ``start`` to
    ``stop``; ``stop`` gives the collector back its automatic full collections."""

    def __init__(
        self,
        policy: CollectorPolicy | None = None,
        tick: float = TICK,
        memory: Callable[[], int] = sys.getallocatedblocks,
    ) -> None:
        self.policy = policy or CollectorPolicy()
        self.tick = tick
        self.memory = memory
        self.thaws = 0
        self._task: asyncio.Task[None] | None = None
        self._thresholds = gc.get_threshold()

    def start(self) -> None:
        """Collect and freeze everything now (the restored rooms), then keep to the policy."""
        loop = asyncio.get_running_loop()
        self._thresholds = gc.get_threshold()
        gc.set_threshold(self._thresholds[0], self._thresholds[1], NEVER)
        thaw()
        self.policy.settled(loop.time(), self.memory())
        self._task = loop.create_task(self._run())

    def run_once(self, now: float) -> Step:
        """Carry out the collection due at ``now``; says which it was."""
        memory = self.memory()
        due = self.policy.step(now, memory)
        if due == "thaw":
            thaw()
            self.thaws += 1
            self.policy.settled(now, self.memory())
        else:
            young()
        return due

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.tick)
            self.run_once(loop.time())

    def stop(self) -> None:
        """Stop the ticks; frozen objects are left to the next full collection."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        gc.set_threshold(*self._thresholds)
        gc.unfreeze()
