"""``available_calls`` (existence tests from counts) against ``full_available_calls`` (the
listing of every take and 丢 pair it replaced), over many random hands, polled cards and
exposed melds, under every combination option: each profile and 吃 shape set, 听用 in
吃, upgrades, natural four levels, 丢 with and without a complete rest, 丢 minimum points,
the 吃 right and 丢 allowed or not; and ``can_diu`` (the 丢 re-ask) against
``diu_pairs``. Hands are dealt at random (most make no call) and
built from melds (so 丢, upgrades and 听用 melds occur often)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from paiju.engines.diu import combos
from paiju.engines.diu.cards import WILD, profile
from paiju.engines.diu.combos import (
    CALLS,
    ComboRules,
    available_calls,
    can_diu,
    chi_index,
    diu_pairs,
    full_available_calls,
    is_complete,
)

PROFILES = ("zipai80", "chuanpai84", "poker54")


def _rules(rnd: random.Random) -> ComboRules:
    prof = rnd.choice(PROFILES)
    names = profile(prof).shape_names()
    shapes = tuple(n for n in names if rnd.random() < 0.7) or names
    return ComboRules(
        profile=prof,
        chi_shapes=shapes,
        wild_in_chi=rnd.random() < 0.5,
        allow_upgrade=rnd.random() < 0.7,
        natural_four_level=rnd.choice((4, 3, 0)),
        diu_requires_complete_hand=rnd.random() < 0.7,
        diu_min_points=rnd.choice((0, 0, 3, 5, 7)),
    )


def _meld(rnd: random.Random, rules: ComboRules, faces: list[str]) -> list[str]:
    """A random 3-card meld a 丢 hand is made of (吃, 硬对, 筷), 听用 where allowed."""
    kind = rnd.choice(("chi", "hard_dui", "kuai"))
    if kind == "chi":
        meld = list(rnd.choice(sorted({m for ms in chi_index(rules).values() for m in ms})))
        if rules.wild_in_chi and rnd.random() < 0.3:
            meld[rnd.randrange(3)] = WILD
        return meld
    face = rnd.choice(faces)
    key = profile(rules.profile).same
    mates = [f for f in faces if key(f) == key(face)]
    if kind == "hard_dui":
        return [face, rnd.choice(mates), rnd.choice(mates)]
    return [face, rnd.choice(mates), WILD]


def _near_melds(rnd: random.Random, rules: ComboRules, card: str) -> list[tuple[str, ...]]:
    """The 吃 triples holding ``card`` and its same cards (any 吃 triple for a 听用)."""
    key = profile(rules.profile).same
    if card == WILD:
        face = rnd.choice(profile(rules.profile).faces)
        chis = sorted({m for ms in chi_index(rules).values() for m in ms})
        return [(face,) * 4] if rnd.random() < 0.5 else [rnd.choice(chis), (face,) * 2]
    mates = tuple(f for f in profile(rules.profile).faces if key(f) == key(card))
    return [*chi_index(rules).get(card, ()), mates * 3]


def _case(rnd: random.Random) -> tuple[ComboRules, str, list[str], list[list[str]]]:
    """Rules, a polled card, a concealed hand and exposed melds."""
    rules = _rules(rnd)
    prof = profile(rules.profile)
    faces = list(prof.faces)
    deck = list(prof.deck(prof.wilds if prof.wilds is not None else rnd.randrange(0, 7)))
    exposed = [_meld(rnd, rules, faces) for _ in range(rnd.choice((0, 0, 1, 2, 3)))]
    mode = rnd.random()
    if mode < 0.4:
        hand = rnd.sample(deck, rnd.randrange(0, 22))
        card = rnd.choice([*deck, WILD])
    elif mode < 0.6:
        # a few cards near the polled one: where "a card must be left to discard" (S18) and
        # the counts of same cards and 听用 decide
        card = rnd.choice([*deck, WILD])
        near = [c for m in _near_melds(rnd, rules, card) for c in m]
        near += [WILD] * rnd.randrange(0, 4)
        hand = [rnd.choice(near) for _ in range(rnd.randrange(0, 6))]
    else:
        # a complete hand with the card in it (a 丢 unless the options forbid), sometimes spoilt
        whole = [c for _ in range(rnd.randrange(1, 8)) for c in _meld(rnd, rules, faces)]
        card = whole.pop(rnd.randrange(len(whole)))
        if rnd.random() < 0.3:
            whole[rnd.randrange(len(whole))] = rnd.choice([*deck, WILD])
        if rnd.random() < 0.2 and whole:
            whole.pop(rnd.randrange(len(whole)))
        hand = whole
    if rules.allow_upgrade and rnd.random() < 0.3 and card != WILD:
        key = prof.same
        mate = rnd.choice([f for f in faces if key(f) == key(card)])
        exposed.append(rnd.choice(([card, mate, mate], [mate, mate, WILD], [card, mate])))
    rnd.shuffle(hand)
    return rules, card, hand, exposed


def _differences(cases: int, seed: int) -> tuple[int, Counter[str]]:
    """How many (case, 吃 right, 丢 allowed) answers differ, and how often each call was
    found (so the test knows it reached every call)."""
    rnd = random.Random(seed)
    wrong = 0
    seen: Counter[str] = Counter()
    for _ in range(cases):
        rules, card, hand, melds = _case(rnd)
        for chi_right in (False, True):
            for diu_ok in (False, True):
                fast = available_calls(rules, card, hand, melds, chi_right=chi_right, diu_ok=diu_ok)
                full = full_available_calls(
                    rules, card, hand, melds, chi_right=chi_right, diu_ok=diu_ok
                )
                wrong += fast != full
                seen.update(full)
                seen.update(f"wild:{c}" for c in full if card == WILD)
        # the 丢 re-ask: whether any 丢 pair exists, whatever the source
        pairs = diu_pairs(rules, card, hand, len(melds))
        wrong += can_diu(rules, card, hand, len(melds)) != bool(pairs)
        seen["reask diu"] += bool(pairs)
    return wrong, seen


@pytest.mark.parametrize("seed", range(4))
def test_available_calls_equals_the_full_listing(seed: int) -> None:
    wrong, seen = _differences(1200, seed)
    assert wrong == 0
    # every call, and every call a claimed 听用 makes, was found many times
    for call in CALLS:
        assert seen[call] >= 20, (call, seen)
    for call in ("chi", "kuai", "kuai_shui", "ying_shui", "diu"):
        assert seen[f"wild:{call}"] >= 5, (call, seen)
    assert seen["reask diu"] >= 100


def _no_wild_chi(rules: ComboRules, card: str) -> tuple[tuple[str, str], ...]:
    return () if card == WILD else _CHI_PAIRS(rules, card)


_CHI_PAIRS = combos._chi_pairs


@pytest.mark.parametrize(
    ("name", "broken"),
    [
        ("_each_card_fits", lambda *args: False),  # rejects complete hands: 丢 goes missing
        ("_holds_a_pair", lambda *args: False),  # 吃 goes missing
        ("_chi_pairs", _no_wild_chi),  # a claimed 听用's 吃 goes missing
    ],
)
def test_a_broken_fast_path_is_caught(
    monkeypatch: pytest.MonkeyPatch, name: str, broken: object
) -> None:
    """The comparison fails when a fast-path helper is wrong (the full listing does not use
    these helpers, so it stays right)."""
    monkeypatch.setattr(combos, name, broken)
    combos._plan.cache_clear()
    try:
        wrong, _ = _differences(1000, 99)
    finally:
        combos._plan.cache_clear()
    assert wrong > 0


def test_a_harmless_shortcut_change_is_not_flagged(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the every-card-fits shortcut the answers are the same (it only saves time)."""
    monkeypatch.setattr(combos, "_each_card_fits", lambda *args: True)
    wrong, _ = _differences(300, 98)
    assert wrong == 0


