"""Claim windows: who is asked, priorities, head bump, rob-the-kong, payments."""

from __future__ import annotations

import random

import pytest

from paiju.core.errors import IllegalAction, NotYourTurn
from paiju.engines.mcr import claims
from paiju.engines.mcr.actions import parse_action
from paiju.engines.mcr.scoring import payments
from paiju.engines.mcr.state import (
    BUGANG_MELD,
    CHI_MELD,
    CLAIM,
    OVER,
    PENG_MELD,
    ROB,
    TURN,
    McrState,
    Meld,
    Rules,
    Win,
)
from paiju.engines.mcr.tiles import full_set, parse_tile
from tests.engines.mcr.test_procedures import ENGINE, legal, play, table, tiles

# Two hands that win on B5 with a pure straight (一气通贯, 16): seat 2 single wait, seat 3 pair.
STRAIGHT_W = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5"
STRAIGHT_B = "B1 B2 B3 B4 B5 B6 B7 B8 B9 J1 J1 J1 B5"
FILLER = "T2 T3 T5 T6 T8 T9 F1 F2 F3 F4 J2 J3 J3"


def test_chi_only_from_the_left_with_every_distinct_chow() -> None:
    state = table({0: FILLER, 1: "W3 W4 W6 W7 T2 T3 T4 B1 B2 B3 F1 F1 J2",
                   2: "W4 W5 W5 W6 T2 T3 T4 B1 B2 B3 F2 F2 J2", 3: FILLER},
                  drawn="W5")
    after = play(state, (0, "discard W5"))
    assert after.phase == CLAIM and ENGINE.to_act(after) == frozenset({1, 2})
    assert legal(after, 1) == {"chi W4", "chi W5", "chi W6", "pass"}
    assert legal(after, 2) == {"peng", "pass"}
    assert ENGINE.legal_actions(after, 3) == frozenset()
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(after, 2, parse_action("chi W5"))
    assert info.value.code == "chi_only_from_left"
    with pytest.raises(NotYourTurn):
        ENGINE.apply(after, 3, parse_action("pass"))


def test_pung_beats_chow_and_the_claimer_must_discard() -> None:
    state = table({0: FILLER, 1: "W3 W4 W6 W7 T2 T3 T4 B1 B2 B3 F1 F1 J2",
                   2: "W4 W5 W5 W6 T2 T3 T4 B1 B2 B3 F2 F2 J2", 3: FILLER},
                  drawn="W5")
    after = play(state, (0, "discard W5"), (1, "chi W5"))
    assert ENGINE.to_act(after) == frozenset({2})
    # Seat 1's pending chow is invisible to the others.
    assert ENGINE.view(after, 2)["claim"]["answered"] is None
    assert ENGINE.view(after, 1)["claim"]["answered"] == "chi W5"
    # Nobody learns who else may claim: each view lists at most its own seat.
    assert ENGINE.view(after, 2)["to_act"] == [2]
    assert ENGINE.view(after, 3)["to_act"] == [] and ENGINE.view(after, None)["to_act"] == []
    after = play(after, (2, "peng"))
    assert after.phase == TURN and after.current == 2 and after.drawn is None
    assert after.melds[2] == (Meld(PENG_MELD, parse_tile("W5"), 2),)
    assert all(a.startswith("discard") for a in legal(after, 2))
    assert len(after.hands[2]) == 11


def test_chow_meld_records_the_claimed_tile() -> None:
    state = table({0: FILLER, 1: "W3 W4 W6 W7 T2 T3 T4 B1 B2 B3 F1 F1 J2"}, drawn="W5")
    after = play(state, (0, "discard W5"), (1, "chi W6"))
    assert after.melds[1] == (Meld(CHI_MELD, parse_tile("W6"), 1),)
    assert after.current == 1 and after.discards[0] == ()


def test_pass_moves_the_discard_to_the_river_and_the_next_seat_draws() -> None:
    state = table({0: FILLER, 1: "W3 W4 W6 W7 T2 T3 T4 B1 B2 B3 F1 F1 J2"}, drawn="W5",
                  wall="T7 J1")
    after = play(state, (0, "discard W5"), (1, "pass"))
    assert after.discards[0] == (parse_tile("W5"),)
    assert after.current == 1 and after.drawn == parse_tile("T7")


def test_head_bump_nearest_claimant_wins() -> None:
    state = table({0: FILLER, 1: FILLER, 2: STRAIGHT_W, 3: STRAIGHT_B}, drawn="B5")
    after = play(state, (0, "discard B5"))
    assert ENGINE.to_act(after) == frozenset({2, 3})
    assert "hu" in legal(after, 2) and "hu" in legal(after, 3)
    after = play(after, (3, "hu"), (2, "hu"))
    assert after.phase == OVER and [w.seat for w in after.wins] == [2]
    total = after.wins[0].total
    assert after.result == (-(total + 8), -8, total + 24, -8)


def test_multiple_win_option_lets_every_claimant_win() -> None:
    state = table({0: FILLER, 1: FILLER, 2: STRAIGHT_W, 3: STRAIGHT_B}, drawn="B5",
                  rules=Rules(multiple_win=True))
    after = play(state, (0, "discard B5"), (3, "hu"), (2, "hu"))
    assert sorted(w.seat for w in after.wins) == [2, 3]
    assert sum(after.result) == 0 and after.result[0] < 0


def test_hu_beats_pung() -> None:
    state = table({0: FILLER, 1: "B5 B5 T2 T3 T4 B1 B2 B3 F1 F1 J2 J3 F4", 2: STRAIGHT_W},
                  drawn="B5")
    after = play(state, (0, "discard B5"), (1, "peng"))
    assert after.phase == CLAIM
    after = play(after, (2, "hu"))
    assert [w.seat for w in after.wins] == [2]


