"""Shengji bots. Level 1 plays sensibly from its seat's view alone:

* bids when the suit it would make trump is long (or with a joker pair), never over its
  partner;
* buries non-trumps from its shortest suits first, points before blanks, never aces;
* leads a throw, tractor or pair only when no unseen card can beat any part of it, else
  a sure winner, else a low card of its longest plain suit;
* follows with points onto its partner's winning trick, takes a trick that has points
  with the cheapest winning play (trumping in if need be), and otherwise plays cheap.

A bot reads only the view dict and answers one of ``view["legal"]``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from paiju.core.rng import Rng
from paiju.engines.shengji.actions import parse_action
from paiju.engines.shengji.cards import (
    LEVEL_NUMBER,
    RANK_NUMBER,
    card_points,
    full_pack,
    is_joker,
    points,
)
from paiju.engines.shengji.options import context
from paiju.engines.shengji.order import TRUMP, TrumpContext
from paiju.engines.shengji.shapes import effective_suit, parse_units
from paiju.engines.shengji.throw import beats_unit
from paiju.engines.shengji.trick import trick_winner

#: How many of the cheapest follows are checked for a winning play.
WIN_SEARCH = 300


class SensibleBot:
    """Level 1: the heuristics in the module docstring; ties broken by its own ``rng``."""

    def __init__(self, rng: Rng) -> None:
        self._rng = rng

    def choose(self, view: Mapping[str, Any]) -> str:
        legal: list[str] = list(view["legal"])
        if len(legal) == 1:
            return legal[0]
        phase = view["phase"]
        if phase in ("deal", "theft"):
            return _bid(view, legal)
        ctx = context(LEVEL_NUMBER[view["level"]], view["trump_suit"], view["options"])
        if phase == "bury":
            return _bury(view, legal, ctx)
        if phase == "friend":
            return _friend(view, legal)
        if not view["trick"]:
            return _lead(view, legal, ctx)
        return _follow(view, legal, ctx)



def _cards(action: str) -> tuple[str, ...]:
    return parse_action(action).cards


# ---------------------------------------------------------------- bidding


def _bid(view: Mapping[str, Any], legal: list[str]) -> str:
    bids = [a for a in legal if a.startswith("bid")]
    if not bids or any(b["seat"] == _partner(view) for b in view["bids"][-1:]):
        return "pass"
    hand: list[str] = view["hand"]
    level = LEVEL_NUMBER[view["level"]]

    def trump_share(action: str) -> float:
        card = _cards(action)[0]
        suit = None if is_joker(card) else card[0]
        trumps = sum(
            1
            for c in hand
            if is_joker(c) or RANK_NUMBER[c[1:]] == level or (suit is not None and c[0] == suit)
        )
        return trumps / max(1, len(hand))

    best = max(bids, key=lambda a: (trump_share(a), len(_cards(a))))
    late = view["dealt"] >= 88 and not view["bids"]
    strong = len(hand) >= 6 and trump_share(best) >= 0.38
    return best if strong or late or is_joker(_cards(best)[0]) else "pass"


# ---------------------------------------------------------------- burying


def _bury(view: Mapping[str, Any], legal: list[str], ctx: TrumpContext) -> str:
    hand: list[str] = view["hand"]
    counts = Counter(hand)
    suit_len = Counter(ctx.suit_of(c) for c in hand)

    def key(action: str) -> tuple[bool, bool, bool, int, int, int]:
        card = _cards(action)[0]
        suit = ctx.suit_of(card)
        high = card[1:] in ("A",) and suit != TRUMP
        return (
            suit == TRUMP,
            counts[card] >= 2,
            high,
            suit_len[suit],
            -card_points(card),
            ctx.value(card),
        )

    return min(legal, key=key)


# ---------------------------------------------------------------- finding friends


def _friend(view: Mapping[str, Any], legal: list[str]) -> str:
    """Name an ace held by nobody it knows of: the first copy if it holds none, else the
    second; failing that, any legal choice."""
    hand: list[str] = view["hand"]
    for suit in "SHDC":
        ace = suit + "A"
        choice = "friend " + " ".join([ace] * (hand.count(ace) + 1))
        if hand.count(ace) < 2 and choice in legal:
            return choice
    return legal[0]


def _partner(view: Mapping[str, Any]) -> int | None:
    """The seat known to play on this seat's side (Finding Friends: once it is public)."""
    seat: int = view["seat"]
    if view.get("options", {}).get("game_mode", "tractor") != "finding_friends":
        return (seat + 2) % 4
    team: list[int] = view.get("landlord_team", [])
    if view.get("friend") is None or view["friend"]["seat"] is None or seat not in team:
        return None
    others = [s for s in team if s != seat]
    return others[0] if others else None


