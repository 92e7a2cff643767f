"""Scripted hands for the turn flow of rules §3.1 (S6-S20, A3-A13)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from paiju.core.errors import IllegalAction, InvalidOptions, NotYourTurn
from paiju.engines.diu.flow import hand_counts
from paiju.engines.diu.state import DiuState
from tests.engines.diu.helpers import ENGINE, act, legal
from tests.engines.diu.helpers import table as _table

A, B, C = 0, 1, 2


def table(hands: dict[int, list[str]], stock: list[str], **opts: Any) -> DiuState:
    """These scripts follow the flow, so seats that can only pass are skipped
    (``silent_seats = "skip"``); the default (every polled seat asked) is pinned in
    ``test_hidden_poll``."""
    return _table(hands, stock, **{"silent_seats": "skip", **opts})


JUNK_A = ["b9", "b9", "b1", "b5", "s8"]
DIU_B = ["s1", "s2", "b2", "b7", "b10", "s5", "s5", "W"]  # 丢s s3 with s1 s2


def test_head_discards_first() -> None:
    state = table({A: ["s3", *JUNK_A]}, ["b8"])
    assert ENGINE.to_act(state) == {A}
    assert "discard s3" in legal(state, A)
    with pytest.raises(NotYourTurn):
        act(state, B, "pass")
    with pytest.raises(IllegalAction) as info:
        act(state, A, "discard s4")
    assert info.value.code == "card_not_in_hand"


def test_discard_poll_xiajia_then_intercept() -> None:
    state = table(
        {A: ["s3", *JUNK_A], B: ["s1", "s2", "b3"], C: ["s4", "s5", "s3", "s3", "b6"]}, ["b8"]
    )
    state = act(state, A, "discard s3")
    assert ENGINE.to_act(state) == {B}  # sequential: only the polled seat (S7)
    assert legal(state, B) == ["call chi", "pass"]
    state = act(state, B, "call chi")
    assert ENGINE.to_act(state) == {C}
    # C is A's 上家: no 吃 (S12); 硬对 is higher than the standing 吃 (S8).
    assert legal(state, C) == ["call hard_dui", "pass"]
    assert ENGINE.view(state, C)["my_call"] is None  # C never sees B's call (A12)
    assert ENGINE.view(state, B)["my_call"] == "chi"
    state = act(state, C, "call hard_dui")
    assert ENGINE.to_act(state) == {C}
    assert legal(state, C) == ["pass", "take s3 s3"]
    state = act(state, C, "take s3 s3")
    assert state.melds[C] == (("s3", "s3", "s3"),)
    assert ENGINE.to_act(state) == {C} and ENGINE.view(state, C)["asked"] == "discard"


def test_forfeit_falls_back_to_binding_call() -> None:
    state = table(
        {A: ["s3", *JUNK_A], B: ["s1", "s2", "s3", "s3", "b3"], C: ["s3", "W", "b6"]}, ["b8"]
    )
    state = act(state, A, "discard s3")
    state = act(state, B, "call chi")  # B could have called 硬对: the call binds (S13)
    state = act(state, C, "call kuai")
    state = act(state, C, "pass")  # gives the card up (S15)
    assert ENGINE.to_act(state) == {B}
    assert legal(state, B) == ["pass", "take s1 s2", "take s3 b3"]
    state = act(state, B, "take s1 s2")
    assert state.melds[B] == (("s1", "s2", "s3"),)


def test_reopen_after_forfeiter() -> None:
    hands = {A: ["s3", *JUNK_A], B: ["s3", "s3", "b3"], C: ["s3", "W", "b6"]}
    state = table(hands, ["b8"], forfeit_fallback="reopen_after_forfeiter")
    state = act(state, A, "discard s3")
    state = act(state, B, "call hard_dui")
    # C's hand allows a 筷 and C is offered it without learning of B's call (A12) ...
    assert legal(state, C) == ["call kuai", "pass"]
    state = act(state, C, "call kuai")
    # ... but it cannot beat 硬对 (S8), so it is refused and the card goes to B.
    assert ENGINE.to_act(state) == {B} and ENGINE.view(state, B)["asked"] == "take"
    state = act(state, B, "pass")
    assert ENGINE.to_act(state) == {C}  # the card is re-offered after the forfeiter
    state = act(state, C, "call kuai")
    state = act(state, C, "take s3 W")
    assert state.melds[C] == (("s3", "s3", "W"),)


def test_unclaimed_cards_die_and_stock_runs_out() -> None:
    state = table({A: ["s3", *JUNK_A], B: ["b4", "b4"], C: ["s9", "s9"]}, ["b8"])
    state = act(state, A, "discard s3")
    # Nobody can call s3, so it is dead; B draws b8 (S19) which nobody can call either;
    # C would draw next but the stock is empty: 流局 (A10).
    assert ENGINE.is_terminal(state)
    assert state.dead == ("s3", "b8")
    assert state.end_reason == "exhausted"
    assert ENGINE.scores(state) == (0, 0, 0)
    assert ENGINE.view(state, None)["result"]["hands"][B] == ["b4", "b4"]


def _to_draw_poll(hands: dict[int, list[str]], stock: list[str], **opts: Any) -> DiuState:
    state = table(hands, stock, **opts)
    return act(state, A, "discard s8")  # dead; B draws stock[0]


def test_draw_poll_diu_ends_the_game() -> None:
    state = _to_draw_poll({A: JUNK_A, B: DIU_B, C: ["s3", "s3", "b6"]}, ["s3", "b8"])
    assert ENGINE.view(state, C)["card"] == {"card": "s3", "source": "draw", "by": B}
    assert ENGINE.to_act(state) == {B}  # the drawer is polled first (S6)
    assert legal(state, B) == ["call chi", "call diu", "pass"]
    state = act(state, B, "call diu")
    assert ENGINE.timer_kind(state, B) == "turn"
    assert legal(state, B) == ["diu s1 s2", "pass"]
    state = act(state, B, "diu s1 s2")
    assert ENGINE.is_terminal(state)  # S9: C is never asked
    assert state.winner == B
    # B: the 丢 meld + b2 b7 b10 + s5 s5 W = 3 melds, paid by A and C (Q9 default).
    assert ENGINE.scores(state) == (-3, 6, -3)
    assert ENGINE.hand_stats(state)[B]["win"] == 1.0
    assert ENGINE.carry(state) == {"head": 1}


def test_flat_scoring() -> None:
    state = _to_draw_poll({A: JUNK_A, B: DIU_B}, ["s3"], scoring="flat", score_unit=5)
    state = act(act(state, B, "call diu"), B, "diu s1 s2")
    assert ENGINE.scores(state) == (-5, 10, -5)


def test_diu_pick_timeout_is_not_diu() -> None:
    state = _to_draw_poll({A: JUNK_A, B: DIU_B, C: ["s3", "s3", "b6"]}, ["s3", "b8"])
    state = act(state, B, "call diu")
    assert ENGINE.format_action(ENGINE.timeout_action(state, B)) == "pass"
    state = act(state, B, "pass")
    assert ENGINE.to_act(state) == {C}
    assert legal(state, C) == ["call hard_dui", "pass"]


def test_reask_for_diu_on_draws() -> None:
    state = _to_draw_poll({A: JUNK_A, B: DIU_B, C: ["s3", "s3", "b6"]}, ["s3", "b8"])
    state = act(state, B, "pass")
    state = act(state, C, "call hard_dui")
    assert ENGINE.to_act(state) == {B}  # S10: B passed, so it is asked about 丢 again
    assert ENGINE.view(state, B)["asked"] == "reask"
    assert ENGINE.timer_kind(state, B) == "claim"
    assert legal(state, B) == ["call diu", "pass"]
    state = act(act(state, B, "call diu"), B, "diu s1 s2")
    assert state.winner == B


def test_chi_caller_is_not_reasked() -> None:
    state = _to_draw_poll({A: JUNK_A, B: DIU_B, C: ["s3", "s3", "b6"]}, ["s3", "b8"])
    state = act(state, B, "call chi")
    state = act(state, C, "call hard_dui")
    assert ENGINE.to_act(state) == {C}
    assert ENGINE.view(state, C)["asked"] == "take"


def test_no_diu_on_a_discard_unless_option() -> None:
    hands = {A: ["s3", *JUNK_A], B: DIU_B}
    assert legal(act(table(hands, ["b8"]), A, "discard s3"), B) == ["call chi", "pass"]
    state = act(table(hands, ["b8"], diu_on_discard=True), A, "discard s3")
    assert legal(state, B) == ["call chi", "call diu", "pass"]


@pytest.mark.parametrize(
    ("rule", "drawer_chi", "next_chi", "upstream_chi"),
    [
        ("drawer_and_next", True, True, False),
        ("next_only", False, True, False),
        ("any", True, True, True),
    ],
)
def test_chi_on_draw(rule: str, drawer_chi: bool, next_chi: bool, upstream_chi: bool) -> None:
    eat = ["s1", "s2", "b6"]
    state = _to_draw_poll(
        {A: [*JUNK_A, *eat], B: eat, C: eat}, ["s3", "b8"], chi_on_draw=rule, poll_mode="parallel"
    )
    offered = {s: "call chi" in legal(state, s) for s in (A, B, C)}
    assert offered == {B: drawer_chi, C: next_chi, A: upstream_chi}


def test_parallel_polls_everyone_at_once() -> None:
    hands = {A: ["s3", *JUNK_A], B: ["s1", "s2", "b3"], C: ["s3", "s3", "b6"]}
    state = act(table(hands, ["b8"], poll_mode="parallel"), A, "discard s3")
    assert ENGINE.to_act(state) == {B, C}
    state = act(state, C, "call hard_dui")
    assert ENGINE.to_act(state) == {B}
    assert ENGINE.view(state, B)["my_call"] is None
    state = act(state, B, "call chi")
    assert ENGINE.to_act(state) == {C} and legal(state, C) == ["pass", "take s3 s3"]


def test_sequential_offers_only_higher_calls() -> None:
    hands = {A: ["s3", *JUNK_A], B: ["s3", "s3", "b3"], C: ["s3", "W", "b6"]}
    state = act(table(hands, ["b8"], offer_calls="above_standing"), A, "discard s3")
    state = act(state, B, "call hard_dui")
    assert ENGINE.to_act(state) == {B}  # C's 筷 could not beat 硬对, so C was not asked
    assert ENGINE.view(state, B)["asked"] == "take"


def test_shui_takes_a_supplement_card() -> None:
    hands = {A: ["s3", *JUNK_A], C: ["s3", "W", "W", "b6"]}
    state = act(table(hands, ["b8", "b1"]), A, "discard s3")
    state = act(state, C, "call kuai_shui")
    step = ENGINE.apply(state, C, ENGINE.parse_action("take s3 W W"))
    state = step.state
    assert state.melds[C] == (("s3", "s3", "W", "W"),)
    assert state.hands[C] == ("b6", "b8")  # the supplement b8, seen by C only
    supplement = [e for e in step.events if e.kind == "supplement"]
    assert supplement and supplement[0].audience == frozenset({C})
    assert ENGINE.view(state, A)["hand_counts"][C] == 2
    assert ENGINE.view(state, A)["stock_count"] == 1


def test_upgrade_exposed_meld_to_ying_shui() -> None:
    hands = {A: ["s3", *JUNK_A], C: ["b6", "b7"]}
    state = table(hands, ["b8", "b1"])
    state = replace(state, melds=((), (), (("s3", "s3", "s3"),)))
    state = act(state, A, "discard s3")
    assert legal(state, C) == ["call ying_shui", "pass"]
    state = act(act(state, C, "call ying_shui"), C, "take m0")
    assert state.melds[C] == (("s3", "s3", "s3", "s3"),)


def test_timeout_discard() -> None:
    state = table({A: ["s3", *JUNK_A]}, ["b8"])
    assert ENGINE.format_action(ENGINE.timeout_action(state, A)) == "discard b9"
    state = table({A: ["s3", *JUNK_A]}, ["b8"], timeout_discard="random")
    assert ENGINE.timeout_action(state, A) in ENGINE.legal_actions(state, A)
    with pytest.raises(NotYourTurn):
        ENGINE.timeout_action(state, B)


def test_take_timeout_takes_the_first_meld() -> None:
    hands = {A: ["s3", *JUNK_A], B: ["s1", "s2", "s4", "b3"]}
    state = act(act(table(hands, ["b8"]), A, "discard s3"), B, "call chi")
    assert ENGINE.format_action(ENGINE.timeout_action(state, B)) == "take s1 s2"


def test_four_players_idle_seat() -> None:
    state = table({A: ["s3", *JUNK_A], 3: []}, ["b8"], players=4)
    view = ENGINE.view(state, 3)
    assert view["roles"] == ["A", "B", "C", "D"] and view["idle"] == 3
    assert ENGINE.carry(state) == {"head": 1}


def test_winner_rotation() -> None:
    state = _to_draw_poll({A: JUNK_A, B: DIU_B}, ["s3"], head_rotation="winner")
    state = act(act(state, B, "call diu"), B, "diu s1 s2")
    assert ENGINE.carry(state) == {"head": B}


def test_conservation_in_scripted_flow() -> None:
    state = _to_draw_poll({A: JUNK_A, B: DIU_B, C: ["s3", "s3", "b6"]}, ["s3", "b8"])
    total = sum(hand_counts(state).values())
    state = act(state, B, "pass")
    state = act(state, C, "call hard_dui")
    state = act(state, B, "pass")
    state = act(state, C, "take s3 s3")
    assert sum(hand_counts(state).values()) == total


@pytest.mark.parametrize(
    "bad",
    [
        {"players": 5},
        {"deck_profile": "tarot"},
        {"wild_count": 11},
        {"chi_on_draw": "all"},
        {"deal_sizes": [40, 40, 40]},
        {"chi_shapes": ["same_total"]},
        {"poll_mode": 1},
        {"prefetch_mode": "plain"},
        {"prefetch_refill_at": 10},
        {"diu_on_discard": 1},
    ],
)
def test_bad_options(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options(bad)


def test_malformed_actions() -> None:
    from paiju.core.errors import MalformedAction

    for text in ["", "call pong", "diu s1", "take", "discard x9", "take s1 s2 s3 s4", "pass x"]:
        with pytest.raises(MalformedAction):
            ENGINE.parse_action(text)
