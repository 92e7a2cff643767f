"""``judge.answer``: the five request kinds, options, and bad requests."""

from __future__ import annotations

from typing import Any

import pytest

from paiju.engines.shengji.judge import answer


def _req(
    kind: str, data: dict[str, Any], level: str = "3", trump: str | None = "D", **opts: Any
) -> dict[str, Any]:
    request: dict[str, Any] = {
        "id": f"{kind}-1",
        "kind": kind,
        "level_rank": level,
        "trump_suit": trump,
        "input": data,
    }
    if opts:
        request["options"] = opts
    return request


def _split(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize(
    ("cards", "trump", "opts", "expected"),
    [
        ("S2 S2 S4 S4", "D", {}, True),
        ("S2 S2 S4 S4", "D", {"level_gap_adjacent": False}, False),
        ("DA DA S3 S3", "D", {}, True),
        ("DA DA S3 S3", "D", {"offsuit_level_tractors": False}, False),
        ("S3 S3 D3 D3 LJ LJ BJ BJ", "D", {}, True),
        ("LJ LJ BJ BJ", "D", {"joker_tractors": False}, False),
        ("S3 S3 H3 H3", "D", {}, False),
        ("H3 H3 LJ LJ", None, {}, True),
        ("SA SA S3 S3", "D", {}, False),
    ],
)
def test_is_tractor(cards: str, trump: str | None, opts: dict[str, Any], expected: bool) -> None:
    out = answer(_req("is_tractor", {"cards": _split(cards)}, trump=trump, **opts))
    assert out == {"id": "is_tractor-1", "is_tractor": expected}


@pytest.mark.parametrize(
    ("lead", "hand", "play", "legal"),
    [
        ("SK SK", "S7 S7 S5 S4", "S7 S7", True),
        ("SK SK", "S7 S7 S5 S4", "S5 S4", False),
        ("S5 S5 S6 S6", "S2 S2 S4 S4 S9 SJ", "S2 S2 S9 SJ", False),
        ("S5 S5 S6 S6", "S2 S2 S4 S4 S9 SJ", "S2 S2 S4 S4", True),
        ("H3", "D5 H7", "H7", False),  # an off-suit level card leads trumps
        ("H3", "D5 H7", "D5", True),
        ("SA SK SK", "S7 S7 S5 S4", "S7 S5 S4", False),
        ("SK SK", "C9 C9 H4", "C9 H4", True),
    ],
)
def test_follow_legal(lead: str, hand: str, play: str, legal: bool) -> None:
    data = {"lead": _split(lead), "hand": _split(hand), "play": _split(play)}
    assert answer(_req("follow_legal", data)) == {"id": "follow_legal-1", "legal": legal}


@pytest.mark.parametrize(
    ("lead", "hands", "opts", "valid", "forced"),
    [
        ("SA SQ", ["S4", "SK", "S5"], {}, False, ["SQ"]),  # blocked by the partner
        ("SA SQ", ["D4 D9", "LJ", "S5"], {}, True, None),  # trumps in a void hand
        ("S4 S4 SK", ["S7 S7", "SA", "C4"], {}, False, ["SK"]),
        (
            "S4 S4 SK",
            ["S7 S7", "SA", "C4"],
            {"throw_fail_forced": "lowest_rank"},
            False,
            ["S4", "S4"],
        ),
        (
            "S4 S4 SK",
            ["SA", "S7 S7", "C4"],
            {"throw_fail_forced": "first_challenger"},
            False,
            ["SK"],
        ),
        (
            "S4 S4 SK",
            ["S7 S7", "SA", "C4"],
            {"throw_fail_forced": "first_challenger"},
            False,
            ["S4", "S4"],
        ),
    ],
)
def test_throw_check(
    lead: str, hands: list[str], opts: dict[str, Any], valid: bool, forced: list[str] | None
) -> None:
    data = {"lead": _split(lead), "other_hands": [_split(h) for h in hands]}
    out = answer(_req("throw_check", data, level="2", trump="H", **opts))
    assert out == {"id": "throw_check-1", "valid": valid, "forced_play": forced}


@pytest.mark.parametrize(
    ("plays", "opts", "winner"),
    [
        (["SA SK SK", "D5 D5 DK", "D7 D7 D9", "S3 S4 S6"], {}, 1),
        (
            ["SA SK SK", "D5 D5 DK", "D7 D7 D9", "S3 S4 S6"],
            {"throw_evaluation": "largest_component"},
            2,
        ),
        (["SA SK SK", "D5 D5 DK", "D7 D7 D9", "S3 S4 S6"], {"throw_evaluation": "highest"}, 1),
        (["S9 S9", "D3 D5", "SK SK", "SA S4"], {}, 2),
        (["S9", "SK", "SK", "S4"], {}, 1),
    ],
)
def test_trick_winner(plays: list[str], opts: dict[str, Any], winner: int) -> None:
    data = {"plays": [_split(p) for p in plays]}
    out = answer(_req("trick_winner", data, level="2", trump="D", **opts))
    assert out == {"id": "trick_winner-1", "winner_index": winner}


KITTY = "S5 HK D10 C3 S2 S4 S6 S7"  # 25 points


@pytest.mark.parametrize(
    ("lead", "mode", "multiplier"),
    [
        ("S9", "times", 2),
        ("S9 S9", "times", 4),
        ("S9 S9 S10 S10", "times", 8),
        ("S9 S9 S10 S10 SJ SJ", "times", 12),
        ("SA SK SK", "times", 4),
        ("S9", "power", 2),
        ("S9 S9", "power", 4),
        ("S9 S9 S10 S10", "power", 16),
        ("S9 S9 S10 S10 SJ SJ", "power", 64),
        ("SA SK SK", "power", 4),
    ],
)
def test_kitty_multiplier(lead: str, mode: str, multiplier: int) -> None:
    data = {
        "last_trick_lead": _split(lead),
        "kitty": _split(KITTY),
        "last_trick_won_by": "attackers",
    }
    out = answer(_req("kitty_multiplier", data, level="2", trump="H", kitty_multiplier=mode))
    assert out == {
        "id": "kitty_multiplier-1",
        "multiplier": multiplier,
        "kitty_points_to_attackers": 25 * multiplier,
    }


def test_kitty_won_by_declarers_gives_nothing() -> None:
    data = {
        "last_trick_lead": ["S9", "S9"],
        "kitty": _split(KITTY),
        "last_trick_won_by": "declarers",
    }
    out = answer(_req("kitty_multiplier", data))
    assert out == {"id": "kitty_multiplier-1", "multiplier": 4, "kitty_points_to_attackers": 0}


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (
            {"id": 1, "kind": "nope", "level_rank": "2", "trump_suit": "H", "input": {}},
            "unknown kind",
        ),
        (
            {
                "id": 1,
                "kind": "is_tractor",
                "level_rank": "1",
                "trump_suit": "H",
                "input": {"cards": ["S2"]},
            },
            "level_rank",
        ),
        (
            {
                "id": 1,
                "kind": "is_tractor",
                "level_rank": "2",
                "trump_suit": "X",
                "input": {"cards": ["S2"]},
            },
            "trump_suit",
        ),
        (
            {"id": 1, "kind": "is_tractor", "level_rank": "2", "input": {"cards": ["S2"]}},
            "trump_suit",
        ),
        (
            {
                "id": 1,
                "kind": "is_tractor",
                "level_rank": "2",
                "trump_suit": "H",
                "input": {"cards": ["ZZ"]},
            },
            "not a card",
        ),
        (
            {
                "id": 1,
                "kind": "is_tractor",
                "level_rank": "2",
                "trump_suit": "H",
                "input": {"cards": ["S2"] * 3},
            },
            "two copies",
        ),
        (
            {
                "id": 1,
                "kind": "follow_legal",
                "level_rank": "2",
                "trump_suit": "H",
                "input": {"lead": ["S3", "C3"], "hand": ["S4"], "play": ["S4"]},
            },
            "mixes",
        ),
        (
            {
                "id": 1,
                "kind": "throw_check",
                "level_rank": "2",
                "trump_suit": "H",
                "input": {"lead": ["S3"], "other_hands": []},
            },
            "other hands",
        ),
        (
            {
                "id": 1,
                "kind": "kitty_multiplier",
                "level_rank": "2",
                "trump_suit": "H",
                "input": {"last_trick_lead": ["S3"], "kitty": [], "last_trick_won_by": "x"},
            },
            "last_trick_won_by",
        ),
        (
            {
                "id": 1,
                "kind": "is_tractor",
                "level_rank": "2",
                "trump_suit": "H",
                "options": {"bogus": 1},
                "input": {"cards": ["S2"]},
            },
            "bogus",
        ),
    ],
)
def test_bad_requests_raise_clear_errors(request_: dict[str, Any], message: str) -> None:
    with pytest.raises(Exception, match=message):
        answer(request_)
