"""The Engine protocol: the whole contract between a variant's rules and their users.

An engine is pure: state in, action in, new state and events out. It imports only the
standard library and ``paiju.core``; no asyncio, sockets, clocks, logging or global RNG.

Every member of ``Engine`` is required, and nothing else of an engine is used: the table,
the server, replay and self-play call exactly these members, never probe for others, and read
no key of a view. ``EngineDefaults`` supplies the members whose usual behaviour most variants
share (timers, public waiting seats, hand figures, the legality check), so a small variant
writes only its rules. A variant is registered as a ``paiju.engines.variant.Variant`` through
the ``paiju.variants`` entry-point group (see ``paiju.engines.registry`` and docs/variants.md).

Legality is defined once. ``legal_actions`` lists what a seat may do; ``legal_complete`` says
whether the list is the whole set (false only where it is too large to list, e.g. shengji
leads). ``check_action`` is the one legality check: ``apply`` calls it first and accepts
exactly the actions it accepts, which are the listed actions when the list is complete, and
raises the typed ``GameError`` family (never ``ValueError``, ``AttributeError`` ...) for any
other object, malformed ones included.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from paiju.core.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from paiju.core.rng import Rng
from paiju.core.seats import Seat

S = TypeVar("S")
A = TypeVar("A")

#: JSON-compatible data (views, events, carried match data, options).
JSON = Any
Options = Mapping[str, JSON]


@dataclass(frozen=True)
class Event:
    """Something that happened, for clients' logs and animations.

    ``audience`` is the set of seats that may see it; ``None`` means everyone, spectators
    included. Engines put private facts (a drawn tile) in events addressed to one seat.
    ``data`` is one of the variant's declared event types (``Variant.events[kind]``).
    """

    kind: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    audience: frozenset[Seat] | None = None

    def visible_to(self, seat: Seat | None) -> bool:
        """Whether ``seat`` (``None`` for a spectator) may see this event."""
        return self.audience is None or (seat is not None and seat in self.audience)


@dataclass(frozen=True)
class Step(Generic[S]):
    """The result of applying one action: the new state and what happened."""

    state: S
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class MatchInfo:
    """What a new hand needs to know about the match so far.

    ``hand`` is the 0-based index of the hand being dealt, ``totals`` the cumulative scores
    per seat, and ``carry`` the engine's own JSON data from the previous hand (dealer,
    prevalent wind, levels, ...), as returned by ``Engine.carry``; empty for the first hand.
    ``deal_scheme`` names how the room deals (docs/fairness.md): an engine that shuffles again
    later in a hand (a shengji redeal) follows it, so old rooms' logs still replay.
    """

    hand: int
    totals: tuple[int, ...]
    carry: Mapping[str, JSON] = field(default_factory=dict)
    deal_scheme: str = "fair-v1"


class Engine(Protocol[S, A]):
    """A variant's rules. States are immutable; every method is a pure function."""

    name: str

    def normalize_options(self, raw: Options) -> dict[str, JSON]:
        """Every option with defaults filled in; ``InvalidOptions`` for unknown keys or values."""
        ...

    def seat_count(self, options: Options) -> int:
        """How many seats a table of these (normalized) options has."""
        ...

    def initial_state(self, options: Options, rng: Rng, match: MatchInfo) -> S:
        """Deal a new hand. ``rng`` is the hand's own generator (derived from the match seed)."""
        ...

    def version(self, state: S) -> int:
        """A number that every ``apply`` increases (for logs and the table; never in a view:
        it counts secret answers too)."""
        ...

    def to_act(self, state: S) -> frozenset[Seat]:
        """The seats whose action the game waits for (several during a simultaneous decision)."""
        ...

    def public_to_act(self, state: S) -> frozenset[Seat]:
        """The waiting seats every viewer may know about (a subset of ``to_act``). Less than
        ``to_act`` where being asked is itself a secret (who may claim a discard)."""
        ...

    def timer_kind(self, state: S, seat: Seat) -> str:
        """Which timer of the room preset's ``[timers]`` applies to ``seat``'s decision
        ("turn", "claim", "bid", ...); it may depend only on what everyone can see."""
        ...

    def legal_actions(self, state: S, seat: Seat) -> frozenset[A]:
        """Actions ``seat`` may take now (all of them when ``legal_complete``); empty when it
        is not to act. Every listed action is accepted by ``check_action``."""
        ...

    def legal_complete(self, state: S, seat: Seat) -> bool:
        """Whether ``legal_actions`` lists every action ``check_action`` accepts."""
        ...

    def legal_key(self, state: S, seat: Seat) -> Hashable:
        """A value that, within a hand, is equal for two states exactly when ``seat`` may
        take the same actions in both (equal values always mean equal actions; never
        ``None``): the table keeps it while the seat's decision is open, to tell whether an
        action changed the seat's options (a new decision). Usually ``legal_actions`` itself;
        a variant whose options are a function of something smaller names that instead, and
        an open decision then holds no list."""
        ...

    def check_action(self, state: S, seat: Seat, action: object) -> A:
        """The legality check: the action as ``apply`` applies it (its canonical object) if
        ``apply`` accepts ``action`` by ``seat``, else raise the ``GameError`` that ``apply``
        raises (``GameOver``, ``NotYourTurn``, ``MalformedAction`` for an object that is no
        action of this variant, ``IllegalAction`` with a rule-naming code). Any object may be
        passed."""
        ...

    def apply(self, state: S, seat: Seat, action: A) -> Step[S]:
        """Check (``check_action``) and apply ``action`` by ``seat``; never mutates ``state``."""
        ...

    def view(self, state: S, seat: Seat | None) -> Mapping[str, JSON]:
        """What ``seat`` may see (``None``: a spectator), as the variant's declared view type
        with ``legal`` (formatted ``legal_actions``) and ``legal_complete``."""
        ...

    def bot_view(self, state: S, seat: Seat) -> Mapping[str, JSON]:
        """The view the table hands a bot that plays ``seat`` (its own bot, or a person's
        trustee) when the seat is to act: read in full, equal to ``view(state, seat)``, but
        the variant may put off working out a key until a bot reads it (the table checks
        the bot's answer like any other action)."""
        ...

    def timeout_action(self, state: S, seat: Seat) -> A:
        """The action taken for ``seat`` when its time runs out (it must be legal)."""
        ...

    def is_terminal(self, state: S) -> bool:
        """Whether the hand is over."""
        ...

    def scores(self, state: S) -> tuple[int, ...]:
        """Per-seat score of the hand (zero-sum where the variant is); zeros until it ends."""
        ...

    def hand_stats(self, state: S) -> list[dict[str, float]]:
        """Per-seat figures of a finished hand (win, deal-in, ...) that self-play averages per
        bot level; an empty dict per seat when the variant has none."""
        ...

    def carry(self, state: S) -> dict[str, JSON]:
        """JSON data the next hand of the match needs (``MatchInfo.carry``)."""
        ...

    def match_over(self, options: Options, match: MatchInfo) -> bool:
        """Whether the match ends before the hand described by ``match`` would be dealt."""
        ...

    def parse_action(self, text: str) -> A:
        """The action in canonical notation; ``MalformedAction`` if it cannot be read."""
        ...

    def format_action(self, action: A) -> str:
        """Canonical notation: ``parse_action(format_action(a)) == a``."""
        ...


