"""Claim windows (吃碰杠和): a simultaneous decision of the seats asked about a tile.

After a discard, each other seat whose hand allows a claim is asked; the others are not
(``claim_prompts = "eligible"``, the default). With ``claim_prompts = "all"`` every other seat
is asked, those without a claim with ``pass`` as their only action, so neither who is asked nor
how long the table waits depends on hidden tiles; what each seat may claim, and how the window
resolves, is the same under both.
Answers are kept in the window (and out of other seats' views) until the last one arrives,
then the window resolves: hu > kong = pung > chow. Several hu claims: the one nearest the
discarder in turn order wins (截和, head bump) unless the ``multiple_win`` option lets all win.

After an added kong (加杠) a rob window opens in which other seats may only hu on the added
tile (抢杠和); a rob cancels the kong and the kong-maker pays as the discarder.

On the last tile of the wall the discard may be claimed only for hu, and a kong needs a tile
left for its replacement.
"""

from __future__ import annotations

from paiju.core.frozen import changed
from paiju.core.seats import Seat
from paiju.engines.base import Event
from paiju.engines.mcr.actions import CHI, GANG, HU, PASS, PENG, Action
from paiju.engines.mcr.schema import ClaimEvent, HuEvent, MeldEvent
from paiju.engines.mcr.scoring import evaluate_win, payments
from paiju.engines.mcr.state import (
    BUGANG_MELD,
    CHI_MELD,
    CLAIM,
    GANG_MELD,
    OVER,
    PENG_MELD,
    PROMPT_ALL,
    ROB,
    TURN,
    McrState,
    Meld,
    Win,
    Window,
    evolve,
)
from paiju.engines.mcr.tiles import NUM_KINDS, Tile, is_suited, tile_code
from paiju.engines.mcr.wall import draw, put, remove_tiles, set_hand


def _chow_middles(hand: tuple[Tile, ...], tile: Tile) -> list[Tile]:
    """Middle tiles of every distinct chow ``tile`` completes with two tiles of ``hand``."""
    return [middle for middle, a, b in _CHOWS_OF[tile] if a in hand and b in hand]


def _chows_of(tile: Tile) -> tuple[tuple[Tile, Tile, Tile], ...]:
    """Each chow ``tile`` may complete: its middle tile and the two other tiles it needs."""
    if not is_suited(tile):
        return ()
    out = []
    for middle in (tile - 1, tile, tile + 1):
        if middle // 9 != tile // 9 or not 1 <= middle % 9 <= 7:
            continue
        a, b = [t for t in (middle - 1, middle, middle + 1) if t != tile]
        out.append((middle, a, b))
    return tuple(out)


#: ``_chows_of`` every tile (a window asks it of the seat after the discarder).
_CHOWS_OF = tuple(_chows_of(t) for t in range(NUM_KINDS))


def claim_options(state: McrState, seat: Seat, source: Seat, tile: Tile) -> set[Action]:
    """Chow/pung/kong claims of ``seat`` on ``tile`` (hu is decided separately)."""
    return _claims(state, seat, tile, state.next_seat(source) == seat)


def _claims(state: McrState, seat: Seat, tile: Tile, left: bool) -> set[Action]:
    """``claim_options`` with ``left``: whether ``seat`` plays right after the discarder."""
    if not state.wall:
        return set()  # the last discard may be claimed only for hu
    hand = state.hands[seat]
    held = hand.count(tile)
    if held < 2 and not left:
        return set()  # (most seats, most discards: asked for nothing but maybe hu)
    acts: set[Action] = set()
    if held >= 2:
        acts.add(_PENG)
    if held == 3:
        acts.add(_GANG)
    if left:
        acts.update(_CHIS[m] for m in _chow_middles(hand, tile))
    return acts


_PENG, _GANG, _PASS = Action(PENG), Action(GANG), Action(PASS)
_CHIS = tuple(Action(CHI, t) for t in range(27))


