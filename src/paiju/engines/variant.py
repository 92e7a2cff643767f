"""``Variant``: everything a variant is, as one object that its package registers.

A variant package exposes one ``Variant`` and names it in its ``pyproject.toml``::

    [project.entry-points."paiju.variants"]
    toy = "toy_variant.variant:VARIANT"

paiju finds it there (``paiju.engines.registry``); nothing in paiju changes. The engine is
required; bots, the judge and the conformance adapter are optional, and asking for one a
variant lacks raises ``NotProvided`` with a sentence that says so. The view and event types
are ``TypedDict`` classes (stdlib, so engines stay pure) that the view code builds, so mypy
checks them, and that ``paiju schema`` exports as JSON Schema.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from paiju.core.errors import InvalidOptions, NotProvided
from paiju.core.rng import Rng
from paiju.core.seats import Seat
from paiju.engines.bot import Bot, RandomBot

if TYPE_CHECKING:
    from paiju.engines.base import Engine

S = TypeVar("S")
A = TypeVar("A")

Judge = Callable[[Mapping[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Conformance(Generic[S]):
    """What the conformance suite needs of a variant besides its engine.

    ``hidden_leaks(engine, state)``: every place some seat's view shows a tile or card that
    seat may not see (empty when none). ``redeal_unseen(state, seat, rng)``: the same state
    with the cards ``seat`` cannot see (``None``: a spectator) dealt again at random, kept
    consistent (same counts, derived data recomputed), or ``None`` where no consistent redeal
    exists; the suite checks that ``seat``'s view does not change. A variant without hidden
    information leaves ``redeal_unseen`` out. ``option_sets``: raw
    options, besides the defaults, that the suite plays under (the rules that change most).
    """

    hidden_leaks: Callable[[Engine[S, Any], S], list[str]]
    redeal_unseen: Callable[[S, Seat | None, Rng], S | None] | None = None
    option_sets: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Variant(Generic[S, A]):
    """A registered variant.

    * ``name`` — the registry key (the entry point's name must equal it).
    * ``engine`` — makes an ``Engine`` (a class works); one per room.
    * ``view`` — the ``TypedDict`` of what ``Engine.view`` returns.
    * ``events`` — event kind -> the ``TypedDict`` of its data.
    * ``error_codes`` — every rule-naming code the engine raises beyond the core family
      (``paiju.core.errors``), with its meaning.
    * ``bots`` — ``bots(level, rng) -> Bot`` for ``bot_levels`` (level 0, random-legal, is
      every variant's); ``None``: only level 0. Another level is ``InvalidOptions``.
    * ``judge`` — ``judge(request) -> answer`` behind ``paiju judge``; ``None``: no judge.
    * ``conformance`` — the conformance adapter; ``None``: the suite runs without the checks
      that need it.
    """

    name: str
    engine: Callable[[], Engine[S, A]]
    view: Any
    events: Mapping[str, Any] = field(default_factory=dict)
    error_codes: Mapping[str, str] = field(default_factory=dict)
    bots: Callable[[int, Rng], Bot] | None = None
    bot_levels: tuple[int, ...] = ()
    judge: Judge | None = None
    conformance: Conformance[S] | None = None

    def make_bot(self, level: int, rng: Rng) -> Bot:
        """The bot of ``level`` drawing from ``rng``; ``InvalidOptions`` for a level it lacks
        (a room's bot level is one of its options)."""
        self.check_bot_level(level)
        if level == 0 or self.bots is None:
            return RandomBot(rng)
        return self.bots(level, rng)

    def check_bot_level(self, level: int) -> None:
        """``InvalidOptions`` naming the levels there are, unless the variant has ``level``."""
        if level != 0 and (self.bots is None or level not in self.bot_levels):
            levels = ", ".join(str(x) for x in (0, *self.bot_levels))
            raise InvalidOptions(f"{self.name} has no bot level {level} (levels: {levels})")

    def answer(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """The judge's answer to ``request``; ``NotProvided`` if the variant has no judge."""
        if self.judge is None:
            raise NotProvided(f"the variant {self.name!r} provides no judge")
        return self.judge(request)
