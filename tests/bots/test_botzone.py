"""Botzone translation: requests from scripted MCR views and events, responses to actions,
the room check, and the program I/O of both modes."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from paiju.bots.botzone import KONG_NOTICE, HandTranslator, Untranslatable, check_room
from paiju.bots.botzone_io import KEEP_RUNNING, BotzoneRunner
from paiju.bots.external import RoomRefused
from paiju.bots.program import Program
from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.registry import get_engine

ENGINE = get_engine("mcr")


def opening_view(seat: int) -> dict[str, Any]:
    """Hand 1 of seed "a": seat 1 deals (East, order 1 2 3 0); flowers H5 H2 / H6."""
    options = ENGINE.normalize_options({})
    state = ENGINE.initial_state(options, SeededRng("a"), MatchInfo(1, (0,) * 4))
    return dict(ENGINE.view(state, seat))


def ev(kind: str, **data: Any) -> dict[str, Any]:
    return {"kind": kind, "data": data}


# ---------------------------------------------------------------- requests


def test_the_dealer_gets_13_tiles_then_draws_its_14th() -> None:
    view = opening_view(1)
    assert (view["dealer"], view["order"], view["drawn"]) == (1, [1, 2, 3, 0], "W9")
    zero, deal, draw = HandTranslator.for_view(view).opening(view)
    assert zero == "0 0 0"  # player id 0 (East), prevalent wind East
    words = deal.split()
    assert words[:5] == ["1", "2", "1", "0", "0"]  # flowers per player id, in wind order
    hand = list(view["hand"])
    hand.remove("W9")
    assert words[5:18] == hand and words[18:] == ["H5", "H2", "H6"]
    assert draw == "2 W9"


def test_others_see_the_dealer_draw() -> None:
    view = opening_view(0)  # seat 0 sits North: player id 3
    zero, deal, draw = HandTranslator.for_view(view).opening(view)
    assert zero == "0 3 0" and deal.split()[5:18] == view["hand"] and draw == "3 0 DRAW"


def test_events_become_botzone_requests() -> None:
    tr = HandTranslator.for_view(opening_view(0))  # pids: seat 1 -> 0, 2 -> 1, 3 -> 2, 0 -> 3
    script = [
        (ev("discard", seat=1, tile="W1"), ["3 0 PLAY W1"]),
        (ev("draw", seat=2, replacement=False), ["3 1 DRAW"]),
        (ev("flower", seat=2, flower="H3"), ["3 1 BUHUA H3"]),
        (ev("peng", seat=3, **{"from": 2}, tile="B5", meld="peng"), []),
        (ev("discard", seat=3, tile="F1"), ["3 2 PENG F1"]),
        (ev("chi", seat=0, **{"from": 3}, tile="F1", meld="chi T3"), []),
        (ev("claim", seat=0, action="chi T3"), []),
        (ev("discard", seat=0, tile="J1"), ["3 3 CHI T3 J1"]),
        (ev("draw", seat=0, replacement=False), []),
        (ev("drawn", seat=0, tile="B2"), ["2 B2"]),
        (ev("angang", seat=0), ["3 3 GANG"]),
        (ev("angang_tile", seat=0, tile="B2"), []),
        (ev("gang", seat=1, **{"from": 0}, tile="W4", meld="gang"), ["3 0 GANG"]),
        (ev("bugang", seat=2, tile="T7"), ["3 1 BUGANG T7"]),
        (ev("hu", seat=3, tile="T7", **{"from": 2}, total=9), []),
        (ev("hand_scored", hand=1, scores=[0, 0, 0, 0], totals=[0, 0, 0, 0]), []),
    ]
    for event, expected in script:
        assert tr.requests(event) == expected, event


# ---------------------------------------------------------------- responses


def turn_view(legal: list[str], hand: list[str]) -> dict[str, Any]:
    return {"phase": "turn", "legal": legal, "hand": hand, "drawn": hand[-1]}


def claim_view(legal: list[str], hand: list[str], tile: str) -> dict[str, Any]:
    return {"phase": "claim", "legal": legal, "hand": hand, "claim": {"tile": tile, "from": 3}}


HAND = ["W1", "W2", "W4", "W4", "B5", "B5", "B5", "B5", "T7", "T8", "F1", "J1", "J2"]


@pytest.mark.parametrize(
    ("response", "action"),
    [("PLAY J1", "discard J1"), ("GANG B5", "angang B5"), ("BUGANG T7", "bugang T7"),
     ("HU", "hu")],
)
def test_turn_responses(response: str, action: str) -> None:
    tr = HandTranslator.for_view(opening_view(0))
    legal = ["discard J1", "angang B5", "bugang T7", "hu"]
    assert tr.action(response, turn_view(legal, [*HAND, "T7"])) == action


def test_claim_responses_and_the_discard_named_with_them() -> None:
    tr = HandTranslator.for_view(opening_view(0))
    view = claim_view(["chi W3", "peng", "pass"], HAND, "W4")
    assert tr.action("PASS", claim_view(["pass", "peng"], HAND, "W4")) == "pass"
    assert tr.action("PENG F1", claim_view(["pass", "peng"], HAND, "W4")) == "peng"
    assert tr.discard_after_claim() == "discard F1"
    assert tr.discard_after_claim() is None  # used once
    view = claim_view(["chi W3", "pass"], HAND, "W3")
    assert tr.action("CHI W3 J2", view) == "chi W3"
    assert tr.discard_after_claim() == "discard J2"
    assert tr.action("GANG", claim_view(["gang", "pass"], HAND, "B5")) == "gang"
    assert tr.action("HU", {"phase": "rob", "legal": ["hu", "pass"]}) == "hu"


@pytest.mark.parametrize(
    ("response", "view", "why"),
    [
        ("PLAY J1", claim_view(["pass"], HAND, "W4"), "does not answer a discard"),
        ("PENG W4", claim_view(["pass", "peng"], HAND, "W4"), "lacks W4"),
        ("CHI W2 F1", claim_view(["chi W3", "pass"], HAND, "W3"), "not among paiju's legal"),
        ("CHI W8 F1", claim_view(["chi W3", "pass"], HAND, "W3"), "does not use the discarded"),
        ("HU", turn_view(["discard J1"], HAND), "Botzone counts flowers towards the 8"),
        ("PASS", turn_view(["discard J1"], HAND), "does not answer a draw"),
        ("", turn_view(["discard J1"], HAND), "empty"),
        ("PENG", {"phase": "rob", "legal": ["hu", "pass"]}, "does not answer an added kong"),
    ],
)
def test_untranslatable_responses_say_why(response: str, view: dict[str, Any], why: str) -> None:
    tr = HandTranslator.for_view(opening_view(0))
    with pytest.raises(Untranslatable, match=why):
        tr.action(response, view)


# ---------------------------------------------------------------- rules


def test_the_default_room_plays_with_notices() -> None:
    notices = check_room("mcr", ENGINE.normalize_options({}))
    assert KONG_NOTICE in notices and any("flowers" in n for n in notices)
    five = check_room("mcr", ENGINE.normalize_options({"concealed_and_melded_kong_5": True}))
    assert KONG_NOTICE not in five


@pytest.mark.parametrize(
    ("variant", "options", "why"),
    [
        ("mcr", {"multiple_win": True}, "multiple_win"),
        ("mcr", {"min_fan": 6}, "min_fan is 6"),
        ("dragon", {}, "MCR mahjong only"),
    ],
)
def test_rooms_botzone_cannot_play_are_refused(variant: str, options: dict, why: str) -> None:
    with pytest.raises(RoomRefused, match=why):
        check_room(variant, options)


# ---------------------------------------------------------------- program I/O


def test_the_history_of_a_fresh_process() -> None:
    runner = BotzoneRunner(Program(["true"]), "simple")
    runner.requests, runner.responses = ["0 1 0", "1 0 0 0 0 W1", "3 0 DRAW"], ["PASS", "PASS"]
    runner.data, runner.globaldata = "d", "g1\ng2"
    assert runner._history().splitlines() == [
        "3", "0 1 0", "PASS", "1 0 0 0 0 W1", "PASS", "3 0 DRAW", "d", "g1", "g2"
    ]
    runner.io = "json"
    given = json.loads(runner._history())
    assert given == {"requests": runner.requests, "responses": runner.responses,
                     "data": "d", "globaldata": "g1\ng2"}


def test_outputs_are_read_in_both_formats() -> None:
    runner = BotzoneRunner(Program(["true"]), "json")
    pretty = ['{', '   "data" : "7",', '   "response" : "PLAY W1"', '}']  # jsoncpp's style
    assert runner._parse(pretty) == "PLAY W1" and runner.data == "7"
    simple = BotzoneRunner(Program(["true"]), "simple")
    assert simple._parse(["PASS", "debug", "kept", "global"]) == "PASS"
    assert (simple.data, simple.globaldata) == ("kept", "global")


ECHO = """
import json, sys
first = sys.stdin.readline()
print(json.dumps({"response": "SEEN " + str(len(json.loads(first)["requests"])), "data": "x"}))
print("%s", flush=True)
for line in sys.stdin:
    print(json.dumps({"response": "ONE " + json.loads(line)}))
    print("%s", flush=True)
