"""What an open decision keeps: the engine's ``legal_key`` of the seat's options."""

from __future__ import annotations

import sys
from collections.abc import Hashable
from dataclasses import replace
from typing import Any

from paiju.engines.registry import get_engine
from paiju.table.commands import Join, Ready
from paiju.table.decisions import Decisions
from paiju.table.table import Table, TableSettings
from tests.table.fake_engine import RaceEngine, RaceState


def dealt(variant: str) -> Table:
    engine = get_engine(variant)
    options = engine.normalize_options({})
    sent: list[Any] = []
    table = Table("r1", engine, options, "decisions", TableSettings(timers={}),
                  lambda s, lv: sent)  # type: ignore[arg-type,return-value]
    for seat in range(engine.seat_count(options)):
        table.handle(None, Join(f"p{seat}"), 0.0)
    for seat in range(engine.seat_count(options)):
        table.handle(seat, Ready(), 0.0)
    return table


def test_an_open_dragon_decision_keeps_the_hand_not_the_arrangements() -> None:
    """A dealt dragon seat that waits holds its hand (which the state holds anyway) and
    its list's notation as one string: not dozens of arrangement objects (some 5 KiB a seat,
    most of an idle seated connection's memory)."""
    table = dealt("dragon")
    assert sorted(table.decisions.waiting) == [0, 1, 2, 3]
    for seat, waiting in table.decisions.waiting.items():
        assert waiting.legal is table.state.hands[seat]
    memo = table.state.of_hands
    assert memo, "the views built at the deal worked the lists out"
    assert all(type(kept) is str for kept in memo.values()), memo.keys()
    assert sum(sys.getsizeof(kept) for kept in memo.values()) < 4 * 2048


class KeyedRace(RaceEngine):
    """Options named by a key: refresh must not ask for the list itself."""

    def legal_actions(self, state: RaceState, seat: int) -> frozenset[str]:
        raise AssertionError("the decisions asked for the whole list")

    def legal_key(self, state: RaceState, seat: int) -> Hashable:
        return (state.phase, state.total >= 3)


def test_an_open_decision_is_renewed_exactly_when_its_key_changes() -> None:
    engine = KeyedRace()
    state = RaceState(2, 5, "play", frozenset(), 0, 0, None, 0, (1, 2))
    decisions = Decisions(TableSettings(timers={}))
    decisions.refresh(engine, state, 1, 0.0, {})
    first = decisions.waiting[0]
    assert first.legal == ("play", False)
    decisions.refresh(engine, replace(state, total=2, version=1), 2, 0.0, {})
    assert decisions.waiting[0] is first  # the same key: the same decision
    decisions.refresh(engine, replace(state, total=3, version=2), 3, 0.0, {})
    renewed = decisions.waiting[0]
    assert renewed is not first and renewed.version == 3 and renewed.legal == ("play", True)


def test_an_open_decision_keeps_its_fields_in_slots_not_an_instance_dict() -> None:
    """One per open decision of every room in memory: 80 bytes, not 120 with a dict."""
    from paiju.table.decisions import Waiting

    waiting = Waiting(3, None, ("pass",))
    assert not hasattr(waiting, "__dict__")
    waiting.shown_from = 7  # (the viewers set it when the seat is first shown the decision)
    assert (waiting.version, waiting.shown_from, waiting.options(RaceEngine(), 0)) == (
        3, 7, ("pass",))
