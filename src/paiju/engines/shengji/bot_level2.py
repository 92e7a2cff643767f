"""Shengji bot level 2: level 1 plus reading who is void in what, and playing for sure tricks.

From the tricks in its view it learns which seats have shown out of a suit (a follow with a
card of another effective suit). It then:

* when its lead would not be a sure winner, leads low into a suit its partner has shown out
  of (and no opponent has), so that the partner can trump it;
* gives points to its partner's winning play also when no opponent still to play can beat
  it (no unseen card beats it in the suit, and none of them is known void while trumps are
  out), not only when it is a trump or an ace, as level 1 does;
* does not spend a trump to take an empty trick (level 1 does, last in the trick, to win
  the lead).

It reads only its view and answers one of ``view["legal"]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from paiju.core.rng import Rng
from paiju.engines.shengji.bot import (
    WIN_SEARCH,
    SensibleBot,
    _cards,
    _cost,
    _partner,
    _safe,
    _unseen,
)
from paiju.engines.shengji.bot import _lead as level1_lead
from paiju.engines.shengji.cards import card_points, points
from paiju.engines.shengji.order import TRUMP, TrumpContext
from paiju.engines.shengji.shapes import effective_suit, parse_units
from paiju.engines.shengji.throw import beats_unit
from paiju.engines.shengji.trick import trick_winner


def voids(view: Mapping[str, Any], ctx: TrumpContext) -> dict[int, set[str]]:
    """Seat -> the effective suits it has shown out of (followed with another suit)."""
    out: dict[int, set[str]] = {}
    tricks = [t["plays"] for t in view["tricks"]] + [view["trick"]]
    for plays in tricks:
        if not plays:
            continue
        led = ctx.suit_of(plays[0]["cards"][0])
        for play in plays[1:]:
            if any(ctx.suit_of(c) != led for c in play["cards"]):
                out.setdefault(int(play["seat"]), set()).add(led)
    return out


class CountingBot(SensibleBot):
    """Level 2 (see the module docstring); ties broken by its own ``rng``."""

    def __init__(self, rng: Rng) -> None:
        super().__init__(rng)

    def choose(self, view: Mapping[str, Any]) -> str:
        legal: list[str] = list(view["legal"])
        if len(legal) > 1 and view["phase"] == "play":
            from paiju.engines.shengji.options import context

            ctx = context(_level_number(view), view["trump_suit"], view["options"])
            if view["trick"]:
                return _follow(view, legal, ctx)
            return _lead(view, legal, ctx)
        return super().choose(view)


def _level_number(view: Mapping[str, Any]) -> int:
    from paiju.engines.shengji.cards import LEVEL_NUMBER

    return LEVEL_NUMBER[view["level"]]


def _opponents_after(view: Mapping[str, Any], count: int) -> list[int]:
    """The seats still to play in the current trick after this one, less the partner."""
    seat: int = view["seat"]
    partner = _partner(view)
    after = [(seat + i) % 4 for i in range(1, 4 - count)]
    return [s for s in after if s != partner]


def _secure(
    cards: Sequence[str],
    led: str,
    against: Sequence[int],
    view: Mapping[str, Any],
    ctx: TrumpContext,
    shown_out: Mapping[int, set[str]],
) -> bool:
    """Whether a winning play of ``cards`` stays winning whatever the seats ``against`` hold:
    no unseen card beats it in its suit, and (for a plain suit) none of them can trump it."""
    if not against:
        return True
    suit = effective_suit(cards, ctx)
    if suit is None:
        return False
    unseen = _unseen(view)
    min_len = view["options"]["tractor_min_length"]
    if any(beats_unit(u, suit, unseen, ctx) for u in parse_units(cards, ctx, min_len)):
        return False
    if suit == TRUMP:
        return True
    trumps_out = any(ctx.is_trump(c) for c in unseen)
    return not (trumps_out and any(led in shown_out.get(s, set()) for s in against))


def _follow(view: Mapping[str, Any], legal: list[str], ctx: TrumpContext) -> str:
    min_len = view["options"]["tractor_min_length"]
    evaluation = view["options"]["throw_evaluation"]
    plays = [p["cards"] for p in view["trick"]]
    seats = [p["seat"] for p in view["trick"]]
    lead = parse_units(plays[0], ctx, min_len)
    led = ctx.suit_of(plays[0][0])
    winner = seats[trick_winner(plays, ctx, evaluation, min_len, lead)]
    against = _opponents_after(view, len(plays))
    options = sorted(((a, _cards(a)) for a in legal), key=lambda ac: (_cost(ac[1], ctx), ac[0]))
    if winner == _partner(view):
        won = plays[seats.index(winner)]
        strong = any(ctx.is_trump(c) or c[1:] == "A" for c in won)
        if strong or _secure(won, led, against, view, ctx, voids(view, ctx)):
            return max(options, key=lambda ac: (points(ac[1]), -_trumps(ac[1], ctx)))[0]
        return options[0][0]
    at_stake = points(c for p in plays for c in p)
    if at_stake >= 5 or not against:
        for action, cards in options[:WIN_SEARCH]:
            if effective_suit(cards, ctx) not in (led, TRUMP):
                continue
            if at_stake == 0 and _trumps(cards, ctx) and led != TRUMP:
                break  # a trump spent on an empty trick only buys the lead
            if trick_winner([*plays, list(cards)], ctx, evaluation, min_len, lead) == len(plays):
                return action
    return options[0][0]


def _trumps(cards: Sequence[str], ctx: TrumpContext) -> int:
    return sum(ctx.is_trump(c) for c in cards)


def _lead(view: Mapping[str, Any], legal: list[str], ctx: TrumpContext) -> str:
    """Level 1's lead, or, when that is not a sure winner, a low card into a suit the
    partner has shown out of (it can trump it) and no opponent has."""
    choice = level1_lead(view, legal, ctx)
    partner = _partner(view)
    min_len = view["options"]["tractor_min_length"]
    if partner is None or _safe(_cards(choice), _unseen(view), ctx, min_len):
        return choice
    shown_out = voids(view, ctx)
    seat: int = view["seat"]
    opponents = [s for s in range(4) if s not in (seat, partner)]

    def feeds(action: str) -> bool:
        cards = _cards(action)
        suit = ctx.suit_of(cards[0])
        return (
            len(cards) == 1
            and suit != TRUMP
            and suit in shown_out.get(partner, set())
            and not any(suit in shown_out.get(s, set()) for s in opponents)
        )

    fed = [a for a in legal if feeds(a)]
    if fed:
        return min(fed, key=lambda a: (card_points(_cards(a)[0]), ctx.value(_cards(a)[0])))
    return choice


#: The levels ``make_bot`` makes (0, random-legal, is every variant's).
BOT_LEVELS = (1, 2)


def make_bot(level: int, rng: Rng) -> SensibleBot:
    """Level 1 is ``SensibleBot``, level 2 ``CountingBot``; ``ValueError`` for
    another level."""
    if level not in BOT_LEVELS:
        raise ValueError(f"shengji has bot levels 1 and 2, not {level}")
    if level == 2:
        return CountingBot(rng)
    return SensibleBot(rng)
