"""The turn loop: what the seat in turn may do, and what each of its actions does.

A turn (phase ``turn``) belongs to ``state.current``, who holds 3n+2 tiles. After a draw it
may declare a self-drawn hu, a concealed kong (暗杠) or an added kong (加杠) of the drawn tile,
or discard; after claiming a chow or pung it may only discard. Kongs need a tile left in the
wall for the replacement (a design choice rules/mcr.md recommends).
"""

from __future__ import annotations

from typing import Any

from paiju.engines.base import Event
from paiju.engines.mcr.actions import ANGANG, BUGANG, DISCARD, HU, Action
from paiju.engines.mcr.claims import finish, open_discard_window, open_rob_window
from paiju.engines.mcr.schema import SeatEvent, TileEvent
from paiju.engines.mcr.state import ANGANG_MELD, PENG_MELD, McrState, Meld
from paiju.engines.mcr.tiles import tile_code
from paiju.engines.mcr.wall import draw, put, remove_tiles, set_hand

_DISCARD_SETS = tuple(frozenset({Action(DISCARD, t)}) for t in range(34))


def turn_actions(state: McrState) -> frozenset[Action]:
    """Every legal action of the seat in turn."""
    seat = state.current
    hand = state.hands[seat]
    # A union of kept one-action sets: a set's merge takes each action's hash from the set,
    # where building the set afresh would call the (Python) hash of every action again.
    acts = set().union(*[_DISCARD_SETS[t] for t in hand])
    if state.turn_win is not None:
        acts.add(Action(HU))
    if state.drawn is not None and state.wall:
        # Four of a kind in the sorted hand: a tile equal to the one three places on.
        for i in range(len(hand) - 3):
            if hand[i] == hand[i + 3]:
                acts.add(Action(ANGANG, hand[i]))
        if any(m.kind == PENG_MELD and m.tile == state.drawn for m in state.melds[seat]):
            acts.add(Action(BUGANG, state.drawn))
    return frozenset(acts)


def apply_turn(state: McrState, action: Action, events: list[Event]) -> McrState:
    """Carry out a legal turn action of ``state.current``."""
    seat = state.current
    if action.kind == HU:
        assert state.turn_win is not None
        return finish(state, (state.turn_win,), events)
    tile = action.tile
    assert tile is not None
    hand = state.hands[seat]
    reset: dict[str, Any] = {"drawn": None, "after_kong": False, "turn_win": None}
    if action.kind == DISCARD:
        base = set_hand(state, seat, remove_tiles(hand, tile, 1), **reset)
        events.append(Event("discard", TileEvent(seat=seat, tile=tile_code(tile))))
        return open_discard_window(base, seat, tile, events)
    if action.kind == ANGANG:
        meld = Meld(ANGANG_MELD, tile, 0)
        melds = put(state.melds, seat, (*state.melds[seat], meld))
        base = set_hand(state, seat, remove_tiles(hand, tile, 4), melds=melds, **reset)
        events.append(Event("angang", SeatEvent(seat=seat)))
        private = frozenset({seat})
        events.append(Event("angang_tile", TileEvent(seat=seat, tile=tile_code(tile)), private))
        return draw(base, seat, events, replacement=True)
    # Added kong: the tile waits on the table while the others may rob it.
    base = set_hand(state, seat, remove_tiles(hand, tile, 1), **reset)
    events.append(Event("bugang", TileEvent(seat=seat, tile=tile_code(tile))))
    return open_rob_window(base, seat, tile, events)