def _seat_claims(
    state: McrState, seat: Seat, left: bool, source: Seat, tile: Tile, robbed: bool
) -> tuple[set[Action], Win | None]:
    """The claims of ``seat`` on ``tile`` (``pass`` not included) and, when ``hu`` is among
    them, the evaluated win; only hu on an added kong's tile (``robbed``)."""
    acts = set() if robbed else _claims(state, seat, tile, left)
    if tile not in state.waits[seat]:
        return acts, None
    win = evaluate_win(state, seat, state.hands[seat], tile, source=source, robbed=robbed)
    if win is not None:
        acts.add(Action(HU))
    return acts, win


def _open(
    state: McrState, source: Seat, tile: Tile, phase: str, robbed: bool, events: list[Event]
) -> McrState:
    """Open a window on ``tile``; with nobody to ask, resolve it at once.

    Asked are the seats with a claim, or under ``claim_prompts = "all"`` every seat but
    ``source`` (a seat without a claim may only ``pass``): then the window always waits for
    three answers, whatever the hands hold.
    """
    ask_all = state.rules.claim_prompts == PROMPT_ALL
    options: list[tuple[Seat, frozenset[Action]]] = []
    wins: list[Win] = []
    left = state.next_seat(source)
    hands, waits = state.hands, state.waits
    for seat in state.order:
        if seat == source:
            continue
        if (
            not ask_all
            and seat != left
            and tile not in waits[seat]
            and (robbed or hands[seat].count(tile) < 2)
        ):
            continue  # (most seats, most discards: a pung is the one claim to look for)
        acts, win = _seat_claims(state, seat, seat == left, source, tile, robbed)
        if win is not None:
            wins.append(win)
        if acts or ask_all:
            acts.add(_PASS)
            options.append((seat, frozenset(acts)))
    if not options and phase == CLAIM:
        # Nobody to ask: the window would close unanswered at once (``resolve``), the
        # discard staying in the river; the same state without building the window.
        # (``current`` is ``source`` already, the discarder's turn; the draw sets it anew)
        rivers = put(state.discards, source, (*state.discards[source], tile))
        return draw(state, left, events, discards=rivers, last_discard=(source, tile))
    window = Window(tile, source, tuple(options), (), tuple(wins))
    state = evolve(state, phase=phase, current=source, window=window)
    if not options:
        return resolve(state, events)
    return state


def open_discard_window(state: McrState, source: Seat, tile: Tile, events: list[Event]) -> McrState:
    """The claim window on a discard."""
    return _open(state, source, tile, CLAIM, False, events)


def open_rob_window(state: McrState, source: Seat, tile: Tile, events: list[Event]) -> McrState:
    """The rob-the-kong window on an added kong's tile (hu only)."""
    return _open(state, source, tile, ROB, True, events)


def respond(state: McrState, seat: Seat, action: Action, events: list[Event]) -> McrState:
    """Record ``seat``'s (legal) answer; resolve once every asked seat has answered."""
    window = state.window
    assert window is not None
    # (``changed`` copies the fields alone: who the new window waits for is worked out anew)
    window = changed(window, responses=(*window.responses, (seat, action)))
    state = evolve(state, window=window)
    # Private: others learn neither the answer nor that this seat was asked at all.
    events.append(Event("claim", ClaimEvent(seat=seat, action=_text(action)), frozenset({seat})))
    if window.waiting():
        return state
    return resolve(state, events)


def _text(action: Action) -> str:
    return action.kind if action.tile is None else f"{action.kind} {tile_code(action.tile)}"


def _distance(state: McrState, source: Seat, seat: Seat) -> int:
    return (state.order.index(seat) - state.order.index(source)) % 4


