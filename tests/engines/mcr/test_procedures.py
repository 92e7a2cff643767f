"""Scripted MCR table procedures: dealing, flowers, kongs and their replacements, the wall's end.

Also home of the small helpers the other engine tests use to lay out a table: ``wall_for``
builds a 144-tile wall that deals given hands, ``table`` builds a position directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest

from paiju.core.errors import IllegalAction
from paiju.engines.base import Event
from paiju.engines.mcr.actions import Action, parse_action
from paiju.engines.mcr.engine import McrEngine
from paiju.engines.mcr.state import (
    ANGANG_MELD,
    OVER,
    PENG_MELD,
    TURN,
    McrState,
    Meld,
    Rules,
)
from paiju.engines.mcr.tiles import Tile, full_set, is_flower, parse_tile, tile_code
from paiju.engines.mcr.wall import deal, draw, set_hand, with_turn_win

ENGINE = McrEngine()


def tiles(text: str) -> list[Tile]:
    """``"W1 W2 F1"`` -> tile ints."""
    return [parse_tile(t) for t in text.split()]


def wall_for(
    hands: Sequence[str], *, front: str = "", back: str = "", dealer_extra: str = "J3"
) -> list[Tile]:
    """A full wall dealing ``hands`` (13 each, seats in order 0..3), the dealer's 14th tile,
    then ``front`` as the next draws and ``back`` as the replacement draws (first listed =
    first drawn from the back). Unused tiles fill the middle, flowers last among them."""
    wanted = [t for h in hands for t in tiles(h)] + tiles(dealer_extra)
    head, tail = tiles(front), tiles(back)
    pool = full_set()
    for t in [*wanted, *head, *tail]:
        pool.remove(t)
    middle = sorted(pool, key=lambda t: (is_flower(t), t))
    return [*wanted, *head, *middle, *reversed(tail)]


def table(
    hands: Mapping[int, str],
    *,
    current: int = 0,
    drawn: str | None = None,
    melds: Mapping[int, Sequence[Meld]] | None = None,
    wall: str = "F1 F2 F3 F4 J1 J2",
    rules: Rules | None = None,
) -> McrState:
    """A position built directly: seat ``current`` in turn holding its hand plus ``drawn``."""
    base = McrState(
        version=0,
        rules=rules or Rules(),
        hand_index=0,
        prevalent=0,
        order=(0, 1, 2, 3),
        wall=tuple(tiles(wall)),
        hands=((), (), (), ()),
        melds=tuple(tuple((melds or {}).get(s, ())) for s in range(4)),
        flowers=((), (), (), ()),
        discards=((), (), (), ()),
        waits=(frozenset(),) * 4,
        phase=TURN,
        current=current,
    )
    for seat in range(4):
        base = set_hand(base, seat, tuple(sorted(tiles(hands.get(seat, "")))))
    if drawn is not None:
        d = parse_tile(drawn)
        base = replace(base, hands=tuple(
            tuple(sorted((*h, d))) if s == current else h for s, h in enumerate(base.hands)
        ), drawn=d)
    return with_turn_win(base)


def play(state: McrState, *moves: tuple[int, str]) -> McrState:
    """Apply ``(seat, action text)`` moves in order."""
    for seat, text in moves:
        state = ENGINE.apply(state, seat, parse_action(text)).state
    return state


def legal(state: McrState, seat: int) -> set[str]:
    return {ENGINE.format_action(a) for a in ENGINE.legal_actions(state, seat)}


def accounted(state: McrState) -> list[Tile]:
    """Every tile of the state (wall, hands, melds, flowers, rivers, the tile on the table)."""
    out = list(state.wall)
    for seat in range(4):
        out += state.hands[seat]
        out += state.flowers[seat]
        out += state.discards[seat]
        for m in state.melds[seat]:
            out += m.tiles()
    if state.window is not None:
        out.append(state.window.tile)
    return sorted(out)


HANDS = (
    "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4",
    "B1 B2 B3 B4 B5 B6 B7 B8 B9 T5 T6 T7 T8",
    "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4",
    "B1 B2 B3 B4 B5 B6 B7 B8 B9 T5 T6 T7 T8",
)


def test_deal_gives_13_each_and_the_dealer_14() -> None:
    state, _ = deal(Rules(), wall_for(HANDS), hand_index=0, prevalent=0, order=(0, 1, 2, 3))
    assert [len(h) for h in state.hands] == [14, 13, 13, 13]
    assert state.current == 0 and state.phase == TURN and state.drawn == parse_tile("J3")
    assert len(state.wall) == 144 - 53
    assert accounted(state) == sorted(full_set())


def test_deal_follows_the_wind_order() -> None:
    state, _ = deal(Rules(), wall_for(HANDS), hand_index=5, prevalent=1, order=(2, 3, 1, 0))
    assert [len(h) for h in state.hands] == [13, 13, 14, 13]
    assert state.hands[2] == tuple(sorted(tiles(HANDS[0] + " J3")))
    assert state.dealer == 2 and state.seat_wind(0) == 3


def test_flower_replacement_chain_at_the_deal() -> None:
    hands = list(HANDS)
    hands[0] = "H1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4"
    hands[2] = "H3 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4"
    # Round one: the dealer's H1 is replaced by H2 (another flower), seat 2's H3 by F1;
    # round two: the dealer's H2 is replaced by F2.
    wall = wall_for(hands, back="H2 F1 F2")
    state, events = deal(Rules(), wall, hand_index=0, prevalent=0, order=(0, 1, 2, 3))
    assert state.flowers[0] == tuple(tiles("H1 H2"))
    assert state.flowers[2] == tuple(tiles("H3"))
    assert parse_tile("F2") in state.hands[0] and parse_tile("F1") in state.hands[2]
    assert not any(is_flower(t) for h in state.hands for t in h)
    assert [e.data["flower"] for e in events if e.kind == "flower"] == ["H1", "H3", "H2"]
    assert accounted(state) == sorted(full_set())


def test_flower_drawn_in_play_is_replaced_from_the_back() -> None:
    state = table({1: HANDS[1]}, wall="H5 W1 F3 J1 H6")
    events: list[Event] = []
    state = draw(state, 1, events)
    assert state.flowers[1] == tuple(tiles("H5 H6"))
    assert state.drawn == parse_tile("J1") and not state.after_kong
    assert state.wall == tuple(tiles("W1 F3"))
    assert [e.kind for e in events] == ["flower", "flower", "draw", "drawn"]


def test_concealed_kong_draws_a_replacement_and_stays_face_down() -> None:
    state = table({0: "W1 W1 W1 W1 W2 W3 W4 W5 W6 W7 T1 T2 T3"}, drawn="J1", wall="F1 F2 B9")
    assert "angang W1" in legal(state, 0)
    after = play(state, (0, "angang W1"))
    assert after.melds[0] == (Meld(ANGANG_MELD, parse_tile("W1"), 0),)
    assert after.drawn == parse_tile("B9") and after.after_kong
    assert after.current == 0 and after.phase == TURN and after.wall == tuple(tiles("F1 F2"))
    other = ENGINE.view(after, 1)["players"][0]["melds"]
    assert other == [{"kind": "angang", "hidden": True}]
    own = ENGINE.view(after, 0)["players"][0]["melds"]
    assert own[0]["tiles"] == ["W1"] * 4


def test_each_viewer_of_one_state_sees_a_concealed_kong_as_its_own_seat_may() -> None:
    # The views of one state share the seats' public parts: whichever viewer comes first,
    # the owner alone sees its kong's tiles, and nobody else's view holds them.
    state = table({0: "W1 W1 W1 W1 W2 W3 W4 W5 W6 W7 T1 T2 T3"}, drawn="J1", wall="F1 F2 B9")
    after = play(state, (0, "angang W1"))
    for order in ([0, 1, None, 2, 3], [2, None, 0, 3, 1]):
        views = {seat: ENGINE.view(after, seat) for seat in order}
        for seat, view in views.items():
            melds = view["players"][0]["melds"]
            if seat == 0:
                assert melds[0]["tiles"] == ["W1"] * 4
            else:
                assert melds == [{"kind": "angang", "hidden": True}]


def test_added_kong_only_with_the_drawn_tile() -> None:
    peng = Meld(PENG_MELD, parse_tile("J1"), 2)
    hand = "J1 W2 W3 W4 W5 W6 W7 T1 T2 T3"
    state = table({0: hand}, drawn="B9", melds={0: [peng]})
    assert not any(a.startswith("bugang") for a in legal(state, 0))
    state = table({0: hand.replace("J1", "B8")}, drawn="J1", melds={0: [peng]})
    assert "bugang J1" in legal(state, 0)


def test_no_kong_without_a_replacement_tile() -> None:
    state = table({0: "W1 W1 W1 W1 W2 W3 W4 W5 W6 W7 T1 T2 T3"}, drawn="J1", wall="")
    assert not any(a.startswith("angang") for a in legal(state, 0))
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, 0, parse_action("angang W1"))
    assert info.value.code == "no_replacement_tile"


def test_last_discard_may_only_be_claimed_for_hu() -> None:
    # Seat 1 could pung or chow W5 on an open wall; on the last tile it is not asked.
    state = table({0: "W5 T2 T3 T4 T5 T6 T7 B1 B2 B3 F1 F1 F1", 1: "W4 W5 W5 W6 T1 T2 T3 B4 "
                   "B5 B6 J2 J2 J3"}, drawn="J1", wall="")
    after = play(state, (0, "discard W5"))
    assert after.phase == OVER and after.wins == () and after.result == (0, 0, 0, 0)


def test_exhaustive_draw_when_the_wall_is_empty() -> None:
    state = table({0: HANDS[0], 1: HANDS[1]}, drawn="J1", wall="")
    after = play(state, (0, "discard J1"))
    assert ENGINE.is_terminal(after) and ENGINE.scores(after) == (0, 0, 0, 0)
    assert ENGINE.view(after, None)["result"]["exhaustive_draw"] is True


def test_last_tile_draw_is_scored() -> None:
    # Pure straight in characters, drawing the last tile of the wall.
    hand = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T2 T3 T4 J1"
    state = table({0: hand}, drawn="J1", wall="")
    assert "hu" in legal(state, 0)
    after = play(state, (0, "hu"))
    names = [f[0] for f in after.wins[0].fans]
    assert "Last Tile Draw" in names and "Self-Drawn" not in names


def test_timeout_discards_the_drawn_tile() -> None:
    state = table({0: HANDS[0]}, drawn="J1")
    assert ENGINE.timeout_action(state, 0) == Action("discard", parse_tile("J1"))
    assert ENGINE.timer_kind(state, 0) == "turn"


def test_views_show_only_own_hand() -> None:
    state = table({0: HANDS[0], 1: HANDS[1]}, drawn="J1")
    mine = ENGINE.view(state, 0)
    assert mine["hand"] == [tile_code(t) for t in state.hands[0]] and mine["drawn"] == "J1"
    theirs = ENGINE.view(state, 1)
    assert theirs["drawn"] is None and theirs["legal"] == []
    assert "hand" not in ENGINE.view(state, None)
    assert all("hand" not in p for p in theirs["players"])


def test_last_tile_claim_on_the_final_discard() -> None:
    state = table({0: HANDS[0], 1: "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5"}, drawn="B5",
                  wall="")
    after = play(state, (0, "discard B5"))
    assert legal(after, 1) == {"hu", "pass"}
    after = play(after, (1, "hu"))
    assert "Last Tile Claim" in [f[0] for f in after.wins[0].fans]


def test_last_copy_flag_when_the_other_three_are_visible() -> None:
    # 和绝张: the other three T3 lie in the rivers, so winning on the fourth scores Last Tile.
    hand = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T2 T4 J1 J1"
    state = table({0: hand}, drawn="T3")
    rivers = (tuple(tiles("T3")), tuple(tiles("T3 F2")), tuple(tiles("T3")), ())
    state = with_turn_win(replace(state, discards=rivers))
    after = play(state, (0, "hu"))
    assert "Last Tile" in [f[0] for f in after.wins[0].fans]
    plain = play(table({0: hand}, drawn="T3"), (0, "hu"))
    assert "Last Tile" not in [f[0] for f in plain.wins[0].fans]