# ---------------------------------------------------------------- leading


def _unseen(view: Mapping[str, Any]) -> list[str]:
    """Cards this seat has not seen: the pack minus its hand, played cards and its kitty."""
    left = Counter(full_pack())
    left.subtract(view["hand"])
    for trick in view["tricks"]:
        for play in trick["plays"]:
            left.subtract(play["cards"])
    for play in view["trick"]:
        left.subtract(play["cards"])
    left.subtract(view.get("buried", []))
    return [c for c, n in left.items() for _ in range(max(0, n))]


def _safe(cards: Sequence[str], unseen: Sequence[str], ctx: TrumpContext, min_len: int) -> bool:
    """No unseen card of the suit (all pooled, pessimistically) beats any component."""
    suit = effective_suit(cards, ctx)
    if suit is None:
        return False
    return not any(beats_unit(u, suit, unseen, ctx) for u in parse_units(cards, ctx, min_len))


def _lead(view: Mapping[str, Any], legal: list[str], ctx: TrumpContext) -> str:
    min_len = view["options"]["tractor_min_length"]
    unseen = _unseen(view)
    options = [(a, _cards(a)) for a in legal]
    safe = [(a, c) for a, c in options if _safe(c, unseen, ctx, min_len)]
    plain_safe = [(a, c) for a, c in safe if not ctx.is_trump(c[0])]
    if plain_safe:
        return max(plain_safe, key=lambda ac: (len(ac[1]), points(ac[1]), ac[0]))[0]
    multi = [(a, c) for a, c in safe if len(c) > 1]
    if multi:
        return max(multi, key=lambda ac: (len(ac[1]), ac[0]))[0]
    hand: list[str] = view["hand"]
    suit_len = Counter(ctx.suit_of(c) for c in hand)
    singles = [(a, c) for a, c in options if len(c) == 1]

    def low_key(ac: tuple[str, tuple[str, ...]]) -> tuple[bool, int, int, int]:
        card = ac[1][0]
        suit = ctx.suit_of(card)
        return suit == TRUMP, card_points(card), -suit_len[suit], ctx.value(card)

    return min(singles or options, key=low_key)[0]


# ---------------------------------------------------------------- following


def _cost(cards: Sequence[str], ctx: TrumpContext) -> tuple[int, int, int]:
    return (
        sum(card_points(c) for c in cards),
        sum(ctx.is_trump(c) for c in cards),
        sum(ctx.value(c) for c in cards),
    )


def _follow(view: Mapping[str, Any], legal: list[str], ctx: TrumpContext) -> str:
    min_len = view["options"]["tractor_min_length"]
    plays = [p["cards"] for p in view["trick"]]
    seats = [p["seat"] for p in view["trick"]]
    lead = parse_units(plays[0], ctx, min_len)
    winner = seats[trick_winner(plays, ctx, view["options"]["throw_evaluation"], min_len, lead)]
    options = sorted(((a, _cards(a)) for a in legal), key=lambda ac: (_cost(ac[1], ctx), ac[0]))
    partner = _partner(view)
    if winner == partner and (len(plays) == 3 or _strong(plays, seats, winner, ctx)):
        # Partner wins: give points, but do not spend trumps needlessly.
        return max(
            options,
            key=lambda ac: (
                points(ac[1]),
                -sum(ctx.is_trump(c) for c in ac[1]),
                -ctx.value(ac[1][0]),
            ),
        )[0]
    at_stake = points(c for p in plays for c in p)
    last = len(plays) == 3
    if winner != partner and (at_stake >= 5 or last):
        evaluation = view["options"]["throw_evaluation"]
        led = ctx.suit_of(plays[0][0])
        hopeful = [ac for ac in options if effective_suit(ac[1], ctx) in (led, TRUMP)]
        for action, cards in hopeful[:WIN_SEARCH]:
            if trick_winner([*plays, list(cards)], ctx, evaluation, min_len, lead) == len(plays):
                return action
    return options[0][0]


def _strong(plays: list[list[str]], seats: list[int], winner: int, ctx: TrumpContext) -> bool:
    """Whether the partner's winning play looks safe: a trump, or an ace-high plain play."""
    cards = plays[seats.index(winner)]
    return any(ctx.is_trump(c) or c[1:] == "A" for c in cards)
