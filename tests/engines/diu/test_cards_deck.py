"""Deck profiles, shuffles and the deal conserve the deck (A1, A2, §1.7)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.rng import ScriptedRng, SeededRng
from paiju.engines.diu.cards import ALL_TOKENS, WILD, profile, sort_cards
from paiju.engines.diu.deck import deal, fisher_yates, riffle_once, seed_riffle, shuffle
from paiju.engines.diu.options import auto_deal, normalize
from tests.scale import examples


@pytest.mark.parametrize(
    ("name", "wilds", "size", "faces"),
    [
        ("zipai80", 4, 84, 20),
        ("zipai80", 0, 80, 20),
        ("chuanpai84", 4, 88, 21),
        ("poker54", 2, 54, 52),
    ],
)
def test_profiles(name: str, wilds: int, size: int, faces: int) -> None:
    deck = profile(name).deck(wilds)
    assert len(deck) == size
    assert len(set(deck) - {WILD}) == faces
    assert Counter(deck)[WILD] == wilds
    assert set(deck) <= ALL_TOKENS


def test_zipai_chi_shapes() -> None:
    melds = profile("zipai80").chi_melds(["run", "two_seven_ten", "big_small"])
    assert ("s1", "s2", "s3") in melds
    assert ("b2", "b7", "b10") in melds
    assert ("s3", "s3", "b3") in melds and ("s3", "b3", "b3") in melds
    assert ("s9", "s10", "b1") not in melds
    assert len(melds) == 16 + 2 + 20


def test_sort_cards_puts_wilds_last() -> None:
    assert sort_cards(["W", "b1", "s10", "s2"]) == ("s2", "s10", "b1", "W")


@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 10**6), passes=st.integers(1, 8), offset=st.integers(0, 20))
def test_shuffles_permute_the_deck(seed: int, passes: int, offset: int) -> None:
    """Both shuffles keep every card and move them: the same order back (or the same order
    for another seed) is as good as impossible for 84 cards, and would mean no shuffle."""
    deck = profile("zipai80").deck(4)
    rng = SeededRng(str(seed))
    for shuffled in (seed_riffle(deck, rng, passes, offset), fisher_yates(deck, rng)):
        assert Counter(shuffled) == Counter(deck)
        assert shuffled != list(deck), "the deck came back in its order"
    other = SeededRng(str(seed + 1))
    assert fisher_yates(deck, SeededRng(str(seed))) != fisher_yates(deck, other)
    hands, stock = deal(shuffle(deck, rng, "seed_riffle", passes, offset), [21, 20, 20])
    assert [len(h) for h in hands] == [21, 20, 20]
    assert Counter(c for h in (*hands, stock) for c in h) == Counter(deck)


def test_riffle_follows_the_seed_steps() -> None:
    cards = [str(i) for i in range(10)]
    # offset 2, sign + (1) -> cut at 7; then take left while the parity draw is 0.
    rng = ScriptedRng([2, 1] + [0] * 7 + [1] * 3)
    assert riffle_once(cards, rng, 9) == cards  # all left then all right: order kept
    rng = ScriptedRng([0, 0] + [1, 0] * 5)
    assert riffle_once(cards, rng, 9) == ["5", "0", "6", "1", "7", "2", "8", "3", "9", "4"]


def test_riffle_cut_is_clamped() -> None:
    rng = ScriptedRng([9, 0] + [0] * 4)
    assert sorted(riffle_once(["a", "b", "c", "d"], rng, 9)) == ["a", "b", "c", "d"]


def test_seeded_shuffles_are_reproducible() -> None:
    deck = profile("zipai80").deck(4)
    assert seed_riffle(deck, SeededRng("x")) == seed_riffle(deck, SeededRng("x"))
    assert fisher_yates(deck, SeededRng("x")) == fisher_yates(deck, SeededRng("x"))


def test_deal_needs_a_stock() -> None:
    with pytest.raises(ValueError):
        deal(["a", "b", "c"], [1, 1, 1])


def test_auto_deal() -> None:
    assert auto_deal(84) == [21, 20, 20]
    assert normalize({"deck_profile": "poker54", "wild_count": 2})["deal_sizes"] == [12, 11, 11]
    for size in (52, 60, 88, 94):
        sizes = auto_deal(size)
        assert sum(sizes) < size and sizes[1] % 3 == 2
