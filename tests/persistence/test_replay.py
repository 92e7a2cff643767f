"""Replaying a log is a fold of apply: it rebuilds exactly the game that was played."""

from __future__ import annotations

from paiju.persistence.replay import replay_hands, replay_text
from paiju.table.commands import Start
from paiju.table.effects import ActionRecord, Persist
from paiju.table.table import FINISHED, Table, TableSettings
from tests.table.fake_engine import FirstLegalBot, RaceEngine


def played_match() -> tuple[Table, list[ActionRecord]]:
    engine = RaceEngine()
    table = Table(
        "r",
        engine,
        engine.normalize_options({"hands": 3}),
        "s33d",
        TableSettings(timers={}, bot_delay=0.5, between_hands=1.0),
        lambda seat, level: FirstLegalBot(),
    )
    table.handle(None, Start(), 0.0)
    log: list[ActionRecord] = []
    now = 0.0
    while table.phase != FINISHED:
        now = table.next_deadline() or now
        log += [
            e.record
            for e in table.tick(now)
            if isinstance(e, Persist) and isinstance(e.record, ActionRecord)
        ]
    return table, log


def test_replay_rebuilds_every_hand_and_its_scores() -> None:
    table, log = played_match()
    hands = list(replay_hands(table.engine, table.options, table.seed, log))
    assert [h.hand for h in hands] == [0, 1, 2]
    assert [h.scores for h in hands] == table.hand_scores
    assert hands[-1].final_state == table.state


def test_replay_text_lists_actions_in_notation() -> None:
    table, log = played_match()
    text = replay_text(table.engine, table.options, table.seed, log)
    assert text.splitlines()[0] == "hand 0"
    assert "seat 0  go  (bot)" in text and "result:" in text
