"""The decisions a table waits for: which seats, since when, until when, with what choices.

Deadlines are the table's only clock-dependent state, and a deadline is a side channel: it may
never depend on a seat's hidden cards. So a seat keeps its deadline while it stays asked (its
own options changing, which depends on its cards, begins a new decision version for itself
only), and when an action reopens a decision every seat still asked gets the same fresh one.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from paiju.core.seats import Seat
from paiju.engines.base import Engine


@dataclass(frozen=True)
class TableSettings:
    """Time settings of a table, in seconds. A timer of 0 (or a missing kind) never expires."""

    timers: Mapping[str, float] = field(default_factory=lambda: {"turn": 30.0})
    bot_delay: float = 0.0
    between_hands: float = 3.0
    #: Consecutive timeouts that put a person's seat in trustee mode (0: never).
    trustee_after: int = 2
    #: Seconds the trustee waits before it plays a decision (the same for every decision:
    #: a delay must never depend on the cards).
    trustee_delay: float = 1.0
    #: After a restart a person's decision keeps its remaining time, but at least this long.
    restore_grace: float = 15.0
    #: A snapshot of the engine's state every this many actions of a hand (0: at hand
    #: boundaries only), so that a restore replays at most this many minus one.
    snapshot_every: int = 2

    def timer(self, kind: str) -> float:
        """Seconds a seat has for a decision of ``kind`` (falls back to ``default``)."""
        return float(self.timers.get(kind, self.timers.get("default", 0.0)))


@dataclass(slots=True)  # (one per open decision of every room: no instance dict)
class Waiting:
    """A seat the game waits for: since which version, until when, and what it may do
    (``legal``: the engine's ``legal_key`` of the seat's options, not always the list).

    ``legal`` is ``None`` until it is needed when the decision was opened by a restore
    (``asked_in`` keeps the state it was opened in): working out every seat's options in
    every room at start would cost more than the rest of the restore."""

    version: int
    deadline: float | None
    legal: Hashable
    shown_from: int | None = None  # the seat's own version at which it was first shown this
    asked_in: Any = None

    def options(self, engine: Engine[Any, Any], seat: Seat) -> Hashable:
        """The key of the seat's options when it was asked (worked out now if not yet)."""
        if self.legal is None:
            self.legal, self.asked_in = engine.legal_key(self.asked_in, seat), None
        return self.legal


class Decisions:
    """The seats asked now (``waiting``) and those that answered a decision still open."""

    def __init__(self, settings: TableSettings) -> None:
        self.settings = settings
        self.waiting: dict[Seat, Waiting] = {}
        self.answered: set[Seat] = set()

    def clear(self) -> None:
        """Nobody is asked anything (a hand begins or ends)."""
        self.waiting.clear()
        self.answered.clear()

    def refresh(
        self,
        engine: Engine[Any, Any],
        state: Any,
        version: int,
        now: float,
        delays: Mapping[Seat, float],
        acted: bool = False,
        lazy: bool = False,
    ) -> None:
        """Who the game waits for in ``state`` (table version ``version``), with deadlines.
        ``delays`` gives the seats a bot plays (a bot, a trustee) the delay it waits.

        A seat newly asked gets a fresh deadline and keeps it while it stays asked. When an
        action (``acted``) reopens a decision (a seat that had answered is asked again while
        others still wait, as a shengji bid reopens the bidding) every seat still asked gets
        the same fresh deadline. A changed option list begins a new decision for the seat
        itself (older versions become stale) but keeps its deadline. ``lazy`` (a restore):
        the options are worked out when first needed."""
        to_act = engine.to_act(state)
        for seat in [s for s in self.waiting if s not in to_act]:
            del self.waiting[seat]
        still = [s for s in to_act if s in self.waiting]
        reopened = acted and bool(still) and len(still) < len(to_act)
        for seat in to_act:
            legal = None if lazy else engine.legal_key(state, seat)
            current = self.waiting.get(seat)
            if current is None or reopened:
                deadline = self._deadline(engine, state, seat, now, delays.get(seat))
                self.waiting[seat] = Waiting(
                    version, deadline, legal, asked_in=state if legal is None else None
                )
            elif legal is not None and current.options(engine, seat) != legal:
                self.waiting[seat] = Waiting(version, current.deadline, legal)

    def _deadline(
        self, engine: Engine[Any, Any], state: Any, seat: Seat, now: float, delay: float | None
    ) -> float | None:
        if delay is not None:
            return now + delay
        seconds = self.settings.timer(engine.timer_kind(state, seat))
        return now + seconds if seconds > 0 else None

    def reschedule(
        self, engine: Engine[Any, Any], state: Any, seat: Seat, now: float, delay: float | None
    ) -> None:
        """``seat``'s open decision gets a fresh deadline from ``now``: ``delay`` when a bot
        now plays the seat, else the seat's timer (a person took the seat back)."""
        waiting = self.waiting.get(seat)
        if waiting is not None:
            waiting.deadline = self._deadline(engine, state, seat, now, delay)

    def deadlines(self) -> dict[Seat, float]:
        """Each waiting seat's deadline (seats without one are left out)."""
        return {s: w.deadline for s, w in self.waiting.items() if w.deadline is not None}

    def answer(self, seat: Seat, version: int) -> None:
        """``seat`` answered and ``waiting`` was refreshed (the table is now at ``version``).
        The seat is remembered while others still decide the same thing (a seat asked since
        before this action); a new decision forgets every earlier answer."""
        if any(w.version < version for w in self.waiting.values()):
            self.answered.add(seat)
        else:
            self.answered.clear()

    def next_deadline(self) -> float | None:
        """The earliest deadline, or ``None``."""
        return min((w.deadline for w in self.waiting.values() if w.deadline is not None),
                   default=None)

    def due(self, now: float) -> Seat | None:
        """The seat whose deadline passed first (lowest seat on a tie), or ``None``."""
        due = [(w.deadline, seat) for seat, w in self.waiting.items()
               if w.deadline is not None and w.deadline <= now]
        return min(due)[1] if due else None
