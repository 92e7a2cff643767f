"""``DragonEngine``: pai gow dragon (牌九接龙) as a paiju engine.

Each seat is dealt 8 tiles from a shuffled set of 32 and privately arranges them: a chain of 6
or 7 tiles with equal touching halves, and a leftover of 2 or 1 scoring tiles (得分牌). All
seats submit at once; the showdown comes when the last one submits, and every two seats
settle (the loser pays the winner 1, or 2 when the winner's leftover is a pair).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Mapping
from itertools import pairwise
from typing import Any, TypeVar

from paiju.core.errors import IllegalAction, NotYourTurn
from paiju.core.rng import Rng
from paiju.core.seats import Seat
from paiju.engines.base import EngineDefaults, Event, MatchInfo, Options, Step
from paiju.engines.dragon import actions, listing, rules
from paiju.engines.dragon.actions import (
    Action,
    Arrange,
    DeclareBust,
    optimal_action,
    optimal_text,
)
from paiju.engines.dragon.schema import DragonView, ShowdownEvent, SubmittedEvent
from paiju.engines.dragon.scoring import category
from paiju.engines.dragon.solver import (
    arrangements,
    best_leftover,
    solve_cached,
)
from paiju.engines.dragon.state import (
    DragonState,
    carry_memo,
    evolve,
    net_scores,
    new_state,
    showdown,
)
from paiju.engines.dragon.tiles import FULL_SET, Kind, kind_of
from paiju.engines.dragon.view import LegalWhenRead, build_view

T = TypeVar("T")


@functools.lru_cache(maxsize=4096)
def legal_for_hand(hand: tuple[Kind, ...]) -> frozenset[Action]:
    """Every legal action for a sorted 8-tile hand: its arrangements, or ``bust`` if none."""
    return _work_out_legal(hand)


def _work_out_legal(hand: tuple[Kind, ...]) -> frozenset[Action]:
    found = arrangements.__wrapped__(hand)
    if not found:
        return frozenset({DeclareBust()})
    return frozenset(Arrange.canonical(chain, leftover) for chain, leftover in found)


def check_arrangement(hand: tuple[Kind, ...], action: Action, bust: bool | None = None) -> None:
    """Raise ``IllegalAction`` with a rule-naming code unless ``action`` is legal for ``hand``.

    Codes: ``not_bust``, ``wrong_tile_count``, ``chain_length``, ``not_your_tiles``,
    ``halves_do_not_match``. These named rules accept exactly ``legal_for_hand(hand)`` (a test
    holds them to it on thousands of hands and near-miss arrangements), without listing every
    arrangement: a hand whose list is not cached, as in a room being restored, costs a few
    microseconds instead of a millisecond. ``bust``: whether the hand is bust, when the caller
    knows it already (else the solver tells).
    """
    if isinstance(action, DeclareBust):
        if (best_leftover(hand) is not None) if bust is None else not bust:
            raise IllegalAction(
                "this hand can lay a chain of 6, so it is not bust", code="not_bust"
            )
        return
    used = action.kinds()
    if len(used) != len(hand):
        raise IllegalAction(
            f"an arrangement uses all {len(hand)} tiles of the hand, not {len(used)}",
            code="wrong_tile_count",
        )
    if len(action.chain) not in (6, 7):
        raise IllegalAction(
            f"the chain must have 6 or 7 tiles, not {len(action.chain)}", code="chain_length"
        )
    if sorted(used) != sorted(hand):
        raise IllegalAction(
            "the arrangement does not use exactly the tiles of your hand", code="not_your_tiles"
        )
    for (_, right), (left, _) in pairwise(action.chain):
        if right != left:
            raise IllegalAction(
                f"touching halves must be equal: {right} meets {left}", code="halves_do_not_match"
            )


class DragonEngine(EngineDefaults[DragonState, Action]):
    """The dragon rules; every method is pure (see ``paiju.engines.base.Engine``)."""

    name = "dragon"

    def normalize_options(self, raw: Options) -> dict[str, Any]:
        return rules.normalize_options(raw)

    def seat_count(self, options: Options) -> int:
        return int(rules.normalized(options)["seats"])

    def initial_state(self, options: Options, rng: Rng, match: MatchInfo) -> DragonState:
        """Shuffle the 32 tiles and deal 8 to each seat; the rest stay face down."""
        opts = rules.normalized(options)
        deck = list(FULL_SET)
        rng.shuffle(deck)
        seats = opts["seats"]
        hands = [deck[8 * s : 8 * s + 8] for s in range(seats)]
        return new_state(opts, hands, deck[8 * seats :], hand_index=match.hand)

    def version(self, state: DragonState) -> int:
        return state.version

    def to_act(self, state: DragonState) -> frozenset[Seat]:
        """Every seat that has not submitted (none after the showdown), worked out once per
        state: the table, the view of every viewer and the checks each ask (a dozen times an
        action)."""
        found: frozenset[Seat] | None = state.derived.get("to_act")
        if found is None:
            found = state.derived["to_act"] = (
                frozenset()
                if state.over
                else frozenset(s for s, a in enumerate(state.submissions) if a is None)
            )
        return found

    def legal_actions(self, state: DragonState, seat: Seat) -> frozenset[Action]:
        if seat not in self.to_act(state):
            return frozenset()
        return _of_hand(state, seat, "legal", _work_out_legal)

    def legal_key(self, state: DragonState, seat: Seat) -> Hashable:
        """A seat's arrangements are a function of its hand alone: an open decision keeps
        the hand (which the state holds anyway), not dozens of arrangements (some 5 KiB a
        seat, most of what an idle seated connection cost)."""
        return state.hands[seat] if seat in self.to_act(state) else ()

    def check_action(self, state: DragonState, seat: Seat, action: object) -> Action:
        """As ``EngineDefaults`` (the same errors, and ``already_submitted`` for a seat that
        has submitted), judged by the named rules of ``check_arrangement``."""
        seated = not state.over and 0 <= seat < state.seat_count
        if seated and state.submissions[seat] is not None:
            raise NotYourTurn(f"seat {seat} has already submitted", code="already_submitted")
        if not seated or seat not in self.to_act(state):
            return super().check_action(state, seat, action)  # raises its own error
        checked = self.well_formed(action)
        check_arrangement(state.hands[seat], checked, _known_bust(state, seat))
        return checked

    def apply(self, state: DragonState, seat: Seat, action: Action) -> Step[DragonState]:
        """Record ``seat``'s arrangement; the last submission triggers the showdown.

        Raises ``GameOver`` after the showdown, ``NotYourTurn`` for a seat that is not at the
        table or has already submitted (code ``already_submitted``), ``IllegalAction`` for an
        invalid arrangement (codes of ``check_arrangement``), ``MalformedAction`` for an object
        that is no dragon action.
        """
        action = self.check_action(state, seat, action)
        submissions = list(state.submissions)
        submissions[seat] = action
        nxt = evolve(state, version=state.version + 1, submissions=tuple(submissions))
        events = [Event("submitted", SubmittedEvent(seat=seat))]
        if None not in submissions:
            nxt = showdown(nxt)
            events.append(Event("showdown", ShowdownEvent(scores=list(net_scores(nxt)))))
        return Step(carry_memo(state, nxt), tuple(events))

    def view(self, state: DragonState, seat: Seat | None) -> DragonView:
        waiting = self.to_act(state)
        legal = []
        if seat is not None and seat in waiting:
            legal = _texts(state, seat)
        return build_view(state, seat, legal, _listed(state, waiting))

    def bot_view(self, state: DragonState, seat: Seat) -> Mapping[str, Any]:
        """``view``, with ``legal`` written only if the bot reads it (``LegalWhenRead``)."""
        waiting = self.to_act(state)
        if seat not in waiting:
            return self.view(state, seat)
        return LegalWhenRead(
            build_view(state, seat, [], _listed(state, waiting)), lambda: _texts(state, seat)
        )

    def well_formed(self, action: object) -> Action:
        """As ``EngineDefaults.well_formed``; an action as ``parse_action`` makes it (so what
        the table hands ``apply``) is known well formed without being written and read back
        (``actions.plainly_canonical``)."""
        if type(action) is DeclareBust or (
            type(action) is Arrange and actions.plainly_canonical(action)
        ):
            return action
        return super().well_formed(action)

    def timeout_action(self, state: DragonState, seat: Seat) -> Action:
        """The trustee's choice: the solver's optimal arrangement (or ``bust``)."""
        return optimal_action(state.hands[seat], state.scoring)

    def is_terminal(self, state: DragonState) -> bool:
        return state.over

    def scores(self, state: DragonState) -> tuple[int, ...]:
        return net_scores(state)

    def carry(self, state: DragonState) -> dict[str, Any]:
        """Dragon carries nothing between hands but how many were played."""
        return {"hands_played": state.hand_index + 1}

    def match_over(self, options: Options, match: MatchInfo) -> bool:
        return bool(match.hand >= rules.normalized(options)["hands"])

    def parse_action(self, text: str) -> Action:
        return actions.parse_action(text)

    def format_action(self, action: Action) -> str:
        return actions.format_action(action)

    def timer_kind(self, state: DragonState, seat: Seat) -> str:
        """Every decision in dragon is the one arrangement of a hand."""
        return "arrange"

    def hand_stats(self, state: DragonState) -> list[dict[str, float]]:
        """Per seat, once the hand is over: ``pair`` / ``bust`` (the scored category) and
        ``missed`` (1 when the scored leftover is worse than the hand's best arrangement)."""
        if not state.over:
            return [{} for _ in state.hands]
        scoring = state.scoring
        return [
            {
                "pair": float(category(key) == "pair"),
                "bust": float(category(key) == "bust"),
                "missed": float(key < solve_cached(hand, scoring).key),
            }
            for hand, key in zip(state.hands, state.keys, strict=True)
        ]


def hand_from_codes(codes: Iterable[str]) -> tuple[Kind, ...]:
    """A sorted hand from tile codes (a small helper for tests and tools)."""
    return tuple(sorted(kind_of(c) for c in codes))


@functools.lru_cache(maxsize=4096)
def legal_texts(hand: tuple[Kind, ...]) -> tuple[str, ...]:
    """The sorted notation of every legal action of a sorted hand, from the actions
    themselves (tools and tests; views write it with ``listing.legal_notation``)."""
    return tuple(sorted(actions.format_action(a) for a in legal_for_hand(hand)))


def _texts(state: DragonState, seat: Seat) -> list[str]:
    """The sorted notation of the seat's legal actions, worked out once per hand.

    The memo keeps one string (the lines joined), not the actions: a dealt seat that waits
    holds some 0.7 KiB for its list instead of some 5 KiB of arrangement objects."""
    key = ("texts", seat)
    found: str | None = state.of_hands.get(key)
    if found is None:
        found = state.of_hands[key] = "\n".join(_list_and_solve(state, seat))
    return found.split("\n")


def _list_and_solve(state: DragonState, seat: Seat) -> list[str]:
    """The seat's legal notation, and the best arrangement its view shows too (unless it is
    remembered already) from the leftovers that list names: the solver would test each
    leftover again."""
    hand = state.hands[seat]  # sorted
    listed = listing.legal_notation(hand)
    if ("best", seat) not in state.of_hands:
        leftovers = listing.listed_leftovers(listed)
        state.of_hands[("best", seat)] = optimal_text(hand, state.scoring, leftovers)
    return listed


def _known_bust(state: DragonState, seat: Seat) -> bool | None:
    """Whether the seat's hand is bust, when its view's best arrangement is remembered
    (``bust`` exactly when the hand lays no chain); ``None`` otherwise. A ``bust`` submission
    asked the solver again (some 25 us), though the seat's view had just worked it out."""
    best: str | None = state.of_hands.get(("best", seat))
    return None if best is None else best == "bust"


def _listed(state: DragonState, waiting: frozenset[Seat]) -> list[Seat]:
    """``to_act`` as the sorted list every viewer's view of the state shares (views are only
    read)."""
    found: list[Seat] | None = state.derived.get("to_act_list")
    if found is None:
        found = state.derived["to_act_list"] = sorted(waiting)
    return found


def _of_hand(state: DragonState, seat: Seat, what: str, work: Callable[[tuple[Kind, ...]], T]) -> T:
    """``work`` of the seat's hand, once per hand (the memo every state of the hand shares)."""
    key = (what, seat)
    found: T | None = state.of_hands.get(key)
    if found is None:
        found = state.of_hands[key] = work(state.hands[seat])
    return found
