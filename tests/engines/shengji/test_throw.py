"""Throw validity and the forced play (§1.6)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.engines.shengji.cards import full_pack
from paiju.engines.shengji.follow import legal_follows
from paiju.engines.shengji.order import trump_context
from paiju.engines.shengji.shapes import parse_units
from paiju.engines.shengji.throw import check_throw
from paiju.engines.shengji.trick import trick_winner
from tests.scale import examples

L2H = trump_context(2, "H")
L3D = trump_context(3, "D")


def _check(lead: str, hands: list[str], rule: str = "smallest_by_size_then_rank", ctx=L2H):  # type: ignore[no-untyped-def]
    cards = lead.split()
    units = parse_units(cards, ctx)
    result = check_throw(units, ctx.suit_of(cards[0]), [h.split() for h in hands], ctx, rule)
    forced = sorted(result.forced.cards) if result.forced else None
    return result.valid, forced, result.blocker


@pytest.mark.parametrize(
    ("lead", "hands", "valid", "forced"),
    [
        ("SA SQ", ["S3 C4", "S4 D5", "S5 D6"], True, None),
        ("SA SQ", ["S3 C4", "SK D5", "S5 D6"], False, ["SQ"]),  # blocked by the partner
        ("SA SQ", ["HA BJ", "H4 LJ", "C2 C3"], True, None),  # trumps of a void hand don't block
        ("SA SA SK", ["S3", "SQ SQ", "S5"], True, None),  # a lower pair does not beat
        ("SK SK SQ SQ SA", ["SA SA", "S2", "S3"], True, None),  # a pair never beats a tractor
        ("S9 S9 S10 S10 SA", ["SJ SJ SQ SQ", "S2", "S3"], False, ["S9", "S9", "S10", "S10"]),
        ("S9 S9 S10 S10 SA", ["S10 S10 SJ SJ", "S2", "S3"], False, ["S9", "S9", "S10", "S10"]),
        ("SK SK", ["SA SA", "S2", "S3"], True, None),  # one component: not a throw
        ("SA S4 S4", ["S9 S9", "", ""], False, ["S4", "S4"]),
    ],
)
def test_throw_validity(lead: str, hands: list[str], valid: bool, forced: list[str] | None) -> None:
    got_valid, got_forced, _ = _check(lead, hands)
    assert got_valid is valid
    assert got_forced == (sorted(forced) if forced else None)


def test_equal_off_suit_level_cards_do_not_beat() -> None:
    # Level 3, diamonds trump: H3 and the DA pair; S3 and C3 are equal to H3, not a pair.
    assert _check("H3 DA DA", ["S3 C3", "S4", "S5"], ctx=L3D)[0] is True


def test_off_suit_level_card_blocks_a_trump_throw() -> None:
    # Level 3, diamonds trump: DA DK thrown; an off-suit 3 is higher than DA.
    valid, forced, _ = _check("DA DK", ["S5", "H3", "C5"], ctx=L3D)
    assert not valid and forced == ["DK"]


# Lead: pair of 4s and a single K. First hand can beat only the pair (S7 S7),
# second only the single (SA).
PAIR_FIRST = ["S7 S7", "SA", "C3"]
SINGLE_FIRST = ["SA", "S7 S7", "C3"]


@pytest.mark.parametrize(
    ("rule", "hands", "forced", "blocker"),
    [
        ("smallest_by_size_then_rank", PAIR_FIRST, ["SK"], 1),
        ("lowest_rank", PAIR_FIRST, ["S4", "S4"], 0),
        ("first_challenger", PAIR_FIRST, ["S4", "S4"], 0),
        ("smallest_by_size_then_rank", SINGLE_FIRST, ["SK"], 0),
        ("lowest_rank", SINGLE_FIRST, ["S4", "S4"], 1),
        ("first_challenger", SINGLE_FIRST, ["SK"], 0),
    ],
)
def test_forced_play_rules(rule: str, hands: list[str], forced: list[str], blocker: int) -> None:
    valid, got, who = _check("S4 S4 SK", hands, rule)
    assert not valid and got == forced and who == blocker


def _hands(seed: int) -> list[list[str]]:
    pack = full_pack()
    random.Random(seed).shuffle(pack)
    return [pack[i * 25 : (i + 1) * 25] for i in range(4)]


@settings(max_examples=examples(80), deadline=None)
@given(seed=st.integers(0, 10**6), suit=st.sampled_from("SDCT"))
def test_a_valid_throw_is_beaten_by_no_follow_of_its_suit(seed: int, suit: str) -> None:
    """Throw the leader's whole holding of a suit: if valid, no in-suit follow can win."""
    hands = _hands(seed)
    lead = [c for c in hands[0] if L2H.suit_of(c) == suit][:8]
    if not lead:
        return
    units = parse_units(lead, L2H)
    if len(units) < 2:
        return
    result = check_throw(units, suit, hands[1:], L2H)
    if not result.valid:
        assert result.forced is not None and result.forced in units
        return
    for hand in hands[1:]:
        follows = legal_follows(units, suit, hand, L2H, limit=300)
        for play in follows:
            if all(L2H.suit_of(c) == suit for c in play):
                assert trick_winner([lead, list(play)], L2H, lead_units=units) == 0