def test_hu_needs_eight_fans() -> None:
    # A plain hand waiting on B5 with no fan reaching 8 is not offered hu.
    plain = "W1 W2 W3 T2 T3 T4 B7 B8 B9 J1 J1 B4 B6"
    state = table({0: FILLER, 2: plain}, drawn="B5")
    after = play(state, (0, "discard B5"))
    assert "hu" not in legal(after, 2)


def _robbable(rob_hand: str) -> McrState:
    peng = Meld(PENG_MELD, parse_tile("W5"), 2)
    return table({0: "W2 W3 W4 T2 T3 T4 B2 B3 B4 F1", 1: rob_hand}, drawn="W5",
                 melds={0: [peng]}, wall="J2 J3 T9")


def test_rob_the_kong_cancels_it_and_the_kong_maker_pays() -> None:
    state = _robbable("W4 W6 T1 T2 T3 B6 B7 B8 F2 F2 F2 J1 J1")
    after = play(state, (0, "bugang W5"))
    assert after.phase == ROB and ENGINE.to_act(after) == frozenset({1})
    assert legal(after, 1) == {"hu", "pass"}
    after = play(after, (1, "hu"))
    win = after.wins[0]
    assert win.seat == 1 and win.source == 0 and win.robbed
    assert "Robbing The Kong" in [f[0] for f in win.fans]
    assert after.melds[0] == (Meld(PENG_MELD, parse_tile("W5"), 2),)
    assert after.result == (-(win.total + 8), win.total + 24, -8, -8)


def test_refused_rob_completes_the_kong_with_a_replacement() -> None:
    state = _robbable("W4 W6 T1 T2 T3 B6 B7 B8 F2 F2 F2 J1 J1")
    after = play(state, (0, "bugang W5"), (1, "pass"))
    assert after.melds[0] == (Meld(BUGANG_MELD, parse_tile("W5"), 2),)
    assert after.phase == TURN and after.current == 0 and after.drawn == parse_tile("T9")
    assert after.after_kong


def test_added_kong_without_a_robber_needs_no_window() -> None:
    state = _robbable("W7 W8 T1 T2 T3 B6 B7 B8 F2 F2 F2 J1 J1")
    after = play(state, (0, "bugang W5"))
    assert after.phase == TURN and after.melds[0][0].kind == BUGANG_MELD


def test_concealed_kong_cannot_be_robbed() -> None:
    state = table({0: "W5 W5 W5 T2 T3 T4 B2 B3 B4 F1 F1 F1 J3",
                   1: "W4 W6 T1 T2 T3 B6 B7 B8 F2 F2 F2 J1 J1"}, drawn="W5", wall="J2 T9")
    after = play(state, (0, "angang W5"))
    assert after.phase == TURN and after.current == 0 and after.drawn == parse_tile("T9")


def test_melded_kong_from_a_discard_then_replacement_win() -> None:
    # Seat 1 kongs W9 and wins on the replacement T6 (Out with Replacement Tile, 8).
    state = table({0: FILLER, 1: "W9 W9 W9 T4 T5 B1 B2 B3 B7 B8 B9 J1 J1"}, drawn="W9",
                  wall="F1 T6")
    after = play(state, (0, "discard W9"), (1, "gang"))
    assert after.current == 1 and after.drawn == parse_tile("T6")
    assert "hu" in legal(after, 1)
    after = play(after, (1, "hu"))
    names = [f[0] for f in after.wins[0].fans]
    assert "Out with Replacement Tile" in names and "Self-Drawn" not in names
    total = after.wins[0].total
    assert after.result == (-(total + 8), 3 * (total + 8), -(total + 8), -(total + 8))


def test_timeout_in_a_window_is_pass() -> None:
    state = table({0: FILLER, 2: STRAIGHT_W}, drawn="B5")
    after = play(state, (0, "discard B5"))
    assert ENGINE.timeout_action(after, 2) == parse_action("pass")
    assert ENGINE.timer_kind(after, 2) == "claim"


@pytest.mark.parametrize(
    ("source", "total", "expected"),
    [
        (None, 10, (-18, 54, -18, -18)),
        (0, 10, (-18, 34, -8, -8)),
        (3, 8, (-8, 32, -8, -16)),
    ],
)
def test_payments(source: int | None, total: int, expected: tuple[int, ...]) -> None:
    win = Win(1, tiles("B5")[0], source, False, (), total)
    assert payments([win]) == expected


def _chow_middles_by_definition(hand: tuple[int, ...], tile: int) -> list[int]:
    """Every chow (a run of three within one suit) holding ``tile`` whose other two tiles
    ``hand`` holds, by its middle tile, lowest first."""
    out = []
    for low in range(tile - 2, tile + 1):
        run = (low, low + 1, low + 2)
        if low < 0 or low // 9 != (low + 2) // 9 or low + 2 >= 27:
            continue
        others = [t for t in run if t != tile]
        if all(t in hand for t in others):
            out.append(low + 1)
    return out


def test_the_chows_a_discard_completes_are_those_of_the_definition() -> None:
    """``_chow_middles`` (from a table of each tile's chows) against the definition, for
    every playing tile and random hands (edges of suits, honors)."""
    r = random.Random(7)
    wall = [t for t in full_set() if t < 34]
    for _ in range(300):
        r.shuffle(wall)
        hand = tuple(sorted(wall[:13]))
        for tile in range(34):
            assert claims._chow_middles(hand, tile) == _chow_middles_by_definition(hand, tile)
    assert claims._chow_middles(tuple(range(27)), 27) == []  # (an honor: no chow)
    assert claims._chow_middles((0, 1, 2, 3, 4), 2) == [1, 2, 3]
