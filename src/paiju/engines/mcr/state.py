"""The immutable state of one MCR hand (一局).

Seats are fixed table places of the players (0..3). ``order`` lists the seats in wind order
for this hand: ``order[0]`` is the dealer (庄, East), then South, West, North; play runs along
``order``. Between wind rounds players change places (see ``match.py``), which is why the
order is data rather than ``seat + 1``.

Everything is a tuple so that states are hashable and compare with ``==``. Derived facts that
are expensive to recompute (the waits of every hand, the hu evaluations of an open window) are
computed once when the state is built; they depend only on the rest of the state, so replay
still gives equal states.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from paiju.core.seats import Seat
from paiju.engines.mcr.actions import Action
from paiju.engines.mcr.tiles import Tile

# Phases of a hand.
TURN = "turn"  # ``current`` holds 3n+2 tiles and must discard (or hu / kong)
CLAIM = "claim"  # a discard is on the table; eligible seats answer simultaneously
ROB = "rob"  # an added kong is on the table; other seats may only hu on it (抢杠)
OVER = "over"  # the hand has ended (win or exhaustive draw)

# Who a claim window asks (the ``claim_prompts`` option).
PROMPT_ELIGIBLE = "eligible"  # only the seats with a legal claim
PROMPT_ALL = "all"  # every seat but the discarder / kong-maker; the others get only ``pass``

# Meld kinds. ``bugang`` is an added kong (加杠) grown from an exposed pung.
CHI_MELD = "chi"
PENG_MELD = "peng"
GANG_MELD = "gang"
BUGANG_MELD = "bugang"
ANGANG_MELD = "angang"


@dataclass(frozen=True)
class Rules:
    """The table options of a hand (normalized)."""

    multiple_win: bool = False
    concealed_and_melded_kong_5: bool = False
    min_fan: int = 8
    rounds: int = 4
    claim_prompts: str = PROMPT_ELIGIBLE


@dataclass(frozen=True)
class Meld:
    """An exposed (or concealed-kong) set. Tile and offer follow the Botzone convention.

    ``tile`` is the middle tile for a chow and the repeated tile otherwise. ``offer`` is, for a
    chow, which of the three tiles was claimed (1 lowest .. 3 highest); for a pung or kong, the
    relative place of the seat that supplied the tile (1 left/上家, 2 opposite, 3 right/下家);
    0 for a concealed kong.
    """

    kind: str
    tile: Tile
    offer: int

    @property
    def is_kong(self) -> bool:
        return self.kind in (GANG_MELD, BUGANG_MELD, ANGANG_MELD)

    def tiles(self) -> tuple[Tile, ...]:
        """The physical tiles of the meld."""
        if self.kind == CHI_MELD:
            return (self.tile - 1, self.tile, self.tile + 1)
        return (self.tile,) * (4 if self.is_kong else 3)


@dataclass(frozen=True)
class Win:
    """A legal hu (和牌) with its evaluation.

    ``source`` is the seat that pays as discarder (``None`` for a self-drawn win).
    ``fans`` holds ``(english_name, points, count)`` triples; ``total`` includes flowers.
    """

    seat: Seat
    tile: Tile
    source: Seat | None
    robbed: bool
    fans: tuple[tuple[str, int, int], ...]
    total: int


@dataclass(frozen=True)
class Window:
    """An open claim window (on a discard or on an added kong's tile).

    ``options`` maps each asked seat to its legal actions (``{pass}`` alone for a seat that
    is asked only because ``claim_prompts`` is ``"all"``); ``responses`` records the answers
    given so far (hidden from other seats until the window resolves); ``wins`` holds the
    precomputed evaluation for every seat that may hu.
    """

    tile: Tile
    source: Seat
    options: tuple[tuple[Seat, frozenset[Action]], ...]
    responses: tuple[tuple[Seat, Action], ...] = ()
    wins: tuple[Win, ...] = ()

    def options_of(self, seat: Seat) -> frozenset[Action]:
        for s, acts in self.options:
            if s == seat:
                return acts
        return frozenset()

    def answered(self, seat: Seat) -> bool:
        return any(s == seat for s, _ in self.responses)

    def waiting(self) -> frozenset[Seat]:
        return self._waiting

    @cached_property
    def _waiting(self) -> frozenset[Seat]:
        # Worked out once per window (an answer makes a new window): the engine asks for it
        # with every question of who is to act. Kept in the instance dict, outside the
        # fields: equality and hashing see only the fields.
        # (the answered seats as a set: one pass over the answers, not one per asked seat)
        answered = {s for s, _ in self.responses}
        return frozenset(s for s, _ in self.options if s not in answered)

    def win_of(self, seat: Seat) -> Win | None:
        for w in self.wins:
            if w.seat == seat:
                return w
        return None


@dataclass(frozen=True)
class McrState:
    """One hand of MCR. ``version`` increases with every applied action.

    ``hands`` are sorted concealed tiles (concealed kongs are in ``melds`` instead).
    ``wall`` is drawn from the front; replacement tiles (flowers, kongs) come from the back —
    there is no dead wall. ``discards`` are the rivers; a claimed discard leaves the river for
    the claimer's meld. ``drawn`` is the tile drawn this turn (``None`` when the turn began with
    a chow/pung claim: the seat may only discard). ``after_kong`` marks that ``drawn`` is a kong
    replacement (杠上开花). ``waits`` holds every seat's winning tiles while it holds 3n+1.
    """

    version: int
    rules: Rules
    hand_index: int
    prevalent: int
    order: tuple[Seat, ...]
    wall: tuple[Tile, ...]
    hands: tuple[tuple[Tile, ...], ...]
    melds: tuple[tuple[Meld, ...], ...]
    flowers: tuple[tuple[Tile, ...], ...]
    discards: tuple[tuple[Tile, ...], ...]
    waits: tuple[frozenset[Tile], ...]
    phase: str
    current: Seat
    drawn: Tile | None = None
    after_kong: bool = False
    turn_win: Win | None = None
    window: Window | None = None
    wins: tuple[Win, ...] = ()
    result: tuple[int, ...] = (0, 0, 0, 0)
    last_discard: tuple[Seat, Tile] | None = None  # the newest unclaimed discard in a river

    @property
    def dealer(self) -> Seat:
        return self.order[0]

    def seat_wind(self, seat: Seat) -> int:
        """0 East .. 3 North for this hand."""
        return self.order.index(seat)

    def next_seat(self, seat: Seat) -> Seat:
        """The seat that plays after ``seat`` (下家)."""
        return self.order[(self.order.index(seat) + 1) % 4]

    def relative(self, seat: Seat, source: Seat) -> int:
        """Botzone offer of ``source`` seen from ``seat``: 1 left (上家), 2 opposite, 3 right."""
        return (self.order.index(seat) - self.order.index(source)) % 4


def evolve(state: McrState, **changes: Any) -> McrState:
    """``dataclasses.replace`` for ``McrState`` without re-running ``__init__``.

    The engine makes several small changes per action; copying the instance dict is an order
    of magnitude cheaper than ``replace`` and gives an equal, equally frozen state. Only field
    names may be changed (checked, so a typo cannot add an attribute).
    """
    if not _FIELDS.issuperset(changes):
        raise TypeError(f"McrState has no fields {sorted(changes.keys() - _FIELDS)}")
    fields = state.__dict__.copy()  # the fields alone: McrState keeps nothing else there
    fields.update(changes)
    new = object.__new__(McrState)
    object.__setattr__(new, "__dict__", fields)
    return new


_FIELDS = frozenset(McrState.__dataclass_fields__)
