"""The state of one hand: frozen dataclasses of tuples (hashable, comparable, never mutated).

Phases: ``deal`` (one card at a time with bidding 亮主 between rounds), ``bury`` (the
landlord 庄家 takes the kitty 底牌 and buries eight cards one by one), ``theft`` (option
``kitty_theft`` 炒地皮: a bidding window after each burial; the winner of a new bid, the
``exchanger``, takes the buried cards and buries again), ``play`` (25 tricks), ``over``.
``theft_from`` is the number of bids made before the open theft window.
Teams: team 0 is seats 0 and 2, team 1 is seats 1 and 3, each with a level (``levels``);
in Finding Friends (找朋友) every seat has its own level and the landlord's side is the
landlord plus whoever plays the ``friend`` card (``(card, n)``: the n-th copy played).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar, overload

from paiju.core import frozen
from paiju.engines.shengji.cards import HAND_SIZE, SEATS
from paiju.engines.shengji.options import context
from paiju.engines.shengji.order import TrumpContext
from paiju.engines.shengji.shapes import Unit

__all__ = [  # ``changed`` is imported from dataclasses while type checking: named here
    "DEAL_CARDS", "Bid", "Play", "ShengjiState", "ThrowFailure", "Trick", "changed", "with_hand",
]

DEAL_CARDS = HAND_SIZE * SEATS


@dataclass(frozen=True)
class Bid:
    """A declaration: ``count`` identical ``card``s (level cards or a joker pair)."""

    seat: int
    card: str
    count: int


@dataclass(frozen=True)
class Play:
    """The cards one seat put on the table in a trick."""

    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Trick:
    """A finished trick: plays in order, its winner, points and largest lead component."""

    plays: tuple[Play, ...]
    winner: int
    points: int
    largest: int


@dataclass(frozen=True)
class ThrowFailure:
    """A failed throw: everyone sees the attempt and the forced component. ``penalty`` is
    the amount (option ``throw_penalty``); its sign comes from the thrower's side."""

    seat: int
    attempted: tuple[str, ...]
    forced: tuple[str, ...]
    blocker: int
    penalty: int


_T = TypeVar("_T")


class _cached(cached_property[_T]):
    """``functools.cached_property`` without the lock it takes (Python 3.11) at each first
    read: a state is read in the one thread that made it, and two or three are made an
    action, each with its own memo; the lock was half the cost of a first read."""

    @overload
    def __get__(self, instance: None, owner: type[Any] | None = None) -> _cached[_T]: ...
    @overload
    def __get__(self, instance: object, owner: type[Any] | None = None) -> _T: ...
    def __get__(self, instance: object, owner: type[Any] | None = None) -> Any:
        if instance is None:
            return self
        assert self.attrname is not None  # set by __set_name__
        value = instance.__dict__[self.attrname] = self.func(instance)
        return value


