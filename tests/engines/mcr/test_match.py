"""The 16-hand match: winds, dealers, seat changes between rounds, cumulative scores."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.mcr.engine import McrEngine
from paiju.engines.mcr.match import ROUND_PLACES, prevalent_wind, wind_order
from paiju.engines.mcr.state import McrState

ENGINE = McrEngine()


def test_every_player_deals_four_times_and_sits_at_every_place() -> None:
    dealers = Counter(wind_order(h)[0] for h in range(16))
    assert dealers == {0: 4, 1: 4, 2: 4, 3: 4}
    for seat in range(4):
        assert sorted(places.index(seat) for places in ROUND_PLACES) == [0, 1, 2, 3]
    # Within a round the winds rotate: East becomes North, South becomes East.
    assert wind_order(0) == (0, 1, 2, 3) and wind_order(1) == (1, 2, 3, 0)
    # Before the South round East/South and West/North swap; the South round starts at the
    # East place with the player who had been South.
    assert wind_order(4) == (1, 0, 3, 2)
    assert [prevalent_wind(h) for h in (0, 3, 4, 8, 15)] == [0, 0, 1, 2, 3]


def test_seat_winds_cover_every_wind_each_round() -> None:
    for round_start in range(0, 16, 4):
        for seat in range(4):
            winds = {wind_order(h).index(seat) for h in range(round_start, round_start + 4)}
            assert winds == {0, 1, 2, 3}


def _play_hand(state: McrState, chooser: random.Random) -> McrState:
    while not ENGINE.is_terminal(state):
        seat = min(ENGINE.to_act(state))
        acts = sorted(ENGINE.legal_actions(state, seat))
        hu = [a for a in acts if a.kind == "hu"]
        state = ENGINE.apply(state, seat, hu[0] if hu else chooser.choice(acts)).state
    return state


@pytest.mark.parametrize("rounds", [4, 1])
def test_a_match_runs_its_hands_with_cumulative_zero_sum_totals(rounds: int) -> None:
    options = ENGINE.normalize_options({"rounds": rounds})
    rng = SeededRng("match")
    chooser = random.Random(1)
    totals: tuple[int, ...] = (0, 0, 0, 0)
    carry: dict[str, object] = {}
    hand = 0
    while not ENGINE.match_over(options, MatchInfo(hand, totals, carry)):
        state = ENGINE.initial_state(options, rng.derive(str(hand)), MatchInfo(hand, totals, carry))
        assert state.dealer == wind_order(hand)[0] and state.prevalent == prevalent_wind(hand)
        state = _play_hand(state, chooser)
        totals = tuple(t + s for t, s in zip(totals, ENGINE.scores(state), strict=True))
        carry = ENGINE.carry(state)
        assert carry["hand"] == hand and carry["dealer"] == wind_order(hand)[0]
        hand += 1
    assert hand == 4 * rounds
    assert sum(totals) == 0
