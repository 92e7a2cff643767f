"""Timing non-interference: when seats act and when the table waits must not depend on hidden
cards. Driven with a fake clock (``now`` is a number), bots with a delay and timeouts.

The leak this guards: when a shengji bid reopened the bidding window, only the seats whose
legal set changed got a fresh deadline, so seats that could only pass (bots, away players)
answered at once and everyone, spectators included, learned from ``to_act`` who held level
cards or jokers. Two deals that differ only in one hidden card must give a spectator the
same timeline: the same messages at the same times.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from paiju.engines.shengji.engine import ShengjiEngine
from paiju.engines.shengji.state import ShengjiState
from paiju.table.commands import Act, Join
from paiju.table.effects import SPECTATORS, Send
from paiju.table.table import Table, TableSettings
from tests.engines.shengji.test_engine import _new

ENGINE = ShengjiEngine()


class Passer:
    """A bot that always passes (a seat that cannot bid, or will not)."""

    def choose(self, view: Mapping[str, Any]) -> str:
        return "pass"


def window(hands: list[str], phase: str) -> ShengjiState:
    """A bidding window of hand 0 (level 2) with these hands: the deal's first one, or the
    kitty-theft window (炒地皮) after seat 3 buried the kitty."""
    state = replace(_new(), hands=tuple(tuple(sorted(h.split())) for h in hands), dealt=8)
    if phase == "deal":
        return state
    kitty = ("C9", "C10", "CJ", "CQ", "CK", "D9", "D10", "DJ")
    return replace(
        state,
        options=tuple(sorted({**dict(state.options), "kitty_theft": True}.items())),
        phase="theft",
        dealt=100,
        landlord=3,
        exchanger=3,
        trump_suit=None,
        trump_set=True,
        kitty=kitty,
        buried=kitty,
    )


def timeline(state: ShengjiState, bots: set[int], bid_at: float) -> list[Any]:
    """(time, target, message) of everything the spectators and seat 0 receive while the
    window is played out: seat 0 (a person) bids ``S2`` at ``bid_at``; ``bots`` pass after
    the bot delay (2 s); the other seats are people away from the table, whose 10 s bid
    timers run out."""
    settings = TableSettings(timers={"bid": 10.0, "turn": 10.0}, bot_delay=2.0)
    options = ENGINE.normalize_options({})
    table = Table("t", ENGINE, options, "s", settings, lambda seat, level: Passer())
    for seat in range(4):
        if seat in bots:
            table.add_bot(seat, 1)
        else:
            table.handle(None, Join(f"p{seat}", seat), 0.0)
    table._begin_match(0.0)
    table.state = state
    table.decisions.waiting.clear()
    table._refresh(0.0)
    seen = [(0.0, e) for e in table._broadcast_states(0.0)]
    times = [bid_at]
    while (table.state.phase, table.state.dealt) == (state.phase, state.dealt):
        now = min(t for t in [*times, table.next_deadline() or 1e9])
        assert now < 100, "the window never closes"
        if times and now == times[0]:
            times.pop(0)
            act = Act(table.shown_version(0), "bid S2")
            seen += [(now, e) for e in table.handle(0, act, now)]
        seen += [(now, e) for e in table.tick(now)]
    watched = (0, SPECTATORS)
    return [(t, e.to, e.message) for t, e in seen if isinstance(e, Send) and e.to in watched]


@pytest.mark.parametrize("phase", ["deal", "theft"])
@pytest.mark.parametrize(
    ("bots", "bid_at"),
    [
        (set(), 1.0),  # the first bid, before anybody passed: nobody's deadline moves
        ({1}, 5.0),  # seat 1 passed already: the bid reopens the window for everyone
    ],
    ids=["first_bid", "reopened"],
)
def test_a_bid_times_every_seat_still_asked_alike(
    phase: str, bots: set[int], bid_at: float
) -> None:
    # Seat 2 holds a level card (H2) in one deal and not in the other; nothing else differs.
    with_level_card = window(["S2 C3", "C4 C5", "H2 C6", "C7 C8"], phase)
    without = window(["S2 C3", "C4 C5", "D3 C6", "C7 C8"], phase)
    assert ENGINE.legal_actions(with_level_card, 2) != ENGINE.legal_actions(without, 2)
    assert ENGINE.view(with_level_card, None) == ENGINE.view(without, None)
    seen = timeline(with_level_card, bots, bid_at)
    assert seen == timeline(without, bots, bid_at)
    assert len({t for t, _, _ in seen}) >= 3, "the window took time"
