"""Kitty multiplier, level bands at every boundary, advancement and next landlord (§1.9-1.10)."""

from __future__ import annotations

import pytest

from paiju.engines.shengji.scoring import (
    Outcome,
    advance,
    kitty_bonus,
    kitty_multiplier,
    next_landlord,
    outcome,
)


@pytest.mark.parametrize(
    ("m", "times", "power"), [(1, 2, 2), (2, 4, 4), (4, 8, 16), (6, 12, 64), (8, 16, 256)]
)
def test_kitty_multiplier(m: int, times: int, power: int) -> None:
    assert kitty_multiplier(m, "times") == times
    assert kitty_multiplier(m, "power") == power


def test_kitty_bonus_counts_points_only() -> None:
    assert kitty_bonus(["S5", "HK", "D10", "C3", "BJ", "S2", "S4", "S6"], 2) == 25 * 4


@pytest.mark.parametrize(
    ("points", "attackers_win", "gain"),
    [
        (-45, False, 4),
        (-40, False, 4),
        (-35, False, 3),
        (-5, False, 3),
        (0, False, 3),
        (5, False, 2),
        (35, False, 2),
        (40, False, 1),
        (75, False, 1),
        (80, True, 0),
        (115, True, 0),
        (120, True, 1),
        (155, True, 1),
        (160, True, 2),
        (195, True, 2),
        (200, True, 3),
        (235, True, 3),
        (240, True, 4),
        (280, True, 5),
    ],
)
def test_level_bands(points: int, attackers_win: bool, gain: int) -> None:
    assert outcome(points) == Outcome(attackers_win, gain)


def test_result_cap_and_step_options() -> None:
    assert outcome(280, cap=3) == Outcome(True, 3)
    assert outcome(-80, cap=3) == Outcome(False, 3)
    assert outcome(60, step=30) == Outcome(True, 0)
    assert outcome(40, turnover_steps=1) == Outcome(True, 0)


@pytest.mark.parametrize(
    ("level", "gain", "declarers", "policy", "expected"),
    [
        (2, 3, True, "A", (5, False)),
        (12, 3, True, "A", (14, False)),  # Q + 3 stops at A
        (14, 1, True, "A", (14, True)),  # defending A wins the match
        (13, 2, False, "A", (14, False)),
        (14, 2, False, "A", (14, False)),  # attackers at A do not pass it
        (3, 3, True, "A_5_10_K", (5, False)),  # jumps stop at 5
        (5, 2, True, "A_5_10_K", (7, False)),  # defended 5 as declarers
        (5, 2, False, "A_5_10_K", (5, False)),
        (8, 4, True, "A_5_10_K", (10, False)),
        (13, 1, True, "none", (14, False)),
        (14, 1, True, "none", (14, True)),
    ],
)
def test_advance(
    level: int, gain: int, declarers: bool, policy: str, expected: tuple[int, bool]
) -> None:
    assert advance(level, gain, declarers, policy) == expected


def test_next_landlord() -> None:
    assert next_landlord(1, declarers_won=True) == 3
    assert next_landlord(1, declarers_won=True, same_on_win=True) == 1
    assert next_landlord(1, declarers_won=False) == 2
    assert next_landlord(3, declarers_won=False) == 0


@pytest.mark.parametrize(
    ("level", "gain", "declarers", "policy", "expected"),
    [
        (14, 1, True, "A", (15, False)),  # defended A: on to NT, the match goes on
        (14, 3, True, "A", (15, False)),
        (13, 3, True, "A", (14, False)),  # A must still be defended
        (12, 1, False, "A", (13, False)),
        (15, 1, True, "A", (15, True)),  # defending NT wins the match
        (15, 0, True, "A", (15, False)),
        (15, 2, False, "A", (15, False)),  # attackers at NT do not pass it
        (14, 1, True, "none", (15, False)),
        (14, 2, True, "none", (15, True)),  # passing the final level wins
        (15, 1, True, "none", (15, True)),
        (10, 3, True, "A_5_10_K", (13, False)),
    ],
)
def test_advance_with_nt_after_ace(
    level: int, gain: int, declarers: bool, policy: str, expected: tuple[int, bool]
) -> None:
    assert advance(level, gain, declarers, policy, top=15) == expected
