"""Review of issue 3's table procedures: the awkward cases the first tests left out.

Flowers never reach the 8-fan minimum, 和绝张 from exposed melds, the end of the wall,
multiple-win payments, kongs and claims right after a chow/pung, concealed kongs revealed at
the end, private claim events, the 16-hand seat rotation and the engine's legal-actions memo.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from paiju.engines.mcr.actions import Action, parse_action
from paiju.engines.mcr.engine import McrEngine
from paiju.engines.mcr.match import wind_order
from paiju.engines.mcr.state import (
    ANGANG_MELD,
    CHI_MELD,
    OVER,
    PENG_MELD,
    TURN,
    McrState,
    Meld,
    Rules,
)
from paiju.engines.mcr.tiles import parse_tile
from paiju.engines.mcr.wall import with_turn_win
from tests.engines.mcr.test_procedures import ENGINE, legal, play, table, tiles

STRAIGHT_W = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5"
STRAIGHT_B = "B1 B2 B3 B4 B5 B6 B7 B8 B9 J1 J1 J1 B5"
FILLER = "T2 T3 T5 T6 T8 T9 F1 F2 F3 F4 J2 J3 J3"
FLOWERS = tuple(tiles("H1 H2 H3"))


def _fan_names(state: McrState, seat: int = 0) -> list[str]:
    return [name for name, _, _ in next(w for w in state.wins if w.seat == seat).fans]


def _with_flowers(state: McrState, seat: int) -> McrState:
    flowers = tuple(FLOWERS if s == seat else f for s, f in enumerate(state.flowers))
    return with_turn_win(replace(state, flowers=flowers))


# --- Flowers and the 8-fan minimum -------------------------------------------------------


def _discard_win_total() -> int:
    """Seat 2's fan total (no flowers) winning STRAIGHT_W on a discarded B5."""
    state = table({0: FILLER, 2: STRAIGHT_W}, drawn="B5")
    return play(state, (0, "discard B5"), (2, "hu")).wins[0].total


def test_flowers_never_reach_the_minimum_on_a_discard() -> None:
    fans = _discard_win_total()
    # A minimum one above the hand's fans: three flowers would lift the total past it, but
    # flowers do not count towards the minimum, so hu is not even offered.
    short = table({0: FILLER, 2: STRAIGHT_W}, drawn="B5", rules=Rules(min_fan=fans + 1))
    after = play(_with_flowers(short, 2), (0, "discard B5"))
    assert after.phase == TURN and after.current == 1  # seat 2 was not even asked
    exact = table({0: FILLER, 2: STRAIGHT_W}, drawn="B5", rules=Rules(min_fan=fans))
    won = play(_with_flowers(exact, 2), (0, "discard B5"), (2, "hu"))
    win = won.wins[0]
    assert win.total == fans + 3 and ("Flower Tiles", 1, 3) in win.fans


def test_flowers_never_reach_the_minimum_when_self_drawn() -> None:
    hand = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T2 T3 T4 J1"
    fans = play(table({0: hand}, drawn="J1"), (0, "hu")).wins[0].total
    short = _with_flowers(table({0: hand}, drawn="J1", rules=Rules(min_fan=fans + 1)), 0)
    assert short.turn_win is None and "hu" not in legal(short, 0)
    with pytest.raises(Exception) as info:
        ENGINE.apply(short, 0, parse_action("hu"))
    assert getattr(info.value, "code", None) == "not_a_winning_hand"


# --- 和绝张 (Last Tile) ---------------------------------------------------------------


def test_last_tile_counts_copies_in_exposed_melds() -> None:
    # Two T3 in the rivers and one inside seat 3's exposed chow T2-T3-T4: all three visible.
    hand = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T2 T4 J1 J1"
    chow = Meld(CHI_MELD, parse_tile("T3"), 2)
    state = table({0: hand}, drawn="T3", melds={3: [chow]})
    rivers = (tuple(tiles("T3")), tuple(tiles("T3")), (), ())
    state = with_turn_win(replace(state, discards=rivers))
    assert "Last Tile" in _fan_names(play(state, (0, "hu")))
    # Only two visible (one still unseen): no Last Tile.
    state = with_turn_win(replace(state, discards=(tuple(tiles("T3")), (), (), ())))
    assert "Last Tile" not in _fan_names(play(state, (0, "hu")))


def test_last_tile_from_an_exposed_pung_on_a_discard() -> None:
    # Seat 2 waits on B5 (closed wait B4-B6). Seat 1's exposed pung shows the other three
    # B5, so the fourth, discarded by seat 0, is 和绝张; without the pung it is not.
    closed = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 B4 B6"
    pung = Meld(PENG_MELD, parse_tile("B5"), 1)
    state = table({0: FILLER, 2: closed}, drawn="B5", melds={1: [pung]})
    assert "Last Tile" in _fan_names(play(state, (0, "discard B5"), (2, "hu")), 2)
    state = table({0: FILLER, 2: closed}, drawn="B5")
    assert "Last Tile" not in _fan_names(play(state, (0, "discard B5"), (2, "hu")), 2)


