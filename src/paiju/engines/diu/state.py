"""The state of one hand of diu, its configuration and its actions (all frozen, hashable)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from paiju.core.seats import Seat
from paiju.engines.diu.arbitration import Poll, PollRules
from paiju.engines.diu.combos import ComboRules


@dataclass(frozen=True)
class Config:
    """The normalized options a hand needs, in hashable form."""

    players: int
    deck_profile: str
    wild_count: int
    combo: ComboRules
    poll: PollRules
    deal_sizes: tuple[int, ...]
    offer_above_standing: bool  # A12 option: offers reveal the standing call's level
    skip_silent_seats: bool  # option: auto-pass seats that can only pass (reveals that)
    timeout_discard: str
    dead_card_visible: bool
    head_rotation: str
    shuffle: str
    riffle_passes: int
    riffle_max_offset: int
    prefetch_mode: str
    prefetch_batch: int
    prefetch_refill_at: int
    scoring: str
    score_unit: int

    @staticmethod
    def from_options(o: Mapping[str, Any]) -> Config:
        """Build from ``options.normalize`` output."""
        return Config(
            players=o["players"],
            deck_profile=o["deck_profile"],
            wild_count=o["wild_count"],
            combo=ComboRules(
                o["deck_profile"],
                tuple(o["chi_shapes"]),
                o["wild_in_chi"],
                o["allow_upgrade_exposed_meld"],
                o["natural_four_level"],
                o["diu_requires_complete_hand"],
                o["diu_min_points"],
            ),
            poll=PollRules(
                o["chi_on_draw"],
                o["diu_on_discard"],
                o["forfeit_fallback"],
                o["poll_mode"] == "parallel",
            ),
            deal_sizes=tuple(o["deal_sizes"]),
            offer_above_standing=o["offer_calls"] == "above_standing",
            skip_silent_seats=o["silent_seats"] == "skip",
            timeout_discard=o["timeout_discard"],
            dead_card_visible=o["dead_card_visible"],
            head_rotation=o["head_rotation"],
            shuffle=o["shuffle"],
            riffle_passes=o["riffle_passes"],
            riffle_max_offset=o["riffle_max_offset"],
            prefetch_mode=o["prefetch_mode"],
            prefetch_batch=o["prefetch_batch"],
            prefetch_refill_at=o["prefetch_refill_at"],
            scoring=o["scoring"],
            score_unit=o["score_unit"],
        )


@dataclass(frozen=True, order=True)
class Action:
    """A seat's action. Notation (``format``/``parse`` in ``notation``):

    ``pass`` — pass a call, say no to a re-ask or a 丢 pick, or give a won card up (S15);
    ``call <chi|kuai|kuai_shui|hard_dui|ying_shui|diu>`` — a call when polled (or ``call diu``
    when re-asked); ``diu <card> <card>`` — the two hand cards of the 丢 (S5);
    ``take <cards…>`` / ``take m<i>`` — lay the won card with these hand cards / onto exposed
    meld i (A13); ``discard <card>`` — 放牌.
    """

    kind: str
    call: str = ""
    cards: tuple[str, ...] = ()
    meld: int = -1


class _Memo:
    """A value made on first read and kept in the instance dict, where later reads find it
    without this (a non-data descriptor): ``functools.cached_property`` without the lock it
    takes on Python 3.11 (some 2 us a state, one state an action)."""

    __slots__ = ()

    def __get__(self, state: object, owner: type | None = None) -> dict[Any, Any]:
        if state is None:  # read on the class: there is no memo to give
            raise AttributeError("derived is each state's own memo")
        memo: dict[Any, Any] = {}
        state.__dict__["derived"] = memo
        return memo


@dataclass(frozen=True)
class DiuState:
    """One hand. Seats are table seats; ``active`` lists the seats of roles A, B, C.

    ``phase``: ``discard`` (``actor`` must 放牌), ``poll`` (``poll`` decides ``card``) or
    ``over``. ``stock`` is the undealt deck (top first) and ``drawn`` how many were taken.
    """

    version: int
    config: Config
    hand_no: int
    head: Seat
    active: tuple[Seat, ...]
    idle: Seat | None
    hands: tuple[tuple[str, ...], ...]
    melds: tuple[tuple[tuple[str, ...], ...], ...]
    stock: tuple[str, ...]
    drawn: int
    dead: tuple[str, ...]
    phase: str
    actor: Seat | None
    card: str | None = None
    poll: Poll | None = None
    picking: tuple[Seat, ...] = ()  # seats choosing their two 丢 cards
    diu_cards: tuple[tuple[Seat, tuple[str, ...]], ...] = ()
    private_draws: tuple[tuple[int, Seat], ...] = ()  # stock index -> seat (supplement draws)
    takes: tuple[int, ...] = ()
    last: tuple[tuple[str, Any], ...] = ()  # the last public outcome, for clients
    winner: Seat | None = None
    end_reason: str = ""  # "diu" | "exhausted"
    final_scores: tuple[int, ...] = ()
    prefetch_secret: str = ""  # the hand secret every prefetch key derives from; never shown
    sealed: tuple[tuple[str, str, str], ...] = ()  # (nonce, blob, mac) per stock index
    salt: int = 0  # for the random timeout discard; never shown

    #: A memo of what the engine derives from this state (each seat's legal actions, what
    #: it is asked, who is to act), worked out once per state object: the table asks for a
    #: seat's options when it opens the decision, for its view and again when the answer
    #: comes. Kept in the instance dict, outside the fields (a state is never changed):
    #: equality, hashing, ``replace`` and the snapshot codec see only the fields.
    derived = _Memo()

    def __getstate__(self) -> dict[str, Any]:
        """The fields only (for pickling and ``copy``): the memo is worked out again."""
        return {name: self.__dict__[name] for name in _FIELD_NAMES}


_FIELD_NAMES = tuple(DiuState.__dataclass_fields__)
_FIELDS = frozenset(_FIELD_NAMES)


def evolve(state: DiuState, **changes: Any) -> DiuState:
    """``dataclasses.replace(state, **changes)`` for the engine's own changes (fields only,
    values it made): a copy of the instance dict less the memo (``derived``, worked out
    again for the new state), without ``replace``'s walk over every field and the frozen
    ``__init__``'s ``object.__setattr__`` per field. A diu action made some five copies of
    its 26 fields, each ~6 us with ``core.frozen.changed``, ~2.5 us so."""
    if not _FIELDS.issuperset(changes):
        raise TypeError(f"DiuState has no field {sorted(changes.keys() - _FIELDS)}")
    fields = state.__dict__.copy()
    if len(fields) != len(_FIELD_NAMES):  # the memo, when worked out: not handed on
        del fields["derived"]  # (the one value a state keeps beside its fields)
    fields.update(changes)
    nxt = object.__new__(DiuState)
    object.__setattr__(nxt, "__dict__", fields)  # as a frozen class's __init__ sets them
    return nxt
