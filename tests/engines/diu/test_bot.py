"""The level-1 diu bot: legal only, 丢 whenever legal, sensible calls and discards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.diu.bot import shortfall
from paiju.engines.diu.bot_level2 import make_bot
from paiju.engines.diu.cards import WILD, profile, sort_cards
from paiju.engines.diu.combos import ComboRules, chi_index
from paiju.engines.diu.engine import DiuEngine

ENGINE = DiuEngine()


def _view(asked: str, hand: list[str], legal: list[str], card: str | None = None) -> dict[str, Any]:
    return {
        "asked": asked,
        "hand": hand,
        "legal": legal,
        "card": None if card is None else {"card": card, "source": "draw", "by": 0},
    }


def test_levels() -> None:
    make_bot(1, SeededRng("b"))
    with pytest.raises(ValueError):
        make_bot(0, SeededRng("b"))


def test_takes_diu_whenever_legal() -> None:
    bot = make_bot(1, SeededRng("b"))
    assert bot.choose(_view("call", ["s1"], ["call chi", "call diu", "pass"], "s3")) == "call diu"
    assert bot.choose(_view("reask", ["s1"], ["call diu", "pass"], "s3")) == "call diu"
    assert bot.choose(_view("diu_pick", ["s1"], ["diu s1 s2", "pass"], "s3")) == "diu s1 s2"


def test_discards_the_least_useful_card() -> None:
    bot = make_bot(1, SeededRng("b"))
    hand = ["s1", "s2", "s3", "s5", "s5", "s5", "b9"]
    legal = sorted(f"discard {c}" for c in set(hand))
    assert bot.choose(_view("discard", hand, legal)) == "discard b9"


def test_calls_when_it_helps_and_prefers_higher() -> None:
    bot = make_bot(1, SeededRng("b"))
    hand = ["s3", "s3", "s1", "s2", "b9", "b8"]
    legal = ["call chi", "call hard_dui", "pass"]
    assert bot.choose(_view("call", hand, legal, "s3")) == "call hard_dui"
    # A take never given up once won.
    assert bot.choose(_view("take", hand, ["pass", "take s3 s3"], "s3")) == "take s3 s3"


def test_calls_an_upgrade_of_its_exposed_meld() -> None:
    # natural_four_level = 3: adding s3 to the exposed 硬对 s3 s3 s3 is a 筷水 call (A13);
    # it uses no hand card, so it costs nothing.
    bot = make_bot(1, SeededRng("b"))
    view = {
        **_view("call", ["b1", "b2", "b3", "s9"], ["call kuai_shui", "pass"], "s3"),
        "seat": 0,
        "melds": [[["s3", "s3", "s3"]], [], []],
        "table": {"deck_profile": "zipai80", "natural_four_level": 3},
    }
    assert bot.choose(view) == "call kuai_shui"


def test_shortfall() -> None:
    rules = ComboRules()
    assert shortfall(rules, ["s1", "s2", "s3"]) == 0
    assert shortfall(rules, ["s1", "s2", "b9"]) == 2  # one partial meld (credit 1)
    assert shortfall(rules, ["s4", "s4", "W"]) == 0


OPTIONS: list[dict[str, Any]] = [
    {},
    {"poll_mode": "parallel"},
    {"deck_profile": "poker54", "wild_count": 2},
    {"deck_profile": "chuanpai84"},
    {"wild_in_chi": True, "chi_shapes": ["run"]},
    {"forfeit_fallback": "reopen_after_forfeiter", "diu_on_discard": True},
    {"natural_four_level": 3, "silent_seats": "skip", "offer_calls": "above_standing"},
    {"diu_requires_complete_hand": False, "diu_min_points": 3},
]


@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("seed", range(len(OPTIONS)))
def test_bot_plays_legal_moves_to_the_end(seed: int, level: int) -> None:
    opts = ENGINE.normalize_options(OPTIONS[seed])
    state = ENGINE.initial_state(opts, SeededRng(f"bot/{seed}"), MatchInfo(0, (0, 0, 0)))
    bots = [make_bot(level, SeededRng(f"bot/{seed}/{s}")) for s in range(3)]
    chooser = random.Random(seed)
    while not ENGINE.is_terminal(state):
        seat = chooser.choice(sorted(ENGINE.to_act(state)))
        view = ENGINE.view(state, seat)
        text = bots[seat].choose(view)
        assert text in view["legal"]
        state = ENGINE.apply(state, seat, ENGINE.parse_action(text)).state


def reference_credit(rules: ComboRules, faces: tuple[str, ...], wilds: int) -> int:
    """The shortfall search written plainly (lists of card names, no memo): the oracle of
    the bytes search the bot runs."""
    if not faces:
        return 0
    x, rest = faces[0], list(faces[1:])
    same = profile(rules.profile).same
    best = reference_credit(rules, tuple(rest), wilds)
    mates = [c for c in rest if same(c) == same(x)]

    def without(cards: list[str], gone: list[str]) -> tuple[str, ...]:
        left = list(cards)
        for card in gone:
            left.remove(card)
        return tuple(left)

    if len(mates) >= 2:
        best = max(best, 3 + reference_credit(rules, without(rest, mates[:2]), wilds))
    if mates:
        paired = without(rest, mates[:1])
        best = max(best, 1 + reference_credit(rules, paired, wilds))
        if wilds:
            best = max(best, 3 + reference_credit(rules, paired, wilds - 1))
    for meld in chi_index(rules).get(x, ()):
        others = list(meld)
        others.remove(x)
        left = list(rest)
        found = 0
        for other in others:
            if other in left:
                left.remove(other)
                found += 1
        if found == 2:
            best = max(best, 3 + reference_credit(rules, tuple(left), wilds))
        elif found == 1:
            best = max(best, 1 + reference_credit(rules, tuple(left), wilds))
    return best


@pytest.mark.parametrize("deck", ["zipai80", "chuanpai84", "poker54"])
def test_the_shortfall_search_matches_the_plain_one(deck: str) -> None:
    rules = ComboRules(profile=deck, chi_shapes=profile(deck).shape_names())
    cards = [*profile(deck).deck(0), WILD, WILD]
    rng = random.Random(deck)
    for _ in range(60):
        hand = rng.sample(cards, rng.choice([4, 7, 10, 12]))
        real = sort_cards(c for c in hand if c != WILD)
        expected = len(hand) - reference_credit(rules, real, len(hand) - len(real))
        assert shortfall(rules, hand) == expected, hand
