"""Parsing plays into components and tractors (rules doc §1.2, §1.5)."""

from __future__ import annotations

import pytest

from paiju.engines.shengji.order import trump_context
from paiju.engines.shengji.shapes import is_tractor, parse_units, shape_of

L3D = trump_context(3, "D")


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("S2 S2 S4 S4", True),  # across the level gap
        ("D2 D2 D4 D4", True),
        ("DA DA S3 S3", True),  # trump ace to an off-suit level card
        ("S3 S3 D3 D3", True),  # off-suit level card to the trump-suit level card
        ("D3 D3 LJ LJ", True),
        ("LJ LJ BJ BJ", True),
        ("DA DA S3 S3 D3 D3 LJ LJ BJ BJ", True),
        ("S3 S3 H3 H3", False),  # equal off-suit level cards
        ("SA SA S3 S3", False),  # different effective suits
        ("SA SA S2 S2", False),  # no wrap-around
        ("SA SA SK SK", True),
        ("SQ SQ SK SK SA", False),  # tractor + single = throw
        ("S5 S5", False),
        ("S5 S6", False),
    ],
)
def test_is_tractor(cards: str, expected: bool) -> None:
    assert is_tractor(cards.split(), L3D) is expected


def test_tractor_options() -> None:
    assert not is_tractor(["S2", "S2", "S4", "S4"], trump_context(3, "D", level_gap_adjacent=False))
    assert not is_tractor(
        ["DA", "DA", "S3", "S3"], trump_context(3, "D", offsuit_level_tractors=False)
    )
    assert not is_tractor(
        ["S3", "S3", "D3", "D3"], trump_context(3, "D", offsuit_level_tractors=False)
    )
    assert not is_tractor(["LJ", "LJ", "BJ", "BJ"], trump_context(3, "D", joker_tractors=False))
    assert not is_tractor(["D3", "D3", "LJ", "LJ"], trump_context(3, "D", joker_tractors=False))
    assert is_tractor(["H3", "H3", "LJ", "LJ"], trump_context(3, None))
    assert not is_tractor(["SA", "SA", "SK", "SK"], L3D, min_length=3)


@pytest.mark.parametrize(
    ("cards", "shape"),
    [
        ("SA SA SK SK", ((2, 2),)),
        ("SQ SQ SK SK SA", ((2, 2), (1, 1))),
        ("SA SK SK", ((2, 1), (1, 1))),
        ("S3 S3 H3 H3", ((2, 1), (2, 1))),  # equal level cards: two pairs
        ("S3 H3", ((1, 1), (1, 1))),  # equal but not a pair
        ("DA DA S3 S3 H3 H3 D3 D3", ((2, 3), (2, 1))),
        ("S4 S4 S5 S5 S6 S6 S8 S8 S9 S9", ((2, 3), (2, 2))),
    ],
)
def test_parse_takes_maximal_tractors_then_pairs_then_singles(
    cards: str, shape: tuple[object]
) -> None:
    assert shape_of(parse_units(cards.split(), L3D)) == shape