class EngineDefaults(ABC, Generic[S, A]):
    """The usual behaviour of the optional-looking members of ``Engine``; subclass it and
    override what differs. Abstract methods are the ones these defaults are built on.

    * ``public_to_act``: all of ``to_act`` is public.
    * ``timer_kind``: every decision is a ``"turn"``.
    * ``hand_stats``: no figures.
    * ``legal_complete``: the list is complete.
    * ``legal_key``: the legal actions themselves.
    * ``bot_view``: the view itself.
    * ``check_action``: the hand is not over, the seat is to act, the object is an action
      (it round-trips through the notation), and it is listed; ``refusal`` is the error
      (naming the broken rule) for one that is not, ``check_unlisted`` judges the actions a
      variant with incomplete lists leaves out.
    """

    @abstractmethod
    def to_act(self, state: S) -> frozenset[Seat]: ...

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> frozenset[A]: ...

    @abstractmethod
    def is_terminal(self, state: S) -> bool: ...

    @abstractmethod
    def scores(self, state: S) -> tuple[int, ...]: ...

    @abstractmethod
    def parse_action(self, text: str) -> A: ...

    @abstractmethod
    def format_action(self, action: A) -> str: ...

    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> Mapping[str, JSON]: ...

    def public_to_act(self, state: S) -> frozenset[Seat]:
        return self.to_act(state)

    def timer_kind(self, state: S, seat: Seat) -> str:
        return "turn"

    def hand_stats(self, state: S) -> list[dict[str, float]]:
        return [{} for _ in self.scores(state)]

    def legal_complete(self, state: S, seat: Seat) -> bool:
        return True

    def legal_key(self, state: S, seat: Seat) -> Hashable:
        return self.legal_actions(state, seat)

    def bot_view(self, state: S, seat: Seat) -> Mapping[str, JSON]:
        return self.view(state, seat)

    def check_action(self, state: S, seat: Seat, action: object) -> A:
        if self.is_terminal(state):
            raise GameOver("the hand is over")
        if seat not in self.to_act(state):
            raise NotYourTurn(f"seat {seat} is not to act")
        checked = self.well_formed(action)
        if checked in self.legal_actions(state, seat):
            return checked
        if not self.legal_complete(state, seat):
            self.check_unlisted(state, seat, checked)
            return checked
        raise self.refusal(state, seat, checked)

    def well_formed(self, action: object) -> A:
        """``action`` as this variant's canonical action object. It must survive the notation
        unchanged (the one definition of a well-formed action object); ``MalformedAction``
        otherwise."""
        parsed: A | None = None
        try:
            parsed = self.parse_action(self.format_action(action))  # type: ignore[arg-type]
            same = parsed == action
        except Exception:
            # Formatting a foreign object fails in its own way (AttributeError, IndexError,
            # TypeError ...); every one of them means "this is not an action".
            same = False
        if not same or parsed is None:
            raise MalformedAction(f"not an action of this variant: a {type(action).__name__}")
        return parsed

    def refusal(self, state: S, seat: Seat, action: A) -> IllegalAction:
        """The error for a well-formed action outside a complete list: an ``IllegalAction``
        whose code names the broken rule (here only the generic ``illegal_action``)."""
        return IllegalAction(f"{self.format_action(action)} is not legal now")

    def check_unlisted(self, state: S, seat: Seat, action: A) -> None:
        """Judge an unlisted action where ``legal_complete`` is false; raise if illegal."""
        raise IllegalAction(f"{self.format_action(action)} is not legal now")
