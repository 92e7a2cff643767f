"""The ``poker54`` profile as the rules file has it (docs/rules/diu.md §2, research notes
§2.3): 52 cards and the 2 jokers as 听用; 吃 = three consecutive ranks of one suit (no wrap);
"the same card" = the same rank, so 硬对, 筷, 筷水 and 硬水 are made of cards of one rank."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.engines.diu.cards import WILD, profile
from paiju.engines.diu.combos import (
    ComboRules,
    Take,
    available_calls,
    classify,
    diu_pairs,
    is_complete,
    takes_for,
)
from paiju.engines.diu.options import normalize
from tests.engines.diu.helpers import act, legal, table
from tests.engines.diu.test_combos import brute_complete, brute_takes, found_takes
from tests.scale import examples

POKER = ComboRules(profile="poker54", chi_shapes=("run",))


def test_the_deck_is_52_cards_and_2_jokers() -> None:
    options = normalize({"deck_profile": "poker54"})
    assert options["wild_count"] == 2
    deck = profile("poker54").deck(options["wild_count"])
    assert len(deck) == 54 and Counter(deck)[WILD] == 2 and len(set(deck) - {WILD}) == 52
    assert normalize({"deck_profile": "poker54", "wild_count": 2})["wild_count"] == 2
    assert options["deal_sizes"] == [12, 11, 11]


@pytest.mark.parametrize("wilds", [0, 4, 6])
def test_the_deck_keeps_its_two_jokers_whatever_wild_count_says(wilds: int) -> None:
    """``wild_count`` adds 听用 to the other decks; a poker deck has its own two jokers (a
    preset may carry ``wild_count = 4`` over to a room where a player picks poker54)."""
    assert normalize({"deck_profile": "poker54", "wild_count": wilds})["wild_count"] == 2


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        (["S5", "H5", "C5"], "hard_dui"),  # three fives of three suits: 硬对
        (["S5", "H5", "W"], "kuai"),  # 筷: the card, one the same, one 听用
        (["S5", "H5", "W", "W"], "kuai_shui"),  # 筷水
        (["S5", "H5", "C5", "W"], "ying_shui"),  # 硬水
        (["S5", "H5", "C5", "D5"], "ying_shui"),  # natural four = 硬水
        (["S5", "H6", "W"], None),  # not the same rank
        (["S5", "H5", "C6"], None),
        (["H3", "H4", "H5"], "chi"),  # 吃: consecutive ranks of one suit
        (["H3", "S4", "H5"], None),
        (["H12", "H13", "H1"], None),  # no wrap
        (["H4", "H5", "W"], None),  # no 听用 in a 吃 by default
    ],
)
def test_same_rank_melds(cards: list[str], expected: str | None) -> None:
    assert classify(POKER, cards) == expected


def test_every_way_to_take_a_card_with_cards_of_its_rank() -> None:
    hand = ["S5", "H5", "C5", "W", "W", "H9"]
    takes = takes_for(POKER, "D5", hand)
    assert set(takes["hard_dui"]) == {Take(("S5", "H5")), Take(("S5", "C5")), Take(("H5", "C5"))}
    assert set(takes["kuai"]) == {Take((c, "W")) for c in ("S5", "H5", "C5")}
    assert set(takes["kuai_shui"]) == {Take((c, "W", "W")) for c in ("S5", "H5", "C5")}
    assert Take(("S5", "H5", "C5")) in takes["ying_shui"]
    assert Take(("S5", "H5", "W")) in takes["ying_shui"]
    calls = available_calls(POKER, "D5", hand, (), chi_right=False, diu_ok=False)
    assert calls == ("kuai", "kuai_shui", "hard_dui", "ying_shui")


def test_a_claimed_joker_joins_a_pair_of_one_rank() -> None:
    takes = takes_for(POKER, "W", ["S9", "D9", "H2", "C7"])
    assert takes["kuai"] == (Take(("S9", "D9")),)
    assert "kuai" not in takes_for(POKER, "W", ["S9", "D8", "H2", "C7"])


def test_complete_hands_and_diu_with_same_rank_melds() -> None:
    assert is_complete(POKER, ["S9", "H9", "D9", "H1", "H2", "H3"])
    assert is_complete(POKER, ["S9", "H9", "W", "C4", "C5", "C6"])
    assert not is_complete(POKER, ["S9", "H8", "D9", "H1", "H2", "H3"])
    # 丢 on C9 with S9 H9 (a 硬对), the rest H1 H2 H3 complete.
    assert diu_pairs(POKER, "C9", ["S9", "H9", "H1", "H2", "H3"]) == (("S9", "H9"),)


def test_exposed_melds_of_one_rank_are_upgraded() -> None:
    melds = [("S7", "H7", "C7"), ("S4", "H4", "W")]
    assert takes_for(POKER, "D7", ["H1", "H2"], melds)["ying_shui"] == (Take((), 0),)
    assert takes_for(POKER, "C4", ["H1", "H2"], melds)["ying_shui"] == (Take((), 1),)


def test_a_seat_is_offered_the_same_rank_calls_at_the_table() -> None:
    """Seat 0 discards ♣5; seat 1 (B, 下家) holds ♠5 ♥5 and a joker and is offered 硬对,
    筷 and 硬水 — the calls identical-card matching never offered."""
    state = table(
        {0: ["C5", "S1", "S2"], 1: ["S5", "H5", "W", "D9", "D11"], 2: ["H1", "H7", "C12"]},
        ["D2", "D3", "D4", "D6"],
        deck_profile="poker54",
    )
    state = act(state, 0, "discard C5")
    assert {"call hard_dui", "call kuai", "call ying_shui"} <= set(legal(state, 1))
    state = act(state, 1, "call hard_dui")
    state = act(state, 2, "pass")
    assert "take S5 H5" in legal(state, 1)


_cards = st.sampled_from(["S3", "H3", "C3", "S4", "H4", "S5", "H5", "D5", "W"])


@settings(max_examples=examples(150), deadline=None)
@given(card=_cards, drawn=st.lists(_cards, min_size=2, max_size=8))
def test_takes_and_completeness_match_brute_force(card: str, drawn: list[str]) -> None:
    # A poker deck has one of each card and two jokers.
    hand = [c for i, c in enumerate(drawn) if c not in drawn[:i] or c == WILD]
    hand = [c for c in hand if c != card or c == WILD][: 7 if hand.count(WILD) < 3 else 0]
    if hand.count(WILD) + (card == WILD) > 2 or len(hand) < 2:
        return
    assert found_takes(POKER, card, hand) == brute_takes(POKER, card, hand)
    cut = hand[: len(hand) - len(hand) % 3]
    assert is_complete(POKER, cut) == brute_complete(POKER, cut)