"""


def test_long_running_bots_get_one_request_per_turn(tmp_path: Path) -> None:
    script = tmp_path / "echo.py"
    script.write_text(ECHO % (KEEP_RUNNING, KEEP_RUNNING))
    runner = BotzoneRunner(Program([sys.executable, str(script)]), "json")
    try:
        assert runner.ask("0 1 0", 5) == "SEEN 1"
        assert runner.keep and runner.data == ""  # data does not apply once it keeps running
        assert runner.ask("1 0 0 0 0 W1", 5) == "ONE 1 0 0 0 0 W1"
        runner.new_game()
        assert not runner.keep and runner.ask("0 2 0", 5) == "SEEN 1"
    finally:
        runner.program.stop()


def test_a_one_shot_bot_gets_the_whole_history_each_turn(tmp_path: Path) -> None:
    script = tmp_path / "count.py"
    script.write_text(
        "import json, sys\ng = json.loads(sys.stdin.readline())\n"
        "print(json.dumps({'response': 'N %d %s' % (len(g['requests']), g['data']), "
        "'data': str(len(g['responses']))}))\n"
    )
    runner = BotzoneRunner(Program([sys.executable, str(script)]), "json")
    assert [runner.ask(r, 5) for r in ("a", "b", "c")] == ["N 1 ", "N 2 0", "N 3 1"]
    assert runner.responses == ["N 1 ", "N 2 0", "N 3 1"] and not runner.keep
