"""What the diu engine makes once and reuses gives what making it anew gives: the discards
a hand offers, a poll's answer lists, and the actions read from their text."""

from __future__ import annotations

import pytest

from paiju.core.errors import MalformedAction
from paiju.engines.diu import flow, notation
from paiju.engines.diu.combos import CALLS
from paiju.engines.diu.state import Action, evolve
from tests.engines.diu.helpers import ENGINE, random_hand

_OPTIONS = ({}, {"deck_profile": "chuanpai84"}, {"deck_profile": "poker54"},
            {"poll_mode": "parallel", "offer_calls": "above_standing"})


def _made_anew(state: object, seat: int) -> frozenset[Action]:
    """The seat's options built as they were before anything was kept."""
    q = flow.question(state, seat)  # type: ignore[arg-type]
    hand = state.hands[seat]  # type: ignore[attr-defined]
    if q == "discard":
        return frozenset(Action("discard", cards=(c,)) for c in set(hand))
    if q == "call":
        calls = flow.offered_calls(state, seat)  # type: ignore[arg-type]
        return frozenset((Action("pass"), *(Action("call", call=c) for c in calls)))
    return flow._legal(evolve(state), seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("options", _OPTIONS)
def test_every_option_list_equals_the_one_made_anew(options: dict[str, str]) -> None:
    asked = 0
    for seed in range(4):
        for state in random_hand(seed, options):
            for seat in ENGINE.to_act(state):
                fresh = evolve(state)  # no remembered options
                assert flow.legal(fresh, seat) == _made_anew(fresh, seat)
                asked += 1
    assert asked > 100


def test_a_reask_offers_pass_and_diu_or_pass_alone() -> None:
    assert flow._answers(("diu",)) == {Action("pass"), Action("call", call="diu")}
    assert flow._answers(()) == {Action("pass")}


def test_the_answer_lists_are_at_most_one_per_set_of_calls() -> None:
    from itertools import combinations

    for n in range(len(CALLS) + 1):
        for calls in combinations(CALLS, n):
            listed = flow._answers(calls)
            assert listed == {Action("pass"), *(Action("call", call=c) for c in calls)}
            assert flow._answers(calls) is listed
    assert flow._answers.cache_info().currsize <= 2 ** len(CALLS)


def test_a_text_read_again_gives_an_equal_action() -> None:
    for text in ("pass", "call kuai", "discard s1", "take s1 s2", "take m0", "diu b1 b2"):
        first = notation.parse_action(text)
        assert notation.parse_action(text) == first == notation._parse(text)
        assert notation.format_action(first) == text or text == "take s1 s2"


def test_the_read_actions_kept_are_bounded() -> None:
    notation._PARSED.clear()
    for i in range(notation._PARSED_KEPT + 10):
        notation.parse_action("pass" + " " * i)  # distinct texts, one action
    assert 0 < len(notation._PARSED) <= notation._PARSED_KEPT
    assert notation.parse_action("pass      ") == Action("pass")


def test_a_malformed_text_is_refused_each_time_and_not_kept() -> None:
    for _ in range(2):
        with pytest.raises(MalformedAction):
            notation.parse_action("discard nonsense")
    assert "discard nonsense" not in notation._PARSED


def test_a_state_s_memo_is_its_own_made_on_first_read_and_never_a_field() -> None:
    import copy
    import dataclasses

    from paiju.engines.diu.state import DiuState

    state = random_hand(5, {})[4]
    fresh = evolve(state)
    assert "derived" not in fresh.__dict__
    memo = fresh.derived
    assert memo == {} and fresh.derived is memo and fresh.__dict__["derived"] is memo
    memo["marker"] = 1
    for other in (evolve(fresh), copy.copy(fresh), dataclasses.replace(fresh)):
        assert other == fresh and "marker" not in other.derived
    assert "derived" not in {f.name for f in dataclasses.fields(DiuState)}
    assert not hasattr(DiuState, "derived")  # the class holds no memo of its own
