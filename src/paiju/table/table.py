"""One room's table: seats, the match (hand after hand), decisions and their deadlines, bots,
timeouts, and what each viewer is sent.

Sans-I/O in the manner of the websockets library's ``Protocol``: ``handle(seat, command, now)``
and ``tick(now)`` return effects, ``next_deadline()`` says when ``tick`` wants to be called.
``now`` is any monotonic clock in seconds; tests pass plain numbers. The pieces live beside
this module: ``match`` (hand bookkeeping), ``decisions`` (who is asked, deadlines),
``viewers`` (per-viewer versions), ``seats`` and ``phases``.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from paiju.core.errors import IllegalAction, InvalidOptions, NotYourTurn
from paiju.core.seats import Seat
from paiju.engines.base import Engine, Event
from paiju.table.commands import (
    Act,
    AddBot,
    Claim,
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
from paiju.table.decisions import Decisions, TableSettings, Waiting
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
from paiju.table.match import Match
from paiju.table.phases import CLOSED, FINISHED, HAND_OVER, PLAYING, WAITING, Phase
from paiju.table.seats import BotFactory, RoomInfo, SeatBot, Seats, SeatSlot
from paiju.table.viewers import Viewers

__all__ = [
    "CLOSED",
    "FINISHED",
    "HAND_OVER",
    "PLAYING",
    "WAITING",
    "BotFactory",
    "Phase",
    "RoomInfo",
    "SeatBot",
    "SeatSlot",
    "Table",
    "TableFailed",
    "TableSettings",
    "Waiting",
]

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
        self.seat_count = engine.seat_count(self.options)
        self.seats = Seats(self.seat_count, bot_factory)
        self.phase: Phase = WAITING
        self.version = 0  # counts every change; for logs and operators, never sent to a player
        self.match = Match(engine, self.options, seed)
        self.state: Any = None
        self.seq = 0
        self.close_reason = ""
        self.last_joined: Seat | None = None
        self.decisions = Decisions(settings)
        self.viewers = Viewers()
        self._next_hand_at: float | None = None
        self.preset: str | None = None  # how the room was made, for the lobby and clients
        self.private = False
        self.rematch: str | None = None  # the room id of this match's rematch, once offered

    @property
    def bots(self) -> dict[Seat, SeatBot]:
        """The seats bots hold."""
        return self.seats.bots

    @property
    def hand(self) -> int:
        """The hand being played (or just finished)."""
        return self.match.hand

    @property
    def totals(self) -> tuple[int, ...]:
        """The match totals so far."""
        return self.match.totals

    @property
    def hand_scores(self) -> list[tuple[int, ...]]:
        """Each finished hand's scores."""
        return self.match.hand_scores

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
        if isinstance(command, Claim):
            return self._claim(command.seat, command.name, now)
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
            seat = self.seats.first_free()
            if seat is None:
                raise RoomFull(f"all {self.seat_count} seats are taken")
        elif not 0 <= seat < self.seat_count or self.seats.kind(seat) != "empty":
            raise SeatTaken(f"seat {seat} is not free")
        self.seats.seat_person(seat, command.name)
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
        if self.seats.all_ready():
            effects += self._begin_match(now)
        return effects

    def _leave(self, seat: Seat, now: float) -> list[Effect]:
        if self.phase == WAITING:
            self.seats.free(seat)
            return self._changed(now)
        # Mid-match the seat is played by a bot (the trustee) so the others can finish.
        self._make_bot(seat, 1, f"{self.seats[seat].name} (bot)")
        self.decisions.waiting.pop(seat, None)
        return self._changed(now)

    def _start(self, bot_level: int, now: float) -> list[Effect]:
        if self.phase != WAITING:
            raise WrongPhase("the match has already started")
        empty = [seat for seat in range(self.seat_count) if self.seats.kind(seat) == "empty"]
        # Make every bot before seating any, so a failure leaves the room as it was.
        made = {seat: self._new_bot(seat, bot_level) for seat in empty}
        for seat, bot in made.items():
            self.seats.seat_bot(seat, bot, bot_level, f"bot {seat}")
        return self._begin_match(now)

    def add_bot(self, seat: Seat, level: int) -> None:
        """Put a bot in an empty seat before the match starts (operator set-up)."""
        if self.phase != WAITING:
            raise WrongPhase("bots can be added only while the room waits for players")
        if not 0 <= seat < self.seat_count or self.seats.kind(seat) != "empty":
            raise SeatTaken(f"seat {seat} is not free")
        self._make_bot(seat, level, f"bot {seat}")

    def _add_bot(self, seat: Seat, level: int, now: float) -> list[Effect]:
        self.add_bot(seat, level)
        effects = self._changed(now)
        if self.seats.all_ready():
            effects += self._begin_match(now)
        return effects

    def _remove_bot(self, seat: Seat, now: float) -> list[Effect]:
        if self.phase != WAITING:
            raise WrongPhase("bots can be removed only while the room waits for players")
        if not 0 <= seat < self.seat_count or self.seats.kind(seat) != "bot":
            raise SeatTaken(f"seat {seat} holds no bot")
        self.seats.free(seat)
        return self._changed(now)

    def _claim(self, seat: Seat, name: str, now: float) -> list[Effect]:
        if self.seats.kind(seat) != "bot":
            raise SeatTaken(f"seat {seat} holds no bot")
        self.seats.seat_person(seat, name, ready=self.phase != WAITING, connected=True)
        self.decisions.waiting.pop(seat, None)  # asked again, with a person's deadline
        effects = self._changed(now)
        if not any(isinstance(e, Send) and e.to == seat for e in effects):
            effects.append(Send(seat, self.snapshot(seat, now)))
        return effects

    def _offer_rematch(self, room: str, now: float) -> list[Effect]:
        if self.phase != FINISHED:
            raise WrongPhase(f"a rematch needs a finished match (the room is {self.phase})")
        self.rematch = room
        return self._changed(now)

    def _new_bot(self, seat: Seat, level: int) -> SeatBot:
        try:
            return self.seats.new_bot(seat, level)
        except ValueError as exc:  # the variant has no bot of that level
            raise InvalidOptions(str(exc)) from exc

    def _make_bot(self, seat: Seat, level: int, name: str) -> None:
        self.seats.seat_bot(seat, self._new_bot(seat, level), level, name)

    def _close(self, reason: str) -> list[Effect]:
        self.phase = CLOSED
        self.close_reason = reason
        self.decisions.clear()
        self._next_hand_at = None
        self.version += 1
        return [Persist(self.status()), *self._broadcast_states(0.0)]

    # ------------------------------------------------------------------ the match

    def _begin_match(self, now: float) -> list[Effect]:
        self.match.restart()
        return self._deal(now)

    def _deal(self, now: float) -> list[Effect]:
        self._next_hand_at = None
        if self.match.over():
            self.phase = FINISHED  # the last hand's state stays on view
            self.version += 1
            event = Event("match_over", {"totals": list(self.totals)})
            return [
                Persist(self.status()),
                *self._send_events((event,)),
                *self._broadcast_states(now),
            ]
        self.state = self.match.deal()
        self.phase = PLAYING
        self.version += 1
        self.decisions.clear()
        self._refresh(now)
        event = Event("hand_started", {"hand": self.hand})
        return [Persist(self.status()), *self._send_events((event,)), *self._broadcast_states(now)]

    def shown_version(self, target: Seat) -> int:
        """The version of the last state sent to ``target`` (a seat, or ``SPECTATORS``)."""
        return self.viewers.shown_version(target)

    def _act(
        self, seat: Seat, version: int | None, text: str, source: str, now: float
    ) -> list[Effect]:
        """Apply ``text`` for ``seat``; ``version`` is the seat's own (``None``: the table acts
        for it — a bot, a timeout, a restore — on the current state)."""
        if self.phase != PLAYING:
            raise WrongPhase(f"no hand is being played (the room is {self.phase})")
        waiting = self.decisions.waiting.get(seat)
        if waiting is None and seat in self.decisions.answered:
            raise AlreadyAnswered(
                "you have already answered this decision; the other seats are still deciding"
            )
        if version is not None:
            self.viewers.check(seat, version, waiting)
        if waiting is None:
            raise NotYourTurn(f"seat {seat} is not to act now")
        action = self.engine.parse_action(text)
        step = self.engine.apply(self.state, seat, action)
        canonical = self.engine.format_action(action)
        self.state = step.state
        self.version += 1
        self.seq += 1
        record = ActionRecord(self.hand, self.seq, seat, canonical, source, self.version)
        self.decisions.waiting.pop(seat, None)
        effects: list[Effect] = [Persist(record), *self._send_events(step.events)]
        if self.engine.is_terminal(self.state):
            effects += self._finish_hand(now)
        else:
            self._refresh(now, acted=True)
            self.decisions.answer(seat, self.version)
            effects += self._broadcast_states(now)
        return effects

    def _finish_hand(self, now: float) -> list[Effect]:
        scores = self.match.finish(self.state)
        self.phase = HAND_OVER
        self.decisions.clear()
        self._next_hand_at = now + self.settings.between_hands
        event = Event(
            "hand_scored", {"hand": self.hand, "scores": list(scores), "totals": list(self.totals)}
        )
        return [
            Persist(HandRecord(self.hand, scores, self.totals)),
            *self._send_events((event,)),
            *self._broadcast_states(now),
        ]

    def _refresh(self, now: float, acted: bool = False) -> None:
        self.decisions.refresh(self.engine, self.state, self.version, now, self.bots, acted)

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
        self.viewers.restart_above(self.version)
        for waiting in self.decisions.waiting.values():
            waiting.shown_from = None

    # ------------------------------------------------------------------ time

    def next_deadline(self) -> float | None:
        """The earliest time at which ``tick`` has something to do, or ``None``."""
        times = [t for t in (self.decisions.next_deadline(), self._next_hand_at) if t is not None]
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
        seat = self.decisions.due(now) if self.phase == PLAYING else None
        if seat is None:
            return None
        return lambda: self._automatic_action(seat, now)

    def _next_hand(self, now: float) -> list[Effect]:
        self.match.advance()
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
        waiting = self.decisions.waiting.get(seat) if seat is not None else None
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
            "seats": self.seats.public(),
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

        In a claim window, *who* is asked reveals who can claim the tile, so the engine's
        ``public_to_act`` narrows what is public; a seat always knows that it is itself asked.
        """
        waiting = set(self.decisions.waiting)
        if self.state is None:
            return waiting
        return waiting & set(self.engine.public_to_act(self.state))

    def _broadcast_states(self, now: float) -> list[Effect]:
        """A state message for every viewer whose state changed in anything but the version
        (see ``Viewers.show``)."""
        targets = self.seats.humans()
        sends: list[Effect] = []
        for target, viewer in [*((s, s) for s in targets), (SPECTATORS, None)]:
            waiting = self.decisions.waiting.get(viewer) if viewer is not None else None
            send = self.viewers.show(target, self.snapshot(viewer, now), waiting)
            if send is not None:
                sends.append(send)
        return sends

    def _send_events(self, events: tuple[Event, ...]) -> list[Effect]:
        sends: list[Effect] = []
        for event in events:
            message = {"kind": event.kind, "data": dict(event.data)}
            for seat in self.seats.humans():
                if event.visible_to(seat):
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
            self._refresh(now)
        return [Persist(self.status()), *self._broadcast_states(now)]

    # ------------------------------------------------------------------ for the host

    def info(self) -> RoomInfo:
        """A read-only copy of the room's public facts, for the host (lobby, routing)."""
        return RoomInfo(
            room_id=self.room_id,
            variant=self.engine.name,
            phase=self.phase,
            hand=self.hand,
            seats=tuple(replace(slot) for slot in self.seats.slots),
            options=dict(self.options),
            preset=self.preset,
            private=self.private,
            rematch=self.rematch,
        )

    def restore_seat(self, seat: Seat, kind: str, name: str, ready: bool, bot_level: int) -> None:
        """Seat a stored occupant again before ``restore`` (a restart; nothing is sent)."""
        if self.phase != WAITING or self.seats.kind(seat) != "empty":
            raise SeatTaken(f"seat {seat} is not free")
        if kind == "bot":
            self._make_bot(seat, bot_level, name or f"bot {seat}")
        elif kind == "human":
            self.seats.seat_person(seat, name, ready=ready, connected=False)

    def status(self) -> RoomStatus:
        """The room's summary as it is stored."""
        return RoomStatus(self.phase, self.totals, self.seats.stored())

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
            "seats": self.seats.public(),
            "to_act": sorted(self._public_waiting()),
            "options": self.options,
        }


def _describe(exc: BaseException) -> str:
    """An exception with its traceback, as one text for the host's log."""
    return "".join(traceback.format_exception(exc)).rstrip()
