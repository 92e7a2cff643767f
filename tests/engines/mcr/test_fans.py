"""Fan counting: every fan scoring and excluded, the five principles, rules/mcr.md examples."""

from __future__ import annotations

import pytest

from paiju.engines.mcr.fans import WinContext, evaluate
from paiju.engines.mcr.fans_table import FAN_TABLE, table_points
from paiju.engines.mcr.hand import Pack
from tests.engines.mcr.test_fans_cases import FAN_CASES, ctx, fan_counts, score, tiles

_YES = [(fan, spec) for fan, (spec, _no, _ex) in FAN_CASES.items()]
_NO = [(fan, spec, ex) for fan, (_yes, spec, ex) in FAN_CASES.items() if spec is not None]


@pytest.mark.parametrize(("fan", "spec"), _YES, ids=[f for f, _ in _YES])
def test_fan_scores(fan: str, spec: str) -> None:
    result = score(spec)
    assert fan in fan_counts(spec)
    assert result.total == sum(p * n for _name, p, n in result.fans)


@pytest.mark.parametrize(("fan", "spec", "excluder"), _NO, ids=[f for f, _, _ in _NO])
def test_fan_excluded(fan: str, spec: str, excluder: str | None) -> None:
    got = fan_counts(spec)
    assert fan not in got
    if excluder is not None:
        assert excluder in got


def test_fan_points_follow_the_table() -> None:
    points = {name: p for name, p, _zh in FAN_TABLE[1:]}
    for spec, *_ in FAN_CASES.values():
        for name, p, _n in score(spec).fans:
            assert points[name] == p


# --------------------------------------------------------------------------- principles

EXACT = [
    # non-repetition: Big Four Winds already pays for All Pungs and the wind pungs
    (
        "| F111 F222 F333 F444 W5 + W5",
        {"Big Four Winds": 1, "Four Concealed Pungs": 1, "Half Flush": 1, "Single Wait": 1},
    ),
    # non-identical: 234s may pair with only one 234p
    (
        "| T234 B234 B234 B567 W9 + W9",
        {
            "Concealed Hand": 1,
            "All Chows": 1,
            "Pure Double Chow": 1,
            "Mixed Double Chow": 1,
            "Short Straight": 1,
            "Single Wait": 1,
        },
    ),
    # account once: 234567s + 234567p -> Mixed Double Chow x2 + Short Straight x1
    (
        "| T234 T567 B234 B567 W9 + W9",
        {
            "Concealed Hand": 1,
            "All Chows": 1,
            "Mixed Double Chow": 2,
            "Short Straight": 1,
            "Single Wait": 1,
        },
    ),
    # take the highest: seven shifted pairs, not seven pairs + full flush
    ("| T2233445566778 + T8", {"Seven Shifted Pairs": 1, "All Simples": 1}),
    # nine gates adds what the win decomposes into
    (
        "| W1112345678999 + W5",
        {"Nine Gates": 1, "Two Concealed Pungs": 1, "Pung of Terminals or Honors": 1},
    ),
    (
        "| W1112345678999 + W1 ; sd",
        {"Nine Gates": 1, "Pure Straight": 1, "Tile Hog": 1, "Self-Drawn": 1},
    ),
    (
        "| B1112345678999 + B8",
        {
            "Nine Gates": 1,
            "Two Concealed Pungs": 1,
            "Short Straight": 1,
            "Pung of Terminals or Honors": 1,
        },
    ),
    ("| T1112345678999 + T3", {"Nine Gates": 1, "Short Straight": 1}),
    # equal totals: the arrangement with Pure Triple Chow is preferred
    (
        "| W222333 W44 B55 B678 + W4",
        {
            "Pure Triple Chow": 1,
            "Concealed Hand": 1,
            "All Chows": 1,
            "All Simples": 1,
            "One Voided Suit": 1,
        },
    ),
    # a discarded W2 read inside the concealed chow 234 keeps 222 concealed
    (
        "| W2224 W3 T555 B777 J11 + W2",
        {"Three Concealed Pungs": 1, "Concealed Hand": 1, "Tile Hog": 1},
    ),
    # the winner's own pung holds three copies: Last Tile is forced on
    ("PENG:T5:1 | W789 T34 B567 F11 + T5", {"Last Tile": 1, "Tile Hog": 1}),
]