def test_each_card_fits_holds_for_every_complete_hand() -> None:
    """The shortcut never rejects a complete hand (it is a necessary condition)."""
    rnd = random.Random(7)
    complete = 0
    for _ in range(3000):
        rules, card, hand, _melds = _case(rnd)
        whole = [*hand, card]
        if is_complete(rules, whole):
            complete += 1
            assert combos._each_card_fits(combos._plan(rules), whole)
    assert complete > 300


def test_each_card_fits_rejects_a_card_no_meld_can_hold() -> None:
    # zipai80: s1 is in the 吃 triples s1 b1 b1, s1 s1 b1, s1 s2 s3
    rules = combos._plan(ComboRules())
    wild_chi = combos._plan(ComboRules(wild_in_chi=True))
    assert combos._each_card_fits(rules, ["s1", "s1", "s1"])
    assert combos._each_card_fits(rules, ["s1", "s1", WILD])
    assert combos._each_card_fits(rules, ["s1", "s2", "s3"])
    assert combos._each_card_fits(rules, ["s1", "s1", "b1"])
    assert not combos._each_card_fits(rules, ["s1", "s1", "s1", "b9"])
    assert not combos._each_card_fits(rules, ["s1", "s1"])
    assert not combos._each_card_fits(rules, ["s1", "s2", "s4"])
    # a 听用 stands in a 吃 only with wild_in_chi (for any card but the one tested)
    assert not combos._each_card_fits(rules, ["s1", "s2", WILD])
    assert combos._each_card_fits(wild_chi, ["s1", "s2", WILD])
    assert combos._each_card_fits(wild_chi, ["s1", "b1", WILD])