@dataclass(frozen=True)
class ShengjiState:
    """One hand. ``options`` is the normalized option dict as sorted items."""

    options: tuple[tuple[str, Any], ...]
    version: int
    phase: str
    hand_no: int
    levels: tuple[int, ...]
    landlord: int | None
    level: int
    deal_start: int
    redeals: int
    deck: tuple[str, ...]
    dealt: int = 0
    hands: tuple[tuple[str, ...], ...] = ((), (), (), ())
    bids: tuple[Bid, ...] = ()
    asked: tuple[int, ...] = ()
    trump_suit: str | None = None
    trump_set: bool = False
    flipped: tuple[str, ...] = ()
    kitty: tuple[str, ...] = ()
    buried: tuple[str, ...] = ()
    exchanger: int | None = None
    theft_from: int = 0
    leader: int = 0
    trick: tuple[Play, ...] = ()
    lead_units: tuple[Unit, ...] = ()
    tricks: tuple[Trick, ...] = ()
    attacker_points: int = 0
    penalty: int = 0
    failures: tuple[ThrowFailure, ...] = ()
    kitty_bonus: int = 0
    match_winner: int | None = None
    new_levels: tuple[int, ...] | None = None
    deal_scheme: str = "fair-v1"  # how a redeal shuffles (bidding.new_deck)
    next_landlord: int | None = None
    friend: tuple[str, int] | None = None
    friend_seen: int = 0
    friend_seat: int | None = None
    match_seats: tuple[int, ...] = ()

    # The cached properties below are worked out once per state object (a state is never
    # changed) and kept in its instance dict, outside the fields: equality, hashing, ``replace``
    # and the snapshot codec see only the fields. The rules ask for them dozens of times per
    # action, and every viewer's view of the state asks again.

    def __getstate__(self) -> dict[str, Any]:
        """The fields only (for pickling and ``copy``): the cached values are worked out again
        where they are needed."""
        return {name: self.__dict__[name] for name in _FIELD_NAMES}

    @_cached
    def opts(self) -> Mapping[str, Any]:
        """The options as a (read-only) mapping."""
        return MappingProxyType(dict(self.options))

    @_cached
    def ctx(self) -> TrumpContext:
        """The trump context (meaningful once the trump is set)."""
        return context(self.level, self.trump_suit, self.opts)

    @_cached
    def derived(self) -> dict[Any, Any]:
        """A memo of values the engine derives from this state (each seat's legal list, who is
        to act), keyed by the deriving function's own key."""
        return {}

    @property
    def declarers(self) -> int:
        """The landlord's team (0 or 1); 0 before a landlord exists."""
        return (self.landlord or 0) % 2

    @_cached
    def friends_mode(self) -> bool:
        """Whether the table plays Finding Friends (找朋友, option ``game_mode``)."""
        return self.opts.get("game_mode") == "finding_friends"

    def landlord_team(self) -> frozenset[int]:
        """The declarers as far as they are public: the landlord and partner; in Finding
        Friends the landlord and the friend once the friend card has been played."""
        landlord = self.landlord or 0
        if not self.friends_mode:
            return frozenset({landlord, (landlord + 2) % SEATS})
        joined = {self.friend_seat} if self.friend_seat is not None else set()
        return frozenset({landlord, *joined})

    def is_attacker(self, seat: int) -> bool:
        """Whether ``seat`` is on the point-collecting side (闲家), as far as is public."""
        return seat not in self.landlord_team()

    def bump(self, **changes: Any) -> ShengjiState:
        """A copy with ``changes`` and the version increased."""
        return changed(self, version=self.version + 1, **changes)

    def turn(self) -> int | None:
        """The seat to play in the play phase."""
        if self.phase != "play":
            return None
        return (self.leader + len(self.trick)) % SEATS


_FIELD_NAMES = tuple(ShengjiState.__dataclass_fields__)
_FIELD_SET = frozenset(_FIELD_NAMES)
if TYPE_CHECKING:
    # The type checker reads ``changed`` as ``dataclasses.replace``, whose calls it checks
    # field by field.
    from dataclasses import replace as changed
else:

    def changed(state: ShengjiState, /, **changes: Any) -> ShengjiState:
        """A copy of ``state`` with ``changes``: what ``dataclasses.replace`` makes, for less,
        keeping the cached values worked out from fields that ``changes`` leaves alone
        (``_KEPT_UNLESS``): the copies of a hand then do not build them again (a 27-key
        mapping, a context look-up), and, being in the instance dict, they are read without
        the descriptor's call.

        The instance dict is copied whole (at C speed) and the cached values it may not keep
        are taken out: the rules copy their state two or three times an action, and copying
        the 37 fields one by one (``core.frozen.changed``) was most of a copy's cost."""
        if not _FIELD_SET.issuperset(changes):
            return frozen.changed(state, **changes)  # raises replace's TypeError
        fields = state.__dict__.copy()
        if len(fields) != _FIELD_COUNT:  # cached values are held: keep only those still true
            for name, source in _CACHED_SOURCES:
                if name in fields and (source is None or not source.isdisjoint(changes)):
                    del fields[name]
        fields.update(changes)
        copy = object.__new__(ShengjiState)
        object.__setattr__(copy, "__dict__", fields)  # as a frozen class's __init__ sets them
        return copy


#: The fields each cached value is worked out from, for those a copy may keep: the option
#: mapping and the mode depend on the options alone, the trump context also on the level and
#: the trump suit. Every other cached value (``derived``: legal lists, who is to act) is
#: never handed on.
_KEPT_UNLESS = {
    "opts": frozenset({"options"}),
    "friends_mode": frozenset({"options"}),
    "ctx": frozenset({"options", "level", "trump_suit"}),
}
#: Every cached value of a state, with the fields it is worked out from (``None``: a value
#: no copy keeps), for ``changed``.
_CACHED_SOURCES = tuple(
    (name, _KEPT_UNLESS.get(name))
    for name, value in vars(ShengjiState).items()
    if isinstance(value, cached_property)
)
_FIELD_COUNT = len(_FIELD_NAMES)


def with_hand(
    hands: tuple[tuple[str, ...], ...], seat: int, hand: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    """``hands`` with ``seat``'s hand replaced."""
    return tuple(hand if i == seat else h for i, h in enumerate(hands))
