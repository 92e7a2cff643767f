"""What a table keeps: a snapshot's entry is the standard library's canonical text (its state
is not searched for a NaN again, the codec refused any), and a state the codec refuses costs
its snapshot only, never the action."""

from __future__ import annotations

import json
import math
from dataclasses import replace

from paiju.engines.base import Step
from paiju.table.commands import Act, Join, Ready
from paiju.table.effects import Effect, Persist
from paiju.table.ledger import first_break
from paiju.table.records import ActionRecord, Snapshot
from paiju.table.table import Table, TableSettings
from tests.table.fake_engine import FirstLegalBot, RaceEngine, RaceState

SETTINGS = TableSettings(timers={"claim": 20.0, "turn": 30.0}, bot_delay=0.5,
                         between_hands=3.0, restore_grace=15.0)


class NanSecrets(RaceEngine):
    """Its state's secrets become NaN once play starts (a state JSON cannot hold)."""

    def apply(self, state: RaceState, seat: int, action: str) -> Step[RaceState]:
        step = super().apply(state, seat, action)
        if step.state.phase != "play":
            return step
        nan = (math.nan,) * step.state.seats
        return Step(replace(step.state, secret=nan), step.events)  # type: ignore[arg-type]


def played(engine: RaceEngine, actions: int) -> tuple[Table, list[Effect]]:
    table = Table("r", engine, engine.normalize_options({"target": 30}), "s33d", SETTINGS,
                  lambda seat, level: FirstLegalBot())
    effects = table.handle(None, Join("ann"), 0.0) + table.handle(None, Join("bob"), 0.0)
    effects += table.handle(0, Ready(), 0.0) + table.handle(1, Ready(), 0.0)
    for _ in range(actions):
        seat = min(table.decisions.waiting)
        legal = sorted(table.engine.legal_actions(table.state, seat))
        effects += table.handle(seat, Act(table.shown_version(seat), legal[0]), 0.0)
    return table, effects


def entries(effects: list[Effect]) -> list[Persist]:
    return [e for e in effects if isinstance(e, Persist)]


def standard(body: str) -> str:
    return json.dumps(json.loads(body), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False, allow_nan=False)


def test_a_state_snapshot_is_the_canonical_text_of_its_record() -> None:
    table, effects = played(RaceEngine(), 6)
    kept = entries(effects)
    snapshots = [e.record for e in kept
                 if isinstance(e.record, Snapshot) and e.record.state is not None]
    assert [s.seq for s in snapshots] == [2, 4, 6]
    for stored in kept:
        assert stored.entry.body == standard(stored.entry.body)
    assert first_break([e.entry for e in kept], n=0) is None
    assert kept[-1].entry.hash == table.ledger.head


def test_a_state_the_codec_refuses_costs_its_snapshot_not_the_action() -> None:
    table, effects = played(NanSecrets(), 6)
    kept = entries(effects)
    assert [e.record.seq for e in kept
            if isinstance(e.record, ActionRecord)] == [1, 2, 3, 4, 5, 6]
    # Play begins with the second vote: every state from then on holds NaN.
    assert [e.record.seq for e in kept
            if isinstance(e.record, Snapshot) and e.record.state is not None] == []
    assert first_break([e.entry for e in kept], n=0) is None
    assert math.isnan(table.state.secret[0])