@pytest.mark.parametrize(
    "options",
    [
        {"diu_on_discard": True, "wild_count": 8},
        {"deck_profile": "poker54", "wild_in_chi": True, "diu_on_discard": True},
        {"diu_requires_complete_hand": False, "natural_four_level": 3, "diu_on_discard": True},
        {"poll_mode": "parallel", "offer_calls": "hand", "diu_min_points": 6},
        {"offer_calls": "above_standing", "silent_seats": "skip", "wild_count": 10},
    ],
)
def test_every_seats_legal_list_in_play_equals_the_full_listing(
    monkeypatch: pytest.MonkeyPatch, options: dict[str, object]
) -> None:
    """In random play (exposed melds, re-asks and 丢 picks as play makes them), every
    asked seat's legal list is the one the full listings give."""
    from paiju.core.rng import SeededRng
    from paiju.engines.base import MatchInfo
    from paiju.engines.diu import flow
    from tests.engines.diu.helpers import ENGINE

    def full_can_diu(rules: ComboRules, card: str, hand: object, exposed: int = 0) -> bool:
        return bool(diu_pairs(rules, card, hand, exposed))  # type: ignore[arg-type]

    opts = ENGINE.normalize_options(options)
    asked = 0
    for hand_no in range(6):
        state = ENGINE.initial_state(opts, SeededRng(f"fast/{hand_no}"), MatchInfo(0, (0,) * 3))
        chooser = random.Random(hand_no)
        while not ENGINE.is_terminal(state):
            for seat in range(3):
                fast = flow._legal(state, seat)
                with monkeypatch.context() as m:
                    m.setattr(combos, "available_calls", full_available_calls)
                    m.setattr(combos, "can_diu", full_can_diu)
                    full = flow._legal(state, seat)
                assert fast == full
                asked += flow.question(state, seat) in ("call", "reask")
            seat = min(ENGINE.to_act(state))
            actions = sorted(ENGINE.legal_actions(state, seat), key=ENGINE.format_action)
            state = ENGINE.apply(state, seat, chooser.choice(actions)).state
    assert asked > 20
