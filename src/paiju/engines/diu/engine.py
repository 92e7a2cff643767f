"""``DiuEngine``: the Engine protocol for Suijiang "diu" (绥江-丢), name ``"diu"``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.core.errors import IllegalAction
from paiju.core.rng import Rng
from paiju.core.seats import Seat
from paiju.engines.base import EngineDefaults, MatchInfo, Step
from paiju.engines.diu import flow, notation
from paiju.engines.diu.options import normalize, normalized
from paiju.engines.diu.schema import DiuView
from paiju.engines.diu.state import Action, Config, DiuState
from paiju.engines.diu.view import SpectatorViews, build_view, timer_kind


class DiuEngine(EngineDefaults[DiuState, Action]):
    """Pure rules of diu; see ``docs/rules/diu.md`` for the rules and options."""

    name = "diu"

    def __init__(self) -> None:
        # What every viewer of the last state viewed shares (a table views a state for each
        # viewer in a row); one engine per table, so per table and no global state.
        self._shared = SpectatorViews()

    def normalize_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Every option with defaults; ``InvalidOptions`` for unknown keys or bad values."""
        return normalize(raw)

    def seat_count(self, options: Mapping[str, Any]) -> int:
        """3, or 4 with an idle 闲家."""
        return int(normalized(options)["players"])

    def initial_state(self, options: Mapping[str, Any], rng: Rng, match: MatchInfo) -> DiuState:
        """Deal hand ``match.hand``; the head (A) comes from ``match.carry`` (seat 0 first)."""
        config = Config.from_options(normalized(options))
        head = int(match.carry.get("head", 0)) % config.players
        return flow.deal_hand(config, rng, match.hand, head)

    def version(self, state: DiuState) -> int:
        return state.version

    def to_act(self, state: DiuState) -> frozenset[Seat]:
        return flow.to_act(state)

    def public_to_act(self, state: DiuState) -> frozenset[Seat]:
        """The waiting seats every viewer may know (the table's hook; A12, S14)."""
        return flow.public_to_act(state)

    def legal_actions(self, state: DiuState, seat: Seat) -> frozenset[Action]:
        return flow.legal(state, seat)

    def refusal(self, state: DiuState, seat: Seat, action: Action) -> IllegalAction:
        text = notation.format_action(action)
        code = flow.illegal_code(state, seat)
        return IllegalAction(f"{text} is not legal for seat {seat} now", code=code)

    def check_action(self, state: DiuState, seat: Seat, action: object) -> Action:
        """As ``EngineDefaults``; a listed action made of plain values (as ``parse_action``
        makes them) is taken as it is: the listed actions are canonical, so one equal to
        one of them is well formed without its round trip through the notation (which
        doubled the parsing of every action). A listed action implies the hand is not over
        and the seat is asked."""
        if type(action) is Action and _plain(action) and action in flow.legal(state, seat):
            return action
        return super().check_action(state, seat, action)

    def apply(self, state: DiuState, seat: Seat, action: Action) -> Step[DiuState]:
        """Check (``check_action``; codes of ``flow.illegal_code``) and apply."""
        action = self.check_action(state, seat, action)
        new, events = flow.apply_action(state, seat, action)
        return Step(new, tuple(events))

    def view(self, state: DiuState, seat: Seat | None) -> DiuView:
        return build_view(state, seat, self._shared)

    def timeout_action(self, state: DiuState, seat: Seat) -> Action:
        return flow.timeout(state, seat)

    def timer_kind(self, state: DiuState, seat: Seat) -> str:
        """``claim`` (a polled seat) or ``turn`` (its own action); ``""`` when not to act."""
        return timer_kind(state, seat) or ""

    def is_terminal(self, state: DiuState) -> bool:
        return state.phase == "over"

    def scores(self, state: DiuState) -> tuple[int, ...]:
        return state.final_scores or (0,) * state.config.players

    def hand_stats(self, state: DiuState) -> list[dict[str, float]]:
        """Per seat: win (丢), lose (paid a 丢), draw (流局), idle, takes."""
        stats = []
        for seat in range(state.config.players):
            active = seat in state.active
            stats.append(
                {
                    "win": float(state.winner == seat),
                    "lose": float(active and state.winner is not None and state.winner != seat),
                    "draw": float(active and state.end_reason == "exhausted"),
                    "idle": float(not active),
                    "takes": float(state.takes[seat]),
                }
            )
        return stats

    def carry(self, state: DiuState) -> dict[str, Any]:
        """A11: the next head — one seat on (clockwise) or the 丢 winner (winner rule)."""
        cfg = state.config
        if cfg.head_rotation == "winner":
            head = state.winner if state.winner is not None else state.head
        else:
            head = (state.head + 1) % cfg.players
        return {"head": head}

    def match_over(self, options: Mapping[str, Any], match: MatchInfo) -> bool:
        """After ``match_hands`` hands (0: one hand per player)."""
        opts = normalized(options)
        return match.hand >= int(opts["match_hands"] or opts["players"])

    def parse_action(self, text: str) -> Action:
        return notation.parse_action(text)

    def format_action(self, action: Action) -> str:
        return notation.format_action(action)


def _plain(action: Action) -> bool:
    """Whether ``action``'s fields are of the plain types a parsed action's are (no
    subclass of ``str`` or ``int`` equal to them)."""
    cards = action.cards
    return (
        type(action.kind) is str
        and type(action.call) is str
        and type(action.meld) is int
        and type(cards) is tuple
        and all(type(card) is str for card in cards)
    )
