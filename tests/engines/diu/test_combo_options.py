"""The §2.3 combination options of the research notes: ``natural_four_level``,
``diu_requires_complete_hand`` and ``diu_min_points`` — in the recogniser and in play."""

from __future__ import annotations

from dataclasses import replace

import pytest

from paiju.core.errors import InvalidOptions
from paiju.engines.diu.combos import ComboRules, Take, classify, diu_pairs, takes_for
from tests.engines.diu.helpers import ENGINE, act, legal, table

A, B, C = 0, 1, 2
JUNK_A = ["b9", "b9", "b1", "b5", "s8"]


@pytest.mark.parametrize(("level", "call"), [(4, "ying_shui"), (3, "kuai_shui"), (0, None)])
def test_natural_four_level(level: int, call: str | None) -> None:
    rules = ComboRules(natural_four_level=level)
    assert classify(rules, ["s5"] * 4) == call
    assert classify(rules, ["s5", "s5", "s5", "W"]) == "ying_shui"  # not natural: unchanged
    takes = takes_for(rules, "s5", ["s5", "s5", "s5", "b1"])
    natural = {c for c, ts in takes.items() if Take(("s5", "s5", "s5")) in ts}
    assert natural == ({call} if call else set())
    assert "hard_dui" in takes  # the 硬对 is always there
    # Upgrading an exposed 硬对 makes a natural four; an exposed 筷 + the card is a 硬水.
    up = takes_for(rules, "s5", ["b1", "b2"], [("s5", "s5", "s5"), ("s5", "s5", "W")])
    assert up.get("ying_shui", ()) == ((Take((), 0), Take((), 1)) if level == 4 else (Take((), 1),))
    if level == 3:
        assert up["kuai_shui"] == (Take((), 0),)


def test_natural_four_level_in_play() -> None:
    hands = {A: ["s3", *JUNK_A], C: ["s3", "s3", "s3", "b6"]}
    state = act(table(hands, ["b8", "b1"], natural_four_level=3), A, "discard s3")
    state = act(state, B, "pass")
    assert legal(state, C) == ["call hard_dui", "call kuai_shui", "pass"]


def test_diu_without_a_complete_hand() -> None:
    hand = ["s1", "s2", "b1", "b5", "b9"]  # s3 + s1 s2 is a 吃; the rest is no meld
    assert diu_pairs(ComboRules(), "s3", hand) == ()
    loose = ComboRules(diu_requires_complete_hand=False)
    assert diu_pairs(loose, "s3", hand) == (("s1", "s2"),)
    assert diu_pairs(loose, "s3", ["b1", "b5", "b9"]) == ()  # the 丢 meld itself is required


def test_diu_min_points() -> None:
    hand = ["s1", "s2", "b2", "b7", "b10", "s5", "s5", "W"]  # 丢 meld + 2 melds = 3
    for need, ok in [(0, True), (3, True), (4, False)]:
        pairs = diu_pairs(ComboRules(diu_min_points=need), "s3", hand)
        assert bool(pairs) is ok
    # Exposed melds count.
    assert diu_pairs(ComboRules(diu_min_points=4), "s3", hand, exposed=1) == (("s1", "s2"),)


def test_diu_min_points_in_play() -> None:
    diu_b = ["s1", "s2", "b2", "b7", "b10", "s5", "s5", "W"]
    for need, offered in [(3, True), (4, False)]:
        state = table({A: JUNK_A, B: diu_b}, ["s3"], diu_min_points=need, silent_seats="skip")
        state = act(state, A, "discard s8")
        assert ("call diu" in legal(state, B)) is offered
    state = table({A: JUNK_A, B: diu_b}, ["s3"], diu_min_points=4, silent_seats="skip")
    state = replace(state, melds=((), (("b3", "b3", "b3"),), ()))
    assert "call diu" in legal(act(state, A, "discard s8"), B)


@pytest.mark.parametrize(
    "bad",
    [
        {"natural_four_level": 2},
        {"natural_four_level": "4"},
        {"diu_min_points": -1},
        {"diu_min_points": 21},
        {"diu_requires_complete_hand": "yes"},
    ],
)
def test_bad_combo_options(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options(bad)


def test_the_view_states_the_combo_options() -> None:
    state = table({A: JUNK_A}, ["s3"], natural_four_level=3, diu_min_points=2)
    rules = ENGINE.view(state, A)["table"]
    assert rules["natural_four_level"] == 3 and rules["diu_min_points"] == 2
    assert rules["diu_requires_complete_hand"] is True
