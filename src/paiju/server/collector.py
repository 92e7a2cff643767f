"""When the garbage collector runs while the server serves.

A full (generation 2) collection walks every object the server holds: with a thousand tables
that is hundreds of milliseconds during which no table moves, and Python starts one whenever
enough objects have survived the young collections. The policy here takes those away:

* automatic collections are off, of every generation;
* every ``tick`` seconds (a tenth of a second) what is new is frozen (``gc.freeze``), so that
  no collection walks it again (by a generation-1 collection: with a tick of a second those
  took some 14-35 ms each, 5 a second, at 1,500 MCR tables, for the table states and views
  that live until their table's next action). Every ``walk_every``-th tick first collects the
  youngest generation, what is new since the last tick: playing makes next to no cyclic
  garbage (see below), so most walks of what is new find none, and each cost some 2-3 ms at
  1,500 MCR tables, 10 a second, ~4% of the server's CPU, for nothing. A walk that finds
  garbage is a sign of a source of it: the ticks then walk every time until one finds none.
  A cycle frozen before it became garbage (or, between walks, as garbage) is frozen with
  the rest; the thaw below is what reclaims such garbage;
* a thaw (``gc.unfreeze``, a full collection, ``gc.freeze``) reclaims the cycles that were
  frozen in passing, only once there is evidence of such garbage: memory in use beyond
  ``growth`` times what the rooms and connections now held explain, at least ``spacing``
  seconds after the last thaw. The one long pause is rare, and memory stays within a
  bounded factor of what is live.

What is live is estimated from what the server holds (``held``: rooms in memory and
connections), not from memory alone. Playing makes almost no cyclic garbage (a census of a
loaded server, benchmarks/gc_census.py, finds none per action); a closed connection
leaves some (the websockets connection's own cycles). So memory that grows as rooms and
connections are added is live, and a thaw then would walk the whole heap for nothing (at a
thousand MCR tables, some 700 ms of pause while tables were being added). Memory that grows
while what is held does not is garbage (or per-room state that grew: a thaw then resets the
measure).

Each thaw measures the memory a held room or connection costs (``per_held``): memory above
the server's ``base`` (what it used holding nothing) divided by what is held. Until one has
been measured, the raw growth since the last thaw is the evidence, and the first thaw that can
measure it (something is held) does not wait for ``spacing``: it is due while the server holds
little, so it is short.

A thaw that reclaims little of the growth that set it off (under ``PRODUCTIVE`` of it) shows
that the growth was live after all: rooms whose own state grows during a match (a shengji
room's memos and played tricks), which the cost per held room measured earlier did not count.
Each such thaw in a row doubles the growth allowed before the next (``growth`` 1.5 allows
half again, then once again, twice, four times; at most ``MAX_MISSES`` doublings), so live
growth does not set off one whole-heap walk after another (1.2 s each at 1,500 shengji
tables); a thaw that does reclaim resets the allowance. Memory stays within a bounded factor
of what is live (``1 + (growth - 1) * 2 ** MAX_MISSES``, 9 with the defaults).

The policy (``CollectorPolicy``) is plain arithmetic on a clock, a memory reading and a count
of what is held, so it is tested without sleeping; ``Collector`` runs it on the event loop.
"""

from __future__ import annotations

import asyncio
import gc
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

#: Seconds between two freezes of what is new: short enough that a walk of it (every
#: ``WALK_EVERY``-th tick) is short.
TICK = 0.1
#: One tick in this many collects the youngest generation before it freezes (every one,
#: while those walks find garbage).
WALK_EVERY = 10
#: How much the memory in use may exceed what is held explains before a thaw.
GROWTH = 1.5
#: The least seconds between two thaws.
SPACING = 60.0
#: A thaw that reclaims less than this share of the memory beyond what was explained (the
#: growth that set it off) found the growth live: the next one waits for more growth.
PRODUCTIVE = 0.1
#: The most doublings of the allowed growth after thaws that reclaimed little.
MAX_MISSES = 4
#: The threshold meaning "never by itself" (of generations 1 and 2; generation 0's is kept).
NEVER = 2**30

Step = Literal["young", "thaw"]


def nothing_held() -> int:
    """``held`` for a host that does not count what it holds: raw growth is the evidence."""
    return 0


