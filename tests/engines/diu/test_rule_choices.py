"""Rules where the engine follows the research doc's letter (A10) and the engine's own choices
E1-E3 where the doc is silent (docs/rules/diu.md marks them)."""

from __future__ import annotations

from collections import Counter

from paiju.engines.diu.flow import hand_counts
from tests.engines.diu.helpers import ENGINE, act, legal, table

A, B, C = 0, 1, 2
JUNK_A = ["b9", "b9", "b1", "b5", "s8"]


def test_a10_the_last_cards_poll_ends_the_hand_without_a_take() -> None:
    # A discards s8: nobody can call it (everyone is still asked), B draws s3, the last card.
    state = table({A: JUNK_A, B: ["b4", "b4", "b6"], C: ["s3", "s3", "b6"]}, ["s3"])
    deck = Counter(hand_counts(state))
    state = act(act(act(state, A, "discard s8"), B, "pass"), C, "pass")
    assert state.card == "s3" and state.drawn == len(state.stock)
    state = act(act(state, B, "pass"), C, "call hard_dui")
    state = act(state, A, "pass")
    step = ENGINE.apply(state, B, ENGINE.parse_action("pass"))  # S10 re-ask of B: no 丢
    state = step.state
    assert [e.kind for e in step.events] == ["dead", "hand_over"]
    # A10: "if the last stock card is drawn and not 丢'd, the hand ends as a draw after its
    # poll" — C does not take it, it does not discard, nobody polls a discard.
    assert ENGINE.is_terminal(state) and state.end_reason == "exhausted"
    assert ENGINE.scores(state) == (0, 0, 0)
    assert state.melds == ((), (), ()) and state.dead == ("s8", "s3")
    assert Counter(hand_counts(state)) == deck


def test_a10_a_diu_on_the_last_card_still_wins() -> None:
    diu_b = ["s1", "s2", "b2", "b7", "b10", "s5", "s5", "W"]
    state = table({A: JUNK_A, B: diu_b, C: ["s3", "s3", "b6"]}, ["s3"])
    state = act(act(act(state, A, "discard s8"), B, "pass"), C, "pass")
    state = act(act(state, B, "pass"), C, "call hard_dui")
    state = act(state, A, "pass")
    assert legal(state, B) == ["call diu", "pass"]  # the S10 re-ask
    state = act(act(state, B, "call diu"), B, "diu s1 s2")
    assert state.end_reason == "diu" and state.winner == B


def test_e1_a_four_card_meld_draws_a_supplement_so_a_diu_stays_possible() -> None:
    # Hands are 2 mod 3 after each discard; a 4-card meld uses 3 hand cards (or none, A13),
    # so without the supplement the hand would be 1 mod 3 and a 丢 (S5: two cards + a complete
    # rest) impossible for the rest of the hand.
    hands = {A: ["s3", *JUNK_A], C: ["s3", "W", "W", "b6", "b6"]}
    state = act(table(hands, ["b6", "b1"], silent_seats="skip"), A, "discard s3")
    state = act(act(state, C, "call kuai_shui"), C, "take s3 W W")
    assert len(state.hands[C]) % 3 == 0  # before its discard: b6 b6 + the supplement b6
    state = act(state, C, "discard b6")
    assert len(state.hands[C]) % 3 == 2


def test_e3_a_lay_timeout_lays_rather_than_gives_up() -> None:
    # A6: on a 放牌 timeout the server acts for the seat; it does not forfeit the card (S15
    # giving up is the seat's own choice).
    hands = {A: ["s3", *JUNK_A], B: ["s1", "s2", "s4", "s5", "b3"]}
    state = act(table(hands, ["b8"], silent_seats="skip"), A, "discard s3")
    state = act(state, B, "call chi")
    timeout = ENGINE.timeout_action(state, B)
    assert ENGINE.format_action(timeout) == "take s1 s2"
    assert timeout == min(a for a in ENGINE.legal_actions(state, B) if a.kind == "take")


def test_e2_no_second_reask_after_a_reopen() -> None:
    # Every seat a second re-ask could reach has already been asked about 丢 on this very card
    # after a claim stood (the first re-ask) or in the reopen itself, where 丢 is offered.
    hands = {A: ["s8", *JUNK_A, "s3", "W"], B: ["b4", "b4", "b5"], C: ["s3", "s3", "b6"]}
    state = table(hands, ["s3", "b8"], forfeit_fallback="reopen_after_forfeiter")
    state = act(act(act(state, A, "discard s8"), B, "pass"), C, "pass")  # B draws s3
    assert state.card == "s3"
    state = act(act(state, B, "pass"), C, "call hard_dui")
    state = act(state, A, "pass")
    assert ENGINE.to_act(state) == {B} and ENGINE.view(state, B)["asked"] == "reask"
    state = act(state, B, "pass")
    assert ENGINE.view(state, C)["asked"] == "take"
    state = act(state, C, "pass")  # C gives the card up (S15): reopened to A, after C
    assert ENGINE.to_act(state) == {A} and legal(state, A) == ["call kuai", "pass"]
    state = act(state, A, "call kuai")
    # E2: B is not re-asked a second time; A is assigned the card at once.
    assert ENGINE.to_act(state) == {A} and ENGINE.view(state, A)["asked"] == "take"
