"""Hidden information in a poll (A12, S14): nothing a seat can observe while a card is polled —
its view, whether and when it is asked, what it is offered, the state version — depends on
another seat's concealed hand or call, beyond what the seed's own order of asking shows."""

from __future__ import annotations

from typing import Any

import pytest

from paiju.engines.diu.state import DiuState
from tests.engines.diu.helpers import ENGINE, act, legal, table

A, B, C = 0, 1, 2
JUNK_A = ["b9", "b9", "b1", "b5", "s8"]
C_HAND = ["s3", "W", "b6"]  # can 筷 an s3


def _c_asked(b_hand: list[str], b_answer: str, **opts: Any) -> DiuState:
    """A discards s3; B (with ``b_hand``) answers; now C is asked."""
    state = act(table({A: ["s3", *JUNK_A], B: b_hand, C: C_HAND}, ["b8"], **opts), A, "discard s3")
    assert ENGINE.to_act(state) == {B}
    state = act(state, B, b_answer)
    assert ENGINE.to_act(state) == {C}
    return state


B_CASES = [
    (["b4", "b4", "b5"], "pass"),  # B can call nothing: still asked, offered only pass
    (["s1", "s2", "b5"], "pass"),  # B could 吃 and passes
    (["s1", "s2", "b5"], "call chi"),
    (["s3", "s3", "b5"], "call hard_dui"),  # above C's 筷: C's 筷 will be refused
]


def test_c_sees_the_same_whatever_b_holds_or_calls() -> None:
    views = []
    for b_hand, b_answer in B_CASES:
        state = _c_asked(b_hand, b_answer)
        views.append((ENGINE.view(state, C), state.version, legal(state, C)))
        for viewer in (None, A):
            assert ENGINE.view(state, viewer)["to_act"] == []  # who is asked is hidden
    first = views[0]
    assert first[2] == ["call kuai", "pass"]
    assert all(v == first for v in views[1:])


def test_a_seat_that_can_only_pass_is_still_asked() -> None:
    state = act(
        table({A: ["s3", *JUNK_A], B: ["b4", "b4", "b5"], C: C_HAND}, ["b8"]), A, "discard s3"
    )
    assert legal(state, B) == ["pass"]
    assert ENGINE.view(state, B)["asked"] == "call" and ENGINE.view(state, B)["to_act"] == [B]
    assert ENGINE.format_action(ENGINE.timeout_action(state, B)) == "pass"


def test_a_refused_call_counts_as_pass() -> None:
    state = _c_asked(["s3", "s3", "b5"], "call hard_dui")
    state = act(state, C, "call kuai")  # not above 硬对 (S8): refused, and C never learns why
    assert ENGINE.to_act(state) == {B}
    assert ENGINE.view(state, C)["my_call"] == "kuai"  # as C said it; no hint it was refused
    assert ENGINE.view(state, B)["asked"] == "take"


def test_my_call_does_not_change_while_others_are_reasked() -> None:
    # Draw poll B, C, A: B passes, C calls 筷, A calls 硬对 (C's 筷 was lower: it stands too).
    # Then B is re-asked. C's own view must be the same whether A's call outranked it or A
    # passed — until the poll resolves (S14).
    hands = {A: ["s8", *JUNK_A, "s3", "s3"], B: ["b4", "b4", "b5"], C: ["s3", "W", "b6"]}
    views = []
    for a_answer in ("call hard_dui", "pass"):
        state = act(table(hands, ["s3", "b8"]), A, "discard s8")
        state = act(act(state, B, "pass"), C, "pass")  # s8 dead; B draws s3
        state = act(act(act(state, B, "pass"), C, "call kuai"), A, a_answer)
        assert ENGINE.view(state, B)["asked"] == "reask"
        views.append(ENGINE.view(state, C))
    assert views[0] == views[1] and views[0]["my_call"] == "kuai"


def test_the_assigned_taker_and_the_discarder_are_public() -> None:
    state = table({A: ["s3", *JUNK_A], B: ["s3", "s3", "b5"], C: C_HAND}, ["b8"])
    assert ENGINE.view(state, C)["to_act"] == [A]  # whose turn to discard is public
    state = act(act(act(state, A, "discard s3"), B, "call hard_dui"), C, "pass")
    # The poll is over (S14): the seat it assigned the card to is public.
    assert ENGINE.public_to_act(state) == {B}
    assert ENGINE.view(state, None)["to_act"] == [B] == ENGINE.view(state, C)["to_act"]


def test_reask_asks_every_eligible_seat_whatever_its_hand() -> None:
    # Draw poll B, C, A. B cannot 丢 and passed: S10 still re-asks it, so being re-asked
    # shows only what the seed's order shows (someone later called), not B's hand.
    hands = {A: ["s8", *JUNK_A, "s3", "s3"], B: ["b4", "b4", "b5"], C: ["b2", "b2", "b6"]}
    state = act(table(hands, ["s3", "b8"]), A, "discard s8")
    state = act(act(state, B, "pass"), C, "pass")  # the s8 discard: dead; B draws s3
    assert state.card == "s3" and ENGINE.to_act(state) == {B}
    state = act(act(state, B, "pass"), C, "pass")
    state = act(state, A, "call hard_dui")
    assert ENGINE.to_act(state) == {B} and ENGINE.view(state, B)["asked"] == "reask"
    assert legal(state, B) == ["pass"]
    assert ENGINE.view(state, C)["to_act"] == []


@pytest.mark.parametrize("mode", ["sequential", "parallel"])
def test_offers_do_not_depend_on_the_standing_call(mode: str) -> None:
    offered = {
        b_answer: legal(
            _c_asked(b_hand, b_answer, poll_mode=mode)
            if mode == "sequential"
            else _parallel(b_hand, b_answer),
            C,
        )
        for b_hand, b_answer in B_CASES
    }
    assert set(map(tuple, offered.values())) == {("call kuai", "pass")}


def _parallel(b_hand: list[str], b_answer: str) -> DiuState:
    state = table({A: ["s3", *JUNK_A], B: b_hand, C: C_HAND}, ["b8"], poll_mode="parallel")
    state = act(state, A, "discard s3")
    assert ENGINE.to_act(state) == {B, C}
    return act(state, B, b_answer)


def test_options_that_reveal_are_opt_in() -> None:
    # offer_calls = "above_standing": C learns the standing call is at least 硬对.
    state = _c_asked(
        ["s3", "s3", "b5"], "call hard_dui", offer_calls="above_standing", silent_seats="ask"
    )
    assert legal(state, C) == ["pass"]
    # silent_seats = "skip": a seat with only pass is not asked (fewer versions).
    skip = act(
        table({A: ["s3", *JUNK_A], B: ["b4", "b4", "b5"], C: C_HAND}, ["b8"], silent_seats="skip"),
        A,
        "discard s3",
    )
    assert ENGINE.to_act(skip) == {C}
    assert skip.version == 1
    asked = act(
        act(table({A: ["s3", *JUNK_A], B: ["b4", "b4", "b5"], C: C_HAND}, ["b8"]), A, "discard s3"),
        B,
        "pass",
    )
    assert ENGINE.to_act(asked) == {C} and asked.version == 2
