"""``paiju judge mcr``: the answer for good requests, a clear error for bad ones."""

from __future__ import annotations

from typing import Any

import pytest

from paiju.engines.mcr.judge import answer


def codes(text: str) -> list[str]:
    return text.split(" ")


def _req(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "q1",
        "packs": [],
        "hand": codes("W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9"),
        "win_tile": "W5",
        "flowers": 1,
        "self_drawn": True,
        "fourth_tile": False,
        "about_kong": False,
        "wall_last": False,
        "seat_wind": 0,
        "prevalent_wind": 0,
    }
    base.update(over)
    return base


CASES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    (
        _req(),
        {
            "id": "q1",
            "hu": True,
            "fans": [
                ["Nine Gates", 88, 1],
                ["Two Concealed Pungs", 2, 1],
                ["Pung of Terminals or Honors", 1, 1],
                ["Self-Drawn", 1, 1],
                ["Flower Tiles", 1, 1],
            ],
            "total": 93,
        },
    ),
    (
        _req(id=7, hand=codes("W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 J1")),
        {"id": 7, "hu": False, "fans": [], "total": 0},
    ),
    (
        _req(
            packs=[["GANG", "W1", 0], ["GANG", "F1", 1]],
            hand=codes("T2 T3 T4 B5 B5 B5 J1"),
            win_tile="J1",
            flowers=3,
            self_drawn=False,
        ),
        {
            "id": "q1",
            "hu": True,
            "fans": [
                ["All Types", 6, 1],
                ["Prevalent Wind", 2, 1],
                ["Seat Wind", 2, 1],
                ["Two Concealed Pungs", 2, 1],
                ["Concealed Kong", 2, 1],
                ["Pung of Terminals or Honors", 1, 1],
                ["Melded Kong", 1, 1],
                ["Single Wait", 1, 1],
                ["Flower Tiles", 1, 3],
            ],
            "total": 20,
        },
    ),
    (
        _req(
            packs=[["GANG", "W1", 0], ["GANG", "F1", 1]],
            hand=codes("T2 T3 T4 B5 B5 B5 J1"),
            win_tile="J1",
            flowers=3,
            self_drawn=False,
            kong_pair_five=True,
        ),
        {
            "id": "q1",
            "hu": True,
            "fans": [
                ["All Types", 6, 1],
                ["Prevalent Wind", 2, 1],
                ["Seat Wind", 2, 1],
                ["Two Concealed Pungs", 2, 1],
                ["Pung of Terminals or Honors", 1, 1],
                ["Single Wait", 1, 1],
                ["Flower Tiles", 1, 3],
                ["Concealed Kong and Melded Kong", 5, 1],
            ],
            "total": 22,
        },
    ),
    (
        # a chicken hand: total below the 8 minimum is still reported (no minimum here)
        _req(
            packs=[["CHI", "W2", 1], ["PENG", "T5", 2]],
            hand=codes("B3 B4 B7 B8 B9 F2 F2"),
            win_tile="B5",
            flowers=0,
            self_drawn=False,
        ),
        {"id": "q1", "hu": True, "fans": [["Chicken Hand", 8, 1]], "total": 8},
    ),
]


@pytest.mark.parametrize(("request_", "expected"), CASES)
def test_answers(request_: dict[str, Any], expected: dict[str, Any]) -> None:
    assert answer(request_) == expected


BAD: list[tuple[dict[str, Any], str]] = [
    (_req(hand=["W1"] * 12), "13 - 3 * packs"),
    (_req(win_tile="X9"), "not a tile code"),
    (_req(win_tile="H1"), "flowers"),
    (_req(packs=[["PONG", "W1", 1]], hand=["W2"] * 10), "CHI, PENG or GANG"),
    (_req(packs=[["PENG", "W1", 0]], hand=["W2"] * 10), "offer 0"),
    (_req(packs=[["CHI", "W1", 1]], hand=["W2"] * 10), "middle tile"),
    (_req(packs=[["GANG", "W1", 4]], hand=["W2"] * 10), "offer must be 0..3"),
    (_req(packs=[["GANG", "W1"]], hand=["W2"] * 10), "[kind, tile, offer]"),
    (_req(self_drawn="yes"), "'self_drawn' must be true or false"),
    (_req(seat_wind=4), "'seat_wind' must be an integer 0..3"),
    (_req(flowers=9), "'flowers'"),
    (_req(hand=codes("W1 W1 W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9")), "more than 4"),
    (_req(hand="W1 W2"), "'hand' must be a list"),
]


@pytest.mark.parametrize(("request_", "message"), BAD)
def test_bad_requests(request_: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("*", r"\*")):
        answer(request_)


def test_not_an_object() -> None:
    with pytest.raises(ValueError, match="JSON object"):
        answer(["W1"])  # type: ignore[arg-type]
