"""Following: suit first, then the lead's shape from the strictest requirement (§1.7)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.engines.shengji.cards import CANON_ORDER, card_points, full_pack, sort_cards
from paiju.engines.shengji.follow import (
    FollowPosition,
    _bounded,
    _every,
    _first_combos,
    follow_error,
    legal_follows,
    meets,
    multiset_combos,
    requirements,
)
from paiju.engines.shengji.order import TrumpContext, trump_context
from paiju.engines.shengji.shapes import can_carve, parse_units, token_counts
from tests.scale import examples

L2H = trump_context(2, "H")
L3D = trump_context(3, "D")

CASES = [
    # (ctx, lead, hand, play, expected code or None)
    (L2H, "SK SK", "S7 S7 S5 S4 C9", "S7 S7", None),
    (L2H, "SK SK", "S7 S7 S5 S4 C9", "S5 S4", "must_follow_pair"),
    (L2H, "SK SK", "S8 S8 S9 S9 S4", "S4 S8", "must_follow_pair"),  # break the tractor
    (L2H, "SK SK", "S8 S8 S9 S9 S4", "S8 S8", None),
    (L2H, "SK SK", "S8 S5 S4 C9", "S5 S4", None),  # no pair: any two of the suit
    (L2H, "SK SK", "S4 C9 C9", "S4 C9", None),  # short: all of the suit, then anything
    (L2H, "SK SK", "S4 C9 C9", "C9 C9", "must_follow_suit"),
    (L2H, "SK SK", "C9 C9 H4", "C9 H4", None),  # void: anything
    (L2H, "S5 S5 S6 S6", "S9 S9 S10 S10 S4 C3", "S9 S9 S10 S10", None),
    (L2H, "S5 S5 S6 S6", "S9 S9 S10 S10 S4 C3", "S9 S9 S10 S4", "must_follow_tractor"),
    (L2H, "S5 S5 S6 S6", "S9 S9 SJ SJ S4", "S9 S9 SJ SJ", None),
    (L2H, "S5 S5 S6 S6", "S9 S9 SJ SJ S4", "S9 S9 S4 SJ", "must_follow_pair"),
    (L2H, "S5 S5 S6 S6", "S9 S9 S4 S6 SQ", "S9 S9 S4 S6", None),
    (L2H, "S5 S5 S6 S6", "S9 S9 S4 S6 SQ", "S4 S6 SQ S9", "must_follow_pair"),
    (L2H, "S5 S5 S6 S6", "S4 S6 SQ S9 SA", "S4 S6 SQ S9", None),
    # Across the level gap at level 3: S2 S2 S4 S4 is a tractor the follower must use.
    (L3D, "S5 S5 S6 S6", "S2 S2 S4 S4 S9 SJ", "S2 S2 S9 SJ", "must_follow_tractor"),
    (L3D, "S5 S5 S6 S6", "S2 S2 S4 S4 S9 SJ", "S2 S2 S4 S4", None),
    # Through off-suit level cards: DA DA S3 S3 is a trump tractor.
    (L3D, "D5 D5 D6 D6", "DA DA S3 S3 D9 LJ", "DA DA S3 S3", None),
    (L3D, "D5 D5 D6 D6", "DA DA S3 S3 D9 LJ", "DA DA D9 LJ", "must_follow_tractor"),
    # Equal off-suit level cards are two pairs, not a tractor.
    (L3D, "D5 D5 D6 D6", "S3 S3 H3 H3 D9", "S3 S3 H3 H3", None),
    (L3D, "D5 D5 D6 D6", "S3 S3 H3 H3 D9", "S3 S3 H3 D9", "must_follow_pair"),
    # A lead of an off-suit level card is a trump lead.
    (L3D, "H3", "D5 H7 H8", "D5", None),
    (L3D, "H3", "D5 H7 H8", "H7", "must_follow_suit"),
    (L3D, "H3", "S3 H7", "S3", None),
    # 3-pair tractor: 3-tractor -> 2-tractor + pair -> 3 pairs -> ...
    (L2H, "S4 S4 S5 S5 S6 S6", "S7 S7 S8 S8 SJ SJ S3 S9", "S7 S7 S8 S8 SJ SJ", None),
    (
        L2H,
        "S4 S4 S5 S5 S6 S6",
        "S7 S7 S8 S8 SJ SJ S3 S9",
        "S7 S7 S8 S8 S3 S9",
        "must_follow_tractor",
    ),
    (L2H, "S4 S4 S5 S5 S6 S6", "S7 S7 S9 S9 SJ SJ S3 S6", "S7 S7 S9 S9 SJ SJ", None),
    (L2H, "S4 S4 S5 S5 S6 S6", "S7 S7 S9 S9 SJ SJ S3 S6", "S7 S7 S9 S9 S3 S6", "must_follow_pair"),
    # Throws: each component matched as the hand allows.
    (L2H, "SA SK SK", "S7 S7 S5 S4", "S7 S7 S4", None),
    (L2H, "SA SK SK", "S7 S7 S5 S4", "S7 S5 S4", "must_follow_pair"),
    (L2H, "SQ SK SK SA SA", "S9 S9 S10 S10 S5 S6", "S9 S9 S10 S10 S5", None),
    (L2H, "SQ SK SK SA SA", "S9 S9 S10 S10 S5 S6", "S9 S9 S10 S5 S6", "must_follow_tractor"),
    (L2H, "SQ SK SK SA SA", "S9 S9 SJ SJ S5 S6", "S9 S9 SJ SJ S5", None),
    # Wrong size and cards not held.
    (L2H, "SK SK", "S7 S7 S5", "S7", "wrong_card_count"),
    (L2H, "SK SK", "S7 S7 S5", "S8 S8", "card_not_in_hand"),
]


@pytest.mark.parametrize(("ctx", "lead", "hand", "play", "code"), CASES)
def test_follow_rules(ctx: TrumpContext, lead: str, hand: str, play: str, code: str | None) -> None:
    units = parse_units(lead.split(), ctx)
    suit = ctx.suit_of(lead.split()[0])
    error = follow_error(units, suit, hand.split(), play.split(), ctx)
    assert (error.code if error else None) == code


def test_no_format_draw_only_asks_for_the_suit() -> None:
    units = parse_units(["SK", "SK"], L2H)
    error = follow_error(units, "S", ["S7", "S7", "S5"], ["S7", "S5"], L2H, format_draw=False)
    assert error is None


def test_requirement_list_of_a_three_pair_tractor() -> None:
    reqs = requirements(((2, 3),), 2)
    shapes = [(r.tractors, r.pairs, r.singles) for r in reqs]
    assert shapes == [
        ((3,), 0, 0),
        ((2,), 1, 0),
        ((), 3, 0),
        ((2,), 0, 2),
        ((), 2, 2),
        ((), 1, 4),
        ((), 0, 6),
    ]


def _deal(seed: int, size: int) -> list[str]:
    pack = full_pack()
    random.Random(seed).shuffle(pack)
    return pack[:size]


LEADS = ["SK", "SK SK", "S5 S5 S6 S6", "SA SK SK", "H3", "H5 H5 H6 H6", "S4 S4 S5 S5 S6 S6"]


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 10**6), lead=st.sampled_from(LEADS), size=st.integers(8, 25))
def test_enumeration_agrees_with_validation(seed: int, lead: str, size: int) -> None:
    """Every listed follow is legal; every other same-size play tried is illegal."""
    hand = _deal(seed, size)
    units = parse_units(lead.split(), L2H)
    suit = L2H.suit_of(lead.split()[0])
    listed = legal_follows(units, suit, hand, L2H, limit=10**6)
    assert listed
    for play in listed:
        assert follow_error(units, suit, hand, play, L2H) is None
    chooser = random.Random(seed)
    n = len(lead.split())
    for _ in range(40):
        play = tuple(sorted(chooser.sample(hand, n)))
        assert (play in listed) == (follow_error(units, suit, hand, play, L2H) is None)


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10**6), lead=st.sampled_from(LEADS), size=st.integers(8, 25))
def test_one_position_judges_every_play_as_a_fresh_check_does(
    seed: int, lead: str, size: int
) -> None:
    """The legal list judges all its follows with one ``FollowPosition`` (what the hand could
    meet is remembered between plays): each verdict is the one ``follow_error`` gives alone."""
    hand = _deal(seed, size)
    units = parse_units(lead.split(), L2H)
    suit = L2H.suit_of(lead.split()[0])
    chooser = random.Random(seed)
    n = len(lead.split())
    plays = sorted(legal_follows(units, suit, hand, L2H, limit=10**6))
    plays += [tuple(chooser.sample(hand, n)) for _ in range(40)]
    plays += [tuple(chooser.sample(full_pack(), n)) for _ in range(10)]  # cards not held
    plays += [tuple(chooser.sample(hand, n - 1)), tuple(chooser.sample(hand, n + 1))]
    position = FollowPosition(units, suit, hand, L2H)
    chooser.shuffle(plays)
    for play in plays:
        alone = follow_error(units, suit, hand, play, L2H)
        shared = position.error(play)
        assert (shared and shared.code) == (alone and alone.code), play


def test_a_cut_list_of_discards_still_holds_the_trump_plays_that_can_win() -> None:
    text = "C2 C3 C4 C6 C7 C8 C9 CJ CQ D2 D3 D4 D6 D7 D8 D9 DJ H5 H5 H6 H6 HA"
    hand = text.split(" ")
    units = parse_units(["S9", "S9", "S10", "S10"], L2H)
    full = legal_follows(units, "S", hand, L2H, limit=10**6)
    cut = legal_follows(units, "S", hand, L2H, limit=200)
    assert len(cut) < len(full)
    assert cut <= full
    assert ("H5", "H5", "H6", "H6") in cut


# The shortcuts of the legal list and of the follow check, each held to the rule it stands
# for.


@settings(max_examples=examples(80), deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(0, 14),
    shapes=st.lists(st.sampled_from([(1, 1), (2, 1), (2, 2), (2, 3)]), min_size=1, max_size=3),
)
def test_meets_is_a_carving_of_the_requirement(
    seed: int, size: int, shapes: list[tuple[int, int]]
) -> None:
    """``meets`` counts pair tokens for a requirement without tractors; it is the carving."""
    cards = _deal(seed, size)
    ctx = [L2H, L3D, trump_context(14, None)][seed % 3]
    for req in requirements(tuple(shapes), 2):
        carved = can_carve(token_counts(cards, ctx), req.tractors, req.pairs)
        assert meets(cards, req, ctx) == carved, (cards, req)


def _multisets(pool: list[str], size: int) -> list[tuple[str, ...]]:
    return list(multiset_combos(pool, size))


@settings(max_examples=examples(80), deadline=None)
@given(seed=st.integers(0, 10**6), pool=st.integers(0, 25), size=st.integers(0, 6))
def test_every_play_is_listed_when_fewer_than_the_limit(seed: int, pool: int, size: int) -> None:
    """``_every`` counts the distinct plays right: it lists all of them (``multiset_combos``,
    sorted) when they are fewer than ``limit`` and leaves a longer list to ``_bounded``."""
    cards = _deal(seed, pool)
    plays = {sort_cards(p) for p in _multisets(cards, size)}
    assert _every(cards, size, len(plays) + 1, CANON_ORDER) == plays
    assert _every(cards, size, len(plays), CANON_ORDER) is None
    assert _every(cards, size, 10**6, None) == {tuple(sorted(p)) for p in plays}


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10**6), lead=st.sampled_from(LEADS), size=st.integers(8, 25),
       limit=st.sampled_from([10, 60, 1500]))
def test_the_list_in_canonical_order_is_the_list_by_name_sorted_again(
    seed: int, lead: str, size: int, limit: int
) -> None:
    """``order`` changes how each play is written, never which plays are listed (a cut list
    included)."""
    hand = _deal(seed, size)
    units = parse_units(lead.split(), L2H)
    suit = L2H.suit_of(lead.split()[0])
    by_name = legal_follows(units, suit, hand, L2H, limit=limit)
    canonical = legal_follows(units, suit, hand, L2H, limit=limit, order=CANON_ORDER)
    assert canonical == {sort_cards(p) for p in by_name}
    assert all(p == tuple(sorted(p)) for p in by_name)


def _counted_error(position: FollowPosition, play: list[str]) -> str | None:
    """The follow rule as first written (a Counter of the play, each card's suit looked up),
    for the code of the verdict."""
    if len(play) != position.size:
        return "wrong_card_count"
    if any(position.held[c] < n for c, n in Counter(play).items()):
        return "card_not_in_hand"
    ctx = position.ctx
    if sum(1 for c in play if ctx.suit_of(c) == position.suit) != position.must_play:
        return "must_follow_suit"
    for req in position.reqs:
        if can_carve(token_counts(play, ctx), req.tractors, req.pairs):
            return None
        if can_carve(token_counts(position.in_suit, ctx), req.tractors, req.pairs):
            return req.rule()
    return None


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 10**6), lead=st.sampled_from(LEADS), size=st.integers(1, 25))
def test_the_follow_check_gives_the_verdicts_of_the_rule_as_first_written(
    seed: int, lead: str, size: int
) -> None:
    hand = _deal(seed, size)
    units = parse_units(lead.split(), L2H)
    suit = L2H.suit_of(lead.split()[0])
    position = FollowPosition(units, suit, hand, L2H)
    chooser = random.Random(seed)
    n = len(lead.split())
    plays = [list(p) for p in legal_follows(units, suit, hand, L2H, limit=200)]
    plays += [chooser.sample(hand, min(n, size)) for _ in range(30)]
    plays += [chooser.sample(full_pack(), n) for _ in range(10)]  # cards not held, repeats
    plays += [chooser.sample(hand, k) for k in {n - 1, n + 1} if 0 <= k <= size]
    for play in plays:
        error = position.error(play)
        assert (error and error.code) == _counted_error(position, play), play


@settings(max_examples=examples(80), deadline=None)
@given(seed=st.integers(0, 10**6), pool=st.integers(0, 25), size=st.integers(0, 8),
       count=st.integers(0, 400))
def test_the_first_plays_of_a_cut_list_are_those_multiset_combos_yields_first(
    seed: int, pool: int, size: int, count: int
) -> None:
    cards = _deal(seed, pool)
    cards.sort(key=lambda c: (c[0], len(c)))  # equal cards apart from each other, some
    expected = list(islice(multiset_combos(cards, size), count))
    assert _first_combos(cards, size, count) == expected


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 10**6), pool=st.integers(0, 25), size=st.integers(0, 5),
       limit=st.integers(1, 120))
def test_a_cut_list_keeps_the_cheapest_plays_then_the_point_shedding_ones(
    seed: int, pool: int, size: int, limit: int
) -> None:
    """``_bounded`` as first written with ``multiset_combos``: ``limit`` cheapest plays, then
    ``limit // 4 + 1`` plays shedding points; every play when they are fewer."""
    cards = _deal(seed, pool)
    cheap = sorted(cards, key=lambda c: (L2H.is_trump(c), card_points(c) > 0, L2H.value(c), c))
    dump = sorted(cards, key=lambda c: (L2H.is_trump(c), -card_points(c), L2H.value(c), c))
    expected = list(islice(multiset_combos(cheap, size), limit))
    if len(expected) == limit:
        expected += islice(multiset_combos(dump, size), limit // 4 + 1)
    assert _bounded(cards, size, L2H, limit) == expected
