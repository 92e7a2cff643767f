"""``paiju judge dragon``'s ``answer``, table-driven."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Any

import pytest

from paiju.engines.dragon.judge import JudgeError, answer


def tiles(text: str) -> list[str]:
    return text.split()


def solve(codes: str, **extra: Any) -> dict[str, Any]:
    return answer({"id": "t", "kind": "solve", "tiles": codes.split(), **extra})


def showdown(a: str, b: str, **extra: Any) -> Any:
    return answer({"id": 9, "kind": "showdown", "hands": [a.split(), b.split()], **extra})["winner"]


@pytest.mark.parametrize(
    ("codes", "category", "leftover", "length"),
    [
        ("33 22 46 26 24 14 23 12", "pair", ["24", "12"], 6),
        ("55 33 33 56 45 26 14 23", "pair", ["33", "33"], 6),
        ("66 13 22 56 16 15 45 23", "points", ["45"], 7),
        ("66 66 44 55 55 33 33 46", "bust", ["66", "66", "44", "55", "55", "33", "33", "46"], 0),
    ],
)
def test_solve(codes: str, category: str, leftover: list[str], length: int) -> None:
    out = solve(codes)
    assert set(out) == {"id", "category", "leftover", "chain"}
    assert out["id"] == "t"
    assert (out["category"], out["leftover"], len(out["chain"])) == (category, leftover, length)
    chain = out["chain"]
    assert all(a[1][1] == b[1][0] for a, b in pairwise(chain))
    assert all(sorted(f"{p[0]}{p[1]}") == sorted(code) for code, p in chain)
    assert Counter([c for c, _ in chain] + out["leftover"]) == Counter(codes.split())


def test_solve_with_options_and_oracle_ids() -> None:
    assert solve("33 22 46 26 24 14 23 12", options={"pair_set": "civil"})["category"] == "points"
    assert solve("66a 66b 11a 44 13 16 12 23")["id"] == "t"
    out = solve("66 11 44 45 26 14 23 12", options={"specials": True})
    assert out["category"] in ("pair", "bonus", "points", "bust")


@pytest.mark.parametrize(
    ("a", "b", "extra", "winner"),
    [
        # 至尊宝 beats a points hand
        ("33 22 46 26 24 14 23 12", "66 13 22 56 16 15 45 55", {}, 0),
        # military twins: 45 alone vs 36 alone, both 9 with 杂九 high -> a copy
        ("66 22 16 15 45 35 26 12", "11 13 33 33 15 36 24 23", {}, None),
        # 0 points vs 0 points is a copy; with zero_tiebreak the higher tile wins
        ("66 13 33 22 56 45 24 14", "66 11 44 13 55 55 15 15", {}, None),
        (
            "66 13 33 22 56 45 24 14",
            "66 11 44 13 55 55 15 15",
            {"options": {"zero_tiebreak": True}},
            1,
        ),
        # bust vs bust is a copy
        ("11 33 22 56 16 15 34 23", "66 44 13 55 46 15 35 24", {}, None),
        ("11 11 22 22 33 33 44 44", "66 13 56 16 15 45 55 46", {}, 1),
    ],
)
def test_showdown(a: str, b: str, extra: dict[str, Any], winner: int | None) -> None:
    assert showdown(a, b, **extra) == winner


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"id": 1, "kind": "solve", "tiles": ["66"] * 2}, "8 tiles"),
        ({"id": 1, "kind": "solve", "tiles": "66 11"}, "list of 8"),
        ({"id": 1, "kind": "solve", "tiles": tiles("66 11 44 13 55 33 22 77")}, "unknown tile"),
        ({"id": 1, "kind": "solve", "tiles": tiles("66 11 44 13 55 33 22 64")}, "unknown tile"),
        ({"id": 1, "kind": "solve", "tiles": tiles("45a 11 44 13 55 33 22 56")}, "unknown tile"),
        ({"id": 1, "kind": "solve", "tiles": tiles("66 66 66 13 55 33 22 56")}, "more often"),
        ({"id": 1, "kind": "solve", "tiles": tiles("45 45 11 13 55 33 22 56")}, "more often"),
        ({"id": 1, "kind": "showdown", "hands": [["66"] * 2]}, "two hands"),
        (
            {
                "id": 1,
                "kind": "showdown",
                "hands": [tiles("66 66 11 11 44 44 13 13"), tiles("66 55 55 33 33 22 22 56")],
            },
            "more often",
        ),
        ({"id": 1, "kind": "guess"}, "unknown kind"),
        ({"id": 1}, "unknown kind"),
        (
            {
                "id": 1,
                "kind": "solve",
                "tiles": tiles("66 11 44 13 55 33 22 56"),
                "options": {"wild": True},
            },
            "unknown dragon option",
        ),
        (
            {"id": 1, "kind": "solve", "tiles": tiles("66 11 44 13 55 33 22 56"), "options": []},
            "options must be",
        ),
    ],
)
def test_bad_requests(request_: dict[str, Any], message: str) -> None:
    with pytest.raises(JudgeError, match=message):
        answer(request_)
