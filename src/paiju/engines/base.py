"""The Engine protocol every variant implements, and the registry of variants.

An engine is pure: state in, action in, new state and events out. It imports only the
standard library and ``paiju.core``; no asyncio, sockets, clocks, logging or global RNG.

Conventions that let a variant plug in by touching only its own package plus one line of
``_REGISTRY`` below:

* ``paiju.engines.<variant>`` — the engine, registered here as ``"module:Class"``.
* ``paiju.engines.<variant>.judge`` — ``answer(request: dict) -> dict`` for ``paiju judge``.
* ``paiju.bots.<variant>`` — ``make_bot(level: int, rng: Rng) -> Bot`` (see ``paiju.bots``).

Optional engine methods the table and self-play use when present:

* ``timer_kind(state, seat) -> str`` — which timer of the room preset's ``[timers]`` applies
  ("turn", "claim", "bid", ...); without it every decision is a "turn".
* ``public_to_act(state) -> frozenset[Seat]`` — the waiting seats everyone may know about;
  without it all of ``to_act`` is public. Claim windows return less, because who is asked
  reveals who can use the tile.
* ``hand_stats(state) -> list[dict[str, float]]`` — per-seat figures of a finished hand
  (win, deal-in, ...) that the self-play report averages per bot level.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from paiju.core.errors import UnknownVariant
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
    """

    hand: int
    totals: tuple[int, ...]
    carry: Mapping[str, JSON] = field(default_factory=dict)


class Engine(Protocol[S, A]):
    """A variant's rules. States are immutable; every method is a pure function.

    ``legal_actions`` is the one source of legality: ``apply`` raises a ``GameError`` for
    exactly the actions that are not in it (``NotYourTurn`` for a seat that is not to act,
    ``IllegalAction`` with a rule-naming code otherwise) and never mutates its input.
    """

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
        """A number that every ``apply`` increases; clients echo it with their actions."""
        ...

    def to_act(self, state: S) -> frozenset[Seat]:
        """The seats whose action the game waits for (several during a simultaneous decision)."""
        ...

    def legal_actions(self, state: S, seat: Seat) -> frozenset[A]:
        """Every action ``seat`` may take now; empty when it is not to act."""
        ...

    def apply(self, state: S, seat: Seat, action: A) -> Step[S]:
        """Validate and apply ``action`` by ``seat``; raise a ``GameError`` if not legal."""
        ...

    def view(self, state: S, seat: Seat | None) -> dict[str, JSON]:
        """What ``seat`` may see (``None``: a spectator), as JSON data with ``legal`` actions."""
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


#: Variant name -> "module:attribute" of the engine class. One line per variant.
_REGISTRY: dict[str, str] = {
    "diu": "paiju.engines.diu.engine:DiuEngine",
    "dragon": "paiju.engines.dragon.engine:DragonEngine",
    "mcr": "paiju.engines.mcr.engine:McrEngine",
    "shengji": "paiju.engines.shengji.engine:ShengjiEngine",
}


def variants() -> tuple[str, ...]:
    """The registered variant names, sorted."""
    return tuple(sorted(_REGISTRY))


def get_engine(name: str) -> Engine[Any, Any]:
    """A fresh engine instance for ``name``; ``UnknownVariant`` if none is registered."""
    target = _REGISTRY.get(name)
    if target is None:
        known = ", ".join(variants())
        raise UnknownVariant(f"no variant named {name!r}; known variants: {known}")
    module_name, _, attr = target.partition(":")
    engine_class = getattr(importlib.import_module(module_name), attr)
    engine: Engine[Any, Any] = engine_class()
    return engine
