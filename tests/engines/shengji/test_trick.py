"""The trick winner (§1.8) under each ``throw_evaluation``."""

from __future__ import annotations

import pytest

from paiju.engines.shengji.order import TrumpContext, trump_context
from paiju.engines.shengji.trick import trick_winner

L2H = trump_context(2, "H")
L2D = trump_context(2, "D")
L3D = trump_context(3, "D")


@pytest.mark.parametrize(
    ("ctx", "plays", "winner"),
    [
        (L2H, ["S9", "SK", "S4", "SA"], 3),
        (L2H, ["S9", "C10", "H3", "SA"], 2),  # trump beats plain
        (L2H, ["S9", "SK", "SK", "S4"], 1),  # first of equals keeps it
        (L3D, ["H3", "S3", "C3", "D4"], 0),  # equal off-suit level cards; D4 is lower
        (L3D, ["H3", "S3", "D3", "C3"], 2),  # trump-suit level card is higher
        (L2H, ["S9 S9", "H3 H5", "SK S4", "C5 C5"], 0),  # two trumps not a pair can't win
        (L2H, ["S9 S9", "H3 H3", "H5 H5", "SA SA"], 2),
        (L2H, ["S9 S9 S10 S10", "H3 H3 H4 H4", "H6 H6 H7 H7", "HA HA HK HQ"], 2),
        (L2H, ["S9 S9 S10 S10", "H3 H3 H6 H6", "SA SA SQ SQ", "S3 S4 S5 S6"], 0),  # not a tractor
        # Over-trumping a throw component by component (rules doc example).
        (L2D, ["SA SK SK", "D5 D5 DK", "D7 D7 D9", "S3 S4 S6"], 1),
        (L2D, ["SA SK SK", "D5 D5 DK", "D7 D7 DA", "S3 S4 S6"], 2),
        (L2D, ["SA SK SK", "D7 D7 D9", "S3 S4 S6", "C3 C4 C6"], 1),
        (L2D, ["SA SK SK", "D7 D8 D9", "S3 S4 S6", "C3 C4 C6"], 0),  # wrong shape
        # 6 6 2 2 must be read as a pair plus two singles (any carving counts).
        (L2D, ["SA SK SK", "D6 D6 D3", "S3 S4 S6", "C3 C4 C6"], 1),
    ],
)
def test_trick_winner(ctx: TrumpContext, plays: list[str], winner: int) -> None:
    assert trick_winner([p.split() for p in plays], ctx) == winner


@pytest.mark.parametrize(
    ("evaluation", "winner"),
    [("all", 1), ("largest_component", 2), ("highest", 1)],
)
def test_throw_evaluation_options(evaluation: str, winner: int) -> None:
    plays = [p.split() for p in ["SA SK SK", "D5 D5 DK", "D7 D7 D9", "S3 S4 S6"]]
    assert trick_winner(plays, L2D, evaluation) == winner


def test_highest_compares_only_the_top_card() -> None:
    plays = [p.split() for p in ["SA SK SK", "D5 D5 D9", "D4 D4 DA", "S3 S4 S6"]]
    assert trick_winner(plays, L2D, "highest") == 2
    assert trick_winner(plays, L2D, "all") == 1


def test_a_follow_of_equal_value_never_takes_the_trick() -> None:
    # Equal copies of the lead (same cards) keep the first play as winner.
    for lead in ["SA", "SK SK", "S9 S9 S10 S10", "SA SK SK"]:
        cards = lead.split()
        assert trick_winner([cards, cards, cards, cards], L2H) == 0


def test_discards_never_win() -> None:
    plays = [["S9", "S9"], ["C5", "C5"], ["DA", "DA"], ["S3", "S4"]]
    assert trick_winner(plays, L2H) == 0
