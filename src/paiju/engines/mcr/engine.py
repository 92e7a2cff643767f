"""``McrEngine``: MCR mahjong (国标麻将) behind the paiju Engine protocol.

Options (all optional, see ``src/paiju/presets/mcr.toml``):

* ``multiple_win`` (bool, False): several hu claims on one discard all win (一炮多响) instead
  of the head bump (截和) of competition practice.
* ``concealed_and_melded_kong_5`` (bool, False): score a melded plus a concealed kong as the
  5-point 明暗杠 instead of the literal 81-fan list's 1 + 2.
* ``min_fan`` (int 0..88, 8): the minimum fans (flowers excluded) a hu must be worth.
* ``rounds`` (int 1..4, 4): wind rounds in a match; each round is 4 hands.
* ``claim_prompts`` ("eligible" | "all", "eligible"): who a claim window asks. "eligible" asks
  only the seats with a legal claim (a window nobody can use closes at once); "all" asks every
  seat but the discarder (or the kong-maker), those without a claim with ``pass`` alone, so
  neither who is asked nor how long play waits tells anything about hidden tiles.
"""

from __future__ import annotations

from paiju.core.errors import IllegalAction
from paiju.core.options import Option, choice, flag, int_range, normalize_options
from paiju.core.rng import Rng
from paiju.core.seats import Seat
from paiju.engines.base import JSON, EngineDefaults, Event, MatchInfo, Options, Step
from paiju.engines.mcr import actions as act
from paiju.engines.mcr.actions import Action
from paiju.engines.mcr.claims import respond
from paiju.engines.mcr.match import hands_in_match, prevalent_wind, wind_order
from paiju.engines.mcr.rules import apply_turn, turn_actions
from paiju.engines.mcr.schema import McrView
from paiju.engines.mcr.state import (
    CLAIM,
    OVER,
    PROMPT_ALL,
    PROMPT_ELIGIBLE,
    ROB,
    TURN,
    McrState,
    Rules,
    evolve,
)
from paiju.engines.mcr.view import PublicParts, build_view
from paiju.engines.mcr.wall import deal, shuffled_wall

#: Table options (rules/mcr.md): head bump or multiple win; the 明暗杠 = 5 reading; the fan
#: minimum (without flowers); prevalent-wind rounds per match (4 hands each); who a claim
#: window asks.
_OPTIONS: dict[str, Option] = {
    "multiple_win": flag(False),
    "concealed_and_melded_kong_5": flag(False),
    "min_fan": int_range(8, 0, 88),
    "rounds": int_range(4, 1, 4),
    "claim_prompts": choice(PROMPT_ELIGIBLE, PROMPT_ELIGIBLE, PROMPT_ALL),
}


def rules_of(options: Options) -> Rules:
    """The ``Rules`` of normalized ``options``."""
    return Rules(
        multiple_win=bool(options["multiple_win"]),
        concealed_and_melded_kong_5=bool(options["concealed_and_melded_kong_5"]),
        min_fan=int(options["min_fan"]),
        rounds=int(options["rounds"]),
        claim_prompts=str(options["claim_prompts"]),
    )