# --- The end of the wall --------------------------------------------------------------


def test_last_discard_offers_only_hu_to_a_seat_that_could_also_pung() -> None:
    # Seat 3 holds two B5 (a pung on an open wall) and wins on B5 with a pure straight.
    open_wall = play(table({0: FILLER, 3: STRAIGHT_B}, drawn="B5"), (0, "discard B5"))
    assert legal(open_wall, 3) == {"hu", "peng", "pass"}
    last = play(table({0: FILLER, 3: STRAIGHT_B}, drawn="B5", wall=""), (0, "discard B5"))
    assert legal(last, 3) == {"hu", "pass"}
    assert "Last Tile Claim" in _fan_names(play(last, (3, "hu")), 3)


def test_melded_kong_needs_a_replacement_tile() -> None:
    three = "W9 W9 W9 T4 T5 B1 B2 B3 B7 B8 B9 J1 J1"
    assert "gang" in legal(
        play(table({0: FILLER, 1: three}, drawn="W9", wall="F1"), (0, "discard W9")), 1
    )
    after = play(table({0: FILLER, 1: three}, drawn="W9", wall=""), (0, "discard W9"))
    assert after.phase == OVER and after.wins == ()  # nobody asked: exhaustive draw


def test_flower_drawn_with_no_tile_left_is_an_exhaustive_draw() -> None:
    state = table({0: FILLER, 1: FILLER}, drawn="W9", wall="H7")
    after = play(state, (0, "discard W9"))
    assert after.phase == OVER and after.wins == () and after.result == (0, 0, 0, 0)
    assert after.flowers[1] == tuple(tiles("H7")) and after.wall == ()


def test_a_flower_replacing_a_kong_replacement_is_no_replacement_win() -> None:
    # Seat 1 kongs W9 and its replacement T6 completes the hand: 杠上开花 lifts it to a
    # legal hu (test_claims). If the replacement is H1 and T6 replaces the flower, it is a
    # plain self-draw (rules/mcr.md), the hand stays under 8 and hu is not offered.
    hand = "W9 W9 W9 T4 T5 B1 B2 B3 B7 B8 B9 J1 J1"
    direct = play(
        table({0: FILLER, 1: hand}, drawn="W9", wall="F1 T6"), (0, "discard W9"), (1, "gang")
    )
    assert "Out with Replacement Tile" in _fan_names(play(direct, (1, "hu")), 1)
    state = table({0: FILLER, 1: hand}, drawn="W9", wall="F1 T6 H1")
    after = play(state, (0, "discard W9"), (1, "gang"))
    assert after.flowers[1] == tuple(tiles("H1")) and after.drawn == parse_tile("T6")
    assert not after.after_kong and "hu" not in legal(after, 1)


# --- Claims ---------------------------------------------------------------------------


def test_multiple_win_pays_each_winner_as_a_discard_win() -> None:
    state = table(
        {0: FILLER, 1: FILLER, 2: STRAIGHT_W, 3: STRAIGHT_B},
        drawn="B5",
        rules=Rules(multiple_win=True),
    )
    after = play(state, (0, "discard B5"), (3, "hu"), (2, "hu"))
    f2 = next(w.total for w in after.wins if w.seat == 2)
    f3 = next(w.total for w in after.wins if w.seat == 3)
    # Each win: discarder F + 8, the two others 8 each (the winners' 8s cancel out).
    assert after.result == (-(f2 + 8) - (f3 + 8), -16, f2 + 24 - 8, f3 + 24 - 8)
    assert all(w.source == 0 for w in after.wins)


def test_head_bump_skips_a_nearer_seat_that_passes() -> None:
    state = table({0: FILLER, 1: FILLER, 2: STRAIGHT_W, 3: STRAIGHT_B}, drawn="B5")
    after = play(state, (0, "discard B5"), (2, "pass"), (3, "hu"))
    assert [w.seat for w in after.wins] == [3]


def _double_rob(rules: Rules) -> McrState:
    """Seat 0 adds W5 to its pung; seats 1 (W4-W6) and 2 (W6-W7) can both rob it."""
    peng = Meld(PENG_MELD, parse_tile("W5"), 2)
    return table(
        {
            0: "W2 W3 W4 T2 T3 T4 B2 B3 B4 F1",
            1: "W4 W6 T1 T2 T3 B6 B7 B8 F2 F2 F2 J1 J1",
            2: "W6 W7 T1 T2 T3 B6 B7 B8 F3 F3 F3 J2 J2",
        },
        drawn="W5",
        melds={0: [peng]},
        wall="J3 T9",
        rules=rules,
    )


