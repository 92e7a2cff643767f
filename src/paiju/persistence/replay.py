"""Rebuild a game from its seeds and action log (a fold of ``Engine.apply``).

A fair deal depends on the client seeds the seats sent; a seed the server put in for a
silent seat derives from the hand seed, so a log without deal records replays with the
server's seeds (self-play, tests). ``room_log`` reads a stored room's log, deals included.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju.core.fairness import FAIR_V1
from paiju.engines.base import Engine
from paiju.persistence.store import Store
from paiju.table.effects import ActionRecord
from paiju.table.match import DealSeed, Match
from paiju.table.records import DealRecord, RoomCreated, parse_record


@dataclass(frozen=True)
class ReplayedHand:
    """One hand rebuilt from the log: its actions in notation and how it ended."""

    hand: int
    actions: tuple[ActionRecord, ...]
    final_state: Any
    terminal: bool
    scores: tuple[int, ...] | None
    #: every state the hand went through (its deal, then one per action) when asked for
    states: tuple[Any, ...] = ()


@dataclass
class RoomLog:
    """What a stored room's game is made of: how it was made, its actions (those stored
    before the chain first), and the client seeds of each fair deal."""

    created: RoomCreated
    actions: list[ActionRecord] = field(default_factory=list)
    deals: dict[int, tuple[DealSeed, ...]] = field(default_factory=dict)


def room_log(store: Store, room_id: str) -> RoomLog | None:
    """The stored room's log, or ``None`` if there is no such room. Raises ``ValueError``
    for a record that cannot be read."""
    entries = store.entries(room_id)
    if not entries:
        return None
    created = parse_record(entries[0].entry.kind, entries[0].entry.data())
    if not isinstance(created, RoomCreated):
        raise ValueError(f"room {room_id}'s first record is not its creation")
    log = RoomLog(created, store.legacy_actions(room_id))
    for stored in entries[1:]:
        record = parse_record(stored.entry.kind, stored.entry.data())
        if isinstance(record, ActionRecord):
            log.actions.append(record)
        elif isinstance(record, DealRecord):
            log.deals[record.hand] = tuple(DealSeed(s, o) for s, o in record.seeds)
    return log


def replay_hands(
    engine: Engine[Any, Any],
    options: dict[str, Any],
    seed: str,
    log: Sequence[ActionRecord],
    deals: Mapping[int, Sequence[DealSeed]] | None = None,
    scheme: str = FAIR_V1,
    keep_states: bool = False,
) -> Iterator[ReplayedHand]:
    """Every hand of the log, rebuilt in order with the table's own hand bookkeeping;
    ``deals`` gives the client seeds of the hands that had some; ``keep_states`` keeps every
    intermediate state in ``ReplayedHand.states``.

    Raises ``GameError`` if the log is not legal."""
    match = Match(engine, options, seed, scheme=scheme)
    by_hand: dict[int, list[ActionRecord]] = {}
    for record in log:
        by_hand.setdefault(record.hand, []).append(record)
    for hand in range(max(by_hand, default=-1) + 1):
        seeds = (deals or {}).get(hand)
        state = match.deal(seeds)
        records = by_hand.get(hand, [])
        states = [state]
        for record in records:
            state = engine.apply(state, record.seat, engine.parse_action(record.action)).state
            if keep_states:
                states.append(state)
        terminal = engine.is_terminal(state)
        scores = match.finish(state) if terminal else None
        match.advance()
        kept = tuple(states) if keep_states else ()
        yield ReplayedHand(hand, tuple(records), state, terminal, scores, kept)


def replay_text(
    engine: Engine[Any, Any],
    options: dict[str, Any],
    seed: str,
    log: Sequence[ActionRecord],
    deals: Mapping[int, Sequence[DealSeed]] | None = None,
    scheme: str = FAIR_V1,
) -> str:
    """The game in notation, hand by hand, as ``paiju replay`` prints it."""
    lines: list[str] = []
    for played in replay_hands(engine, options, seed, log, deals, scheme):
        lines.append(f"hand {played.hand}")
        for record in played.actions:
            lines.append(
                f"  {record.seq:>5}  seat {record.seat}  {record.action}  ({record.source})"
            )
        if played.scores is not None:
            lines.append(f"  result: {' '.join(f'{s:+d}' for s in played.scores)}")
        else:
            lines.append("  (in progress)")
    return "\n".join(lines)
