"""The arena: a duplicate tournament between bots, in-process (``paiju arena``).

Players are paiju's bot levels (``2``), external programs speaking the JSON-lines protocol
(``cmd:python my_bot.py``), or Botzone MCR bots (``botzone:./bot``, ``botzone-simple:...``
for Botzone's simple I/O). There is one player per seat; a player named twice plays two
seats and is counted as one.

A **board** is one deal: a hand dealt as the first of a match (hand 0, no totals, nothing
carried) from the generator ``{seed}/{board}`` — the one a table with match seed ``{seed}``
would deal its hand number ``board`` from — so its cards depend on nothing the players do.
With ``duplicate`` every board is played once per rotation of the players over the seats
(player ``p`` sits at seat ``(p + r) mod n`` in rotation ``r``), so every player meets the
same cards in every seat and the luck of the deal cancels; without it board ``b`` is played
once, in rotation ``b mod n``. External programs see only their seat's views and events, as
over the bridge; an answer the rules refuse, a crash or a missed time is reported and the
variant's timeout action is played.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju.bots.drivers import DriverFactory
from paiju.bots.external import Decision, Reporter, SeatDriver
from paiju.bots.selfplay import Sample
from paiju.core.errors import GameError
from paiju.core.rng import SeededRng
from paiju.engines.base import Engine, Event, MatchInfo
from paiju.engines.bot import Bot
from paiju.engines.registry import get_variant

#: What an external player's failed answer leads to, in the arena's reports.
ARENA_FALLBACK = "the arena plays the variant's timeout action"
KINDS = {"cmd:": ("json", "json"), "botzone:": ("botzone", "json"),
         "botzone-simple:": ("botzone", "simple")}


@dataclass(frozen=True)
class PlayerSpec:
    """One ``--players`` entry: a bot level, or a program and its protocol."""

    label: str
    level: int | None = None
    argv: tuple[str, ...] = ()
    protocol: str = "json"
    io: str = "json"


def parse_players(text: str) -> list[PlayerSpec]:
    """``3,2,cmd:python bot.py,botzone:./bz`` as specs; ``ValueError`` for a bad entry."""
    specs = []
    for raw in text.split(","):
        entry = raw.strip()
        prefix = next((p for p in KINDS if entry.startswith(p)), None)
        if prefix is not None:
            argv = tuple(shlex.split(entry[len(prefix):]))
            if not argv:
                raise ValueError(f"{entry!r}: give the program's command after {prefix}")
            protocol, io = KINDS[prefix]
            specs.append(PlayerSpec(entry, None, argv, protocol, io))
        elif entry.isdigit():
            specs.append(PlayerSpec(entry, int(entry)))
        else:
            raise ValueError(
                f"{entry!r} is not a player: a bot level (0, 1, 2, ...), cmd:COMMAND, "
                "botzone:COMMAND or botzone-simple:COMMAND"
            )
    return specs


@dataclass
class PlayerStats:
    """What the arena measured for one player, per board (averaged over its seat-hands)."""

    score: dict[int, Sample] = field(default_factory=dict)
    extra: dict[str, dict[int, Sample]] = field(default_factory=dict)
    counted: set[str] = field(default_factory=set)  # figures not only 0 or 1 (points, takes)
    think: list[float] = field(default_factory=list)  # seconds per decision
    failures: int = 0

    @property
    def decisions(self) -> int:
        return len(self.think)

    def add(self, board: int, score: float, stats: Mapping[str, float]) -> None:
        self.score.setdefault(board, Sample()).add(score)
        for key, value in stats.items():
            self.extra.setdefault(key, {}).setdefault(board, Sample()).add(value)
            if value not in (0.0, 1.0):
                self.counted.add(key)

    def timed(self, seconds: float) -> None:
        self.think.append(seconds)

    def think_ms(self) -> tuple[float, float, float]:
        """Mean, 99th percentile and maximum time per decision, in milliseconds."""
        if not self.think:
            return (0.0, 0.0, 0.0)
        ordered = sorted(self.think)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        return (1000 * sum(ordered) / len(ordered), 1000 * p99, 1000 * ordered[-1])


@dataclass
class ArenaResult:
    """Everything an arena run measured."""

    variant: str
    boards: int
    duplicate: bool
    hands: int = 0
    players: dict[str, PlayerStats] = field(default_factory=dict)


class Seat:
    """A player in one seat: an in-process bot, or an external program's driver."""

    def __init__(self, bot: Bot | None, driver: SeatDriver | None) -> None:
        self.bot, self.driver = bot, driver
        self.events: list[Mapping[str, Any]] = []

    def choose(self, variant: str, seat: int, view: Mapping[str, Any], limit: float) -> str | None:
        if self.bot is not None:
            return self.bot.choose(view)
        assert self.driver is not None
        events, self.events = self.events, []
        decision = Decision(variant=variant, seat=seat, view=view, deadline=limit)
        return self.driver.step(events, view, decision)

    def see(self, events: Sequence[Mapping[str, Any]], view: Mapping[str, Any] | None) -> None:
        """Deliver events now (at a hand's start and end: a Botzone bot needs them then)."""
        if self.driver is not None:
            self.driver.step([*self.events, *events], view, None)
            self.events = []


