"""``paiju judge shengji``: answers rule questions, one JSON object per request.

Every request has ``id``, ``kind``, ``level_rank`` ("2".."A"), ``trump_suit`` (a suit letter
or null for no-trump), optional ``options`` (the engine's option names) and ``input``.
Players are listed in play order from the leader. Kinds:

* ``is_tractor`` ``{"cards"}`` -> ``{"id", "is_tractor"}``
* ``follow_legal`` ``{"lead", "hand", "play"}`` (the follower's whole hand before the
  play) -> ``{"id", "legal"}``
* ``throw_check`` ``{"lead", "other_hands"}`` -> ``{"id", "valid", "forced_play"}``
* ``trick_winner`` ``{"plays"}`` -> ``{"id", "winner_index"}``
* ``kitty_multiplier`` ``{"last_trick_lead", "kitty", "last_trick_won_by"}`` ->
  ``{"id", "multiplier", "kitty_points_to_attackers"}``

A bad request raises ``ValueError`` (or a ``GameError``) with a clear message.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from paiju.engines.shengji.cards import RANK_NUMBER, SUITS, parse_card, points, sort_cards
from paiju.engines.shengji.follow import follow_error
from paiju.engines.shengji.options import context, normalize
from paiju.engines.shengji.order import TrumpContext
from paiju.engines.shengji.scoring import kitty_multiplier
from paiju.engines.shengji.shapes import Unit, effective_suit, is_tractor, parse_units
from paiju.engines.shengji.throw import check_throw
from paiju.engines.shengji.trick import trick_winner

Request = Mapping[str, Any]


def answer(request: Mapping[str, Any]) -> dict[str, Any]:
    """The output object for one request (``id`` copied); ``ValueError`` for a bad one."""
    if not isinstance(request, Mapping):
        raise ValueError("a request must be a JSON object")
    kind = request.get("kind")
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(_HANDLERS)}")
    options = request.get("options") or {}
    if not isinstance(options, Mapping):
        raise ValueError("options must be an object")
    opts = normalize(options)
    ctx = context(_level(request.get("level_rank")), _suit(request), opts)
    data = request.get("input")
    if not isinstance(data, Mapping):
        raise ValueError("input must be an object")
    out: dict[str, Any] = {"id": request.get("id")}
    out.update(handler(data, ctx, opts))
    return out


def _level(value: object) -> int:
    if not isinstance(value, str) or value.upper() not in RANK_NUMBER:
        raise ValueError(f"level_rank must be one of 2..10, J, Q, K, A, not {value!r}")
    return RANK_NUMBER[value.upper()]


def _suit(request: Request) -> str | None:
    if "trump_suit" not in request:
        raise ValueError("trump_suit is required (a suit letter, or null for no-trump)")
    value = request["trump_suit"]
    if value is None:
        return None
    if not isinstance(value, str) or value.upper() not in SUITS:
        raise ValueError(f"trump_suit must be one of S H D C or null, not {value!r}")
    return value.upper()


def _cards(data: Mapping[str, Any], key: str, *, allow_empty: bool = False) -> list[str]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ValueError(f"input.{key} must be a list of card names")
    cards = [parse_card(c) for c in value]
    if not cards and not allow_empty:
        raise ValueError(f"input.{key} is empty")
    extra = [c for c, n in Counter(cards).items() if n > 2]
    if extra:
        raise ValueError(f"input.{key} holds more than two copies of {', '.join(extra)}")
    return cards


def _lead(cards: list[str], ctx: TrumpContext, opts: Mapping[str, Any], key: str) -> list[Unit]:
    if effective_suit(cards, ctx) is None:
        raise ValueError(f"input.{key} mixes effective suits; a lead is of one suit")
    return parse_units(cards, ctx, opts["tractor_min_length"])


def _is_tractor(data: Request, ctx: TrumpContext, opts: Mapping[str, Any]) -> dict[str, Any]:
    cards = _cards(data, "cards")
    return {"is_tractor": is_tractor(cards, ctx, opts["tractor_min_length"])}


def _follow_legal(data: Request, ctx: TrumpContext, opts: Mapping[str, Any]) -> dict[str, Any]:
    lead = _lead(_cards(data, "lead"), ctx, opts, "lead")
    hand = _cards(data, "hand")
    play = _cards(data, "play")
    error = follow_error(
        lead,
        ctx.suit_of(lead[0].cards[0]),
        hand,
        play,
        ctx,
        min_length=opts["tractor_min_length"],
        format_draw=opts["draw_policy"] != "no_format_draw",
    )
    return {"legal": error is None}


def _throw_check(data: Request, ctx: TrumpContext, opts: Mapping[str, Any]) -> dict[str, Any]:
    cards = _cards(data, "lead")
    lead = _lead(cards, ctx, opts, "lead")
    hands = data.get("other_hands")
    if not isinstance(hands, list) or len(hands) != 3:
        raise ValueError("input.other_hands must list the three other hands in play order")
    others = [_cards({"h": h}, "h", allow_empty=True) for h in hands]
    suit = ctx.suit_of(cards[0])
    result = check_throw(lead, suit, others, ctx, opts["throw_fail_forced"])
    forced = list(sort_cards(result.forced.cards)) if result.forced is not None else None
    return {"valid": result.valid, "forced_play": forced}


def _trick_winner(data: Request, ctx: TrumpContext, opts: Mapping[str, Any]) -> dict[str, Any]:
    plays = data.get("plays")
    if not isinstance(plays, list) or not 1 <= len(plays) <= 4:
        raise ValueError("input.plays must list 1 to 4 plays, the lead first")
    cards = [_cards({"p": p}, "p") for p in plays]
    lead = _lead(cards[0], ctx, opts, "plays[0]")
    size = len(cards[0])
    if any(len(p) != size for p in cards):
        raise ValueError("every play must have as many cards as the lead")
    index = trick_winner(cards, ctx, opts["throw_evaluation"], opts["tractor_min_length"], lead)
    return {"winner_index": index}


def _kitty(data: Request, ctx: TrumpContext, opts: Mapping[str, Any]) -> dict[str, Any]:
    lead = _lead(_cards(data, "last_trick_lead"), ctx, opts, "last_trick_lead")
    kitty = _cards(data, "kitty", allow_empty=True)
    side = data.get("last_trick_won_by")
    if side not in ("attackers", "declarers"):
        raise ValueError("input.last_trick_won_by must be 'attackers' or 'declarers'")
    multiplier = kitty_multiplier(max(u.size for u in lead), opts["kitty_multiplier"])
    to_attackers = points(kitty) * multiplier if side == "attackers" else 0
    return {"multiplier": multiplier, "kitty_points_to_attackers": to_attackers}


_HANDLERS: dict[str, Callable[[Request, TrumpContext, Mapping[str, Any]], dict[str, Any]]] = {
    "is_tractor": _is_tractor,
    "follow_legal": _follow_legal,
    "throw_check": _throw_check,
    "trick_winner": _trick_winner,
    "kitty_multiplier": _kitty,
}
