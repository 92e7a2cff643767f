"""``changed``: the state copy the rules make two or three times an action is the copy
``dataclasses.replace`` would make, without the old state's cached values."""

from __future__ import annotations

import pickle
from dataclasses import replace
from typing import Any

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.shengji.engine import ShengjiEngine
from paiju.engines.shengji.state import Bid, ShengjiState, changed

ENGINE = ShengjiEngine()


def _state() -> ShengjiState:
    options = ENGINE.normalize_options({"game_mode": "finding_friends"})
    return ENGINE.initial_state(options, SeededRng("s"), MatchInfo(hand=0, totals=(0,) * 4))


CHANGES: list[dict[str, Any]] = [
    {},
    {"phase": "play", "leader": 3},
    {"bids": (Bid(1, "H2", 1),), "asked": (1, 2), "trump_suit": "H"},
    {"hands": ((), (), (), ()), "version": 99, "friend_seat": None, "match_winner": 1},
]


@pytest.mark.parametrize("changes", CHANGES)
def test_a_changed_copy_is_the_copy_replace_makes(changes: dict[str, Any]) -> None:
    state = _state()
    copy = changed(state, **changes)
    assert copy == replace(state, **changes)
    assert hash(copy) == hash(replace(state, **changes))
    assert type(copy) is ShengjiState
    assert copy is not state and state == _state()  # the old state is untouched
    assert pickle.loads(pickle.dumps(copy)) == copy


def test_the_cached_values_stay_with_the_old_state() -> None:
    state = _state()
    state.derived["legal", 0] = ("stale",)
    assert state.friends_mode
    copy = changed(state, options=(("game_mode", "tractor"),), phase="play")
    assert copy.derived == {}  # a memo of the old state would answer for the new one
    assert not copy.friends_mode  # worked out again from the new options
    assert state.derived == {("legal", 0): ("stale",)} and state.friends_mode


def test_a_copy_is_frozen_like_the_state() -> None:
    copy = changed(_state(), phase="play")
    with pytest.raises(AttributeError):
        copy.phase = "deal"  # type: ignore[misc]


def test_an_unknown_field_is_refused() -> None:
    with pytest.raises(TypeError, match="nosuch"):
        changed(_state(), nosuch=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="derived"):
        changed(_state(), derived={})  # type: ignore[call-arg]
