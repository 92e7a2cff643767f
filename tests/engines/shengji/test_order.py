"""Card order, effective suits and adjacency (rules doc §1.2)."""

from __future__ import annotations

import random

import pytest

from paiju.engines.shengji.cards import card_points, full_pack, parse_card, points
from paiju.engines.shengji.order import trump_context

# Level 3, diamonds trump unless a case says otherwise.
CTX = trump_context(3, "D")


def test_pack_has_108_cards_and_200_points() -> None:
    pack = full_pack()
    assert len(pack) == 108
    assert points(pack) == 200
    assert card_points("SK") == 10 and card_points("H10") == 10 and card_points("C5") == 5
    assert card_points("BJ") == 0 and card_points("LJ") == 0 and card_points("SJ") == 0


def test_jack_of_spades_is_not_a_joker() -> None:
    assert parse_card("sj") == "SJ"
    assert CTX.suit_of("SJ") == "S"
    assert CTX.suit_of("LJ") == "T" and CTX.suit_of("BJ") == "T"


@pytest.mark.parametrize(
    ("card", "suit"),
    [("H3", "T"), ("S3", "T"), ("D3", "T"), ("D9", "T"), ("H9", "H"), ("SA", "S"), ("BJ", "T")],
)
def test_effective_suit(card: str, suit: str) -> None:
    assert CTX.suit_of(card) == suit


def test_trump_order_high_to_low() -> None:
    order = ["BJ", "LJ", "D3", "S3", "DA", "DK", "D4", "D2"]
    values = [CTX.value(c) for c in order]
    assert values == sorted(values, reverse=True)
    assert CTX.value("S3") == CTX.value("H3") == CTX.value("C3")


def test_plain_order_skips_the_level() -> None:
    assert CTX.value("S4") == CTX.value("S2") + 1
    assert CTX.value("SA") == CTX.value("SK") + 1


def test_no_trump_order() -> None:
    nt = trump_context(3, None)
    assert nt.suit_of("D9") == "D"
    assert nt.value("S3") == nt.value("D3") < nt.value("LJ") < nt.value("BJ")
    assert nt.value("LJ") == nt.value("S3") + 1


def test_no_trump_with_jokers_only_keeps_level_cards_in_their_suits() -> None:
    nt = trump_context(3, None, nt_level_trumps=False)
    assert nt.suit_of("S3") == "S"
    assert nt.value("S2") < nt.value("S3") < nt.value("S4")


def test_level_ace_makes_king_adjacent_to_off_suit_aces() -> None:
    ctx = trump_context(14, "H")
    assert ctx.value("SA") == ctx.value("HK") + 1
    assert ctx.value("HA") == ctx.value("SA") + 1


def test_options_break_adjacency_but_not_order() -> None:
    gap = trump_context(3, "D", level_gap_adjacent=False)
    assert gap.value("S4") > gap.value("S2") + 1
    off = trump_context(3, "D", offsuit_level_tractors=False)
    assert off.value("DA") < off.value("S3") < off.value("D3")
    assert off.value("S3") - off.value("DA") == 2
    jok = trump_context(3, "D", joker_tractors=False)
    assert jok.value("BJ") - jok.value("LJ") == 2


@pytest.mark.parametrize("level", [2, 3, 9, 14, 15])
@pytest.mark.parametrize("suit", ["S", "H", None])
@pytest.mark.parametrize("switch", [{}, {"level_gap_adjacent": False}, {"nt_level_trumps": False}])
def test_the_display_order_is_the_sort_key_order(
    level: int, suit: str | None, switch: dict[str, bool]
) -> None:
    """Hands are shown sorted by ``display_order`` (a card's place), as by ``sort_key``."""
    ctx = trump_context(level, suit, **switch)
    pack = full_pack()
    random.Random(level).shuffle(pack)
    for hand in (pack, pack[:25], pack[40:47], []):
        assert sorted(hand, key=ctx.display_order) == sorted(hand, key=ctx.sort_key)


def test_a_context_hashes_as_its_fields_and_is_made_again_alike() -> None:
    """The hash kept in a context (worked out once) is the hash of the fields its equality
    compares; a pickled or copied context is made again from its fields, with this
    process's hash, and orders the cards as the original does."""
    import copy
    import pickle

    from paiju.engines.shengji.cards import ALL_CARDS
    from paiju.engines.shengji.order import TrumpContext

    for ctx in (CTX, trump_context(14, None), trump_context(5, "S", False, False, False, False)):
        fields = (ctx.level, ctx.suit, ctx.level_gap_adjacent, ctx.offsuit_level_tractors,
                  ctx.joker_tractors, ctx.nt_level_trumps)
        assert hash(ctx) == hash(fields)
        alike = TrumpContext(*fields)
        assert alike == ctx and hash(alike) == hash(ctx) and alike is not ctx
        for again in (pickle.loads(pickle.dumps(ctx)), copy.deepcopy(ctx), copy.copy(ctx)):
            assert again == ctx and hash(again) == hash(ctx)
            assert [again.key(c) for c in ALL_CARDS] == [ctx.key(c) for c in ALL_CARDS]
            assert sorted(ALL_CARDS, key=again.display_order) == sorted(
                ALL_CARDS, key=ctx.display_order
            )
    assert hash(trump_context(3, "D")) != hash(trump_context(3, "H"))  # (these differ)
    assert len({trump_context(3, "D"), trump_context(3, "D", True), CTX}) == 1
