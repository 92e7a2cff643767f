"""The collector policy of ``paiju serve``: young collections with a freeze every tick, a
full collection (a thaw) only once memory outgrew what the rooms and connections held explain,
and long enough after the last one."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from paiju.server.app import PaijuServer
from paiju.server.collector import NEVER, Collector, CollectorPolicy
from tests.server.client import Client


class Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture(autouse=True)
def thawed() -> Iterator[None]:
    """Each test starts and ends with nothing frozen and the thresholds it found."""
    thresholds = gc.get_threshold()
    gc.unfreeze()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_a_thaw_needs_both_growth_and_spacing() -> None:
    policy = CollectorPolicy(growth=1.5, spacing=60.0)
    policy.settled(now=100.0, memory=1000)
    assert policy.step(now=101.0, memory=1000) == "young"
    assert policy.step(now=101.0, memory=5000) == "young"  # grown, but too soon
    assert policy.step(now=200.0, memory=1499) == "young"  # long enough, not grown enough
    assert policy.step(now=160.0, memory=1500) == "thaw"


def test_growth_is_measured_from_the_last_thaw() -> None:
    policy = CollectorPolicy(growth=1.5, spacing=60.0)
    policy.settled(now=0.0, memory=1000)
    assert policy.step(now=60.0, memory=2000) == "thaw"
    policy.settled(now=60.0, memory=2000)
    assert policy.step(now=500.0, memory=2900) == "young"
    assert policy.step(now=500.0, memory=3000) == "thaw"


def test_memory_that_grows_with_what_is_held_is_live_not_garbage() -> None:
    policy = CollectorPolicy(growth=1.5, spacing=60.0, base=1000)
    policy.settled(now=0.0, memory=3000, held=100)  # 20 per room or connection
    assert policy.per_held == 20
    # Ten times the tables an hour later: memory grew as much as they cost, no thaw.
    assert policy.step(now=3600.0, memory=3000 + 20 * 900, held=1000) == "young"
    assert policy.step(now=3600.0, memory=int(1.5 * (3000 + 20 * 900)) - 1, held=1000) == "young"
    assert policy.step(now=3600.0, memory=int(1.5 * (3000 + 20 * 900)), held=1000) == "thaw"


def test_memory_that_grows_while_what_is_held_does_not_is_garbage() -> None:
    policy = CollectorPolicy(growth=1.5, spacing=60.0, base=1000)
    policy.settled(now=0.0, memory=3000, held=100)
    assert policy.step(now=61.0, memory=4499, held=100) == "young"
    assert policy.step(now=61.0, memory=4500, held=100) == "thaw"
    assert policy.step(now=59.0, memory=4500, held=100) == "young"  # too soon after the last
    # Fewer held (rooms closed, players left) explains no more memory than before.
    assert policy.step(now=61.0, memory=4500, held=10) == "thaw"


def test_the_first_thaw_that_can_measure_a_held_ones_cost_does_not_wait() -> None:
    policy = CollectorPolicy(growth=1.5, spacing=60.0)
    policy.settled(now=0.0, memory=1000, held=0)  # a fresh server: its base
    assert policy.base == 1000 and policy.per_held is None
    assert policy.step(now=1.0, memory=1499, held=40) == "young"
    assert policy.step(now=1.0, memory=1500, held=40) == "thaw"  # tables added quickly
    policy.settled(now=1.0, memory=1400, held=40)
    assert policy.per_held == 10
    assert policy.step(now=2.0, memory=5000, held=40) == "young"  # measured: spacing holds
    assert policy.step(now=61.0, memory=1400 + 10 * 400, held=440) == "young"


def test_without_a_count_of_what_is_held_raw_growth_is_the_evidence() -> None:
    policy = CollectorPolicy(growth=1.5, spacing=60.0)
    policy.settled(now=0.0, memory=1000)
    assert policy.step(now=1.0, memory=1500) == "young"  # nothing to measure: spacing holds
    assert policy.step(now=60.0, memory=1500) == "thaw"
    policy.settled(now=60.0, memory=1200)
    assert policy.base == 1000 and policy.per_held is None


def test_thaws_that_reclaim_little_widen_the_growth_allowed_until_one_reclaims() -> None:
    """Rooms whose state grows during a match look like garbage to the cost per held room
    measured before; a thaw that finds the growth live doubles the allowance for the next."""
    policy = CollectorPolicy(growth=1.5, spacing=60.0, base=1000)
    policy.settled(now=0.0, memory=3000, held=100)
    assert policy.step(now=61.0, memory=4500, held=100) == "thaw"
    policy.settled(now=61.0, memory=4400, held=100, before=4500)  # 100 of 1,500 beyond: live
    assert policy.misses == 1 and policy.allowance() == 2.0
    assert policy.step(now=200.0, memory=8799, held=100) == "young"  # 1.5 x 4,400 passed
    assert policy.step(now=200.0, memory=8800, held=100) == "thaw"
    policy.settled(now=200.0, memory=8800, held=100, before=8800)
    assert policy.misses == 2 and policy.allowance() == 3.0
    for n in range(5):  # live growth each time: nothing reclaimed
        grown = 2 * policy.memory_at_thaw
        policy.settled(now=300.0 + n, memory=grown, held=100, before=grown)
    assert policy.misses == 4 and policy.allowance() == 9.0  # at most MAX_MISSES doublings
    # A thaw not set off by growth judges nothing; one that reclaims resets the allowance.
    policy.settled(now=400.0, memory=policy.memory_at_thaw, held=100, before=1000)
    assert policy.misses == 4
    policy.settled(now=500.0, memory=9000, held=100, before=3 * policy.memory_at_thaw)
    assert policy.misses == 0 and policy.allowance() == 1.5


def test_a_thaw_that_reclaims_a_tenth_of_the_growth_counts_as_finding_garbage() -> None:
    policy = CollectorPolicy(growth=1.5, spacing=60.0, base=1000)
    policy.settled(now=0.0, memory=2000, held=100)
    policy.settled(now=61.0, memory=2900, held=100, before=3000)  # 100 of the 1,000 beyond
    assert policy.misses == 0
    policy.settled(now=122.0, memory=2900 + 1450 - 144, held=100, before=2900 + 1450)
    assert policy.misses == 1  # 144 of the 1,450 beyond: under a tenth


def test_a_thaw_tells_the_policy_what_it_reclaimed() -> None:
    reading = [1000]
    collector = Collector(memory=lambda: reading[0], held=lambda: 10)
    collector.policy.base = 0
    collector.policy.settled(now=0.0, memory=1000, held=10)
    reading[0] = 2000  # live growth: the reading stays where it is after the thaw
    assert collector.run_once(61.0) == "thaw"
    assert collector.policy.misses == 1 and collector.policy.memory_at_thaw == 2000


def settled(memory: list[int]) -> Collector:
    """A collector whose memory reading is ``memory[0]``, a full collection just behind it."""
    collector = Collector(memory=lambda: memory[0])
    collector.policy.settled(now=0.0, memory=memory[0])
    return collector


def test_a_tick_freezes_what_survived_and_collects_young_garbage() -> None:
    memory = [1000]
    collector = settled(memory)
    garbage = Cycle()
    gone = weakref.ref(garbage)
    del garbage
    kept = {"tables": [object() for _ in range(3)]}
    assert collector.run_once(now=1.0) == "young"
    assert gone() is None
    assert gc.get_freeze_count() > 0
    assert all(o is not kept for o in gc.get_objects())  # frozen: out of the walks


def test_a_tick_walks_only_the_youngest_generation() -> None:
    """What survived the youngest collections since the last tick is frozen unwalked: the
    interpreter's generation-1 collections walked every such survivor once more (table states
    and views living until their table's next action), some 9% of a loaded server's time."""
    collector = settled([1000])
    walked: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            walked.append(info["generation"])

    gc.callbacks.append(note)
    try:
        assert collector.run_once(now=1.0) == "young"
    finally:
        gc.callbacks.remove(note)
    assert walked == [0]
    assert gc.get_count() == (0, 0, 0)  # no generation-1 collection is owed after a tick


def walks_of(collector: Collector, ticks: int, garbage: bool = False) -> list[bool]:
    """Whether each of ``ticks`` ticks walked what is new (with a cycle of garbage made
    before each one, with ``garbage``)."""
    walked: list[bool] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            walked[-1] = True

    gc.callbacks.append(note)
    try:
        for n in range(ticks):
            if garbage:
                Cycle()
            walked.append(False)
            assert collector.run_once(now=1.0 + n) == "young"
    finally:
        gc.callbacks.remove(note)
    return walked


def test_a_walk_that_finds_no_garbage_is_followed_by_ticks_that_only_freeze() -> None:
    """Playing makes next to no cyclic garbage: most ticks freeze what is new unwalked."""
    collector = Collector(CollectorPolicy(base=0), memory=lambda: 1000, walk_every=4)
    collector.policy.settled(now=0.0, memory=1000)
    gc.collect()
    assert walks_of(collector, 8) == [True, False, False, False, True, False, False, False]
    kept = {"tables": [object()]}
    assert walks_of(collector, 1) == [True]
    kept_too = {"tables": [object()]}
    assert walks_of(collector, 1) == [False]
    # what is new is frozen all the same, walked or not: out of later walks
    assert all(o is not kept and o is not kept_too for o in gc.get_objects())


def test_while_walks_find_garbage_every_tick_walks() -> None:
    collector = Collector(CollectorPolicy(base=0), memory=lambda: 1000, walk_every=4)
    collector.policy.settled(now=0.0, memory=1000)
    gc.collect()
    assert walks_of(collector, 3, garbage=True) == [True, True, True]
    assert walks_of(collector, 3) == [True, False, False]  # the first to find none


def test_garbage_made_between_walks_is_frozen_until_a_thaw() -> None:
    memory = [1000]
    collector = Collector(CollectorPolicy(base=0), memory=lambda: memory[0], walk_every=4)
    collector.policy.settled(now=0.0, memory=memory[0])
    gc.collect()
    assert collector.run_once(now=1.0) == "young"  # a walk, finding nothing
    garbage = Cycle()
    gone = weakref.ref(garbage)
    del garbage
    assert collector.run_once(now=2.0) == "young"  # frozen unwalked
    assert gone() is not None
    memory[0] = 1600
    assert collector.run_once(now=61.0) == "thaw"
    assert gone() is None


def test_a_thaw_reclaims_cycles_that_were_frozen_alive() -> None:
    memory = [1000]
    collector = settled(memory)
    left = Cycle()
    gone = weakref.ref(left)
    assert collector.run_once(now=1.0) == "young"  # frozen while still in use
    del left
    assert collector.run_once(now=2.0) == "young"
    assert gone() is not None  # out of sight of young collections
    memory[0] = 1600
    assert collector.run_once(now=61.0) == "thaw"
    assert gone() is None
    assert collector.thaws == 1
    assert gc.get_freeze_count() > 0  # what is left is frozen again
    assert collector.run_once(now=130.0) == "young"  # no growth since the thaw


def test_a_tick_reads_what_the_host_holds() -> None:
    memory, held = [1000], [0]
    collector = Collector(CollectorPolicy(base=0), memory=lambda: memory[0], held=lambda: held[0])
    collector.policy.settled(now=0.0, memory=1000, held=100)  # 10 per one held
    memory[0], held[0] = 1000 + 10 * 900, 1000
    assert collector.run_once(now=100.0) == "young"
    held[0] = 100
    assert collector.run_once(now=100.0) == "thaw"
    assert collector.policy.held_at_thaw == 100


async def test_while_running_no_collection_starts_by_itself() -> None:
    before = gc.get_threshold()
    ticks = [0]

    def reading() -> int:
        ticks[0] += 1
        return 1

    collector = Collector(tick=0.001, memory=reading)
    collector.start()
    try:
        # (what is new waits for the tick's freeze however late the loop runs it)
        assert gc.get_threshold() == (NEVER, NEVER, NEVER)
        async with asyncio.timeout(5):
            while ticks[0] < 3:  # the start's reading, then ticks
                await asyncio.sleep(0.001)
    finally:
        collector.stop()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


async def test_the_server_holds_its_rooms_and_player_connections(server: PaijuServer) -> None:
    assert server.held() == 0
    client = await Client.open(server.port)
    assert server.held() == 1
    await client.send({"type": "create_room", "name": "mei", "preset": "dragon"})
    await client.expect("joined")
    assert server.held() == 2
    await client.close()
    async with asyncio.timeout(5):
        while server.held() > 1:  # the room stays; the connection is gone once closed
            await asyncio.sleep(0.01)


async def test_the_start_freezes_what_is_held_without_a_collection() -> None:
    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    held: list[list[int]] = [[] for _ in range(10)]  # tracked containers
    gc.disable()  # only a collection the start makes itself can be counted
    gc.callbacks.append(count)
    collector = Collector(tick=3600.0)
    try:
        collector.start()
        assert collections == []
        assert gc.get_freeze_count() >= len(held)
    finally:
        gc.callbacks.remove(count)
        collector.stop()
        gc.enable()
