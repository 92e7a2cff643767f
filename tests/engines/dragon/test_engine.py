"""The dragon engine: dealing, submission checks, views, showdown and settlement."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.errors import GameError, GameOver, IllegalAction, MalformedAction, NotYourTurn
from paiju.core.rng import ScriptedRng, SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.dragon.actions import Arrange, DeclareBust
from paiju.engines.dragon.conformance import hidden_leaks
from paiju.engines.dragon.engine import (
    DragonEngine,
    check_arrangement,
    hand_from_codes,
    legal_for_hand,
)
from paiju.engines.dragon.state import DragonState, new_state, settle
from paiju.engines.dragon.tiles import FULL_SET, tile_code
from paiju.engines.registry import get_engine
from tests.scale import examples

ENGINE = DragonEngine()
# ScriptedRng leaves the set in order: seats 0 and 1 are bust, seat 2 can leave 杂九 (45 36),
# seat 3 can leave 杂八 (35 26).
SEAT2_BEST = "chain 46 61 15 51 16 64 | 45 36"


def ordered_deal(**options: Any) -> DragonState:
    opts = ENGINE.normalize_options(options)
    match = MatchInfo(0, (0,) * opts["seats"])
    return ENGINE.initial_state(opts, ScriptedRng(), match)


def play(state: DragonState, seat: int, text: str) -> DragonState:
    return ENGINE.apply(state, seat, ENGINE.parse_action(text)).state


def test_registered() -> None:
    assert isinstance(get_engine("dragon"), DragonEngine)


def test_deal() -> None:
    state = ordered_deal()
    assert [len(h) for h in state.hands] == [8, 8, 8, 8] and state.undealt == ()
    assert sorted(k for h in state.hands for k in h) == sorted(FULL_SET)
    short = ordered_deal(seats=2)
    assert len(short.hands) == 2 and len(short.undealt) == 16
    assert ENGINE.to_act(state) == frozenset(range(4))


def test_same_seed_same_deal() -> None:
    match = MatchInfo(0, (0, 0, 0, 0))
    opts = ENGINE.normalize_options({})
    a = ENGINE.initial_state(opts, SeededRng("x").derive("0"), match)
    b = ENGINE.initial_state(opts, SeededRng("x").derive("0"), match)
    assert a == b


def test_bust_hand_can_only_declare_bust() -> None:
    state = ordered_deal()
    assert ENGINE.legal_actions(state, 0) == frozenset({DeclareBust()})
    assert ENGINE.view(state, 0)["legal"] == ["bust"]
    assert SEAT2_BEST in ENGINE.view(state, 2)["legal"]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("chain 46 61 15 51 16 64 | 45", "wrong_tile_count"),  # a tile left out
        ("chain 46 61 15 51 16 64 | 45 36 66", "wrong_tile_count"),
        ("chain 46 61 15 51 16 | 64 45 36", "chain_length"),  # too short
        ("chain 46 | 61 15 51 16 64 45 36", "chain_length"),
        ("chain 66 61 15 51 16 64 | 45 36", "not_your_tiles"),  # 66 is not in the hand
        ("chain 46 61 15 51 16 63 | 45 36", "not_your_tiles"),  # 36 twice, a 46 missing
        ("chain 46 16 15 51 16 64 | 45 36", "halves_do_not_match"),  # 61 laid the wrong way
        ("chain 46 61 15 15 16 64 | 45 36", "halves_do_not_match"),
        ("bust", "not_bust"),
    ],
)
def test_invalid_submissions(text: str, code: str) -> None:
    state = ordered_deal()
    with pytest.raises(IllegalAction) as info:
        play(state, 2, text)
    assert info.value.code == code
    assert ENGINE.parse_action(text) not in ENGINE.legal_actions(state, 2)


def test_malformed_submission() -> None:
    with pytest.raises(MalformedAction):
        ENGINE.parse_action("chain 46 61 15 51 16 64 36 45")
    with pytest.raises(MalformedAction):
        ENGINE.apply(ordered_deal(), 2, "chain 46 61 15 51 16 64 | 45 36")  # type: ignore[arg-type]


def test_submitting_twice_or_from_nowhere() -> None:
    state = play(ordered_deal(), 2, SEAT2_BEST)
    with pytest.raises(NotYourTurn) as info:
        play(state, 2, SEAT2_BEST)
    assert info.value.code == "already_submitted"
    assert ENGINE.legal_actions(state, 2) == frozenset()
    with pytest.raises(NotYourTurn):
        play(state, 7, "bust")


def test_views_hide_what_others_submitted() -> None:
    state = play(ordered_deal(), 2, SEAT2_BEST)
    assert hidden_leaks(ENGINE, state) == []
    mine, theirs, spectator = (ENGINE.view(state, s) for s in (2, 0, None))
    assert mine["my_submission"] == SEAT2_BEST and mine["legal"] == []
    assert theirs["players"][2] == {"seat": 2, "tiles": 8, "submitted": True}
    assert theirs["my_submission"] is None and "result" not in theirs
    assert SEAT2_BEST not in str(theirs) and "45" not in str(theirs["players"])
    assert spectator["hand"] == [] and spectator["legal"] == []
    assert theirs["to_act"] == [0, 1, 3]


def test_showdown_and_settlement() -> None:
    state = ordered_deal()
    for seat in range(4):
        assert not ENGINE.is_terminal(state)
        state = ENGINE.apply(state, seat, ENGINE.timeout_action(state, seat)).state
    assert ENGINE.is_terminal(state) and ENGINE.to_act(state) == frozenset()
    # seat 2 (杂九 pair) beats everyone, seat 3 (杂八 pair) beats the two busts; each pair
    # win pays 2; the two busts tie.
    assert ENGINE.scores(state) == (-4, -4, 6, 2)
    view = ENGINE.view(state, None)
    result = view["result"]
    assert [e["category"] for e in result["seats"]] == ["bust", "bust", "pair", "pair"]
    assert result["seats"][2]["submitted"]["leftover"] == ["45", "36"]
    assert result["seats"][2]["submitted"]["chain"][0] == ["46", [4, 6]]
    assert result["payments"][0] == [0, 0, 2, 2]
    with pytest.raises(GameOver):
        play(state, 0, "bust")
    stats = ENGINE.hand_stats(state)
    assert stats[2] == {"pair": 1.0, "bust": 0.0, "missed": 0.0}
    assert stats[0]["bust"] == 1.0
    assert ENGINE.hand_stats(ordered_deal()) == [{}, {}, {}, {}]


def test_submitted_scoring_scores_the_submission_and_best_scores_the_best() -> None:
    weak = next(t for t in ENGINE.view(ordered_deal(), 3)["legal"] if "35 26" not in t)
    for scoring, expected in (("submitted", "points"), ("best", "pair")):
        state = ordered_deal(scoring=scoring)
        state = play(play(play(state, 0, "bust"), 1, "bust"), 2, SEAT2_BEST)
        state = play(state, 3, weak)
        seat3 = ENGINE.view(state, 0)["result"]["seats"][3]
        assert seat3["category"] == expected
        assert ("scored" in seat3) == (scoring == "best")
        assert ENGINE.hand_stats(state)[3]["missed"] == float(scoring == "submitted")


def test_settle_pays_double_to_a_pair() -> None:
    keys = [(3, 1), (1, 9, 6), (1, 9, 6), (0,)]
    pay = settle(keys)
    assert pay[1] == (2, 0, 0, 0) and pay[2] == (2, 0, 0, 0)  # twins tie with each other
    assert pay[3] == (2, 1, 1, 0)


@settings(max_examples=examples(25), deadline=None)
@given(
    seed=st.integers(0, 10**6),
    seats=st.integers(2, 4),
    scoring=st.sampled_from(["submitted", "best"]),
)
def test_random_hands_are_zero_sum(seed: int, seats: int, scoring: str) -> None:
    opts = ENGINE.normalize_options({"seats": seats, "scoring": scoring})
    state = ENGINE.initial_state(opts, SeededRng(str(seed)), MatchInfo(0, (0,) * seats))
    chooser = SeededRng(f"pick/{seed}")
    for seat in range(seats):
        legal = sorted(ENGINE.legal_actions(state, seat), key=ENGINE.format_action)
        state = ENGINE.apply(state, seat, chooser.choice(legal)).state
    assert sum(ENGINE.scores(state)) == 0
    assert hidden_leaks(ENGINE, state) == []
    assert all(
        c in ("pair", "points", "bust")
        for c in (e["category"] for e in ENGINE.view(state, None)["result"]["seats"])
    )


def test_match_and_misc() -> None:
    opts = ENGINE.normalize_options({"hands": 2})
    assert not ENGINE.match_over(opts, MatchInfo(1, (0,) * 4))
    assert ENGINE.match_over(opts, MatchInfo(2, (0,) * 4))
    state = ordered_deal()
    assert ENGINE.timer_kind(state, 0) == "arrange"
    assert ENGINE.carry(state) == {"hands_played": 1}
    assert ENGINE.scores(state) == (0, 0, 0, 0)
    assert ENGINE.seat_count({"seats": 3}) == 3
    assert hand_from_codes(["66", "12"]) == (0, 20)
    with pytest.raises(GameError):
        ENGINE.normalize_options({"seats": 9})


def test_custom_deal_with_options() -> None:
    hands = [
        hand_from_codes(["33", "22", "46", "26", "24", "14", "23", "12"]),
        hand_from_codes(["66", "13", "22", "56", "16", "15", "45", "55"]),
    ]
    opts = ENGINE.normalize_options({"seats": 2, "pair_set": "civil"})
    state = new_state(opts, hands, [])
    for seat in (0, 1):
        state = ENGINE.apply(state, seat, ENGINE.timeout_action(state, seat)).state
    assert [tile_code(k) for k in state.hands[0]][-2:] == ["23", "12"]
    assert state.keys[0] == (1, 9, 11)  # no 至尊宝 with pair_set civil


def test_the_view_marks_the_best_arrangement_until_the_seat_submits() -> None:
    from paiju.core.rng import SeededRng
    from paiju.engines.base import MatchInfo
    from paiju.engines.dragon.engine import DragonEngine

    engine = DragonEngine()
    options = engine.normalize_options({"seats": 2})
    state = engine.initial_state(options, SeededRng("best").derive("0"), MatchInfo(0, (0, 0)))
    view = engine.view(state, 0)
    timeout = engine.format_action(engine.timeout_action(state, 0))
    assert view["best"] == timeout and view["best"] in view["legal"]
    assert engine.view(state, None)["best"] is None  # a spectator has no hand
    after = engine.apply(state, 0, engine.parse_action(timeout)).state
    assert engine.view(after, 0)["best"] is None and engine.view(after, 1)["best"] is not None


def near_misses(hands: list[tuple[Any, ...]]) -> set[Any]:
    """Every legal action of any of ``hands``, and each one with its first laid tile turned
    round or its first two laid tiles swapped: arrangements that are well formed and nearly
    right for the hand they were made for, or right for another hand of the same deal."""
    found: set[Any] = {DeclareBust()}
    for hand in hands:
        for action in legal_for_hand(hand):
            found.add(action)
            if not isinstance(action, Arrange):
                continue
            (left, right), second, *rest = action.chain
            found.add(Arrange(((right, left), second, *rest), action.leftover))
            found.add(Arrange((second, (left, right), *rest), action.leftover))
    return found


@pytest.mark.parametrize("seed", range(examples(40)))
def test_the_named_rules_accept_exactly_the_listed_arrangements(seed: int) -> None:
    """check_action judges by the named rules, without the list: they must agree with it."""
    state = ENGINE.initial_state({}, SeededRng(f"rules/{seed}"), MatchInfo(0, (0,) * 4))
    for hand in state.hands:
        legal = legal_for_hand(hand)
        for action in near_misses(list(state.hands)):
            try:
                check_arrangement(hand, action)
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted == (action in legal), (hand, action)
