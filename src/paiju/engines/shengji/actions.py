"""Actions and their canonical notation.

``pass`` (decline to bid now), ``bid H2`` / ``bid H2 H2`` / ``bid BJ BJ`` (declare with
identical cards), ``bury H5`` (the landlord buries one card; eight times), ``friend HA`` /
``friend HA HA`` (Finding Friends: the first / second ``HA`` played makes a friend),
``play S10 S10`` (lead or follow). Cards are written in canonical order, space separated.
"""

from __future__ import annotations

from dataclasses import dataclass

from paiju.core.errors import MalformedAction
from paiju.core.notation import split_tokens
from paiju.engines.shengji.cards import parse_card, sort_cards

KINDS = ("pass", "bid", "bury", "friend", "play")


@dataclass(frozen=True, order=True)
class Action:
    """``kind`` and its cards (canonical order)."""

    kind: str
    cards: tuple[str, ...] = ()


def make(kind: str, cards: tuple[str, ...] | list[str] = ()) -> Action:
    """An action with its cards put in canonical order."""
    return Action(kind, sort_cards(cards))


def parse_action(text: str) -> Action:
    """The action written ``text``; ``MalformedAction`` if it is not one."""
    tokens = split_tokens(text)
    kind, rest = tokens[0].lower(), tokens[1:]
    if kind not in KINDS:
        raise MalformedAction(f"unknown action {tokens[0]!r}; expected one of {', '.join(KINDS)}")
    cards = [parse_card(t) for t in rest]
    if kind == "pass" and cards:
        raise MalformedAction("pass takes no cards")
    if kind == "bury" and len(cards) != 1:
        raise MalformedAction("bury one card at a time")
    if kind == "bid" and (len(cards) not in (1, 2) or len(set(cards)) != 1):
        raise MalformedAction("a bid is one card or two identical cards")
    if kind == "friend" and (len(cards) not in (1, 2) or len(set(cards)) != 1):
        raise MalformedAction("name the friend card once (first copy) or twice (second copy)")
    if kind == "play" and not cards:
        raise MalformedAction("play at least one card")
    return make(kind, cards)


def format_action(action: Action) -> str:
    """Canonical text: ``parse_action(format_action(a)) == a``."""
    return " ".join((action.kind, *action.cards))