class Arena:
    """Plays boards between ``specs`` under ``options``; ``run`` fills an ``ArenaResult``."""

    def __init__(
        self,
        variant: str,
        specs: Sequence[PlayerSpec],
        options: Mapping[str, Any] | None = None,
        seed: str = "arena",
        think_time: float = 10.0,
        reporter: Reporter | None = None,
    ) -> None:
        self.registered = get_variant(variant)
        self.engine: Engine[Any, Any] = self.registered.engine()
        self.options = self.engine.normalize_options(dict(options or {}))
        self.seats = self.engine.seat_count(self.options)
        if len(specs) != self.seats:
            raise ValueError(
                f"{variant} has {self.seats} seats: give {self.seats} players, not {len(specs)}"
                " (name a player twice to give it two seats)"
            )
        self.variant, self.specs, self.seed = variant, list(specs), seed
        self.think_time = think_time
        self.reporter = reporter or Reporter()
        self.drivers = {s.label: self._driver(s) for s in self.specs if s.level is None}
        self._current: list[Seat] = []  # the seats of the hand being played

    def _driver(self, spec: PlayerSpec) -> SeatDriver:
        factory = DriverFactory(
            spec.argv, spec.protocol, self.reporter, self.think_time, ARENA_FALLBACK, spec.io
        )
        factory.check(self.variant, self.options)
        return factory.driver()

    def close(self) -> None:
        for driver in self.drivers.values():
            driver.close()

    def run(
        self, boards: int, duplicate: bool, progress: Callable[[int, int], None] | None = None
    ) -> ArenaResult:
        """Play ``boards`` deals (each in every rotation when ``duplicate``)."""
        result = ArenaResult(self.variant, boards, duplicate)
        for spec in self.specs:
            result.players.setdefault(spec.label, PlayerStats())
        rotations = self.seats if duplicate else 1
        total, done = boards * rotations, 0
        for board in range(boards):
            for r in range(rotations):
                rotation = r if duplicate else board % self.seats
                self._play(board, rotation, result)
                done += 1
                if progress is not None:
                    progress(done, total)
        return result

    def seating(self, rotation: int) -> list[str]:
        """The player (label) at each seat in ``rotation``: player ``p`` at seat ``p + r``."""
        return [self.specs[(s - rotation) % self.seats].label for s in range(self.seats)]

    def deal(self, board: int) -> Any:
        """Board ``board``: a first hand dealt from the generator ``{seed}/{board}``."""
        rng = SeededRng(f"{self.seed}/{board}")
        return self.engine.initial_state(self.options, rng, MatchInfo(0, (0,) * self.seats))

    def _play(self, board: int, rotation: int, result: ArenaResult) -> None:
        """One hand: board ``board`` with the players rotated ``rotation`` seats."""
        engine = self.engine
        labels = self.seating(rotation)
        state = self.deal(board)
        root = SeededRng(f"{self.seed}/{board}/bots")
        seats = [
            self._seat(label, root.derive(f"bot/{rotation}/{s}")) for s, label in enumerate(labels)
        ]
        self._current = seats
        start = {"kind": "hand_started", "data": {"hand": 0}}
        first = engine.to_act(state)
        for s, seat in enumerate(seats):
            if s in first:
                seat.events.append(start)  # its first decision brings the opening view
            else:
                seat.see([start], engine.view(state, s))
        while not engine.is_terminal(state):
            s = min(engine.to_act(state))
            state = self._turn(state, s, seats[s], result.players[labels[s]])
        scores = engine.scores(state)
        stats = engine.hand_stats(state)
        scored = {"kind": "hand_scored", "data": {"hand": 0, "scores": list(scores)}}
        for s, seat in enumerate(seats):
            seat.see([scored], engine.view(state, s))
            result.players[labels[s]].add(board, scores[s], stats[s])
        result.hands += 1

    def _seat(self, label: str, rng: SeededRng) -> Seat:
        spec = next(s for s in self.specs if s.label == label)
        if spec.level is not None:
            return Seat(self.registered.make_bot(spec.level, rng), None)
        return Seat(None, self.drivers[label])

    def _turn(self, state: Any, s: int, seat: Seat, stats: PlayerStats) -> Any:
        """Ask seat ``s`` (timed), check its answer, apply it (or the timeout action)."""
        engine = self.engine
        view = engine.view(state, s)
        began = time.perf_counter()
        text = seat.choose(self.variant, s, view, self.think_time)
        stats.timed(time.perf_counter() - began)
        action = None
        if text is not None:
            try:
                action = engine.check_action(state, s, engine.parse_action(text))
            except GameError as exc:
                self._refused(seat, text, exc)
        if action is None:
            stats.failures += 1
            action = engine.timeout_action(state, s)
        step = engine.apply(state, s, action)
        self._deliver(step.events)
        return step.state

    def _refused(self, seat: Seat, text: str, exc: GameError) -> None:
        if seat.driver is None:
            raise exc  # an in-process bot answered something illegal: a bug, not a result
        seat.driver.refused(text, f"refused by the rules ({exc.code}: {exc})", ARENA_FALLBACK)

    def _deliver(self, events: Sequence[Event]) -> None:
        """Queue each event for the external seats that may see it."""
        for seat_index, seat in enumerate(self._current):
            if seat.driver is None:
                continue
            seat.events.extend(
                {"kind": e.kind, "data": dict(e.data)} for e in events if e.visible_to(seat_index)
            )