def test_head_bump_on_a_robbed_kong() -> None:
    window = play(_double_rob(Rules()), (0, "bugang W5"))
    assert ENGINE.to_act(window) == frozenset({1, 2})
    assert legal(window, 1) == legal(window, 2) == {"hu", "pass"}
    after = play(window, (2, "hu"), (1, "hu"))
    (win,) = after.wins
    assert win.seat == 1 and win.source == 0 and win.robbed
    assert after.result == (-(win.total + 8), win.total + 24, -8, -8)
    assert after.melds[0] == (Meld(PENG_MELD, parse_tile("W5"), 2),)


def test_multiple_win_on_a_robbed_kong_makes_the_kong_maker_pay_each() -> None:
    after = play(_double_rob(Rules(multiple_win=True)), (0, "bugang W5"), (1, "hu"), (2, "hu"))
    f1, f2 = (next(w.total for w in after.wins if w.seat == s) for s in (1, 2))
    assert all(w.robbed and w.source == 0 for w in after.wins)
    assert after.result == (-(f1 + 8) - (f2 + 8), f1 + 24 - 8, f2 + 24 - 8, -16)


def test_kong_beats_chow() -> None:
    state = table(
        {
            0: FILLER,
            1: "W3 W4 W6 W7 T2 T3 T4 B1 B2 B3 F1 F1 J2",
            3: "W5 W5 W5 T2 T3 T4 B1 B2 B3 F2 F2 J2 J3",
        },
        drawn="W5",
        wall="F1 T9",
    )
    after = play(state, (0, "discard W5"), (1, "chi W4"), (3, "gang"))
    assert after.melds[3][0].kind == "gang" and after.melds[1] == ()
    assert after.current == 3 and after.drawn == parse_tile("T9")


def test_claim_events_are_private_until_resolution() -> None:
    state = table(
        {
            0: FILLER,
            1: "W3 W4 W6 W7 T2 T3 T4 B1 B2 B3 F1 F1 J2",
            2: "W4 W5 W5 W6 T2 T3 T4 B1 B2 B3 F2 F2 J2",
        },
        drawn="W5",
    )
    window = play(state, (0, "discard W5"))
    step = ENGINE.apply(window, 1, parse_action("chi W4"))
    assert [e.audience for e in step.events] == [frozenset({1})]
    resolved = ENGINE.apply(step.state, 2, parse_action("pass"))
    public = [e for e in resolved.events if e.audience is None]
    assert [e.kind for e in public] == ["chi"]
    assert all(e.audience == frozenset({2}) for e in resolved.events if e.kind == "claim")


def test_no_kong_or_hu_right_after_a_pung() -> None:
    # Seat 1 pungs J2 while holding four W1: it may only discard (kongs follow a draw).
    state = play(
        table(
            {0: FILLER.replace("J3 J3", "J3 W9"), 1: "W1 W1 W1 W1 J2 J2 T2 T3 T4 B1 B2 B3 F1"},
            drawn="J2",
        ),
        (0, "discard J2"),
        (1, "peng"),
    )
    assert state.phase == TURN and state.current == 1
    assert all(a.startswith("discard") for a in legal(state, 1))


def test_timeout_after_a_claim_discards_the_right_most_tile() -> None:
    state = play(
        table({0: FILLER, 1: "W1 W2 W3 J2 J2 T2 T3 T4 B1 B2 B3 F1 F4"}, drawn="J2"),
        (0, "discard J2"),
        (1, "peng"),
    )
    assert state.drawn is None
    action = ENGINE.timeout_action(state, 1)
    assert action == Action("discard", max(state.hands[1]))
    assert action in ENGINE.legal_actions(state, 1)


# --- Views ----------------------------------------------------------------------------


def test_concealed_kong_is_revealed_when_the_hand_ends() -> None:
    kong = Meld(ANGANG_MELD, parse_tile("W1"), 0)
    state = table(
        {0: "W2 W3 W4 W5 W6 W7 T1 T2 T3 J1", 1: FILLER}, drawn="W9", melds={0: [kong]}, wall=""
    )
    hidden = ENGINE.view(state, 1)["players"][0]["melds"]
    assert hidden == [{"kind": "angang", "hidden": True}]
    over = play(state, (0, "discard W9"))
    assert over.phase == OVER
    for viewer in (None, 1, 2, 3):
        melds = ENGINE.view(over, viewer)["players"][0]["melds"]
        assert melds[0]["tiles"] == ["W1"] * 4
    assert "wall" not in ENGINE.view(over, None)