EXACT += [
    # rules/mcr.md: concealed 222 34 555 777 + red pair, discard 2 -> Three Concealed Pungs
    (
        "| W222 W34 W555 W777 J11 + W2",
        {"Three Concealed Pungs": 1, "Half Flush": 1, "Concealed Hand": 1, "Tile Hog": 1},
    ),
    # the flags are not cross-checked: both 8-point fans can score
    (
        "CHI:W2:1 | W789 T34 B567 F11 + T5 ; kong last",
        {"Last Tile Claim": 1, "Robbing The Kong": 1, "Two Terminal Chows": 1},
    ),
    (
        "GANG:W2:1 | W789 T34 B567 F11 + T5 ; sd kong last",
        {"Last Tile Draw": 1, "Out with Replacement Tile": 1, "Melded Kong": 1},
    ),
    # seven pairs with a four-of-a-kind: two pairs and Tile Hog
    ("| W1111 T22 T55 B33 B66 F4 + F4", {"Seven Pairs": 1, "Tile Hog": 1}),
    # lesser honors and knitted with all nine knitted tiles adds Knitted Straight
    (
        "| W147 T258 B369 F12 J12 + J3",
        {"Lesser Honors and Knitted Tiles": 1, "Knitted Straight": 1},
    ),
    # one wind pung scores both winds and loses its Pung of Terminals or Honors
    (
        "PENG:F1:1 | W123 T456 B789 J3 + J3",
        {
            "Mixed Straight": 1,
            "All Types": 1,
            "Prevalent Wind": 1,
            "Seat Wind": 1,
            "Single Wait": 1,
        },
    ),
    # knitted straight waits: a unique wait in the extra set scores; a melded extra set
    # scores Single Wait for a pair outside the body or a body tile paired as the eye
    (
        "| W147 T258 B369 W24 F11 + W3",
        {"Knitted Straight": 1, "Concealed Hand": 1, "Closed Wait": 1},
    ),
    ("| W147 T258 B369 W23 F11 + W1", {"Knitted Straight": 1, "Concealed Hand": 1}),
    (
        "PENG:F2:1 | W147 T258 B369 F1 + F1",
        {"Knitted Straight": 1, "Pung of Terminals or Honors": 1, "Single Wait": 1},
    ),
    (
        "PENG:F2:1 | W147 T258 B369 W1 + W1",
        {"Knitted Straight": 1, "Pung of Terminals or Honors": 1, "Single Wait": 1},
    ),
    (
        "PENG:F2:1 | W147 T258 B36 F11 + B9",
        {"Knitted Straight": 1, "Pung of Terminals or Honors": 1},
    ),
]


@pytest.mark.parametrize(("spec", "expected"), EXACT)
def test_exact_fan_lists(spec: str, expected: dict[str, int]) -> None:
    assert fan_counts(spec) == expected


def test_pure_shifted_pungs_not_reread_as_triple_chow() -> None:
    got = fan_counts("| W111222333 T456 F2 + F2")
    assert "Pure Shifted Pungs" in got and "Pure Triple Chow" not in got


def test_discard_completed_pung_counts_as_melded() -> None:
    assert fan_counts("CHI:T3:1 | W22 B555 B789 J11 + W2") == {"Chicken Hand": 1}
    assert "Two Concealed Pungs" in fan_counts("CHI:T3:1 | W22 B555 B789 J11 + W2 ; sd")


# --------------------------------------------------------------------------- flags and kongs


def test_last_tile_hint_corrected() -> None:
    # the hand holds another copy of the win tile: the hint is ignored
    assert "Last Tile" not in fan_counts("CHI:W2:1 | W789 T345 B567 F1 + F1 ; 4th")


def test_replacement_and_robbing_flags_corrected() -> None:
    # self-drawn with no kong in the packs: plain self-drawn
    got = fan_counts("CHI:W2:1 | W789 T34 B567 F11 + T5 ; sd kong")
    assert "Out with Replacement Tile" not in got and "Self-Drawn" in got
    # robbing needs the win tile to be the only copy the winner touches
    assert "Robbing The Kong" not in fan_counts("CHI:W2:1 | W789 T345 B567 F1 + F1 ; kong")


def test_kong_pair_reading_is_an_option() -> None:
    spec = "GANG:W1:1 GANG:T5:0 | W234 B789 J1 + J1"
    assert {"Melded Kong", "Concealed Kong"} <= set(fan_counts(spec))
    five = fan_counts(spec + " ; five")
    assert five.get("Concealed Kong and Melded Kong") == 1 and "Melded Kong" not in five


def test_four_kongs_keep_concealed_pungs() -> None:
    got = fan_counts("GANG:W1:0 GANG:T5:0 GANG:B9:3 GANG:F2:1 | J1 + J1")
    assert got == {
        "Four Kongs": 1,
        "Two Concealed Pungs": 1,  # the two concealed kongs
        "All Types": 1,
        "Pung of Terminals or Honors": 3,
    }


def test_chicken_hand_and_flowers() -> None:
    result = score("CHI:W2:1 PENG:T5:2 | B34 B789 F22 + B5 ; fl=2")
    assert result.fans == (("Chicken Hand", 8, 1), ("Flower Tiles", 1, 2))
    assert result.total == 10 and result.total_without_flowers == 8


def test_not_complete_and_wrong_counts() -> None:
    assert evaluate(ctx("| W123 T456 B789 F123 J1 + J2")) is None
    with pytest.raises(ValueError):
        evaluate(WinContext(packs=(Pack("PENG", 0, 1),), hand=tuple(tiles("W123")), win_tile=0))
    with pytest.raises(ValueError):
        evaluate(WinContext(packs=(), hand=(0,) * 12 + (34,), win_tile=0))


def test_table_points() -> None:
    table = [0] * len(FAN_TABLE)
    table[1] = 1
    table[81] = 3
    assert table_points(table) == 91
