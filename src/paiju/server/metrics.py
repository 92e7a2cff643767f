"""Prometheus metrics of a running server (``prometheus-client``), each server on a registry of
its own: counters and histograms updated where things happen, gauges read from the live
server when scraped. docs/operations.md lists every series.

The counters and histograms are plain numbers (``Tally``, ``Spread``) exposed through
collectors of their own, with the series a prometheus_client metric would show; the hot paths
use label children resolved once (``Children``), not a lookup of their labels per call.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector
from prometheus_client.samples import Sample
from prometheus_client.utils import floatToGoString

__all__ = ["CONTENT_TYPE_LATEST", "Live", "LoopLag", "Metrics", "exposition"]

#: Latency buckets (seconds) for what a player waits on: an action until its state is out.
LATENCY_BUCKETS = (
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
)
#: Buckets for short pieces of work: a store write, a bot's decision.
WORK_BUCKETS = (
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1.0,
)
#: Seconds between two event-loop lag samples.
LAG_INTERVAL = 0.25

class Tally:
    """One counter, counted in a plain number. prometheus_client's own takes a lock per
    increment (a few per action, some 2% of the server's CPU); here the event loop's thread
    is the only one that counts or reads (a scrape is answered in the loop)."""

    __slots__ = ("created", "value")

    def __init__(self) -> None:
        self.value = 0.0
        self.created = time.time()

    def inc(self, amount: float = 1.0) -> None:
        """Count ``amount`` more."""
        self.value += amount


class Spread:
    """One histogram, counted in plain numbers (see ``Tally``)."""

    __slots__ = ("bounds", "counts", "created", "les", "sum")

    def __init__(self, bounds: tuple[float, ...], les: tuple[str, ...]) -> None:
        self.bounds = bounds  # ascending, the last one +Inf
        self.les = les  # the bounds as the buckets' ``le`` label shows them
        self.counts = [0] * len(bounds)
        self.sum = 0.0
        self.created = time.time()

    def observe(self, amount: float) -> None:
        """Count ``amount`` in the first bucket whose bound is not below it."""
        self.counts[bisect_left(self.bounds, amount)] += 1
        self.sum += amount


C = TypeVar("C", Tally, Spread)


class Children(Collector, Generic[C]):
    """One labelled series, its children by label values (each made once), exposed at each
    scrape with the names and samples a prometheus_client metric of its kind would have."""

    def __init__(
        self,
        make: Callable[[], C],
        family: Callable[[list[str]], Metric],
        labels: Sequence[str],
        registry: CollectorRegistry,
    ) -> None:
        self._make: Callable[[], C] = make
        self._family = family
        self._labels = list(labels)
        self._children: dict[tuple[str, ...], C] = {}
        if not self._labels:
            self._children[()] = make()
        registry.register(self)

    def __call__(self, *values: str) -> C:
        child = self._children.get(values)
        if child is None:
            if len(values) != len(self._labels):
                raise ValueError(f"expected labels {self._labels}, got {values}")
            child = self._children[values] = self._make()
        return child

    def collect(self) -> Iterable[Metric]:
        family = self._family(self._labels)
        for values, child in self._children.items():
            if isinstance(child, Tally):
                assert isinstance(family, CounterMetricFamily)
                family.add_metric(list(values), child.value, created=child.created)
            else:
                assert isinstance(family, HistogramMetricFamily)
                family.add_metric(list(values), _cumulative(child), child.sum)
                family.samples.append(Sample(
                    family.name + "_created", dict(zip(self._labels, values, strict=True)),
                    child.created,
                ))
        yield family


def _cumulative(spread: Spread) -> list[tuple[str, float]]:
    """The histogram's buckets as Prometheus shows them: each counts everything up to it."""
    total = 0.0
    buckets = []
    for le, count in zip(spread.les, spread.counts, strict=True):
        total += count
        buckets.append((le, total))
    return buckets


#: How prometheus_client writes a bucket's bound (``+Inf``, ``0.0005``).
_go_float = cast(Callable[[float], str], floatToGoString)


def counter(name: str, documentation: str, labels: Sequence[str],
            registry: CollectorRegistry) -> Children[Tally]:
    """A labelled counter (its samples are ``<name>_total`` and ``<name>_created``)."""
    return Children(
        Tally, lambda names: CounterMetricFamily(name, documentation, labels=names),
        labels, registry,
    )


def histogram(name: str, documentation: str, labels: Sequence[str], buckets: Sequence[float],
              registry: CollectorRegistry) -> Children[Spread]:
    """A labelled histogram with ``buckets`` (and +Inf)."""
    bounds = (*buckets, math.inf)
    les = tuple(_go_float(bound) for bound in bounds)
    return Children(
        lambda: Spread(bounds, les),
        lambda names: HistogramMetricFamily(name, documentation, labels=names),
        labels, registry,
    )


class Metrics:
    """Every metric a server updates. ``registry`` is what ``/metrics`` exposes."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        self.received = counter(
            "paiju_messages_received", "Client messages read, by type (invalid: did not parse)",
            ["type"], registry)
        self.sent = counter(
            "paiju_messages_sent", "Server messages queued for clients, by type (one per "
            "connection)", ["type"], registry)
        self.errors = counter(
            "paiju_errors", "Refusals sent to players and operators, by error code",
            ["code"], registry)
        self.actions = counter(
            "paiju_actions", "Actions accepted by the tables, by variant and source "
            "(player, bot, timeout, bot_fallback)", ["variant", "source"], registry)
        self.timeouts = counter(
            "paiju_timeouts", "Decisions a person's timer ran out on (the timeout action "
            "was played)", ["variant"], registry)
        self.connections = counter(
            "paiju_connections_opened", "Connections accepted, by kind (player, admin, http)",
            ["kind"], registry)
        self.action_latency = histogram(
            "paiju_action_latency_seconds", "From a player's act arriving to the last state "
            "it caused written to the players' connections", [], LATENCY_BUCKETS, registry)()
        self.bot_decision = histogram(
            "paiju_bot_decision_seconds", "Time a bot took to choose an action, by variant",
            ["variant"], WORK_BUCKETS, registry)
        self.store_write = histogram(
            "paiju_store_write_seconds", "Time of one write to the store, by record "
            "(action, hand, status, room)", ["record"], WORK_BUCKETS, registry)
        self.loop_lag = histogram(
            "paiju_event_loop_lag_seconds", "How late the event loop ran a timer that was "
            f"due (sampled every {LAG_INTERVAL} s)", [], WORK_BUCKETS, registry)()

    _detached: Metrics | None = None

    @classmethod
    def detached(cls) -> Metrics:
        """A process-wide instance nobody serves, for parts built without a server (tests)."""
        if cls._detached is None:
            cls._detached = cls()
        return cls._detached

    def watch(self, live: Live) -> None:
        """Expose the gauges ``live`` reads from the running server at each scrape."""
        self.registry.register(live)


def exposition(metrics: Metrics) -> bytes:
    """The text ``/metrics`` answers (Prometheus' format)."""
    return generate_latest(metrics.registry)


@dataclass(frozen=True)
class RoomFacts:
    """What the gauges read of one live room."""

    variant: str
    phase: str
    paused: bool
    seats: Iterable[tuple[str, bool]]  # (kind, connected) per seat
    trustees: int  # seats of a person in trustee mode (托管)


class Live(Collector):
    """Gauges read from the running server when scraped (in the event loop's thread)."""

    def __init__(
        self,
        connections: Callable[[], Mapping[str, int]],
        rooms: Callable[[], Iterable[RoomFacts]],
        draining: Callable[[], bool],
    ) -> None:
        self.connections = connections
        self.rooms = rooms
        self.draining = draining

    def collect(self) -> Iterable[Metric]:
        open_ = GaugeMetricFamily(
            "paiju_connections", "Open connections by kind (seated, spectator, lobby, admin)",
            labels=["kind"])
        for kind, count in sorted(self.connections().items()):
            open_.add_metric([kind], count)
        yield open_
        yield from self._rooms()
        yield GaugeMetricFamily(
            "paiju_draining", "1 while the server drains (no new rooms or seats)",
            value=1.0 if self.draining() else 0.0)

    def _rooms(self) -> Iterable[Metric]:
        rooms: dict[tuple[str, str], int] = {}
        seats: dict[tuple[str, str], int] = {}
        paused = trustees = 0
        for room in self.rooms():
            rooms[room.variant, room.phase] = rooms.get((room.variant, room.phase), 0) + 1
            paused += room.paused
            trustees += room.trustees
            for kind, connected in room.seats:
                key = (kind, "true" if connected else "false")
                seats[key] = seats.get(key, 0) + 1
        family = GaugeMetricFamily(
            "paiju_rooms", "Rooms in memory by variant and phase", labels=["variant", "phase"])
        for labels, count in sorted(rooms.items()):
            family.add_metric(list(labels), count)
        yield family
        seat_family = GaugeMetricFamily(
            "paiju_seats", "Seats of the rooms in memory by kind and connection",
            labels=["kind", "connected"])
        for labels, count in sorted(seats.items()):
            seat_family.add_metric(list(labels), count)
        yield seat_family
        yield GaugeMetricFamily(
            "paiju_trustee_seats", "Seats of a person in trustee mode (the variant's bot plays "
            "them: timeouts in a row, the player away, or an operator)", value=trustees)
        yield GaugeMetricFamily("paiju_rooms_paused", "Rooms an operator paused", value=paused)


class LoopLag:
    """Samples how late the event loop runs a timer, into ``metrics.loop_lag``."""

    def __init__(self, metrics: Metrics, interval: float = LAG_INTERVAL) -> None:
        self.metrics = metrics
        self.interval = interval
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="loop-lag")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + self.interval
            await asyncio.sleep(self.interval)
            self.metrics.loop_lag.observe(max(0.0, loop.time() - due))


class Countdown:
    """Calls ``done`` after ``count`` calls of ``tick`` (recipients that wrote their frames)."""

    def __init__(self, count: int, done: Callable[[], Any]) -> None:
        self.count = count
        self.done = done
        if count <= 0:
            done()

    def tick(self) -> None:
        self.count -= 1
        if self.count == 0:
            self.done()
