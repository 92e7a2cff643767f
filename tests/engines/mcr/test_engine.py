"""Engine-level invariants: options, notation, tile conservation and zero-sum over random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.errors import GameOver, IllegalAction, InvalidOptions, MalformedAction
from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.mcr import engine as engine_module
from paiju.engines.mcr.actions import (
    ANGANG,
    BUGANG,
    CHI,
    DISCARD,
    GANG,
    HU,
    PASS,
    PENG,
    Action,
    format_action,
    parse_action,
)
from paiju.engines.mcr.engine import McrEngine
from paiju.engines.mcr.rules import turn_actions
from paiju.engines.mcr.state import McrState, evolve
from paiju.engines.mcr.tiles import full_set
from paiju.engines.mcr.wall import put
from tests.engines.mcr.test_procedures import accounted
from tests.scale import examples, runs

ENGINE = McrEngine()
OPTIONS = ENGINE.normalize_options({})


def test_default_options() -> None:
    assert OPTIONS == {
        "multiple_win": False,
        "concealed_and_melded_kong_5": False,
        "min_fan": 8,
        "rounds": 4,
        "claim_prompts": "eligible",
    }


@pytest.mark.parametrize(
    "raw",
    [
        {"nope": 1},
        {"multiple_win": 1},
        {"rounds": 5},
        {"min_fan": -1},
        {"rounds": True},
        {"claim_prompts": "some"},
        {"claim_prompts": True},
    ],
)
def test_bad_options_are_refused(raw: dict[str, object]) -> None:
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options(raw)


@given(
    st.one_of(
        st.builds(Action, st.sampled_from([HU, PENG, GANG, PASS])),
        st.builds(Action, st.sampled_from([DISCARD, ANGANG, BUGANG, CHI]), st.integers(0, 33)),
    )
)
@settings(max_examples=examples(60))
def test_notation_round_trips(action: Action) -> None:
    assert parse_action(format_action(action)) == action


@pytest.mark.parametrize("text", ["", "discard", "discard H1", "discard X9", "peng W5", "hu now"])
def test_malformed_actions(text: str) -> None:
    with pytest.raises(MalformedAction):
        parse_action(text)


def random_hand(
    seed: int, *, check_each_step: bool = False, options: dict[str, object] | None = None
) -> McrState:
    """One hand of random legal play that always takes a hu when offered."""
    state = ENGINE.initial_state(
        options or OPTIONS, SeededRng(f"rand/{seed}"), MatchInfo(seed % 16, (0,) * 4)
    )
    chooser = random.Random(seed)
    while not ENGINE.is_terminal(state):
        if check_each_step:
            assert accounted(state) == sorted(full_set())
        seat = chooser.choice(sorted(ENGINE.to_act(state)))
        acts = sorted(ENGINE.legal_actions(state, seat))
        hu = [a for a in acts if a.kind == HU]
        state = ENGINE.apply(state, seat, hu[0] if hu else chooser.choice(acts)).state
    return state


def test_tile_conservation_at_every_step() -> None:
    for seed in range(40):
        random_hand(seed, check_each_step=True)


def test_conservation_and_zero_sum_over_many_random_hands() -> None:
    # Every tile accounted for and zero-sum scores (the conformance suite checks neither),
    # in 1,000 random games under the nightly profile (250 every day). Hands of the whole
    # match, so every dealer and wind order is dealt.
    wins = 0
    for seed in range(1000, 1000 + runs(250, 1000)):
        state = random_hand(seed)
        assert accounted(state) == sorted(full_set())
        assert sum(ENGINE.scores(state)) == 0
        stats = ENGINE.hand_stats(state)
        assert sum(s["win"] for s in stats) == len(state.wins)
        wins += bool(state.wins)
    assert wins > 0


def test_zero_sum_with_multiple_wins() -> None:
    options = ENGINE.normalize_options({"multiple_win": True})
    for seed in range(100):
        state = random_hand(seed, options=options)
        assert accounted(state) == sorted(full_set())
        assert sum(ENGINE.scores(state)) == 0


def test_no_action_after_the_end() -> None:
    state = random_hand(3)
    with pytest.raises(GameOver):
        ENGINE.apply(state, 0, Action(PASS))
    view = ENGINE.view(state, 0)
    assert view["legal"] == [] and "result" in view
    assert all("hand" in p for p in view["players"])


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("discard B9", "tile_not_in_hand"),
        ("hu", "not_a_winning_hand"),
        ("peng", "no_discard_to_claim"),
        ("pass", "no_discard_to_claim"),
        ("angang W1", "kong_not_possible"),
    ],
)
def test_illegal_turn_actions_name_the_rule(text: str, code: str) -> None:
    from tests.engines.mcr.test_procedures import HANDS, table

    state = table({0: HANDS[0]}, drawn="J1")
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, 0, parse_action(text))
    assert info.value.code == code


@pytest.mark.parametrize(
    "obj",
    [
        Action(DISCARD, 999),  # no such tile: formatting it was an IndexError
        Action(DISCARD, None),  # a discard names a tile
        Action(PENG, 5),  # a bare claim with a tile
        Action("dance"),
        None,
        "discard J1",  # text is for parse_action, not for apply
        ("discard", 5),
    ],
)
def test_objects_that_are_no_mcr_action_are_malformed(obj: object) -> None:
    from tests.engines.mcr.test_procedures import HANDS, table

    state = table({0: HANDS[0]}, drawn="J1")
    with pytest.raises(MalformedAction):
        ENGINE.apply(state, 0, obj)  # type: ignore[arg-type]
    with pytest.raises(MalformedAction):
        ENGINE.check_action(state, 0, obj)


def test_who_is_asked_in_a_claim_window_is_not_public() -> None:
    from paiju.core.rng import SeededRng
    from paiju.engines.base import MatchInfo
    from paiju.engines.mcr.engine import McrEngine

    engine = McrEngine()
    options = engine.normalize_options({})
    windows = 0
    for seed in range(40):
        state = engine.initial_state(options, SeededRng(f"claim/{seed}"), MatchInfo(0, (0,) * 4))
        for _ in range(200):
            if engine.is_terminal(state):
                break
            waiting = engine.to_act(state)
            if state.phase in ("claim", "rob"):
                assert engine.public_to_act(state) == frozenset()
                windows += 1
            else:
                assert engine.public_to_act(state) == waiting
            seat = min(waiting)
            action = sorted(engine.legal_actions(state, seat), key=engine.format_action)[0]
            state = engine.apply(state, seat, action).state
    assert windows > 20, "claim windows must come up"


def test_the_view_marks_the_last_discard_until_a_claim_takes_it() -> None:
    from paiju.core.rng import SeededRng
    from paiju.engines.base import MatchInfo
    from paiju.engines.mcr.engine import McrEngine

    engine = McrEngine()
    options = engine.normalize_options({})
    state = engine.initial_state(options, SeededRng("last").derive("0"), MatchInfo(0, (0,) * 4))
    assert engine.view(state, None)["last_discard"] is None
    seen_river, seen_window, seen_cleared = False, False, False
    for _ in range(400):
        if engine.is_terminal(state):
            break
        seat = min(engine.to_act(state))
        legal = sorted(engine.legal_actions(state, seat), key=engine.format_action)
        claims = [a for a in legal if engine.format_action(a).startswith(("peng", "chi"))]
        action = claims[0] if claims else legal[-1]
        text = engine.format_action(action)
        state = engine.apply(state, seat, action).state
        marked = engine.view(state, None)["last_discard"]
        if state.window is not None and state.phase == "claim":
            seen_window = True
            claim = engine.view(state, None)["claim"]
            assert marked == {"seat": state.window.source, "tile": claim["tile"]}
        elif text.startswith(("peng", "chi")):
            seen_cleared = True
            assert marked is None
        elif marked is not None:
            seen_river = True
            river = engine.view(state, None)["players"][marked["seat"]]["discards"]
            assert river[-1] == marked["tile"]
    assert seen_window and seen_river and seen_cleared


def _angangs_by_count(state: McrState) -> set[Action]:
    """The concealed kongs of the seat in turn by their definition: four of a kind held,
    after a draw, with a tile left for the replacement."""
    hand = state.hands[state.current]
    if state.drawn is None or not state.wall:
        return set()
    return {Action(ANGANG, t) for t in set(hand) if hand.count(t) == 4}


def test_the_concealed_kongs_listed_are_every_four_of_a_kind_held() -> None:
    """``turn_actions`` finds four of a kind in the sorted hand by position; the same kongs
    as counting each tile, for hands with none, one and two of them and at the ends."""
    engine = McrEngine()
    options = engine.normalize_options({})
    state = engine.initial_state(options, SeededRng("kongs"), MatchInfo(0, (0,) * 4))
    seat = state.current
    hands = [
        (0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
        (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 33, 33, 33, 33),
        (5, 5, 5, 5, 9, 9, 9, 9, 20, 21, 22, 30, 30, 31),
        (1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5),
        (7, 7, 7, 7, 8, 8),
        (7, 7, 7, 7, 8),
    ]
    for hand in hands:
        for drawn, wall in ((hand[-1], state.wall), (None, state.wall), (hand[-1], ())):
            s = evolve(state, hands=put(state.hands, seat, hand), drawn=drawn, wall=wall,
                       turn_win=None)
            kongs = {a for a in turn_actions(s) if a.kind == ANGANG}
            assert kongs == _angangs_by_count(s), (hand, drawn, bool(wall))
    assert any(_angangs_by_count(evolve(state, hands=put(state.hands, seat, h))) for h in hands)


def test_an_action_numbers_the_state_it_makes_and_leaves_the_given_state_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The version of the state an action makes is set on that new state (nobody holds it
    yet); the state acted on keeps its own; a rule that gave back the very state it was
    given would get a numbered copy, never a changed original."""
    engine = McrEngine()
    options = engine.normalize_options({})
    state = engine.initial_state(options, SeededRng("versions"), MatchInfo(0, (0,) * 4))
    seat = state.current
    before = state.version
    action = sorted(engine.legal_actions(state, seat))[0]
    step = engine.apply(state, seat, action)
    assert step.state is not state and step.state.version == before + 1
    assert state.version == before
    monkeypatch.setattr(engine_module, "apply_turn", lambda s, a, events: s)
    same = engine.apply(state, seat, action).state
    assert same is not state and same.version == before + 1 and state.version == before
    assert evolve(same, version=before) == state