def resolve(state: McrState, events: list[Event]) -> McrState:
    """Close the window: the winning claim takes effect, or play moves on."""
    window = state.window
    assert window is not None
    answers = dict(window.responses)
    hu_seats = sorted(
        (s for s, a in answers.items() if a.kind == HU),
        key=lambda s: _distance(state, window.source, s),
    )
    if hu_seats:
        chosen = hu_seats if state.rules.multiple_win else hu_seats[:1]
        wins = tuple(w for s in chosen if (w := window.win_of(s)) is not None)
        return finish(state, wins, events)
    if state.phase == ROB:
        return _complete_added_kong(state, window, events)
    for seat, action in answers.items():
        if action.kind in (PENG, GANG):
            return _take(state, window, seat, action, events)
    for seat, action in answers.items():
        if action.kind == CHI:
            return _take(state, window, seat, action, events)
    source = window.source
    rivers = put(state.discards, source, (*state.discards[source], window.tile))
    # (the river and its mark in the draw's copy of the state, not in one of their own)
    marked = (source, window.tile)
    return draw(state, state.next_seat(source), events, discards=rivers, last_discard=marked)


def _take(
    state: McrState, window: Window, seat: Seat, action: Action, events: list[Event]
) -> McrState:
    """Give the discard to ``seat`` for a chow, pung or melded kong."""
    tile = window.tile
    hand = state.hands[seat]
    if action.kind == CHI:
        assert action.tile is not None
        middle = action.tile
        for t in (middle - 1, middle, middle + 1):
            if t != tile:
                hand = remove_tiles(hand, t, 1)
        meld = Meld(CHI_MELD, middle, tile - middle + 2)
    else:
        kong = action.kind == GANG
        hand = remove_tiles(hand, tile, 3 if kong else 2)
        kind = GANG_MELD if kong else PENG_MELD
        meld = Meld(kind, tile, state.relative(seat, window.source))
    events.append(
        Event(
            action.kind,
            MeldEvent(
                {
                    "seat": seat,
                    "from": window.source,
                    "tile": tile_code(tile),
                    "meld": _text(action),
                }
            ),
        )
    )
    melds = put(state.melds, seat, (*state.melds[seat], meld))
    # The claimed tile leaves the table's last discard for the claimer's meld.
    if meld.kind == GANG_MELD:
        state = set_hand(state, seat, hand, melds=melds, window=None, last_discard=None)
        return draw(state, seat, events, replacement=True)
    return set_hand(
        state,
        seat,
        hand,
        melds=melds,
        window=None,
        phase=TURN,
        current=seat,
        drawn=None,
        after_kong=False,
        turn_win=None,
        last_discard=None,
    )


def _complete_added_kong(state: McrState, window: Window, events: list[Event]) -> McrState:
    """Nobody robbed the kong: the pung becomes a kong and the maker draws a replacement."""
    seat, tile = window.source, window.tile
    melds = tuple(
        Meld(BUGANG_MELD, m.tile, m.offer) if m.kind == PENG_MELD and m.tile == tile else m
        for m in state.melds[seat]
    )
    state = evolve(state, melds=put(state.melds, seat, melds), window=None)
    return draw(state, seat, events, replacement=True)


def finish(state: McrState, wins: tuple[Win, ...], events: list[Event]) -> McrState:
    """End the hand with ``wins``: the win tile joins each winner's hand, scores are paid."""
    hands = state.hands
    if state.window is not None and wins:
        # The claimed tile joins the nearest winner's hand; under multiple win the other
        # winners' Win records name it, so the 144 tiles stay accounted for exactly once.
        first = wins[0].seat
        hands = put(hands, first, tuple(sorted((*hands[first], wins[0].tile))))
    result = payments(wins)
    for win in wins:
        events.append(
            Event(
                "hu",
                HuEvent(
                    {
                        "seat": win.seat,
                        "tile": tile_code(win.tile),
                        "from": win.source,
                        "total": win.total,
                    }
                ),
            )
        )
    return evolve(
        state, hands=hands, phase=OVER, window=None, wins=wins, result=result, turn_win=None
    )
