"""What one seat (or a spectator) sees of a dragon hand.

Before the showdown a seat sees its own 8 tiles and, for every seat, only whether it has
submitted (never what). Other hands, and the undealt tiles, are never shown; the undealt
tiles stay hidden even after the showdown. After the showdown everyone sees every hand,
every arrangement, its category, points, score key and the settlement.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from paiju.core.seats import Seat
from paiju.engines.dragon.actions import Action, Arrange, format_action, optimal_text
from paiju.engines.dragon.schema import (
    ArrangementView,
    DragonView,
    PlayerView,
    ResultView,
    RevealView,
    ScoredView,
)
from paiju.engines.dragon.scoring import Key, category
from paiju.engines.dragon.solver import solve_cached
from paiju.engines.dragon.state import DragonState, net_scores
from paiju.engines.dragon.tiles import kind_of, tile_code


def chain_json(chain: tuple[tuple[int, int], ...]) -> list[Any]:
    """``[[tile, [left_pips, right_pips]], ...]`` — the judge's chain format."""
    return [[_code_of_halves(a, b), [a, b]] for a, b in chain]


@functools.cache
def _code_of_halves(left: int, right: int) -> str:
    # A tile's code from its two halves: parsed once per pair, not once per viewer.
    return tile_code(kind_of(f"{left}{right}"))


def _arrangement_json(state: DragonState, seat: Seat, action: Action) -> ArrangementView:
    chain = action.chain if isinstance(action, Arrange) else ()
    leftover = action.leftover if isinstance(action, Arrange) else ()
    return ArrangementView(
        text=submission_text(state, seat, action),
        chain=chain_json(chain),
        leftover=[tile_code(k) for k in leftover],
    )


def _points(key: Key) -> int | None:
    return key[1] if key[0] == 1 else None


def _reveal(state: DragonState) -> ResultView:
    """The showdown: every hand, what it submitted, what was scored, and the settlement."""
    best = state.opts["scoring"] == "best"
    scores = net_scores(state)
    seats = []
    for s, hand in enumerate(state.hands):
        submitted = state.submissions[s]
        assert submitted is not None
        entry = RevealView(
            seat=s,
            tiles=_hand_codes(state, s),
            submitted=_arrangement_json(state, s, submitted),
            category=category(state.keys[s]),
            key=list(state.keys[s]),
            points=_points(state.keys[s]),
            score=scores[s],
        )
        if best:
            sol = solve_cached(hand, state.scoring)
            entry["scored"] = ScoredView(
                chain=chain_json(sol.chain), leftover=[tile_code(k) for k in sol.leftover]
            )
        seats.append(entry)
    return ResultView(
        seats=seats, payments=[list(r) for r in state.payments], scores=list(scores)
    )


def _best(state: DragonState, seat: Seat | None) -> str | None:
    """The arrangement the solver rates best for the seat's own hand under the table's
    scoring (the one the timeout would submit): the seat's own tiles only, nothing new."""
    if seat is None:
        return None
    key = ("best", seat)
    found: str | None = state.of_hands.get(key)
    if found is None:  # once per hand: every state of the hand shares the memo
        found = state.of_hands[key] = optimal_text(state.hands[seat], state.scoring)
    return found


def submission_text(state: DragonState, seat: Seat, action: Action) -> str:
    """The notation of ``action``, the seat's submission in ``state``: written once per hand
    (``DragonState.shown``), not in every state the seat is sent."""
    found: tuple[Action, str] | None = state.shown.get(("submission", seat))
    if found is None or found[0] is not action:
        found = state.shown[("submission", seat)] = (action, format_action(action))
    return found[1]


def _hand_codes(state: DragonState, seat: Seat) -> list[str]:
    """The codes of the seat's tiles, written once per hand and shared by its views (which
    are only read)."""
    found: list[str] | None = state.shown.get(("hand", seat))
    if found is None:
        found = state.shown[("hand", seat)] = [tile_code(k) for k in state.hands[seat]]
    return found


def build_view(
    state: DragonState, seat: Seat | None, legal: list[str], to_act: list[Seat]
) -> DragonView:
    """The JSON view of ``state`` for ``seat`` (``None``: a spectator); ``legal`` lists every
    arrangement of the hand (``legal_complete``).

    A copy of the part every viewer of the state shares (``_shared``, built once per state),
    with the viewer's own keys set: a view was a dozen keys written afresh, for each of the
    five viewers of every state."""
    derived = state.derived
    shared: DragonView | None = derived.get("view")
    if shared is None:
        shared = derived["view"] = _shared(state)
    view = shared.copy()  # the same keys in the same order, each viewer's own set below
    view["seat"] = seat
    view["to_act"] = to_act
    view["legal"] = legal
    if seat is not None and 0 <= seat < len(state.hands):
        view["hand"] = _hand_codes(state, seat)
        mine = state.submissions[seat]
        if mine is not None:
            view["my_submission"] = submission_text(state, seat, mine)
        elif not state.keys:  # before the showdown
            view["best"] = _best(state, seat)
    else:
        view["hand"] = []
    return view


def _shared(state: DragonState) -> DragonView:
    """What every viewer's view of ``state`` shows alike, built once per state: the options,
    every seat's public part (tiles, whether it has submitted) and the showdown's reveal are
    the very same objects in every viewer's view (views are only read); the viewer's own keys
    are at their places with a spectator's values."""
    over = state.over
    players = [
        PlayerView(seat=s, tiles=len(h), submitted=state.submissions[s] is not None)
        for s, h in enumerate(state.hands)
    ]
    view: DragonView = {
        "variant": "dragon",
        "hand_index": state.hand_index,
        "seat": None,
        "seats": state.seat_count,
        "phase": "showdown" if over else "arrange",
        "options": state.opts,
        "to_act": [],
        "hand": [],
        "my_submission": None,
        "best": None,
        "players": players,
        "legal": [],
        "legal_complete": True,
    }
    if over:
        view["result"] = _reveal(state)
    return view


class LegalWhenRead(Mapping[str, Any]):
    """A seat's view whose ``legal`` list is written only when a reader asks for it: the view
    the table hands a bot. The level-1 bot and the trustee answer with ``best`` and never
    read it, so a room of bots does not list every arrangement of each bot's hand (some
    80 us a hand); a bot that does read it gets the list a person's view carries."""

    __slots__ = ("_legal", "_view")

    def __init__(self, view: DragonView, legal: Callable[[], list[str]]) -> None:
        self._view = view
        self._legal: Callable[[], list[str]] | None = legal

    def __getitem__(self, key: str) -> Any:
        if key == "legal" and self._legal is not None:
            self._view["legal"] = self._legal()
            self._legal = None
        return self._view[key]  # type: ignore[literal-required]

    def __iter__(self) -> Iterator[str]:
        return iter(self._view)

    def __len__(self) -> int:
        return len(self._view)