# --- The match ------------------------------------------------------------------------


def test_the_sixteen_hands_follow_the_competition_seat_changes() -> None:
    # Within a round the winds move on every hand; between rounds E/S and W/N swap (before
    # South and North) or E->W, W->S, S->N, N->E (before West). Each round starts at the
    # East place.
    expected = [
        (0, 1, 2, 3),
        (1, 2, 3, 0),
        (2, 3, 0, 1),
        (3, 0, 1, 2),
        (1, 0, 3, 2),
        (0, 3, 2, 1),
        (3, 2, 1, 0),
        (2, 1, 0, 3),
        (2, 3, 1, 0),
        (3, 1, 0, 2),
        (1, 0, 2, 3),
        (0, 2, 3, 1),
        (3, 2, 0, 1),
        (2, 0, 1, 3),
        (0, 1, 3, 2),
        (1, 3, 2, 0),
    ]
    assert [wind_order(h) for h in range(16)] == expected


# --- The legal-actions memo -----------------------------------------------------------


def test_one_engine_serves_interleaved_states_correctly() -> None:
    engine = McrEngine()
    a = table({0: "W1 W1 W1 W1 W2 W3 W4 W5 W6 W7 T1 T2 T3"}, drawn="J1")
    b = table({0: "B1 B2 B3 B4 B5 B6 B7 B8 B9 T5 T6 T7 T8"}, drawn="J2")
    first_a = engine.legal_actions(a, 0)
    first_b = engine.legal_actions(b, 0)
    assert engine.legal_actions(a, 0) == first_a != first_b
    assert engine.legal_actions(b, 0) == first_b
    # An equal but distinct state object gets the same answer.
    assert engine.legal_actions(replace(a), 0) == first_a


def test_the_view_hints_the_tiles_that_complete_ones_own_hand() -> None:
    # Seat 2 waits on B5 (a pure straight) and seat 3 on B4/B7 (a hand too plain for 8
    # fans): the hint lists every completing tile, 8 fans or not, to its owner only.
    plain = "W1 W2 W3 T2 T3 T4 B5 B6 B8 B8 B8 J1 J1"
    state = table({0: FILLER, 2: STRAIGHT_W, 3: plain}, drawn="J2")
    assert ENGINE.view(state, 2)["winning_tiles"] == ["B5"]
    assert ENGINE.view(state, 3)["winning_tiles"] == ["B4", "B7"]
    assert ENGINE.view(state, 0)["winning_tiles"] is None  # 14 tiles: its own turn
    assert "winning_tiles" not in ENGINE.view(state, None)
    assert all("winning_tiles" not in p for p in ENGINE.view(state, 2)["players"])


def test_claims_follow_the_wind_order_not_the_seat_numbers() -> None:
    # West round order (2, 3, 1, 0): seat 3 discards, seat 1 plays next (it alone may chow)
    # and is nearer than seat 0, so it wins the head bump; its pung offer names seat 3 as
    # its left-hand player.
    chow_and_win = "B1 B2 B3 B4 B5 B6 B7 B8 B9 J1 J1 J1 B5"
    state = table({3: FILLER, 1: chow_and_win, 0: STRAIGHT_W}, current=3, drawn="B5")
    state = with_turn_win(replace(state, order=(2, 3, 1, 0)))
    window = play(state, (3, "discard B5"))
    assert ENGINE.to_act(window) == frozenset({0, 1})
    assert {"chi B4", "chi B5", "chi B6", "peng", "hu"} <= legal(window, 1)
    assert not any(a.startswith("chi") for a in legal(window, 0))
    after = play(window, (0, "hu"), (1, "hu"))
    assert [w.seat for w in after.wins] == [1] and after.wins[0].source == 3
    pung = play(window, (0, "pass"), (1, "peng"))
    assert pung.melds[1] == (Meld(PENG_MELD, parse_tile("B5"), 1),)
    assert pung.current == 1


def test_thirteen_orphans_cannot_rob_a_concealed_kong() -> None:
    # rules/mcr.md: MCR's 抢杠和 covers added kongs only, not even thirteen orphans may rob
    # a concealed kong. Seat 1 waits on J3 alone; seat 0 konging J3 opens no window.
    orphans = "W1 W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2 J2"
    state = table(
        {0: "J3 J3 J3 T2 T3 T4 B2 B3 B4 W5 W5 W5 F1", 1: orphans}, drawn="J3", wall="B6 T7"
    )
    assert ENGINE.view(state, 1)["winning_tiles"] == ["J3"]
    after = play(state, (0, "angang J3"))
    assert after.phase == TURN and after.current == 0 and after.window is None
    assert after.drawn == parse_tile("T7") and after.melds[0][0].kind == ANGANG_MELD