@dataclass
class CollectorPolicy:
    """Which collection is due at ``now`` with ``memory`` in use (any unit that grows with
    what the process holds: ``sys.getallocatedblocks`` in the server) while ``held`` rooms
    and connections are held."""

    growth: float = GROWTH
    spacing: float = SPACING
    thawed_at: float = 0.0
    memory_at_thaw: int = 0
    held_at_thaw: int = 0
    #: Memory in use holding nothing (the first reading: the server before any room).
    base: int | None = None
    #: Memory one held room or connection costs, measured at the last thaw that held some.
    per_held: float | None = None
    #: Thaws in a row that reclaimed little (each doubles the growth allowed, up to
    #: ``MAX_MISSES``).
    misses: int = 0

    def allowance(self) -> float:
        """How many times what is explained memory may reach before a thaw."""
        return 1.0 + (self.growth - 1.0) * float(1 << self.misses)

    def settled(self, now: float, memory: int, held: int = 0, before: int | None = None) -> None:
        """A full collection has just run (at start, or a thaw that began with ``before`` in
        use): what is in use now is live; measure from here."""
        if before is not None:
            self._judge(before, memory, held)
        if self.base is None:
            self.base = memory if held == 0 else 0
        if held > 0:
            self.per_held = max(0, memory - self.base) / held
        self.thawed_at, self.memory_at_thaw, self.held_at_thaw = now, memory, held

    def _judge(self, before: int, after: int, held: int) -> None:
        """Whether the thaw that took memory from ``before`` to ``after`` found garbage in the
        growth that set it off; a run of ones that did not widens the allowance."""
        beyond = before - self.expected(held)
        if beyond <= 0:
            return  # not set off by growth (the first measure): nothing to judge
        if before - after < PRODUCTIVE * beyond:
            self.misses = min(self.misses + 1, MAX_MISSES)
        else:
            self.misses = 0

    def expected(self, held: int) -> float:
        """The memory live data may use with ``held`` rooms and connections: what was live at
        the last thaw, plus the cost of each one held since (none less: what left freed its
        memory already, unless it was garbage)."""
        added = max(0, held - self.held_at_thaw)
        return self.memory_at_thaw + (self.per_held or 0.0) * added

    def step(self, now: float, memory: int, held: int = 0) -> Step:
        """``thaw`` when memory exceeds the allowance (``growth``, widened after thaws that
        reclaimed little) times what the held rooms and connections explain and the last
        thaw was long enough ago (or it is the first to measure a held one's cost), ``young``
        otherwise."""
        if memory < self.allowance() * max(1.0, self.expected(held)):
            return "young"
        measuring = self.per_held is None and held > 0
        if measuring or now - self.thawed_at >= self.spacing:
            return "thaw"
        return "young"


def young() -> int:
    """Collect the youngest generation (what is new since the last freeze), freeze the
    survivors; the number of unreachable objects found."""
    found = gc.collect(0)
    gc.freeze()
    return found


def freeze_unwalked() -> None:
    """Freeze what is new without a walk (a tick between walks)."""
    gc.freeze()


def thaw() -> None:
    """Collect everything, frozen objects included, and freeze what is left."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


class Collector:
    """Runs ``CollectorPolicy`` every ``tick`` seconds on the running loop from ``start`` to
    ``stop``; ``stop`` gives the collector back its automatic collections. ``held`` counts
    the rooms and connections the host holds (see the module's note). One tick in
    ``walk_every`` walks what is new (every tick while the walks find garbage)."""

    def __init__(
        self,
        policy: CollectorPolicy | None = None,
        tick: float = TICK,
        memory: Callable[[], int] = sys.getallocatedblocks,
        held: Callable[[], int] = nothing_held,
        walk_every: int = WALK_EVERY,
    ) -> None:
        self.policy = policy or CollectorPolicy()
        self.tick = tick
        self.memory = memory
        self.held = held
        self.walk_every = walk_every
        self.thaws = 0
        self._unwalked = 0  # ticks until the next walk
        self._task: asyncio.Task[None] | None = None
        self._thresholds = gc.get_threshold()

    def start(self, base: int | None = None) -> None:
        """Freeze everything now (the restored rooms), then keep to the policy. ``base``:
        the memory reading before the host held anything (taken now otherwise).

        No collection first: a restore makes next to no cyclic garbage (a few dozen objects
        for 1,000 rooms), and a full collection here, once the port is open, held the first
        resumes back by some 0.1 s."""
        loop = asyncio.get_running_loop()
        self._thresholds = gc.get_threshold()
        gc.set_threshold(NEVER, NEVER, NEVER)
        gc.freeze()
        if base is not None:
            self.policy.base = base
        self.policy.settled(loop.time(), self.memory(), self.held())
        self._task = loop.create_task(self._run())

    def run_once(self, now: float) -> Step:
        """Carry out the collection due at ``now``; says which it was (``young``: a freeze,
        with or without a walk of what is new)."""
        before = self.memory()
        due = self.policy.step(now, before, self.held())
        if due == "thaw":
            thaw()
            self.thaws += 1
            self.policy.settled(now, self.memory(), self.held(), before)
        elif self._unwalked > 0:
            self._unwalked -= 1
            freeze_unwalked()
        else:
            self._unwalked = 0 if young() else self.walk_every - 1
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


@contextmanager
def collector_paused() -> Iterator[None]:
    """The garbage collector off while the block runs, as it was after. For a block that
    makes what lives on (loading modules, reading the settings, restoring rooms, starting
    the server): the collections it would set off walk all that was made so far for
    nothing (60 ms of a restart's 0.6 s before its port opens)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
