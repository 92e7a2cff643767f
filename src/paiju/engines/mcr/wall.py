"""The wall (牌墙): shuffling, dealing, flower replacement (补花) and draws.

There is no dead wall: ordinary draws come from the front of ``state.wall``, replacement
draws (for flowers and kongs) from the back, and the hand runs until the wall is empty.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from paiju.core.rng import Rng
from paiju.core.seats import Seat
from paiju.engines.base import Event
from paiju.engines.mcr.ready import ready_waits, sorted_hand_waits
from paiju.engines.mcr.schema import DrawEvent, FlowerEvent, NoData, TileEvent
from paiju.engines.mcr.scoring import evaluate_win
from paiju.engines.mcr.state import OVER, TURN, McrState, Rules, evolve
from paiju.engines.mcr.tiles import Tile, full_set, is_flower, tile_code

T = TypeVar("T")


def put(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A copy of ``items`` with ``items[index]`` replaced."""
    return (*items[:index], value, *items[index + 1 :])


def remove_tiles(hand: tuple[Tile, ...], tile: Tile, n: int) -> tuple[Tile, ...]:
    """``hand`` without ``n`` copies of ``tile`` (which it must hold)."""
    out = list(hand)
    for _ in range(n):
        out.remove(tile)
    return tuple(out)


def set_hand(state: McrState, seat: Seat, hand: tuple[Tile, ...], **changes: Any) -> McrState:
    """``state`` with ``seat``'s concealed hand replaced by ``hand`` (sorted, as every hand
    of a state; and other ``changes``); the seat's waits are refreshed when it holds 3n+1
    tiles."""
    if len(hand) % 3 == 1:
        # (a state's hands are sorted tuples, and so is one with tiles taken out of it)
        changes["waits"] = put(state.waits, seat, sorted_hand_waits(hand))
    return evolve(state, hands=put(state.hands, seat, hand), **changes)


def shuffled_wall(rng: Rng) -> tuple[Tile, ...]:
    """The 144 tiles in the order the hand's generator shuffles them."""
    tiles = full_set()
    rng.shuffle(tiles)
    return tuple(tiles)


def deal(
    rules: Rules,
    wall: Sequence[Tile],
    *,
    hand_index: int,
    prevalent: int,
    order: tuple[Seat, ...],
) -> tuple[McrState, list[Event]]:
    """Deal a hand from ``wall`` (front first): 13 tiles each in wind order, the dealer a 14th.

    Then flowers are exposed and replaced from the back, dealer first and round the table in
    wind order, until nobody holds a flower. The dealer's turn begins without a draw.
    """
    if sorted(wall) != sorted(full_set()):
        raise ValueError("an MCR wall must hold exactly the 144 tiles of a set")
    hands: list[list[Tile]] = [[] for _ in range(4)]
    for i, seat in enumerate(order):
        hands[seat] = list(wall[13 * i : 13 * i + 13])
    hands[order[0]].append(wall[52])
    rest = list(wall[53:])
    flowers: list[list[Tile]] = [[] for _ in range(4)]
    events: list[Event] = []
    while any(is_flower(t) for h in hands for t in h):
        for seat in order:
            for t in [t for t in hands[seat] if is_flower(t)]:
                hands[seat].remove(t)
                flowers[seat].append(t)
                hands[seat].append(rest.pop())
                events.append(Event("flower", FlowerEvent(seat=seat, flower=tile_code(t))))
    dealer_last = hands[order[0]][-1]
    before = [list(h) for h in hands]
    before[order[0]].remove(dealer_last)
    held = tuple(tuple(sorted(h)) for h in hands)
    # Every seat but the dealer holds its 13 tiles: their waits are those of the held hands.
    waits = tuple(
        ready_waits(before[s]) if s == order[0] else sorted_hand_waits(held[s]) for s in range(4)
    )
    state = McrState(
        version=0,
        rules=rules,
        hand_index=hand_index,
        prevalent=prevalent,
        order=order,
        wall=tuple(rest),
        hands=held,
        melds=((), (), (), ()),
        flowers=tuple(tuple(f) for f in flowers),
        discards=((), (), (), ()),
        waits=waits,
        phase=TURN,
        current=order[0],
        drawn=dealer_last,
    )
    return with_turn_win(state), events


def with_turn_win(state: McrState) -> McrState:
    """``state`` with ``turn_win`` set: the self-drawn hu the current seat may declare."""
    seat, drawn = state.current, state.drawn
    if drawn is None or drawn not in state.waits[seat]:
        return state if state.turn_win is None else evolve(state, turn_win=None)
    hand = list(state.hands[seat])
    hand.remove(drawn)
    return evolve(state, turn_win=evaluate_win(state, seat, hand, drawn, source=None))


def draw(
    state: McrState,
    seat: Seat,
    events: list[Event],
    *,
    replacement: bool = False,
    **changes: Any,
) -> McrState:
    """Give ``seat`` its draw (from the back after a kong) and start its turn.

    A drawn flower is exposed and replaced from the back, as often as needed. When the wall
    runs out before a tile can be drawn, the hand is an exhaustive draw (荒庄).

    ``changes``: other fields the caller changes before the draw (a discard going to its
    river), made in the draw's one copy of the state rather than in a copy of their own.
    They may not touch what the draw reads or sets (the wall, hands, flowers, turn).
    """
    wall = state.wall
    flowers = state.flowers[seat]
    from_back = replacement
    after_kong = replacement
    while True:
        if not wall:
            events.append(Event("exhausted", NoData()))
            return evolve(state, wall=(), flowers=put(state.flowers, seat, flowers),
                          phase=OVER, window=None, drawn=None, turn_win=None, **changes)
        if from_back:
            tile, wall = wall[-1], wall[:-1]
        else:
            tile, wall = wall[0], wall[1:]
        if not is_flower(tile):
            break
        flowers = (*flowers, tile)
        events.append(Event("flower", FlowerEvent(seat=seat, flower=tile_code(tile))))
        from_back = True
        after_kong = False  # a win on a flower's replacement is a plain self-draw
    events.append(Event("draw", DrawEvent(seat=seat, replacement=replacement)))
    events.append(Event("drawn", TileEvent(seat=seat, tile=tile_code(tile)), frozenset({seat})))
    hand = tuple(sorted((*state.hands[seat], tile)))
    state = evolve(
        state,
        wall=wall,
        hands=put(state.hands, seat, hand),
        flowers=put(state.flowers, seat, flowers),
        phase=TURN,
        current=seat,
        drawn=tile,
        after_kong=after_kong,
        window=None,
        turn_win=None,
        **changes,
    )
    return with_turn_win(state)
