"""The poll state machine itself (rules §3): who is asked when, and its refusals."""

from __future__ import annotations

import pytest

from paiju.engines.diu.arbitration import (
    PollRules,
    answer,
    awaiting,
    current_question,
    has_chi_right,
    own_claim,
    polling_order,
    standing_level,
    start_poll,
)

ACTIVE = (0, 1, 2)


def test_polling_order() -> None:
    assert polling_order("draw", 1, ACTIVE) == (1, 2, 0)
    assert polling_order("discard", 1, ACTIVE) == (2, 0)
    assert polling_order("discard", 3, (3, 0, 1)) == (0, 1)


def test_sequential_asks_one_seat_at_a_time() -> None:
    poll = start_poll(PollRules(), "draw", 0, ACTIVE)
    assert awaiting(poll) == (0,) and current_question(poll) == "call"
    poll = answer(poll, 0, "kuai")
    assert awaiting(poll) == (1,) and standing_level(poll) == 2
    assert own_claim(poll, 0) == "kuai" and own_claim(poll, 1) is None
    with pytest.raises(ValueError):
        answer(poll, 2, "pass")  # not its turn to be asked
    with pytest.raises(ValueError):
        answer(poll, 1, "take")  # not an answer to a call
    poll = answer(answer(poll, 1, "pass"), 2, "hard_dui")
    # The kuai caller is not re-asked (S10); the passer is.
    assert current_question(poll) == "reask" and awaiting(poll) == (1,)
    poll = answer(poll, 1, "pass")
    assert current_question(poll) == "take" and awaiting(poll) == (2,)
    poll = answer(poll, 2, "take")
    assert poll.done and (poll.winner, poll.claim, poll.game_over) == (2, "hard_dui", False)


def test_parallel_asks_everyone_and_folds_in_order() -> None:
    poll = start_poll(PollRules(parallel=True), "discard", 0, ACTIVE)
    assert awaiting(poll) == (1, 2)
    poll = answer(poll, 2, "diu")  # refused on a discard (S11)
    assert awaiting(poll) == (1,)
    poll = answer(poll, 1, "chi")
    assert current_question(poll) == "take" and awaiting(poll) == (1,)


def test_parallel_diu_waits_for_earlier_seats() -> None:
    poll = start_poll(PollRules(parallel=True), "draw", 0, ACTIVE)
    poll = answer(poll, 2, "diu")
    assert not poll.done and awaiting(poll) == (0, 1)
    poll = answer(poll, 1, "diu")  # B is earlier than C in the draw poll
    assert not poll.done
    poll = answer(poll, 0, "pass")
    assert poll.done and poll.winner == 1


def test_reask_skips_bound_callers_and_stops_at_first_yes() -> None:
    poll = start_poll(PollRules(), "draw", 0, ACTIVE)
    poll = answer(answer(answer(poll, 0, "pass"), 1, "kuai_shui"), 2, "ying_shui")
    assert current_question(poll) == "reask" and awaiting(poll) == (0,)
    poll = answer(poll, 0, "pass")
    assert awaiting(poll) == (1,)
    poll = answer(poll, 1, "diu")
    assert poll.done and poll.game_over and poll.winner == 1


def test_chi_rights() -> None:
    rules = PollRules()
    assert [has_chi_right(rules, "draw", 0, ACTIVE, s) for s in ACTIVE] == [True, True, False]
    assert [has_chi_right(rules, "discard", 0, ACTIVE, s) for s in ACTIVE] == [False, True, False]


@pytest.mark.parametrize(
    ("source", "by", "active"),
    [("steal", 0, ACTIVE), ("draw", 5, ACTIVE), ("draw", 0, (0,)), ("draw", 0, (0, 0, 1))],
)
def test_bad_polls(source: str, by: int, active: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        start_poll(PollRules(), source, by, active)
