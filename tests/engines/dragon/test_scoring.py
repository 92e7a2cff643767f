"""Leftover scores under every option (rules §3-§4), table-driven."""

from __future__ import annotations

from typing import Any

import pytest

from paiju.core.errors import InvalidOptions
from paiju.engines.dragon.rules import ScoringOptions, normalize_options, scoring_options
from paiju.engines.dragon.scoring import category, compare, key_code, leftover_key, pair_rank
from paiju.engines.dragon.tiles import BY_CODE

DEFAULT = ScoringOptions()
CIVIL = ScoringOptions(pair_set="civil")
CIVIL_GJ = ScoringOptions(pair_set="civil+geejoon")
RAW = ScoringOptions(single_points="raw")
GJ_LOW = ScoringOptions(single_rank="geejoon_lowest")
ZERO = ScoringOptions(zero_tiebreak=True)
WILD = ScoringOptions(gee_joon_wild=True)
SPECIALS = ScoringOptions(specials=True)


def key(codes: str, opts: ScoringOptions = DEFAULT) -> tuple[int, ...]:
    return leftover_key(tuple(BY_CODE[c] for c in codes.split()), opts)


@pytest.mark.parametrize(
    ("leftover", "opts", "expected"),
    [
        # pairs: [3, 17 - rank]
        ("24 12", DEFAULT, (3, 16)),  # 至尊宝
        ("66 66", DEFAULT, (3, 15)),  # 双天
        ("11 11", DEFAULT, (3, 14)),
        ("15 15", DEFAULT, (3, 5)),  # 双零霖六
        ("45 36", DEFAULT, (3, 4)),  # 杂九
        ("35 26", DEFAULT, (3, 3)),
        ("34 25", DEFAULT, (3, 2)),
        ("14 23", DEFAULT, (3, 1)),  # 杂五
        # equal totals across families are not pairs
        ("44 35", DEFAULT, (1, 6, 15)),
        ("55 46", DEFAULT, (0 + 1, 0, 0)),
        # points: [1, points, 18 - rank of the best tile]
        ("66", DEFAULT, (1, 2, 17)),  # 天 alone is 2
        ("45", DEFAULT, (1, 9, 6)),
        ("66 34", DEFAULT, (1, 9, 17)),
        ("24 14", DEFAULT, (1, 1, 3)),
        ("12", DEFAULT, (1, 3, 1)),
        # pair_set
        ("45 36", CIVIL, (1, 8, 6)),
        ("24 12", CIVIL, (1, 9, 3)),
        ("24 12", CIVIL_GJ, (3, 16)),
        ("45 36", CIVIL_GJ, (1, 8, 6)),
        ("66 66", CIVIL, (3, 15)),
        # single_points
        ("66", RAW, (1, 12, 17)),
        ("55", RAW, (1, 10, 13)),
        ("66 34", RAW, (1, 9, 17)),
        # single_rank
        ("24 14", GJ_LOW, (1, 1, 2)),
        ("12", GJ_LOW, (1, 3, 0)),
        # zero_tiebreak
        ("55 46", ZERO, (1, 0, 13)),
        ("46", ZERO, (1, 0, 9)),
        # gee_joon_wild: 3 or 6 in points only
        ("12", WILD, (1, 6, 1)),
        ("24", WILD, (1, 6, 3)),
        ("12 34", WILD, (1, 3, 4)),
        ("12 34", DEFAULT, (1, 0, 0)),
        ("24 12", ScoringOptions(pair_set="civil", gee_joon_wild=True), (1, 9, 3)),
        ("24 12", WILD, (3, 16)),
        # specials
        ("66 45", SPECIALS, (2, 4)),
        ("11 36", SPECIALS, (2, 3)),
        ("66 44", SPECIALS, (2, 2)),
        ("11 26", SPECIALS, (2, 1)),
        ("66 45", DEFAULT, (1, 1, 17)),
        ("66 44", DEFAULT, (1, 0, 0)),
        ("66 34", SPECIALS, (1, 9, 17)),
        ("66 66", SPECIALS, (3, 15)),
        ("66", SPECIALS, (1, 2, 17)),
    ],
)
def test_leftover_key(leftover: str, opts: ScoringOptions, expected: tuple[int, ...]) -> None:
    assert key(leftover, opts) == expected


@pytest.mark.parametrize(
    ("a", "b", "opts", "result"),
    [
        ("45", "36", DEFAULT, 0),  # military twins tie as singles
        ("45 14", "36 23", DEFAULT, 0),
        ("55 46", "22 33", DEFAULT, 0),  # 0 vs 0 is a copy whatever the tiles
        ("55 46", "22 33", ZERO, 1),
        ("66", "11 55", DEFAULT, 1),  # 1-tile vs 2-tile: same points, higher tile wins
        ("46", "55 46", DEFAULT, 0),
        ("46", "55 46", ZERO, -1),
        ("14 23", "66 34", DEFAULT, 1),  # the lowest pair beats any points
        ("66 66", "24 12", DEFAULT, -1),
        ("66 45", "14 23", SPECIALS, -1),  # bonus hands rank below pairs
        ("66 44", "66 34", SPECIALS, 1),  # ...and above points
        ("66", "45", RAW, 1),  # raw: 天 alone (12) beats any 9
        ("66", "45", DEFAULT, -1),
    ],
)
def test_compare(a: str, b: str, opts: ScoringOptions, result: int) -> None:
    assert compare(key(a, opts), key(b, opts)) == result


def test_pair_rank_order_is_the_traditional_one() -> None:
    order = [
        "24 12",
        "66 66",
        "11 11",
        "44 44",
        "13 13",
        "55 55",
        "33 33",
        "22 22",
        "56 56",
        "46 46",
        "16 16",
        "15 15",
        "45 36",
        "35 26",
        "34 25",
        "14 23",
    ]
    ranks = [pair_rank(BY_CODE[p.split()[0]], BY_CODE[p.split()[1]], "paigow") for p in order]
    assert ranks == list(range(1, 17))


def test_key_code_orders_like_the_key() -> None:
    keys = [(0,), (1, 0, 0), (1, 0, 13), (1, 9, 17), (1, 12, 17), (2, 1), (2, 4), (3, 1), (3, 16)]
    codes = [key_code(k) for k in keys]
    assert codes == sorted(codes) and len(set(codes)) == len(codes)


def test_categories() -> None:
    assert [category(k) for k in [(0,), (1, 5, 3), (2, 1), (3, 4)]] == [
        "bust",
        "points",
        "bonus",
        "pair",
    ]


@pytest.mark.parametrize(
    "raw",
    [
        {"nope": 1},
        {"seats": 5},
        {"seats": 1},
        {"seats": True},
        {"hands": 0},
        {"pair_set": "all"},
        {"specials": "yes"},
        {"scoring": "auto"},
        {"single_rank": None},
    ],
)
def test_bad_options_are_refused(raw: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        normalize_options(raw)


def test_defaults() -> None:
    options = normalize_options({})
    assert options["seats"] == 4 and options["hands"] == 4
    assert options["scoring"] == "submitted"
    assert scoring_options(options) == DEFAULT
