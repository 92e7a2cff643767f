"""The diu level-2 bot: the cards it has not seen, and the acceptance it ranks by."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.diu.bot import shortfall
from paiju.engines.diu.bot_level2 import acceptance, make_bot, unseen
from paiju.engines.diu.cards import WILD, profile
from paiju.engines.diu.combos import ComboRules

RULES = ComboRules(profile="zipai80", chi_shapes=profile("zipai80").shape_names())


def test_unseen_is_the_deck_less_everything_in_sight() -> None:
    view = {
        "table": {"deck_profile": "zipai80", "wild_count": 4},
        "hand": ["s1", "s1", WILD],
        "melds": [[["s2", "s3", "s4"]], [], [["b5", "b5", "b5"]]],
        "dead": ["s1"],
        "card": {"card": "s1", "source": "draw", "by": 1},
    }
    left = unseen(view, RULES)
    assert left["s1"] == 0 and left["s2"] == 3 and left["b5"] == 1 and left[WILD] == 3
    assert sum(left.values()) == 84 - 3 - 6 - 1 - 1


def brute_acceptance(hand: list[str], left: Counter[str]) -> int:
    """Every face tried, no shortcut: the definition ``acceptance`` must match."""
    now = shortfall(RULES, hand)
    total = 0
    for face, copies in left.items():
        after = shortfall(RULES, [*hand, face])
        if after < now:
            total += copies * (2 if after == 0 else 1)
    return total


@pytest.mark.parametrize("seed", range(12))
def test_acceptance_matches_trying_every_face(seed: int) -> None:
    r = random.Random(seed)
    deck = list(profile("zipai80").deck(4))
    r.shuffle(deck)
    hand = deck[: r.choice([5, 8, 11, 14])]
    left = Counter(deck[len(hand) :])
    assert acceptance(RULES, hand, left) == brute_acceptance(hand, left)


def test_a_hand_one_card_from_done_counts_its_winning_cards_twice() -> None:
    hand = ["s1", "s2", "s3", "b7", "b8"]  # b6 or b9 completes it
    left = Counter({"b6": 2, "b9": 1, "s10": 4})
    assert acceptance(RULES, hand, left) == 2 * 3


def test_level2_keeps_the_discard_with_more_outs() -> None:
    # Dropping b1, b2, b8, b10 or one s9 leaves the same shortfall (level 1 picks among them
    # at random); with b3 all in sight, the hand that keeps b1 b2 and b10 but drops b8 has
    # the most unseen cards that help it (15, against 14, 11, 10 and 5).
    hand = ["s1", "s2", "s3", "b1", "b2", "b8", "b10", "s9", "s9"]
    view = {
        "asked": "discard",
        "hand": hand,
        "legal": sorted(f"discard {c}" for c in set(hand)),
        "table": {"deck_profile": "zipai80", "wild_count": 4,
                  "chi_shapes": list(profile("zipai80").shape_names())},
        "melds": [[["b3", "b3", "b3"]], [], []],
        "dead": [],
        "card": None,
    }
    for seed in range(5):
        assert make_bot(2, SeededRng(f"x{seed}")).choose(view) == "discard b8"
