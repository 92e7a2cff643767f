"""One room's table: seats, the match (hand after hand), decisions and their deadlines, bots,
trustees, timeouts, and what each viewer is sent.

Sans-I/O in the manner of the websockets library's ``Protocol``: ``handle(seat, command, now)``
and ``tick(now)`` return effects, ``next_deadline()`` says when ``tick`` wants to be called.
``now`` is any monotonic clock in seconds; tests pass plain numbers. The pieces live beside
this module: ``match`` (hand bookkeeping, fair deals), ``decisions`` (who is asked, deadlines),
``viewers`` (per-viewer versions), ``seats``, ``phases``, ``ledger`` (the hash chain of what
is stored), ``output`` (the messages) and ``restore`` (a quiet rebuild from stored records).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from paiju.core.errors import IllegalAction, InvalidOptions, NotYourTurn
from paiju.core.fairness import FAIR_V1
from paiju.core.seats import Seat
from paiju.engines.base import Engine, Event
from paiju.table import commands as c
from paiju.table.decisions import Decisions, TableSettings, Waiting
from paiju.table.effects import (
    ActionRecord,
    DealRecord,
    Effect,
    HandRecord,
    Incident,
    Send,
)
from paiju.table.errors import (
    AlreadyAnswered,
    NotSeated,
    RoomFull,
    SeatTaken,
    WrongPhase,
)
from paiju.table.keeping import Keeping
from paiju.table.ledger import Ledger
from paiju.table.match import Match
from paiju.table.output import Output
from paiju.table.phases import CLOSED, FINISHED, HAND_OVER, PLAYING, WAITING, Phase
from paiju.table.records import RoomCreated
from paiju.table.seats import BotFactory, RoomInfo, SeatBot, Seats, SeatSlot
from paiju.table.trustees import Trustees
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
#: Phases in which a match is under way (a person's seat can be in trustee mode).
MATCH_ON = (PLAYING, HAND_OVER)


class TableFailed(Exception):
    """``tick`` failed part-way (an engine bug); ``effects`` are those of what it already did.

    Actions taken before the failure changed the table, so their effects (their ``Persist``
    records above all) must still be carried out, or the log would lose them.
    """

    def __init__(self, effects: list[Effect]) -> None:
        super().__init__("the table failed while acting on its own")
        self.effects = effects


class Table(Keeping, Trustees, Output):
    """The authoritative state machine of one room. See the module docstring."""

    def __init__(
        self,
        room_id: str,
        engine: Engine[Any, Any],
        options: Mapping[str, Any],
        seed: str,
        settings: TableSettings,
        bot_factory: BotFactory,
        scheme: str = FAIR_V1,
    ) -> None:
        self.room_id = room_id
        self.engine = engine
        self.options = dict(options)
        self.seed = seed
        self.settings = settings
        self.seat_count = engine.seat_count(self.options)
        self.seats = Seats(self.seat_count, bot_factory)
        self.phase: Phase = WAITING
        # Counts every change; stored with every record, never sent to a player.
        self.version = 0
        self.match = Match(engine, self.options, seed, scheme=scheme)
        self.state: Any = None
        self.seq = 0
        self.close_reason = ""
        self.last_joined: Seat | None = None
        self.decisions = Decisions(settings)
        self.viewers = Viewers()
        self.ledger = Ledger()  # the room's hash chain; the host sets it when it restores
        self.genesis = ""  # the hash of the room's entry 0
        self._next_hand_at: float | None = None
        self._deal_due = False  # a restore found a deal that was due but not yet made
        self._hand_seq = 0  # ``seq`` when the hand on the table was dealt
        self.preset: str | None = None  # how the room was made, for the lobby and clients
        self.private = False
        self.rematch: str | None = None  # the room id of this match's rematch, once offered
        # Whether any spectator (or operator) receives the spectators' messages: the host
        # sets it, so that nobody's view is built while nobody watches.
        self.watched: Callable[[], bool] = _always
        self._facts = None

    @property
    def bots(self) -> dict[Seat, SeatBot]:
        """The seats bots hold."""
        return self.seats.bots

    @property
    def hand(self) -> int:
        """The hand being played (or just finished)."""
        return self.match.hand

    # ------------------------------------------------------------------ commands

    def handle(self, seat: Seat | None, command: c.Command, now: float) -> list[Effect]:
        """Carry out ``command`` from ``seat`` (``None``: not seated / the operator).

        Raises a ``GameError`` and changes nothing if the command is refused.
        """
        if self.phase == CLOSED:
            raise WrongPhase("the room is closed")
        operator = self._operator(command, now)
        if operator is not None:
            return operator()
        if seat is None:
            raise NotSeated("join a seat first")
        if isinstance(command, c.Act):
            return self._act(seat, command.version, command.action, "player", now)
        if isinstance(command, c.Ready):
            return self._ready(seat, command.ready, now)
        if isinstance(command, c.Connected):
            return self._connected(seat, command.connected, now)
        if isinstance(command, c.Leave):
            return self._leave(seat, now)
        if isinstance(command, c.SendSeed):
            return self._seed(seat, command.hand, command.seed, now)
        if isinstance(command, c.TakeBack):
            return self._take_back(seat, now)
        raise IllegalAction(f"unknown command {type(command).__name__}")

    def _operator(self, command: c.Command, now: float) -> Callable[[], list[Effect]] | None:
        """The handler of a command that needs no seat (joining, operator commands)."""
        if isinstance(command, c.Join):
            return lambda: self._join(command, now)
        if isinstance(command, c.Start):
            return lambda: self._start(command.bot_level, now)
        if isinstance(command, c.Close):
            return lambda: self._close(command.reason)
        if isinstance(command, c.AddBot):
            return lambda: self._add_bot(command.seat, command.level, now)
        if isinstance(command, c.RemoveBot):
            return lambda: self._remove_bot(command.seat, now)
        if isinstance(command, c.OfferRematch):
            return lambda: self._offer_rematch(command.room, now)
        if isinstance(command, c.SetTrustee):
            return lambda: self._set_trustee(command.seat, command.on, now)
        if isinstance(command, c.Claim):
            return lambda: self._claim(command.seat, command.name, now)
        return None

    def open_room(self, created: RoomCreated) -> list[Effect]:
        """The records of a new room: its creation (entry 0) and its first status."""
        first = self._persist(created)
        self.genesis = first.entry.hash
        return [first, self._persist(self.status())]

    def _join(self, command: c.Join, now: float) -> list[Effect]:
        if self.phase != WAITING:
            raise WrongPhase("the match has started; join as a spectator or resume your seat")
        seat = command.seat
        if seat is None:
            seat = self.seats.first_free()
            if seat is None:
                raise RoomFull(f"all {self.seat_count} seats are taken")
        elif not 0 <= seat < self.seat_count or self.seats.kind(seat) != "empty":
            raise SeatTaken(f"seat {seat} is not free")
        self.seats.seat_person(seat, command.name, program=command.program)
        self.last_joined = seat
        return self._changed(now)

    def _connected(self, seat: Seat, connected: bool, now: float) -> list[Effect]:
        """A (re)connection always ends with one full state for the seat, sent once. During
        a match a person who drops is played by the trustee; one who returns takes over."""
        slot = self.seats[seat]
        slot.connected = connected
        if self.phase in MATCH_ON and slot.kind == "human":
            if connected:
                slot.away = False
                self._trustee(seat, False, now)
            else:
                self._trustee(seat, True, now)
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
        """Before the match the seat is freed. Once it has started the seat stays the
        person's: the trustee plays it while they are away, and their token takes it back."""
        if self.phase == WAITING:
            self.seats.free(seat)
            return self._changed(now)
        slot = self.seats[seat]
        slot.away, slot.connected = True, False
        if self.phase in MATCH_ON:
            self._trustee(seat, True, now)
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
        self.seats.seat_bot(seat, self._new_bot(seat, level), level, f"bot {seat}")

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
        if self.phase == PLAYING:
            self._refresh(now)
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

    def _close(self, reason: str) -> list[Effect]:
        self.phase = CLOSED
        self.close_reason = reason
        self.decisions.clear()
        self._next_hand_at = None
        self.version += 1
        return [self._persist(self.status()), *self._broadcast_states(0.0)]

    # ------------------------------------------------------------------ the match

    def _begin_match(self, now: float) -> list[Effect]:
        self.match.restart()
        return self._deal(now)

    def _deal(self, now: float) -> list[Effect]:
        self._next_hand_at = None
        self._deal_due = False
        if self.match.over():
            self.phase = FINISHED  # the last hand's state stays on view
            self.version += 1
            event = Event("match_over", {"totals": list(self.totals)})
            return [
                self._persist(self.status()),
                *self._send_events((event,)),
                *self._broadcast_states(now),
            ]
        snapshot = self._persist(self.hand_snapshot())
        self._hand_seq = self.seq
        seeds = self.match.deal_seeds()
        self.state = self.match.deal(seeds)
        self.phase = PLAYING
        self.version += 1
        self.decisions.clear()
        self._refresh(now)
        commitment = self.match.commitment(self.hand)
        dealt = DealRecord(self.hand, commitment, tuple(s.stored() for s in seeds), self.version)
        data: dict[str, Any] = {"hand": self.hand}
        if commitment is not None:
            data["commitment"] = commitment
        return [
            snapshot,
            self._persist(dealt),
            self._persist(self.status()),
            *self._send_events((Event("hand_started", data),)),
            *self._broadcast_states(now),
        ]

    def _act(
        self, seat: Seat, version: int | None, text: str, source: str, now: float
    ) -> list[Effect]:
        """Apply ``text`` for ``seat``; ``version`` is the seat's own (``None``: the table acts
        for it — a bot, a trustee, a timeout — on the current state)."""
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
        seats_changed = self.count_timeouts(seat, source)
        self.decisions.waiting.pop(seat, None)
        if self.engine.is_terminal(self.state):
            return [self._persist(record), *self._send_events(step.events),
                    *self._finish_hand(now)]
        self._refresh(now, acted=True)
        self.decisions.answer(seat, self.version)
        effects: list[Effect] = [self._persist(record)]
        if seats_changed:
            effects.append(self._persist(self.status()))
        effects += self._state_snapshot()
        return [*effects, *self._send_events(step.events), *self._broadcast_states(now)]

    def _finish_hand(self, now: float) -> list[Effect]:
        scores = self.match.finish(self.state)
        self.phase = HAND_OVER
        self.decisions.clear()
        self._next_hand_at = now + self.settings.between_hands
        seed = self.match.hand_seed(self.hand).hex() if self.match.fair else None
        stored = self._persist(HandRecord(self.hand, scores, self.totals, self.version, seed))
        data: dict[str, Any] = {
            "hand": self.hand,
            "scores": list(scores),
            "totals": list(self.totals),
            "chain": stored.entry.hash,
        }
        if seed is not None:
            data |= {
                "seed": seed,
                "commitment": self.match.commitment(self.hand),
                "next_commitment": self.match.next_commitment(),
            }
        return [
            stored,
            *self._send_events((Event("hand_scored", data),)),
            *self._broadcast_states(now),
        ]

    def _refresh(self, now: float, acted: bool = False, lazy: bool = False) -> None:
        delays = {
            seat: self.settings.bot_delay if seat in self.bots else self.settings.trustee_delay
            for seat in self.seats.automatic()
        }
        self.decisions.refresh(self.engine, self.state, self.version, now, delays, acted, lazy)

    # ------------------------------------------------------------------ time

    def next_deadline(self) -> float | None:
        """The earliest time at which ``tick`` has something to do, or ``None``."""
        if self._deal_due:
            return float("-inf")
        times = [t for t in (self.decisions.next_deadline(), self._next_hand_at) if t is not None]
        return min(times, default=None)

    def tick(self, now: float) -> list[Effect]:
        """Take every action that is due at ``now``: bot and trustee moves, timeouts, the
        next hand.

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
        if self._deal_due:
            return lambda: self._deal(now)
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
        player = self.seats.player(seat)
        incident: list[Effect] = []
        if player is not None:
            source = "bot" if seat in self.bots else "trustee"
            try:
                return self._act(
                    seat, None, player.choose(self.engine.bot_view(self.state, seat)), source, now
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
        if player is None:
            # A person's time ran out: tell that seat alone what was played for it, after
            # the action is stored (a notice never runs ahead of the log) and before the
            # new state (the page explains the change it is about to show).
            told = Event("timed_out", {"seat": seat, "action": text}, frozenset({seat}))
            stored = next((i for i, e in enumerate(effects) if isinstance(e, Send)), len(effects))
            effects = [*effects[:stored], *self._send_events((told,)), *effects[stored:]]
        return [*incident, *effects]

    # ------------------------------------------------------------------ records

    def _changed(self, now: float) -> list[Effect]:
        """The seats (or the phase) changed, not the game: the open decisions stay as they
        are (a trustee's deadline is moved where the trustee is switched)."""
        self.version += 1
        return [self._persist(self.status()), *self._broadcast_states(now)]

    # ------------------------------------------------------------------ for the host

    def resend(self, now: float, connected: Iterable[Seat] | None = None) -> list[Effect]:
        """A state for every viewer after the table was rebuilt from the store, which shows
        every person away: ``connected`` are the seats whose people are still connected
        (``None``: every person's seat), shown as connected again."""
        for seat in self.seats.humans() if connected is None else connected:
            if self.seats.kind(seat) == "human":
                self.seats[seat].connected = True
        return self._broadcast_states(now)

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
            "scheme": self.match.scheme,
            "chain": self.ledger.head,
        }


def _always() -> bool:
    return True


def _describe(exc: BaseException) -> str:
    """An exception with its traceback, as one text for the host's log."""
    return "".join(traceback.format_exception(exc)).rstrip()
