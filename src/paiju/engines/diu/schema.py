"""The diu view, event data and error codes as types (docs/rules/diu.md, "What a client
sees"). ``TypedDict``s keep the engine stdlib-only; the view code builds them, so mypy checks
every field, and ``paiju schema`` exports them as JSON Schema."""

# No ``from __future__ import annotations`` here: ``TypedDict`` needs evaluated annotations
# to tell ``NotRequired`` keys (Python 3.11 counts a string annotation as required).
from typing import Any, NotRequired, TypedDict


class TableRulesView(TypedDict):
    """The options a client (or bot) needs to read hands: deck and combination rules."""

    deck_profile: str
    wild_count: int
    chi_shapes: list[str]
    wild_in_chi: bool
    natural_four_level: int
    diu_requires_complete_hand: bool
    diu_min_points: int
    poll_mode: str
    offer_calls: str
    silent_seats: str


class PolledCardView(TypedDict):
    """The card being polled: where it came from (``draw`` or ``discard``) and by whom."""

    card: str
    source: str
    by: int


class LastView(TypedDict, total=False):
    """The last public outcome: a dead card (``dead``, null when dead cards are hidden), or a
    take (``take`` the card, ``seat``, ``claim``)."""

    dead: str | None
    take: str
    seat: int
    claim: str


class ResultView(TypedDict):
    """The hand's outcome (phase ``over``): every hand is revealed."""

    reason: str
    winner: int | None
    card: str | None
    diu_cards: list[str] | None
    scores: list[int]
    hands: list[list[str]]


class SealedView(TypedDict):
    """One sealed stock card (``prefetch_mode = "encrypted"``)."""

    i: int
    nonce: str
    blob: str
    mac: str


class PrefetchView(TypedDict):
    """Sealed stock batches and the keys of the cards this viewer saw drawn."""

    sealed: list[SealedView]
    keys: dict[str, str]
    delivered: int


class DiuView(TypedDict):
    """What a seat (``seat`` null: a spectator) sees of a diu hand."""

    variant: str
    hand_no: int
    seat: int | None
    players: int
    table: TableRulesView
    roles: list[str]
    active: list[int]
    idle: int | None
    phase: str
    to_act: list[int]
    asked: str
    timer: str | None
    hand: list[str] | None
    hand_counts: list[int]
    melds: list[list[list[str]]]
    dead: list[str] | None
    dead_count: int
    stock_count: int
    card: PolledCardView | None
    my_call: str | None
    last: LastView
    legal: list[str]
    legal_complete: bool
    result: NotRequired[ResultView]
    prefetch: NotRequired[PrefetchView]


class CardSourceEvent(TypedDict):
    """``dead``: a card nobody took goes to the dead cards (``source`` draw or discard)."""

    card: str
    source: str
    by: int


class SeatCardEvent(TypedDict):
    """``discard`` (a seat discarded a card), ``supplement`` (to the drawer only: the
    supplement card after a four-card meld)."""

    seat: int
    card: str


class DrawEvent(TypedDict):
    """``draw``: a seat drew the stock card ``index`` (open)."""

    seat: int
    card: str
    index: int


class HandOverEvent(TypedDict):
    """``hand_over``: the hand ended without a 丢 (``reason`` ``exhausted``)."""

    reason: str


class TakeEvent(TypedDict):
    """``take``: a seat took the card with ``claim`` and laid ``meld``."""

    seat: int
    card: str
    claim: str
    meld: list[str]


class DiuEvent(TypedDict):
    """``diu``: a seat won the hand on ``card`` with the two hand ``cards``."""

    seat: int
    card: str
    cards: list[str]
    points: int


EVENTS: dict[str, Any] = {
    "dead": CardSourceEvent,
    "discard": SeatCardEvent,
    "supplement": SeatCardEvent,
    "draw": DrawEvent,
    "hand_over": HandOverEvent,
    "take": TakeEvent,
    "diu": DiuEvent,
}

ERROR_CODES: dict[str, str] = {
    "card_not_in_hand": "a discard of a card the hand does not hold (or an answer to a poll)",
    "call_not_allowed": "a call the hand, the seat's 吃 right or the source does not allow",
    "diu_not_complete": "丢 cards that do not make a meld with the card and a complete rest",
    "take_must_match_call": "a take that does not execute the seat's winning call",
}
