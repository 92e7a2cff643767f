"""Hu evaluation with the situational flags the engine owns, and the payments (结算).

The fan count itself is ``fans.evaluate``; this module decides the flags it is given:
last tile of the wall (妙手回春 / 海底捞月), replacement tile (杠上开花), robbing the kong
(抢杠和) and 和绝张 (the other three copies all visible in rivers or exposed melds).
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.core.seats import Seat
from paiju.engines.mcr.fans import WinContext, evaluate
from paiju.engines.mcr.hand import Pack
from paiju.engines.mcr.state import (
    ANGANG_MELD,
    CHI_MELD,
    PENG_MELD,
    McrState,
    Meld,
    Win,
)
from paiju.engines.mcr.tiles import Tile

BASE = 8
"""Every loser pays this base (底分) on top of the discarder's fan total."""


def to_pack(meld: Meld) -> Pack:
    """The judge's Botzone pack for one of our melds."""
    if meld.kind == CHI_MELD:
        return Pack("CHI", meld.tile, meld.offer)
    if meld.kind == PENG_MELD:
        return Pack("PENG", meld.tile, meld.offer)
    return Pack("GANG", meld.tile, 0 if meld.kind == ANGANG_MELD else meld.offer)


def visible_copies(state: McrState, tile: Tile) -> int:
    """Copies of ``tile`` anyone can see: rivers and exposed melds (not concealed kongs)."""
    seen = sum(river.count(tile) for river in state.discards)
    for melds in state.melds:
        for m in melds:
            if m.kind != ANGANG_MELD:
                seen += m.tiles().count(tile)
    return seen


def evaluate_win(
    state: McrState,
    seat: Seat,
    concealed: Sequence[Tile],
    tile: Tile,
    *,
    source: Seat | None,
    robbed: bool = False,
) -> Win | None:
    """The win of ``seat`` on ``tile`` if it is a legal hu (>= min fans without flowers).

    ``concealed`` is the hand before the win tile. For a self-drawn win ``source`` is None
    and the replacement flag comes from ``state.after_kong``.
    """
    self_drawn = source is None
    ctx = WinContext(
        packs=tuple(to_pack(m) for m in state.melds[seat]),
        hand=tuple(concealed),
        win_tile=tile,
        flowers=len(state.flowers[seat]),
        self_drawn=self_drawn,
        fourth_tile=visible_copies(state, tile) == 3,
        about_kong=robbed or (self_drawn and state.after_kong),
        wall_last=not state.wall and not robbed,
        seat_wind=state.seat_wind(seat),
        prevalent_wind=state.prevalent,
        kong_pair_five=state.rules.concealed_and_melded_kong_5,
    )
    result = evaluate(ctx)
    if result is None or result.total_without_flowers < state.rules.min_fan:
        return None
    return Win(seat, tile, source, robbed, tuple(result.fans), result.total)


def payments(wins: Sequence[Win], seats: int = 4) -> tuple[int, ...]:
    """Zero-sum scores of the hand's wins (several only under the multiple-win option).

    Self-drawn: every other seat pays total + 8. On a discard (or a robbed kong): the
    discarder pays total + 8 and the two others 8 each.
    """
    score = [0] * seats
    for win in wins:
        for loser in range(seats):
            if loser == win.seat:
                continue
            pay = BASE + (win.total if win.source in (None, loser) else 0)
            score[loser] -= pay
            score[win.seat] += pay
    return tuple(score)
