"""With a real engine: a secret answer in an MCR claim window sends nothing to the other seats
(the engine's own view carries a version too, which must not count as a change)."""

from __future__ import annotations

from paiju.engines.mcr.engine import McrEngine
from paiju.table.commands import Act, Join, Ready
from paiju.table.effects import SPECTATORS, Send
from paiju.table.table import PLAYING, Table, TableSettings


def four_humans(seed: str) -> Table:
    engine = McrEngine()
    table = Table(
        "r",
        engine,
        engine.normalize_options({}),
        seed,
        TableSettings(timers={}, between_hands=1.0),
        lambda seat, level: None,
    )  # type: ignore[arg-type,return-value]
    for name in "abcd":
        table.handle(None, Join(name), 0.0)
    for seat in range(4):
        table.handle(seat, Ready(), 0.0)
    return table


def test_an_answer_in_a_claim_window_is_not_shown_to_the_others() -> None:
    checked = 0
    for seed in range(30):
        table = four_humans(f"hidden/{seed}")
        for _ in range(400):
            if table.phase != PLAYING or checked > 10:
                break
            waiting = sorted(table.decisions.waiting)
            seat = waiting[0]
            legal = sorted(
                table.engine.legal_actions(table.state, seat), key=table.engine.format_action
            )
            text = table.engine.format_action(legal[0])
            in_window = table.state.phase in ("claim", "rob") and len(waiting) >= 2
            effects = table.handle(seat, Act(table.shown_version(seat), text), 1.0)
            if in_window and seat in waiting and table.state.phase in ("claim", "rob"):
                told = {e.to for e in effects if isinstance(e, Send)}
                assert told <= {seat}, f"seat {seat}'s secret answer was shown to {told}"
                assert SPECTATORS not in told
                checked += 1
    assert checked, "no claim window with two asked seats came up"
