"""Views share what they can: a seat's legal arrangements, their notation and its best one
are worked out once per hand (every state of the hand shares them), the showdown's reveal
once for every viewer; each view stays exactly the view built straightforwardly, viewer by
viewer, state by state (the same JSON bytes, keys in the same order)."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.dragon import listing
from paiju.engines.dragon.actions import Arrange, format_action, optimal_action
from paiju.engines.dragon.engine import DragonEngine, legal_texts
from paiju.engines.dragon.schema import PlayerView
from paiju.engines.dragon.state import DragonState
from paiju.engines.dragon.tiles import Kind, tile_code
from paiju.engines.dragon.view import _reveal

ENGINE = DragonEngine()
OPTIONS = [{}, {"seats": 2}, {"seats": 3, "scoring": "best"}]


def plain_view(state: DragonState, seat: int | None) -> dict[str, Any]:
    """The view built from the hand alone, with nothing remembered between calls."""
    waiting = ENGINE.to_act(state)
    own = seat is not None and 0 <= seat < state.seat_count
    mine = state.submissions[seat] if own and seat is not None else None
    hand: tuple[Kind, ...] = state.hands[seat] if own and seat is not None else ()
    best = None
    if own and mine is None and not state.over:
        best = format_action(optimal_action(tuple(sorted(hand)), state.scoring))
    view: dict[str, Any] = {
        "variant": "dragon",
        "hand_index": state.hand_index,
        "seat": seat,
        "seats": state.seat_count,
        "phase": "showdown" if state.over else "arrange",
        "options": state.opts,
        "to_act": sorted(waiting),
        "hand": [tile_code(k) for k in hand],
        "my_submission": format_action(mine) if mine is not None else None,
        "best": best,
        "players": [
            PlayerView(seat=s, tiles=len(h), submitted=state.submissions[s] is not None)
            for s, h in enumerate(state.hands)
        ],
        "legal": list(legal_texts.__wrapped__(hand)) if seat in waiting else [],
        "legal_complete": True,
    }
    if state.over:
        view["result"] = _reveal(state)
    return view


def deal(options: dict[str, Any], seed: int) -> DragonState:
    opts = ENGINE.normalize_options(options)
    match = MatchInfo(0, (0,) * opts["seats"])
    return ENGINE.initial_state(opts, SeededRng(f"shared/{seed}"), match)


def check_views(state: DragonState, order: random.Random) -> None:
    viewers: list[int | None] = [None, *range(state.seat_count)]
    order.shuffle(viewers)
    for seat in viewers:
        assert orjson.dumps(ENGINE.view(state, seat)) == orjson.dumps(plain_view(state, seat))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), options=st.sampled_from(OPTIONS), order=st.randoms())
def test_views_equal_the_views_built_viewer_by_viewer(
    seed: int, options: dict[str, Any], order: random.Random
) -> None:
    """Along a hand and along a branch from the same state (other submissions): the memo the
    states of a hand share holds only what the hands decide."""
    state = deal(options, seed)
    while not ENGINE.is_terminal(state):
        check_views(state, order)
        seat = order.choice(sorted(ENGINE.to_act(state)))
        choices = sorted(ENGINE.legal_actions(state, seat), key=format_action)
        branch = ENGINE.apply(state, seat, order.choice(choices)).state
        check_views(branch, order)
        state = ENGINE.apply(state, seat, order.choice(choices)).state
    check_views(state, order)


@pytest.fixture
def worked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Kind, ...]]:
    """The hands whose legal notation is worked out from now on, in order."""
    hands: list[tuple[Kind, ...]] = []
    work_out = listing.legal_notation

    def counted(hand: tuple[Kind, ...]) -> list[str]:
        hands.append(hand)
        return work_out(hand)

    monkeypatch.setattr(listing, "legal_notation", counted)
    return hands


def test_a_hand_works_out_each_seat_s_arrangements_once(worked: list[tuple[Kind, ...]]) -> None:
    """Not once per state (a submission changes no hand), nor again for each view."""
    state = deal({}, 7)
    while not ENGINE.is_terminal(state):
        views = {seat: ENGINE.view(state, seat) for seat in [None, *range(state.seat_count)]}
        for seat in ENGINE.to_act(state):  # what the table keeps of an open decision
            assert ENGINE.legal_key(state, seat) == state.hands[seat]
        seat = min(ENGINE.to_act(state))
        state = ENGINE.apply(state, seat, ENGINE.parse_action(min(views[seat]["legal"]))).state
    assert sorted(worked) == sorted(state.hands)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_listed_arrangements_are_the_ones_built_from_their_parts(seed: int) -> None:
    """A new hand's arrangements are made without ordering their chains again
    (``Arrange.canonical``): each is equal, hash included, to the one ``Arrange`` builds."""
    state = deal({}, seed)
    for seat in range(state.seat_count):
        for action in ENGINE.legal_actions(state, seat):
            if isinstance(action, Arrange):
                rebuilt = Arrange(tuple(reversed([(r, x) for x, r in action.chain])),
                                  tuple(reversed(action.leftover)))
                assert rebuilt == action
                assert hash(rebuilt) == hash(action)
                assert format_action(rebuilt) == format_action(action)


def test_a_bot_s_view_lists_the_arrangements_only_when_read(
    worked: list[tuple[Kind, ...]],
) -> None:
    """``bot_view`` is the seat's view, but its ``legal`` is worked out when first read (the
    level-1 bot never reads it), once, into the memo the hand's views share."""
    state = deal({}, 3)
    view = ENGINE.bot_view(state, 1)
    plain = plain_view(state, 1)
    assert {key: view[key] for key in view if key != "legal"} == {
        key: value for key, value in plain.items() if key != "legal"
    }
    assert worked == []
    assert view["legal"] == plain["legal"] and view.get("legal") == plain["legal"]
    assert dict(view) == plain
    assert ENGINE.view(state, 1)["legal"] == plain["legal"]
    assert worked == [state.hands[1]]
    # a seat that is not to act is handed its plain view
    after = ENGINE.apply(state, 1, ENGINE.parse_action(plain["legal"][0])).state
    assert ENGINE.bot_view(after, 1) == plain_view(after, 1)


def test_the_viewers_of_a_state_share_one_part_and_own_their_keys() -> None:
    """A view is a copy of the part every viewer of the state shares (built once per state),
    with the viewer's own keys set: what a reader writes into its view (as a bot's view does
    with ``legal``) shows in no other view, and no viewer's own keys leak into another's."""
    state = deal({"seats": 3}, 11)
    state = ENGINE.apply(state, 2, ENGINE.parse_action(plain_view(state, 2)["legal"][0])).state
    first = ENGINE.view(state, 0)
    for key in ("seat", "hand", "best", "legal", "my_submission", "to_act", "phase"):
        first[key] = "written by a reader"  # type: ignore[literal-required]
    for seat in (None, 1, 2, 0):
        view = ENGINE.view(state, seat)
        assert orjson.dumps(view) == orjson.dumps(plain_view(state, seat))
        assert view is not first
        assert view["players"] is first["players"] and view["options"] is first["options"]
    after = ENGINE.apply(state, 0, ENGINE.parse_action(plain_view(state, 0)["legal"][0])).state
    assert ENGINE.view(after, 1)["players"] is not first["players"]  # a state's own
    assert orjson.dumps(ENGINE.view(after, 1)) == orjson.dumps(plain_view(after, 1))
