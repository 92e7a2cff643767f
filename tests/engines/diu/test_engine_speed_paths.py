"""The short cuts of the diu engine's hot path give what the long way gives: a listed action
checked without its notation round trip, state copies (``evolve``) and remembered options."""

from __future__ import annotations

import dataclasses

import pytest

from paiju.core.errors import IllegalAction, InvalidOptions, MalformedAction
from paiju.engines.diu.options import normalize, normalized
from paiju.engines.diu.state import Action, evolve
from tests.engines.diu.helpers import ENGINE, random_hand


class Named(str):
    """A ``str`` equal to the plain one (a caller's subclass, not the notation's type)."""


def _asked(seed: int) -> tuple[object, int]:
    state = random_hand(seed, {})[3]
    return state, min(ENGINE.to_act(state))


def test_a_listed_plain_action_is_taken_as_it_is() -> None:
    state, seat = _asked(1)
    for action in ENGINE.legal_actions(state, seat):
        same = dataclasses.replace(action)  # equal, not the listed object
        assert ENGINE.check_action(state, seat, same) is same


def test_an_action_of_str_subclasses_is_checked_the_long_way() -> None:
    """Equal to a listed action but not of plain strings: it goes through the notation, and
    what is returned is the canonical (plain) action, never the caller's object."""
    state, seat = _asked(2)
    listed = sorted(ENGINE.legal_actions(state, seat))[0]
    odd = dataclasses.replace(listed, kind=Named(listed.kind))
    checked = ENGINE.check_action(state, seat, odd)
    assert checked == listed and checked is not odd and type(checked.kind) is str
    with pytest.raises(MalformedAction):
        ENGINE.check_action(state, seat, dataclasses.replace(listed, meld=True))


def test_an_unlisted_action_is_refused_with_the_rule_code() -> None:
    state = random_hand(3, {})[0]  # the head is to discard
    seat = min(ENGINE.to_act(state))
    stranger = next(c for c in state.stock if c not in state.hands[seat])
    with pytest.raises(IllegalAction) as refused:
        ENGINE.check_action(state, seat, Action("discard", cards=(stranger,)))
    assert refused.value.code == "card_not_in_hand"


def test_evolve_is_replace_without_the_memo() -> None:
    state = random_hand(4, {})[5]
    state.derived["marker"] = 1  # the memo is worked out for the new state, never handed on
    nxt = evolve(state, version=state.version + 7, phase="over")
    assert nxt == dataclasses.replace(state, version=state.version + 7, phase="over")
    assert "marker" not in nxt.derived and set(nxt.__dict__) - {"derived"} == set(
        state.__dataclass_fields__
    )
    with pytest.raises(TypeError):
        evolve(state, no_such_field=1)


@pytest.mark.parametrize(
    "raw",
    [
        {},
        {"players": 4, "poll_mode": "parallel"},
        {"chi_shapes": ["kao", "jiu_zi"], "deal_sizes": [8, 7, 7]},
        {"players": True},
        {"dead_card_visible": 1},
    ],
)
def test_normalized_options_are_normalize_s(raw: dict[str, object]) -> None:
    try:
        expected = normalize(raw)
    except InvalidOptions:
        with pytest.raises(InvalidOptions):
            normalized(raw)
        return
    found = normalized(raw)
    assert dict(found) == expected
    assert dict(normalized(expected)) == normalize(expected)  # the table's own options
    with pytest.raises(TypeError):
        found["players"] = 9  # type: ignore[index]  # shared: read only


def test_a_poll_copy_is_replace() -> None:
    from paiju.engines.diu.arbitration import PollRules, _with, start_poll

    poll = start_poll(PollRules(), "draw", 0, (0, 1, 2))
    assert _with(poll, stage="take", asked=()) == dataclasses.replace(poll, stage="take", asked=())
    assert _with(poll, stage="take") is not poll and poll.stage == "call"
    with pytest.raises(TypeError):
        _with(poll, no_such_field=1)
