"""One room's table: seats, the match (hand after hand), deadlines, bots and timeouts.

Sans-I/O in the manner of the websockets library's ``Protocol``: ``handle(seat, command, now)``
and ``tick(now)`` return effects, ``next_deadline()`` says when ``tick`` wants to be called.
``now`` is any monotonic clock in seconds; tests pass plain numbers.

Versions are per viewer. Each seat (and the spectators together) has its own counter that
increases only when a state it is sent differs from the last one in something it can see, and
every action echoes the version of the state its seat decided on. The table's own ``version``
counts every change (logs and operators see it) but never reaches a player: with one shared
counter a seat could tell from a jump, or by probing with a version it was never shown, that
another seat answered in secret. A seat's current decision became visible at some version of
its own; an action naming an older one is ``stale_version`` (a claim that arrives after its
window closed is refused instead of being applied to the next decision), and so is one naming a
version the seat was never shown. Simultaneous decisions are unaffected: another seat's answer
does not change what this seat sees, so its versions stay.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol

from paiju.core.errors import IllegalAction, InvalidOptions, NotYourTurn, StaleVersion
from paiju.core.rng import SeededRng
from paiju.core.seats import Seat
from paiju.engines.base import Engine, Event, MatchInfo
from paiju.table.commands import (
    Act,
    AddBot,
    Close,
    Command,
    Connected,
    Join,
    Leave,
    OfferRematch,
    Ready,
    RemoveBot,
    Start,
)
from paiju.table.effects import (
    SPECTATORS,
    ActionRecord,
    Effect,
    HandRecord,
    Incident,
    Persist,
    RoomStatus,
    Send,
)
from paiju.table.errors import AlreadyAnswered, NotSeated, RoomFull, SeatTaken, WrongPhase


class Phase(StrEnum):
    """Room phases, in order. ``hand_over`` shows a finished hand until the next one is dealt;
    ``finished`` shows the match result; ``closed`` is the end (the operator closed it)."""

    WAITING = "waiting"
    PLAYING = "playing"
    HAND_OVER = "hand_over"
    FINISHED = "finished"
    CLOSED = "closed"


WAITING, PLAYING, HAND_OVER, FINISHED, CLOSED = (
    Phase.WAITING,
    Phase.PLAYING,
    Phase.HAND_OVER,
    Phase.FINISHED,
    Phase.CLOSED,
)

#: Safety bound on actions taken inside one ``tick`` (bots answering bots with no delay).
MAX_AUTOMATIC_ACTIONS = 100_000


class TableFailed(Exception):
    """``tick`` failed part-way (an engine bug); ``effects`` are those of what it already did.

    Actions taken before the failure changed the table, so their effects (their ``Persist``
    records above all) must still be carried out, or the log would lose them.
    """

    def __init__(self, effects: list[Effect]) -> None:
        super().__init__("the table failed while acting on its own")
        self.effects = effects


class SeatBot(Protocol):
    """What the table needs of a bot: an action for the view it is shown."""

    def choose(self, view: Mapping[str, Any]) -> str: ...


BotFactory = Callable[[Seat, int], SeatBot]


@dataclass(frozen=True)
class TableSettings:
    """Time settings of a table, in seconds. A timer of 0 (or a missing kind) never expires."""

    timers: Mapping[str, float] = field(default_factory=lambda: {"turn": 30.0})
    bot_delay: float = 0.0
    between_hands: float = 3.0

    def timer(self, kind: str) -> float:
        """Seconds a seat has for a decision of ``kind`` (falls back to ``default``)."""
        return float(self.timers.get(kind, self.timers.get("default", 0.0)))


@dataclass
class SeatSlot:
    """Who sits in a seat."""

    kind: str = "empty"  # "empty", "human" or "bot"
    name: str = ""
    bot_level: int = 1
    ready: bool = False
    connected: bool = False

    def public(self, seat: Seat) -> dict[str, Any]:
        """The seat as every client sees it."""
        return {
            "seat": seat,
            "kind": self.kind,
            "name": self.name,
            "ready": self.ready,
            "connected": self.connected,
        }


@dataclass(frozen=True)
class RoomInfo:
    """What the host may read of a table (copies: changing them changes nothing)."""

    room_id: str
    variant: str
    phase: Phase
    hand: int
    seats: tuple[SeatSlot, ...]
    options: Mapping[str, Any]
    preset: str | None
    private: bool
    rematch: str | None

    def public_seats(self) -> list[dict[str, Any]]:
        """The seats as every client sees them."""
        return [slot.public(seat) for seat, slot in enumerate(self.seats)]

    def is_human(self, seat: Seat) -> bool:
        """Whether a person (not a bot, not nobody) holds ``seat``."""
        return 0 <= seat < len(self.seats) and self.seats[seat].kind == "human"


@dataclass
class Waiting:
    """A seat the game waits for: since which version, until when, and what it may do."""

    version: int
    deadline: float | None
    legal: frozenset[Any]
    shown_from: int | None = None  # the seat's own version at which it was first shown this


class Table:
    """The authoritative state machine of one room. See the module docstring."""

    def __init__(
        self,
        room_id: str,
        engine: Engine[Any, Any],
        options: Mapping[str, Any],
        seed: str,
        settings: TableSettings,
        bot_factory: BotFactory,
    ) -> None:
        self.room_id = room_id
        self.engine = engine
        self.options = dict(options)
        self.seed = seed
        self.settings = settings
        self._bot_factory = bot_factory
        self.seat_count = engine.seat_count(self.options)
        self.seats = [SeatSlot() for _ in range(self.seat_count)]
        self.bots: dict[Seat, SeatBot] = {}
        self.phase: Phase = WAITING
        self.version = 0
        self.hand = 0
        self.totals: tuple[int, ...] = (0,) * self.seat_count
        self.hand_scores: list[tuple[int, ...]] = []
        self.carry: dict[str, Any] = {}
        self.state: Any = None
        self.seq = 0
        self.close_reason = ""
        self.last_joined: Seat | None = None
        self._waiting: dict[Seat, Waiting] = {}
        self._answered: set[Seat] = set()  # answered the simultaneous decision still open
        self._last_shown: dict[Seat, dict[str, Any]] = {}
        self._seen: dict[Seat, int] = {}  # per viewer (seat or SPECTATORS): its own version
        self._seen_floor = 0  # where counters start (after a restore: above any old version)
        self._next_hand_at: float | None = None
        self.preset: str | None = None  # how the room was made, for the lobby and clients
        self.private = False
        self.rematch: str | None = None  # the room id of this match's rematch, once offered

    # ------------------------------------------------------------------ commands

    def handle(self, seat: Seat | None, command: Command, now: float) -> list[Effect]:
        """Carry out ``command`` from ``seat`` (``None``: not seated / the operator).

        Raises a ``GameError`` and changes nothing if the command is refused.
        """
        if self.phase == CLOSED:
            raise WrongPhase("the room is closed")
        if isinstance(command, Join):
            return self._join(command, now)
        if isinstance(command, Start):
            return self._start(command.bot_level, now)
        if isinstance(command, Close):
            return self._close(command.reason)
        if isinstance(command, AddBot):
            return self._add_bot(command.seat, command.level, now)
        if isinstance(command, RemoveBot):
            return self._remove_bot(command.seat, now)
        if isinstance(command, OfferRematch):
            return self._offer_rematch(command.room, now)
        if seat is None:
            raise NotSeated("join a seat first")
        if isinstance(command, Act):
            return self._act(seat, command.version, command.action, "player", now)
        if isinstance(command, Ready):
            return self._ready(seat, command.ready, now)
        if isinstance(command, Connected):
            return self._connected(seat, command.connected, now)
        if isinstance(command, Leave):
            return self._leave(seat, now)
        raise IllegalAction(f"unknown command {type(command).__name__}")

    def _join(self, command: Join, now: float) -> list[Effect]:
        if self.phase != WAITING:
            raise WrongPhase("the match has started; join as a spectator or resume your seat")
        seat = command.seat
        if seat is None:
            free = [s for s, slot in enumerate(self.seats) if slot.kind == "empty"]
            if not free:
                raise RoomFull(f"all {self.seat_count} seats are taken")
            seat = free[0]
        elif not 0 <= seat < self.seat_count or self.seats[seat].kind != "empty":
            raise SeatTaken(f"seat {seat} is not free")
        self.seats[seat] = SeatSlot(kind="human", name=command.name, connected=True)
        self.last_joined = seat
        return self._changed(now)

    def _connected(self, seat: Seat, connected: bool, now: float) -> list[Effect]:
        """A (re)connection always ends with one full state for the seat, sent once."""
        self.seats[seat].connected = connected
        effects = self._changed(now)
        if connected and not any(isinstance(e, Send) and e.to == seat for e in effects):
            effects.append(Send(seat, self.snapshot(seat, now)))
        return effects

    def _ready(self, seat: Seat, ready: bool, now: float) -> list[Effect]:
        if self.phase in (FINISHED, CLOSED):
            raise WrongPhase("the match is over; ask for a rematch to play again")
        if self.phase != WAITING:
            raise WrongPhase("the match has already started")
        self.seats[seat].ready = ready
        effects = self._changed(now)
        if self._all_ready():
            effects += self._begin_match(now)
        return effects

    def _all_ready(self) -> bool:
        return all(s.kind == "bot" or (s.kind == "human" and s.ready) for s in self.seats)

    def _leave(self, seat: Seat, now: float) -> list[Effect]:
        if self.phase == WAITING:
            self.seats[seat] = SeatSlot()
            return self._changed(now)
        # Mid-match the seat is played by a bot (the trustee) so the others can finish.
        self._make_bot(seat, 1, f"{self.seats[seat].name} (bot)")
        self._waiting.pop(seat, None)
        effects = self._changed(now)
        return effects

    def _start(self, bot_level: int, now: float) -> list[Effect]:
        if self.phase != WAITING:
            raise WrongPhase("the match has already started")
        empty = [seat for seat, slot in enumerate(self.seats) if slot.kind == "empty"]
        # Make every bot before seating any, so a failure leaves the room as it was.
        made = {seat: self._bot_factory(seat, bot_level) for seat in empty}
        for seat, bot in made.items():
            self.seats[seat] = SeatSlot(
                kind="bot", name=f"bot {seat}", bot_level=bot_level, ready=True
            )
            self.bots[seat] = bot
        return self._begin_match(now)

    def add_bot(self, seat: Seat, level: int) -> None:
        """Put a bot in an empty seat before the match starts (operator set-up)."""
        if self.phase != WAITING:
            raise WrongPhase("bots can be added only while the room waits for players")
        if not 0 <= seat < self.seat_count or self.seats[seat].kind != "empty":
            raise SeatTaken(f"seat {seat} is not free")
        self._make_bot(seat, level, f"bot {seat}")

    def _add_bot(self, seat: Seat, level: int, now: float) -> list[Effect]:
        self.add_bot(seat, level)
        effects = self._changed(now)
        if self._all_ready():
            effects += self._begin_match(now)
        return effects

    def _remove_bot(self, seat: Seat, now: float) -> list[Effect]:
        if self.phase != WAITING:
            raise WrongPhase("bots can be removed only while the room waits for players")
        if not 0 <= seat < self.seat_count or self.seats[seat].kind != "bot":
            raise SeatTaken(f"seat {seat} holds no bot")
        self.seats[seat] = SeatSlot()
        del self.bots[seat]
        return self._changed(now)

    def _offer_rematch(self, room: str, now: float) -> list[Effect]:
        if self.phase != FINISHED:
            raise WrongPhase(f"a rematch needs a finished match (the room is {self.phase})")
        self.rematch = room
        return self._changed(now)

    def _make_bot(self, seat: Seat, level: int, name: str) -> None:
        try:
            bot = self._bot_factory(seat, level)
        except ValueError as exc:  # the variant has no bot of that level
            raise InvalidOptions(str(exc)) from exc
        self.seats[seat] = SeatSlot(kind="bot", name=name, bot_level=level, ready=True)
        self.bots[seat] = bot

    def _close(self, reason: str) -> list[Effect]:
        self.phase = CLOSED
        self.close_reason = reason
        self._waiting.clear()
        self._next_hand_at = None
        self.version += 1
        return [Persist(self.status()), *self._broadcast_states(0.0)]

    # ------------------------------------------------------------------ the match

    def _begin_match(self, now: float) -> list[Effect]:
        self.hand = 0
        return self._deal(now)

    def _match_info(self) -> MatchInfo:
        return MatchInfo(hand=self.hand, totals=self.totals, carry=self.carry)

    def _deal(self, now: float) -> list[Effect]:
        self._next_hand_at = None
        if self.engine.match_over(self.options, self._match_info()):
            self.phase = FINISHED  # the last hand's state stays on view
            self.version += 1
            event = Event("match_over", {"totals": list(self.totals)})
            return [
                Persist(self.status()),
                *self._send_events((event,)),
                *self._broadcast_states(now),
            ]
        rng = SeededRng(self.seed).derive(str(self.hand))
        self.state = self.engine.initial_state(self.options, rng, self._match_info())
        self.phase = PLAYING
        self.version += 1
        self._waiting.clear()
        self._answered.clear()
        self._refresh_waiting(now)
        event = Event("hand_started", {"hand": self.hand})
        return [Persist(self.status()), *self._send_events((event,)), *self._broadcast_states(now)]

    def shown_version(self, target: Seat) -> int:
        """The version of the last state sent to ``target`` (a seat, or ``SPECTATORS``)."""
        return self._seen.get(target, self._seen_floor)

    def _check_version(self, seat: Seat, version: int, waiting: Waiting | None) -> None:
        """Refuse an action against a state the seat was never shown or has since left.

        The messages name only the seat's own versions, never the table's."""
        shown = self.shown_version(seat)
        if version > shown:
            raise StaleVersion(f"version {version} was never sent to seat {seat} (last: {shown})")
        began = waiting.shown_from if waiting is not None else None
        if version < shown and (began is None or version < began):
            raise StaleVersion(
                f"version {version} is stale: your current state is version {shown}; "
                "reload it and decide again"
            )

    def _act(
        self, seat: Seat, version: int | None, text: str, source: str, now: float
    ) -> list[Effect]:
        """Apply ``text`` for ``seat``; ``version`` is the seat's own (``None``: the table acts
        for it — a bot, a timeout, a restore — on the current state)."""
        if self.phase != PLAYING:
            raise WrongPhase(f"no hand is being played (the room is {self.phase})")
        waiting = self._waiting.get(seat)
        if waiting is None and seat in self._answered:
            raise AlreadyAnswered(
                "you have already answered this decision; the other seats are still deciding"
            )
        if version is not None:
            self._check_version(seat, version, waiting)
        if waiting is None:
            raise NotYourTurn(f"seat {seat} is not to act now")
        action = self.engine.parse_action(text)
        step = self.engine.apply(self.state, seat, action)
        canonical = self.engine.format_action(action)
        self.state = step.state
        self.version += 1
        self.seq += 1
        record = ActionRecord(self.hand, self.seq, seat, canonical, source, self.version)
        self._waiting.pop(seat, None)
        effects: list[Effect] = [Persist(record), *self._send_events(step.events)]
        if self.engine.is_terminal(self.state):
            effects += self._finish_hand(now)
        else:
            self._refresh_waiting(now)
            self._note_answer(seat)
            effects += self._broadcast_states(now)
        return effects

    def _note_answer(self, seat: Seat) -> None:
        """Remember ``seat`` answered while others still decide the same thing (a seat asked
        since before this action); a new decision forgets every earlier answer."""
        if any(w.version < self.version for w in self._waiting.values()):
            self._answered.add(seat)
        else:
            self._answered.clear()

    def _finish_hand(self, now: float) -> list[Effect]:
        scores = tuple(self.engine.scores(self.state))
        self.totals = tuple(t + s for t, s in zip(self.totals, scores, strict=True))
        self.hand_scores.append(scores)
        self.carry = self.engine.carry(self.state)
        self.phase = HAND_OVER
        self._waiting.clear()
        self._next_hand_at = now + self.settings.between_hands
        event = Event(
            "hand_scored", {"hand": self.hand, "scores": list(scores), "totals": list(self.totals)}
        )
        return [
            Persist(HandRecord(self.hand, scores, self.totals)),
            *self._send_events((event,)),
            *self._broadcast_states(now),
        ]

    def _refresh_waiting(self, now: float) -> None:
        to_act = self.engine.to_act(self.state)
        for seat in [s for s in self._waiting if s not in to_act]:
            del self._waiting[seat]
        for seat in to_act:
            legal = self.engine.legal_actions(self.state, seat)
            current = self._waiting.get(seat)
            if current is None or current.legal != legal:
                self._waiting[seat] = Waiting(self.version, self._deadline_for(seat, now), legal)

    def _deadline_for(self, seat: Seat, now: float) -> float | None:
        if seat in self.bots:
            return now + self.settings.bot_delay
        kind_of = getattr(self.engine, "timer_kind", None)
        kind = kind_of(self.state, seat) if kind_of is not None else "turn"
        seconds = self.settings.timer(kind)
        return now + seconds if seconds > 0 else None

    def restore(self, log: list[ActionRecord], now: float) -> None:
        """Rebuild a match in progress from its log after a restart (effects are dropped).

        The seats must already be set as they were; every logged action goes through the same
        path as when it was first taken, so a log that does not replay raises ``GameError``.
        """
        self._begin_match(now)
        for record in log:
            while record.hand > self.hand and self.phase == HAND_OVER:
                self._next_hand(now)
            self._act(record.seat, None, record.action, record.source, now)
            self.seq = record.seq
            self.version = max(self.version, record.version)
        self.version += 1
        # Clients hold versions from before the restart; start every counter above them.
        self._seen_floor = self.version
        self._seen.clear()
        self._last_shown.clear()
        for waiting in self._waiting.values():
            waiting.shown_from = None

    # ------------------------------------------------------------------ time

    def next_deadline(self) -> float | None:
        """The earliest time at which ``tick`` has something to do, or ``None``."""
        times = [w.deadline for w in self._waiting.values() if w.deadline is not None]
        if self._next_hand_at is not None:
            times.append(self._next_hand_at)
        return min(times, default=None)

    def tick(self, now: float) -> list[Effect]:
        """Take every action that is due at ``now``: bot moves, timeouts, the next hand.

        Raises ``TableFailed`` (from the engine's error) carrying the effects of everything
        done before the failure.
        """
        effects: list[Effect] = []
        try:
            for _ in range(MAX_AUTOMATIC_ACTIONS):
                due = self._next_due(now)
                if due is None:
                    return effects
                effects += due()
            raise RuntimeError("the table kept acting on its own; a bot or timeout loops")
        except Exception as exc:
            raise TableFailed(effects) from exc

    def _next_due(self, now: float) -> Callable[[], list[Effect]] | None:
        if self.phase == HAND_OVER and self._next_hand_at is not None and self._next_hand_at <= now:
            return lambda: self._next_hand(now)
        due = sorted(
            (w.deadline, seat)
            for seat, w in self._waiting.items()
            if w.deadline is not None and w.deadline <= now
        )
        if self.phase != PLAYING or not due:
            return None
        seat = due[0][1]
        return lambda: self._automatic_action(seat, now)

    def _next_hand(self, now: float) -> list[Effect]:
        self.hand += 1
        return self._deal(now)

    def _automatic_action(self, seat: Seat, now: float) -> list[Effect]:
        bot = self.bots.get(seat)
        incident: list[Effect] = []
        if bot is not None:
            try:
                return self._act(
                    seat, None, bot.choose(self.engine.view(self.state, seat)), "bot", now
                )
            except Exception as exc:
                # A bot that errs (an illegal answer or its own bug) is replaced by the
                # timeout action; it must never stall the room. ``_act`` changes nothing
                # before it succeeds, so falling back is safe. The failure is reported, not
                # swallowed: the host logs it with its traceback.
                incident.append(Incident("bot_failed", seat, _describe(exc)))
        text = self.engine.format_action(self.engine.timeout_action(self.state, seat))
        source = "timeout" if not incident else "bot_fallback"
        effects = self._act(seat, None, text, source, now)
        if bot is None:
            # A person's time ran out: tell that seat alone what was played for it.
            told = Event("timed_out", {"seat": seat, "action": text}, frozenset({seat}))
            effects = [*self._send_events((told,)), *effects]
        return [*incident, *effects]

    # ------------------------------------------------------------------ output

    def snapshot(self, seat: Seat | None, now: float) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (``None``: a spectator): only what it may see."""
        waiting = self._waiting.get(seat) if seat is not None else None
        deadline_ms = None
        if waiting is not None and waiting.deadline is not None:
            deadline_ms = max(0, round((waiting.deadline - now) * 1000))
        shown = self._public_waiting() | ({seat} if waiting is not None else set())
        return {
            "type": "state",
            "room": self.room_id,
            "variant": self.engine.name,
            "version": self.shown_version(SPECTATORS if seat is None else seat),
            "phase": self.phase,
            "hand": self.hand,
            "totals": list(self.totals),
            "seats": [slot.public(s) for s, slot in enumerate(self.seats)],
            "you": seat,
            "to_act": sorted(shown),
            "decision_version": waiting.shown_from if waiting is not None else None,
            "deadline_ms": deadline_ms,
            "view": self.engine.view(self.state, seat) if self.state is not None else None,
            "preset": self.preset,
            "private": self.private,
            "rematch": self.rematch,
        }

    def _public_waiting(self) -> set[Seat]:
        """The waiting seats every viewer may know about.

        In a claim window, *who* is asked reveals who can claim the tile, so an engine can
        narrow what is public with an optional ``public_to_act(state)``; a seat always knows
        that it is itself asked.
        """
        public_of = getattr(self.engine, "public_to_act", None)
        if public_of is None or self.state is None:
            return set(self._waiting)
        return set(self._waiting) & set(public_of(self.state))

    def _broadcast_states(self, now: float) -> list[Effect]:
        """A state message for every viewer whose state changed in anything but the version.

        Skipping unchanged states matters for hidden information: a seat that is not told of
        a change cannot learn from the version bump that another seat answered in secret.
        Its older version stays valid for its own decision (see the module docstring).
        """
        targets = [s for s, slot in enumerate(self.seats) if slot.kind == "human"]
        sends: list[Effect] = []
        for target, viewer in [*((s, s) for s in targets), (SPECTATORS, None)]:
            snapshot = self.snapshot(viewer, now)
            shown = _content(snapshot)
            changed = self._last_shown.get(target) != shown
            if changed:
                self._last_shown[target] = shown
                self._seen[target] = self.shown_version(target) + 1
            waiting = self._waiting.get(viewer) if viewer is not None else None
            if waiting is not None and waiting.shown_from is None:
                waiting.shown_from = self.shown_version(target)
            if changed:
                snapshot["version"] = self.shown_version(target)
                snapshot["decision_version"] = waiting.shown_from if waiting is not None else None
                sends.append(Send(target, snapshot))
        return sends

    def _send_events(self, events: tuple[Event, ...]) -> list[Effect]:
        sends: list[Effect] = []
        for event in events:
            message = {"kind": event.kind, "data": dict(event.data)}
            for seat, slot in enumerate(self.seats):
                if slot.kind == "human" and event.visible_to(seat):
                    sends.append(Send(seat, self._event_message(seat, message)))
            if event.visible_to(None):
                sends.append(Send(SPECTATORS, self._event_message(SPECTATORS, message)))
        return sends

    def _event_message(self, target: Seat, event: dict[str, Any]) -> dict[str, Any]:
        """An event carries the version of the last state its viewer was sent."""
        version = self.shown_version(target)
        return {"type": "event", "room": self.room_id, "version": version, "event": event}

    def _changed(self, now: float) -> list[Effect]:
        self.version += 1
        if self.phase == PLAYING:
            self._refresh_waiting(now)
        return [Persist(self.status()), *self._broadcast_states(now)]

    def info(self) -> RoomInfo:
        """A read-only copy of the room's public facts, for the host (lobby, routing)."""
        return RoomInfo(
            room_id=self.room_id,
            variant=self.engine.name,
            phase=self.phase,
            hand=self.hand,
            seats=tuple(replace(slot) for slot in self.seats),
            options=dict(self.options),
            preset=self.preset,
            private=self.private,
            rematch=self.rematch,
        )

    def restore_seat(self, seat: Seat, kind: str, name: str, ready: bool, bot_level: int) -> None:
        """Seat a stored occupant again before ``restore`` (a restart; nothing is sent)."""
        if self.phase != WAITING or self.seats[seat].kind != "empty":
            raise SeatTaken(f"seat {seat} is not free")
        if kind == "bot":
            self._make_bot(seat, bot_level, name or f"bot {seat}")
        elif kind == "human":
            self.seats[seat] = SeatSlot(kind="human", name=name, ready=ready)

    def status(self) -> RoomStatus:
        seats = tuple(
            slot.public(s) | {"bot_level": slot.bot_level} for s, slot in enumerate(self.seats)
        )
        return RoomStatus(self.phase, self.totals, seats)

    def summary(self) -> dict[str, Any]:
        """What an operator sees of the room: no hidden tiles, and of the waiting seats only
        those every player may know about (who is asked in a claim window is secret)."""
        return {
            "room": self.room_id,
            "variant": self.engine.name,
            "phase": self.phase,
            "version": self.version,
            "hand": self.hand,
            "totals": list(self.totals),
            "hand_scores": [list(s) for s in self.hand_scores],
            "seats": [slot.public(s) for s, slot in enumerate(self.seats)],
            "to_act": sorted(self._public_waiting()),
            "options": self.options,
        }


def _describe(exc: BaseException) -> str:
    """An exception with its traceback, as one text for the host's log."""
    return "".join(traceback.format_exception(exc)).rstrip()


def _content(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A state message without its counters (the table's and the engine's ``version``, the
    deadline countdown): what a viewer can tell apart. Versions count hidden answers too."""
    skip = ("version", "deadline_ms", "decision_version")
    shown = {k: v for k, v in snapshot.items() if k not in skip}
    view = shown.get("view")
    if isinstance(view, dict) and "version" in view:
        shown["view"] = {k: v for k, v in view.items() if k != "version"}
    return shown
