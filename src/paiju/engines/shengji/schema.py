"""The shengji view, event data and error codes as types (docs/rules/shengji.md, "What a
client sees"). ``TypedDict``s keep the engine stdlib-only; the view code builds them, so mypy
checks every field, and ``paiju schema`` exports them as JSON Schema."""

# No ``from __future__ import annotations`` here: ``TypedDict`` needs evaluated annotations
# to tell ``NotRequired`` keys (Python 3.11 counts a string annotation as required).
from typing import Any, NotRequired, TypedDict


class BidView(TypedDict):
    """A bid made in this hand: the seat and the identical cards it showed."""

    seat: int
    cards: list[str]


class PlayView(TypedDict):
    """The cards one seat put on the table in a trick."""

    seat: int
    cards: list[str]


class TrickView(TypedDict):
    """A finished trick."""

    plays: list[PlayView]
    winner: int
    points: int


class FriendView(TypedDict):
    """Finding Friends: the named card (``cards``: once = the first copy played, twice = the
    second), how many copies were played so far, and the friend's seat once known."""

    cards: list[str]
    seen: int
    seat: int | None


class ThrowFailureView(TypedDict):
    """A failed throw: who tried what and the component it was forced to play; ``blocker``
    only under ``reveal_throw_blocker``."""

    code: str
    seat: int
    attempted: list[str]
    forced: list[str]
    penalty: int
    blocker: NotRequired[int]


class ResultView(TypedDict):
    """The hand's outcome (phase ``over``)."""

    attacker_points: int
    kitty_bonus: int
    scores: list[int]
    levels_after: list[str]
    next_landlord: int | None
    match_winner: int | list[int] | None


class ShengjiView(TypedDict):
    """What a seat (``seat`` null: a spectator) sees of a shengji hand.

    ``legal`` lists the seat's actions; when ``legal_complete`` is false (every lead, and a
    follow with more legal plays than are listed) any selection of cards may be sent as
    ``play ...`` and the server judges it (docs/rules/shengji.md, "Choosing a play").
    """

    variant: str
    phase: str
    seat: int | None
    to_act: list[int]
    legal: list[str]
    legal_complete: bool
    options: dict[str, Any]
    hand_no: int
    levels: list[str]
    level: str
    landlord: int | None
    exchanger: int | None
    declarers: int | None
    landlord_team: list[int]
    friend: FriendView | None
    trump_suit: str | None
    trump_set: bool
    bids: list[BidView]
    flipped: list[str]
    dealt: int
    hand_counts: list[int]
    hand: list[str]
    leader: int
    trick: list[PlayView]
    lead_format: list[list[int]]
    tricks: list[TrickView]
    attacker_points: int
    penalty: int
    throw_failures: list[ThrowFailureView]
    buried_count: int
    kitty: NotRequired[list[str]]
    buried: NotRequired[list[str]]
    result: NotRequired[ResultView]


class CardsEvent(TypedDict):
    """``bid`` (a seat bid these cards), ``play`` (a seat played them)."""

    seat: int
    cards: list[str]


class RedealEvent(TypedDict):
    """``redeal``: nobody bid in the first hand; the cards are dealt again."""

    redeals: int


class TrumpEvent(TypedDict):
    """``trump``: bidding closed: the trump suit (null: no-trump), the landlord, the flipped
    kitty cards (when nobody bid) and the seat that takes the kitty."""

    suit: str | None
    landlord: int | None
    flipped: list[str]
    exchanger: int | None


class FriendEvent(TypedDict):
    """``friend``: the landlord named the friend card."""

    landlord: int | None
    cards: list[str]


class BuryEvent(TypedDict):
    """``bury``: the burier's own card (to that seat only)."""

    card: str


class ThrowFailedEvent(TypedDict):
    """``throw_failed``: as ``ThrowFailureView`` without the penalty."""

    code: str
    seat: int
    attempted: list[str]
    forced: list[str]
    blocker: NotRequired[int]


class TrickWonEvent(TypedDict):
    """``trick_won``: who won the trick and the points in it."""

    seat: int
    points: int


class HandOverEvent(TypedDict):
    """``hand_over``: the attackers' final points, the buried cards, the level gain."""

    attacker_points: int
    kitty: list[str]
    gain: int


class FriendJoinedEvent(TypedDict):
    """``friend_joined``: the friend card was played: ``seat`` joins the landlord."""

    seat: int
    card: str
    nth: int


EVENTS: dict[str, Any] = {
    "bid": CardsEvent,
    "redeal": RedealEvent,
    "trump": TrumpEvent,
    "friend": FriendEvent,
    "bury": BuryEvent,
    "throw_failed": ThrowFailedEvent,
    "play": CardsEvent,
    "trick_won": TrickWonEvent,
    "hand_over": HandOverEvent,
    "friend_joined": FriendJoinedEvent,
}

ERROR_CODES: dict[str, str] = {
    "wrong_phase": "an action of another phase (bid or pass, bury, friend, play)",
    "card_not_in_hand": "cards (a bid, a burial, a play) the hand does not hold",
    "bid_too_weak": "a bid that does not beat the standing bid (or is no bid under the options)",
    "bad_friend_card": "a friend card that is a joker, a level card or of the trump suit",
    "lead_mixed_suits": "a lead whose cards are not all of one effective suit",
    "wrong_card_count": "a follow with another number of cards than the lead",
    "must_follow_suit": "a follow that keeps cards of the led suit back",
    "must_follow_pair": "a follow that breaks the pairs the lead calls for",
    "must_follow_tractor": "a follow that breaks the tractor the lead calls for",
}
