"""Table-driven tests of ``paiju judge diu``: every seed rule S6-S15, the assumptions that
affect arbitration (A3, A4, A5, A6, A8, A9, A12) and each option value."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.engines.diu.judge import answer
from tests.scale import examples

ABC = ["A", "B", "C"]


def ev(type_: str, by: str = "A", **kw: Any) -> dict[str, Any]:
    return {"type": type_, "by": by, "active": kw.pop("active", ABC), **kw}


# (name, event, options, expected (card_to, claim, game_over))
CASES: list[tuple[str, dict[str, Any], dict[str, Any], tuple[str | None, str | None, bool]]] = [
    # S6: a draw is polled from the drawer.
    ("S6 drawer calls", ev("draw", calls={"A": "chi"}), {}, ("A", "chi", False)),
    ("S6 nobody calls", ev("draw"), {}, (None, None, False)),
    ("S6 drawer B", ev("draw", "B", calls={"B": "hard_dui"}), {}, ("B", "hard_dui", False)),
    # S7: a discard is polled from the 下家; the discarder is not polled.
    ("S7 discarder ignored", ev("discard", calls={"A": "hard_dui"}), {}, (None, None, False)),
    ("S7 xiajia eats", ev("discard", calls={"B": "chi"}), {}, ("B", "chi", False)),
    ("S7 C intercepts", ev("discard", calls={"B": "chi", "C": "kuai"}), {}, ("C", "kuai", False)),
    ("S7 B passes, C takes", ev("discard", calls={"C": "hard_dui"}), {}, ("C", "hard_dui", False)),
    # S8/A8: a later seat must call strictly higher; equal or lower is refused (a pass).
    (
        "S8 equal level refused",
        ev("draw", calls={"A": "hard_dui", "B": "ying_shui"}),
        {},
        ("A", "hard_dui", False),
    ),
    (
        "S8 lower refused",
        ev("draw", calls={"A": "kuai_shui", "B": "kuai"}),
        {},
        ("A", "kuai_shui", False),
    ),
    (
        "S8 ladder climbs",
        ev("draw", calls={"A": "chi", "B": "kuai", "C": "kuai_shui"}),
        {},
        ("C", "kuai_shui", False),
    ),
    (
        "S8 ying_shui beats kuai_shui",
        ev("discard", calls={"B": "kuai_shui", "C": "ying_shui"}),
        {},
        ("C", "ying_shui", False),
    ),
    # S9: 丢 ends the game at once; later seats are not asked.
    ("S9 diu stops poll", ev("draw", calls={"B": "diu", "C": "diu"}), {}, ("B", "diu", True)),
    ("S9 drawer diu", ev("draw", calls={"A": "diu", "B": "diu"}), {}, ("A", "diu", True)),
    (
        "S9 diu beats hard_dui",
        ev("draw", calls={"A": "hard_dui", "C": "diu"}),
        {},
        ("C", "diu", True),
    ),
    # S10: re-ask of earlier seats for 丢 on draws, skipping 吃 and 筷 callers.
    (
        "S10 reask kuai_shui caller",
        ev("draw", calls={"A": "kuai_shui", "C": "hard_dui"}, reask_diu={"A": True}),
        {},
        ("A", "diu", True),
    ),
    (
        "S10 chi caller not reasked",
        ev("draw", calls={"A": "chi", "C": "hard_dui"}, reask_diu={"A": True}),
        {},
        ("C", "hard_dui", False),
    ),
    (
        "S10 kuai caller not reasked",
        ev("draw", calls={"A": "kuai", "B": "hard_dui"}, reask_diu={"A": True}),
        {},
        ("B", "hard_dui", False),
    ),
    (
        "S10 passer reasked",
        ev("draw", calls={"B": "hard_dui"}, reask_diu={"A": True}),
        {},
        ("A", "diu", True),
    ),
    (
        "S10 refused call counts as pass",
        ev(
            "draw",
            calls={"A": "kuai", "B": "kuai", "C": "hard_dui"},
            reask_diu={"A": True, "B": True},
        ),
        {},
        ("B", "diu", True),
    ),
    (
        "S10 reask says no",
        ev("draw", calls={"B": "hard_dui"}, reask_diu={"A": False}),
        {},
        ("B", "hard_dui", False),
    ),
    (
        "S10 seats after top not reasked",
        ev("draw", calls={"A": "kuai_shui", "B": "hard_dui"}, reask_diu={"C": True}),
        {},
        ("B", "hard_dui", False),
    ),
    ("S10 no reask without claim", ev("draw", reask_diu={"A": True}), {}, (None, None, False)),
    # A9: the re-ask goes in polling order; the first yes wins.
    (
        "A9 reask order",
        ev("draw", calls={"C": "hard_dui"}, reask_diu={"A": True, "B": True}),
        {},
        ("A", "diu", True),
    ),
    (
        "A9 reask order from B",
        ev("draw", "B", calls={"A": "hard_dui"}, reask_diu={"B": True, "C": True}),
        {},
        ("B", "diu", True),
    ),
    # S11/A4: no 丢 on a discard (and no re-ask), unless diu_on_discard.
    ("S11 diu on discard refused", ev("discard", calls={"B": "diu"}), {}, (None, None, False)),
    (
        "A4 diu_on_discard true",
        ev("discard", calls={"B": "diu"}),
        {"diu_on_discard": True},
        ("B", "diu", True),
    ),
    (
        "A4 diu_on_discard false explicit",
        ev("discard", calls={"B": "diu", "C": "kuai"}),
        {"diu_on_discard": False},
        ("C", "kuai", False),
    ),
    (
        "S11 no reask on discard",
        ev("discard", calls={"B": "kuai_shui", "C": "hard_dui"}, reask_diu={"B": True}),
        {},
        ("C", "hard_dui", False),
    ),
    (
        "S11 no reask even with diu_on_discard",
        ev("discard", calls={"C": "hard_dui"}, reask_diu={"B": True}),
        {"diu_on_discard": True},
        ("C", "hard_dui", False),
    ),
    # S12/A3: A's card cannot be eaten by C (its 上家); 吃 rights on draws per chi_on_draw.
    ("S12 shangjia cannot eat discard", ev("discard", calls={"C": "chi"}), {}, (None, None, False)),
    ("S12 shangjia cannot eat draw", ev("draw", calls={"C": "chi"}), {}, (None, None, False)),
    (
        "A3 drawer_and_next drawer",
        ev("draw", calls={"A": "chi"}),
        {"chi_on_draw": "drawer_and_next"},
        ("A", "chi", False),
    ),
    (
        "A3 drawer_and_next next",
        ev("draw", calls={"B": "chi"}),
        {"chi_on_draw": "drawer_and_next"},
        ("B", "chi", False),
    ),
    (
        "A3 next_only drawer refused",
        ev("draw", calls={"A": "chi", "B": "chi"}),
        {"chi_on_draw": "next_only"},
        ("B", "chi", False),
    ),
    (
        "A3 next_only C refused",
        ev("draw", calls={"C": "chi"}),
        {"chi_on_draw": "next_only"},
        (None, None, False),
    ),
    (
        "A3 any lets C eat",
        ev("draw", calls={"C": "chi"}),
        {"chi_on_draw": "any"},
        ("C", "chi", False),
    ),
    (
        "A3 any still only xiajia on discard",
        ev("discard", calls={"C": "chi"}),
        {"chi_on_draw": "any"},
        (None, None, False),
    ),
    # S13: binding calls — a fallback seat executes only its own call.
    (
        "S13 fallback keeps chi",
        ev("draw", calls={"A": "chi", "B": "hard_dui"}, declines=["B"], switch={"A": "diu"}),
        {},
        ("A", "chi", False),
    ),
    (
        "S13 kuai cannot switch to hard_dui",
        ev("draw", calls={"A": "kuai", "B": "ying_shui"}, declines=["B"], switch={"A": "hard_dui"}),
        {},
        ("A", "kuai", False),
    ),
    (
        "S13 switch to pass gives up",
        ev("draw", calls={"A": "kuai", "B": "ying_shui"}, declines=["B"], switch={"A": "pass"}),
        {},
        (None, None, False),
    ),
    # S14: the card is assigned after the poll to the highest claim, not the first caller.
    (
        "S14 highest wins",
        ev("draw", calls={"A": "chi", "C": "hard_dui"}),
        {},
        ("C", "hard_dui", False),
    ),
    # S15/A5: a forfeit passes the card to the next-highest standing claim.
    (
        "S15 next highest",
        ev("draw", calls={"A": "chi", "B": "kuai", "C": "hard_dui"}, declines=["C"]),
        {},
        ("B", "kuai", False),
    ),
    (
        "S15 twice",
        ev("draw", calls={"A": "chi", "B": "kuai", "C": "hard_dui"}, declines=["C", "B"]),
        {},
        ("A", "chi", False),
    ),
    (
        "S15 all decline",
        ev("draw", calls={"A": "chi", "B": "kuai", "C": "hard_dui"}, declines=["A", "B", "C"]),
        {},
        (None, None, False),
    ),
    (
        "S15 only claimer declines",
        ev("discard", calls={"B": "chi"}, declines=["B"]),
        {},
        (None, None, False),
    ),
    (
        "A5 next_highest ignores reopen calls",
        ev("draw", calls={"A": "chi", "B": "hard_dui"}, declines=["B"], reopen_calls={"C": "kuai"}),
        {"forfeit_fallback": "next_highest_claim"},
        ("A", "chi", False),
    ),
    (
        "A5 reopen asks later seats",
        ev("draw", calls={"A": "chi", "B": "hard_dui"}, declines=["B"], reopen_calls={"C": "kuai"}),
        {"forfeit_fallback": "reopen_after_forfeiter"},
        ("C", "kuai", False),
    ),
    (
        "A5 reopen call must beat remaining",
        ev(
            "draw",
            calls={"A": "kuai_shui", "B": "hard_dui"},
            declines=["B"],
            reopen_calls={"C": "kuai"},
        ),
        {"forfeit_fallback": "reopen_after_forfeiter"},
        ("A", "kuai_shui", False),
    ),
    (
        "A5 reopen nobody",
        ev("draw", calls={"A": "chi", "B": "hard_dui"}, declines=["B"]),
        {"forfeit_fallback": "reopen_after_forfeiter"},
        ("A", "chi", False),
    ),
    (
        "A5 reopen diu on draw",
        ev("draw", calls={"A": "chi", "B": "hard_dui"}, declines=["B"], reopen_calls={"C": "diu"}),
        {"forfeit_fallback": "reopen_after_forfeiter"},
        ("C", "diu", True),
    ),
    (
        "A5 reopen skips forfeiters",
        ev(
            "discard",
            calls={"B": "chi", "C": "kuai"},
            declines=["C", "B"],
            reopen_calls={"C": "hard_dui"},
        ),
        {"forfeit_fallback": "reopen_after_forfeiter"},
        (None, None, False),
    ),
    (
        "A5 reopen after fallback",
        ev(
            "draw",
            calls={"A": "kuai", "C": "hard_dui"},
            declines=["C", "A"],
            reopen_calls={"B": "kuai_shui"},
        ),
        {"forfeit_fallback": "reopen_after_forfeiter"},
        ("B", "kuai_shui", False),
    ),
    # A6: a timeout is a pass.
    (
        "A6 timeout passes",
        ev("draw", calls={"A": "hard_dui", "B": "kuai"}, timeouts=["A"]),
        {},
        ("B", "kuai", False),
    ),
    (
        "A6 timeout diu passes",
        ev("draw", calls={"A": "diu"}, timeouts=["A"]),
        {},
        (None, None, False),
    ),
    (
        # A timed-out call is a pass, so the seat is re-asked (S10) and may answer that.
        "A6 timeout then reask",
        ev("draw", calls={"A": "chi", "C": "hard_dui"}, timeouts=["A"], reask_diu={"A": True}),
        {},
        ("A", "diu", True),
    ),
    (
        "A6 timeout on reopen",
        ev(
            "draw",
            calls={"A": "chi", "B": "hard_dui"},
            declines=["B"],
            reopen_calls={"C": "kuai"},
            timeouts=["C"],
        ),
        {"forfeit_fallback": "reopen_after_forfeiter"},
        ("A", "chi", False),
    ),
    (
        "S13 kuai_shui fallback cannot switch to diu",
        ev(
            "draw",
            calls={"A": "kuai_shui", "B": "hard_dui"},
            declines=["B"],
            switch={"A": "diu"},
        ),
        {},
        ("A", "kuai_shui", False),
    ),
    (
        # The drawer's 吃 is refused under next_only (A3), so it counts as a pass: re-asked.
        "A3 refused chi is a pass for the reask",
        ev("draw", "B", calls={"B": "chi", "C": "hard_dui"}, reask_diu={"B": True}),
        {"chi_on_draw": "next_only"},
        ("B", "diu", True),
    ),
    (
        "A3 accepted chi is not reasked",
        ev("draw", "B", calls={"B": "chi", "C": "hard_dui"}, reask_diu={"B": True}),
        {"chi_on_draw": "drawer_and_next"},
        ("C", "hard_dui", False),
    ),
    # Idle seat D is never polled.
    ("idle ignored", ev("draw", calls={"D": "diu"}, idle="D"), {}, (None, None, False)),
    (
        "four seats rotate",
        ev("discard", "C", active=["B", "C", "D"], idle="A", calls={"D": "chi", "B": "kuai"}),
        {},
        ("B", "kuai", False),
    ),
    (
        "four seats shangjia",
        ev("discard", "C", active=["B", "C", "D"], idle="A", calls={"B": "chi"}),
        {},
        (None, None, False),
    ),
    # A12: parallel mode gives the same answers.
    (
        "A12 parallel",
        ev("draw", calls={"A": "kuai_shui", "C": "hard_dui"}, reask_diu={"A": True}),
        {"poll_mode": "parallel"},
        ("A", "diu", True),
    ),
    (
        "A12 sequential",
        ev("draw", calls={"B": "diu", "C": "diu"}),
        {"poll_mode": "sequential"},
        ("B", "diu", True),
    ),
]


@pytest.mark.parametrize(("name", "event", "options", "expected"), CASES, ids=[c[0] for c in CASES])
def test_judge_cases(
    name: str,
    event: dict[str, Any],
    options: dict[str, Any],
    expected: tuple[str | None, str | None, bool],
) -> None:
    request = {"id": name, "kind": "claim", "event": event, "options": options}
    out = answer(request)
    assert out == {
        "id": name,
        "card_to": expected[0],
        "claim": expected[1],
        "game_over": expected[2],
    }


def test_options_may_be_absent() -> None:
    out = answer({"id": 7, "kind": "claim", "event": ev("draw", calls={"B": "kuai"})})
    assert out == {"id": 7, "card_to": "B", "claim": "kuai", "game_over": False}


BAD: list[tuple[str, dict[str, Any]]] = [
    ("kind", {"id": 1, "kind": "play", "event": ev("draw")}),
    ("event", {"id": 1, "kind": "claim", "event": []}),
    ("type", {"id": 1, "kind": "claim", "event": ev("steal")}),
    ("by", {"id": 1, "kind": "claim", "event": ev("draw", "D")}),
    ("call", {"id": 1, "kind": "claim", "event": ev("draw", calls={"A": "pong"})}),
    ("seat", {"id": 1, "kind": "claim", "event": ev("draw", calls={"E": "chi"})}),
    ("option", {"id": 1, "kind": "claim", "event": ev("draw"), "options": {"x": 1}}),
    (
        "option value",
        {"id": 1, "kind": "claim", "event": ev("draw"), "options": {"chi_on_draw": "all"}},
    ),
    ("field", {"id": 1, "kind": "claim", "event": {**ev("draw"), "who": "A"}}),
    ("dup active", {"id": 1, "kind": "claim", "event": ev("draw", active=["A", "A", "B"])}),
    ("idle active", {"id": 1, "kind": "claim", "event": ev("draw", idle="B")}),
    ("reask bool", {"id": 1, "kind": "claim", "event": ev("draw", reask_diu={"A": "yes"})}),
    ("declines list", {"id": 1, "kind": "claim", "event": ev("draw", declines="A")}),
]


@pytest.mark.parametrize(("name", "request_"), BAD, ids=[b[0] for b in BAD])
def test_bad_requests_raise(name: str, request_: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        answer(request_)


_call = st.sampled_from(["pass", "chi", "kuai", "kuai_shui", "hard_dui", "ying_shui", "diu"])
_seats = st.sampled_from(ABC)


@settings(max_examples=examples(150), deadline=None)
@given(
    type_=st.sampled_from(["draw", "discard"]),
    by=_seats,
    calls=st.dictionaries(_seats, _call),
    reask=st.dictionaries(_seats, st.booleans()),
    declines=st.lists(_seats, unique=True),
    reopen=st.dictionaries(_seats, _call),
    fallback=st.sampled_from(["next_highest_claim", "reopen_after_forfeiter"]),
)
def test_parallel_equals_sequential(
    type_: str,
    by: str,
    calls: dict[str, str],
    reask: dict[str, bool],
    declines: list[str],
    reopen: dict[str, str],
    fallback: str,
) -> None:
    event = ev(type_, by, calls=calls, reask_diu=reask, declines=declines, reopen_calls=reopen)
    outs = [
        answer(
            {
                "id": 0,
                "kind": "claim",
                "event": event,
                "options": {"poll_mode": mode, "forfeit_fallback": fallback},
            }
        )
        for mode in ("sequential", "parallel")
    ]
    assert outs[0] == outs[1]
    # The card only ever goes to a seat with an accepted claim (or a re-asked 丢).
    out = outs[0]
    if out["card_to"] is not None and not out["game_over"]:
        assert out["claim"] in (calls.get(out["card_to"]), reopen.get(out["card_to"]))
