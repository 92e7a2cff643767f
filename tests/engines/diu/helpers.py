"""Shared helpers for the diu tests: a table with chosen hands and stock, and random play."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.diu.cards import sort_cards
from paiju.engines.diu.engine import DiuEngine
from paiju.engines.diu.state import DiuState

ENGINE = DiuEngine()


def table(hands: dict[int, list[str]], stock: list[str], **options: Any) -> DiuState:
    """A fresh hand (A = seat 0 to discard) with these hands and this stock."""
    opts = ENGINE.normalize_options(options)
    n = opts["players"]
    state = ENGINE.initial_state(opts, SeededRng("t"), MatchInfo(0, (0,) * n))
    return replace(
        state,
        hands=tuple(sort_cards(hands.get(s, [])) for s in range(n)),
        stock=tuple(stock),
        drawn=0,
    )


def act(state: DiuState, seat: int, text: str) -> DiuState:
    """Apply the action written ``text`` by ``seat``."""
    return ENGINE.apply(state, seat, ENGINE.parse_action(text)).state


def legal(state: DiuState, seat: int) -> list[str]:
    """The seat's legal actions in notation, sorted."""
    return sorted(ENGINE.format_action(a) for a in ENGINE.legal_actions(state, seat))


def random_hand(
    seed: int, options: dict[str, Any], hand: int = 0, carry: dict[str, Any] | None = None
) -> list[DiuState]:
    """Every state of one hand of random legal play."""
    opts = ENGINE.normalize_options(options)
    match = MatchInfo(hand, (0,) * opts["players"], carry or {})
    state = ENGINE.initial_state(opts, SeededRng(f"r/{seed}"), match)
    chooser = random.Random(seed)
    states = [state]
    while not ENGINE.is_terminal(state):
        seat = chooser.choice(sorted(ENGINE.to_act(state)))
        actions = sorted(ENGINE.legal_actions(state, seat), key=ENGINE.format_action)
        state = ENGINE.apply(state, seat, chooser.choice(actions)).state
        states.append(state)
    return states