class McrEngine(EngineDefaults[McrState, Action]):
    """The MCR rules as pure functions over ``McrState``."""

    name = "mcr"

    def __init__(self) -> None:
        # What every viewer of the last state viewed shares (a table views a state for each
        # viewer in a row); one engine per table, so per table and no global state.
        self._public = PublicParts()
        # A one-entry memo of ``turn_actions`` (a pure function of the state), not game state:
        # a view, a bot's choice and the apply that follows all ask about the same state
        # object. It is safe without locks or per-table instances (although ``get_engine``
        # gives every room its own engine): the key is the state's identity, and the entry
        # holds a strong reference to that immutable state, so an ``is`` hit can only be the
        # very state the actions were computed for; the entry is replaced by one atomic
        # assignment, so interleaved callers can only miss, never read a wrong answer.
        # A functools.lru_cache keyed on the state would hash the whole wall on every call.
        self._last_turn: tuple[McrState, frozenset[Action]] | None = None

    def normalize_options(self, raw: Options) -> dict[str, JSON]:
        """Every option with its default; ``InvalidOptions`` for unknown keys or bad values."""
        return normalize_options("mcr", raw, _OPTIONS)

    def seat_count(self, options: Options) -> int:
        return 4

    def initial_state(self, options: Options, rng: Rng, match: MatchInfo) -> McrState:
        """Shuffle and deal hand ``match.hand`` of the match (winds from the hand index)."""
        rules = rules_of(self.normalize_options(options))
        state, _ = deal(
            rules,
            shuffled_wall(rng),
            hand_index=match.hand,
            prevalent=prevalent_wind(match.hand),
            order=wind_order(match.hand),
        )
        return state

    def version(self, state: McrState) -> int:
        return state.version

    def to_act(self, state: McrState) -> frozenset[Seat]:
        if state.phase == TURN:
            return _ALONE[state.current]
        if state.phase in (CLAIM, ROB) and state.window is not None:
            return state.window.waiting()
        return frozenset()

    def legal_actions(self, state: McrState, seat: Seat) -> frozenset[Action]:
        if seat not in self.to_act(state):
            return frozenset()
        return self._asked(state, seat)

    def _asked(self, state: McrState, seat: Seat) -> frozenset[Action]:
        """``legal_actions`` of a seat that is to act."""
        if state.phase == TURN:
            # The identity memo described in ``__init__``.
            last = self._last_turn
            if last is not None and last[0] is state:
                return last[1]
            actions = turn_actions(state)
            self._last_turn = (state, actions)
            return actions
        assert state.window is not None
        return state.window.options_of(seat)

    def refusal(self, state: McrState, seat: Seat, action: Action) -> IllegalAction:
        text = act.format_action(action)
        return IllegalAction(f"{text} is not legal now", code=_illegal_code(state, seat, action))

    def check_action(self, state: McrState, seat: Seat, action: object) -> Action:
        """A listed action is well formed and legal as it is (every listed action is
        canonical): the protocol's checks, each of which it passes, and the round trip through
        the notation are for the others. Only a plain ``Action`` of a plain ``str`` and
        ``int`` is taken as it is (a ``True`` tile equals the tile 1 and would be listed)."""
        if (
            type(action) is Action
            and type(action.kind) is str
            and (action.tile is None or type(action.tile) is int)
            and action in self.legal_actions(state, seat)
        ):
            return action
        return super().check_action(state, seat, action)

    def apply(self, state: McrState, seat: Seat, action: Action) -> Step[McrState]:
        """Check (``check_action``: ``GameOver``, ``NotYourTurn``, ``MalformedAction``,
        ``IllegalAction`` with a rule-naming code) and apply."""
        action = self.check_action(state, seat, action)
        events: list[Event] = []
        if state.phase == TURN:
            new = apply_turn(state, action, events)
        else:
            new = respond(state, seat, action, events)
        return Step(_numbered(new, state), tuple(events))

    def view(self, state: McrState, seat: Seat | None) -> McrView:
        to_act = self.to_act(state)  # (once: the legal actions ask it too)
        legal = self._asked(state, seat) if seat is not None and seat in to_act else _NONE
        return build_view(state, seat, to_act, legal, self._public)

    def timeout_action(self, state: McrState, seat: Seat) -> Action:
        """Pass in a claim window (the one action of a seat asked without a claim); in one's
        turn discard the drawn tile (摸切)."""
        if state.phase in (CLAIM, ROB):
            return Action(act.PASS)
        tile = state.drawn if state.drawn is not None else state.hands[seat][-1]
        return Action(act.DISCARD, tile)

    def public_to_act(self, state: McrState) -> frozenset[Seat]:
        """Whose turn it is is public; who is still asked in a claim window is not: under
        ``claim_prompts = "eligible"`` it would tell everyone who can use the tile, and under
        ``"all"`` (where everyone knows the three asked seats) who has answered already."""
        return frozenset() if state.phase in (CLAIM, ROB) else self.to_act(state)

    def timer_kind(self, state: McrState, seat: Seat) -> str:
        return "claim" if state.phase in (CLAIM, ROB) else "turn"

    def is_terminal(self, state: McrState) -> bool:
        return state.phase == OVER

    def scores(self, state: McrState) -> tuple[int, ...]:
        return state.result

    def hand_stats(self, state: McrState) -> list[dict[str, float]]:
        """Per seat: won the hand, won it self-drawn, dealt into a win."""
        stats = []
        for seat in range(4):
            wins = [w for w in state.wins if w.seat == seat]
            stats.append(
                {
                    "win": 1.0 if wins else 0.0,
                    "self_drawn": 1.0 if any(w.source is None for w in wins) else 0.0,
                    "deal_in": 1.0 if any(w.source == seat for w in state.wins) else 0.0,
                }
            )
        return stats

    def carry(self, state: McrState) -> dict[str, JSON]:
        """Informative: the hand dealt, its dealer and winds (the next hand derives its own)."""
        return {
            "hand": state.hand_index,
            "dealer": state.dealer,
            "prevalent_wind": state.prevalent,
            "order": list(state.order),
        }

    def match_over(self, options: Options, match: MatchInfo) -> bool:
        rules = rules_of(self.normalize_options(options))
        return match.hand >= hands_in_match(rules.rounds)

    def parse_action(self, text: str) -> Action:
        return act.parse_action(text)

    def format_action(self, action: Action) -> str:
        return act.format_action(action)


#: Who acts in a seat's turn, per seat: the one set of each, not a new one per question.
_ALONE = tuple(frozenset({seat}) for seat in range(4))
#: The legal actions of a seat that is not asked.
_NONE: frozenset[Action] = frozenset()


def _numbered(new: McrState, state: McrState) -> McrState:
    """``new`` (the state an action made of ``state``) with the version after ``state``'s.

    ``new`` is built by the action's own ``evolve`` calls and nobody has seen it yet: its
    version is set in place, not by one more copy of the whole state (a copy per action)."""
    if new is state:  # (no rule returns the state it was given, but then: a copy)
        return evolve(new, version=state.version + 1)
    object.__setattr__(new, "version", state.version + 1)
    return new


def _illegal_code(state: McrState, seat: Seat, action: Action) -> str:
    """A rule-naming code for an action that is not legal now."""
    kind = action.kind
    if state.phase == TURN:
        if kind in (act.CHI, act.PENG, act.GANG, act.PASS):
            return "no_discard_to_claim"
        if kind == act.DISCARD:
            return "tile_not_in_hand"
        if kind == act.HU:
            return "not_a_winning_hand"
        if not state.wall:
            return "no_replacement_tile"
        return "kong_not_possible"
    if state.phase == ROB:
        return "only_hu_on_added_kong"
    if kind == act.CHI and state.window is not None and state.wall:
        if state.next_seat(state.window.source) != seat:
            return "chi_only_from_left"
        return "chow_not_possible"
    if kind == act.HU:
        return "not_a_winning_hand"
    if not state.wall:
        return "last_tile_hu_only"
    return "claim_not_possible"
