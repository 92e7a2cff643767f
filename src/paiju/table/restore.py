"""Rebuild a table from its stored records, quietly.

A restore applies the room's records from its last snapshot on (or from its creation when it
has none) the way they were first made, but builds no view and sends nothing: views and
broadcasts were most of the cost of a restore. Decisions and their deadlines are set once at
the end (``finish``): a person's open decision keeps the time it had left, but never less
than ``restore_grace``; every viewer's version starts above any version stored.

The same fold checks a whole room for ``paiju verify``: with ``check=True`` a snapshot is
compared with the bookkeeping the records before it built, instead of being loaded, and a
seed the server put in for a silent seat must be the one derived from the hand seed.
Every mismatch raises ``RecordMismatch``; an illegal action raises the engine's
``GameError``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from paiju.core.errors import NotYourTurn
from paiju.core.fairness import server_client_seed
from paiju.core.seats import Seat
from paiju.table.match import SERVER, DealSeed
from paiju.table.phases import HAND_OVER, PLAYING, WAITING, Phase
from paiju.table.records import (
    ActionRecord,
    DealRecord,
    HandRecord,
    Record,
    RoomCreated,
    RoomStatus,
    SeedRecord,
    Snapshot,
)
from paiju.table.seats import SeatSlot
from paiju.table.states import StateCodecError, reader_for

if TYPE_CHECKING:
    from paiju.table.table import Table


class RecordMismatch(ValueError):
    """A stored record that does not fit the game rebuilt from the records before it."""


class Rebuild:
    """Applies stored records to a fresh ``table`` (see the module docstring)."""

    def __init__(self, table: Table, *, check: bool = False) -> None:
        self.table = table
        self.check = check
        self.last: Record | None = None
        self.reader = reader_for(table.engine)
        self.answered: set[Seat] = set()  # who had answered, per a state snapshot

    def apply(self, record: Record) -> None:
        """Apply one record. Raises ``RecordMismatch`` or ``GameError``."""
        table = self.table
        if isinstance(record, RoomCreated):
            self._created(record)
        elif isinstance(record, Snapshot):
            self._snapshot(record)
        elif isinstance(record, RoomStatus):
            table.phase = Phase(record.phase)
            self._seats(record.seats)
        elif isinstance(record, SeedRecord):
            self._seed(record)
        elif isinstance(record, DealRecord):
            self._deal(record)
        elif isinstance(record, ActionRecord):
            self._action(record)
        elif isinstance(record, HandRecord):
            self._hand(record)
        table.version = max(table.version, record.version)
        self.last = record

    def _created(self, record: RoomCreated) -> None:
        if record.status is not None:  # a room from before the chain: its summary then
            self.table.phase = Phase(record.status["phase"])
            self._seats(record.status["seats"])

    def _snapshot(self, snap: Snapshot) -> None:
        table, match = self.table, self.table.match
        if snap.genesis != table.genesis:
            raise RecordMismatch("the snapshot belongs to another room's creation record")
        if self.check and self.last is not None:
            self._compare(snap)
            return
        match.hand, match.totals, match.carry = snap.hand, snap.totals, dict(snap.carry)
        match.hand_scores = [tuple(s) for s in snap.hand_scores]
        match.client_seeds = {int(s): seed for s, seed in snap.client_seeds.items()}
        table.seq, table.phase = snap.seq, Phase(snap.phase)
        table._hand_seq = snap.seq
        self._seats(snap.seats)
        if snap.state is not None:
            try:
                table.state = self.reader.decode(snap.state)
            except StateCodecError as exc:
                raise RecordMismatch(f"the snapshot's state cannot be read: {exc}") from None
            match.dealt_seeds = tuple(DealSeed(seed, origin) for seed, origin in snap.dealt)
            self.answered = set(snap.answered)

    def _compare(self, snap: Snapshot) -> None:
        """(``check``) A snapshot must be what the records before it built."""
        table, match = self.table, self.table.match
        if snap.state is None and table.phase == HAND_OVER and snap.hand == match.hand + 1:
            match.advance()
        mine = table.hand_snapshot()
        if (mine.hand, mine.totals, mine.carry, mine.hand_scores, mine.seq) != (
            snap.hand, snap.totals, snap.carry, snap.hand_scores, snap.seq
        ):
            raise RecordMismatch("the snapshot does not match the records before it")
        if snap.state is not None:
            try:
                state = self.reader.decode(snap.state)
            except StateCodecError as exc:
                raise RecordMismatch(f"the snapshot's state cannot be read: {exc}") from None
            if state != table.state:
                raise RecordMismatch("the snapshot's state is not the state the actions built")

    def _seats(self, stored: Sequence[Mapping[str, Any]]) -> None:
        count = self.table.seat_count
        if len(stored) != count:
            raise RecordMismatch(f"{len(stored)} seats are stored for a table of {count}")
        self.table.seats.slots = [SeatSlot.from_stored(s) for s in stored]

    def _seed(self, record: SeedRecord) -> None:
        if record.hand != self.table.seed_hand():
            raise RecordMismatch(f"a seed for hand {record.hand} came when none was taken")
        self.table.match.client_seeds[record.seat] = record.seed

    def _deal(self, record: DealRecord) -> None:
        table, match = self.table, self.table.match
        if table.phase == HAND_OVER and record.hand == match.hand + 1:
            match.advance()
        if record.hand != match.hand:
            raise RecordMismatch(f"hand {record.hand} was dealt when hand {match.hand} was due")
        if record.commitment != match.commitment(record.hand):
            raise RecordMismatch("the deal's commitment is not that of the room's hand seed")
        seeds = tuple(DealSeed(seed, origin) for seed, origin in record.seeds)
        if self.check and match.fair:
            self._check_seeds(seeds)
        table.state = match.deal(seeds)
        table.phase = PLAYING
        table._hand_seq = table.seq
        self.answered = set()

    def _check_seeds(self, seeds: Sequence[DealSeed]) -> None:
        match = self.table.match
        if len(seeds) != len(match.totals):
            raise RecordMismatch("the deal does not have one client seed per seat")
        for seat, seed in enumerate(seeds):
            if seed.origin == SERVER:
                if seed.seed != server_client_seed(match.hand_seed(match.hand), seat):
                    raise RecordMismatch(f"seat {seat}'s server seed is not the derived one")
            elif match.client_seeds.get(seat) != seed.seed:
                raise RecordMismatch(f"seat {seat}'s client seed is not the one it sent")

    def _action(self, record: ActionRecord) -> None:
        table = self.table
        if table.phase != PLAYING or record.hand != table.hand:
            raise RecordMismatch(f"an action of hand {record.hand} outside that hand's play")
        if record.seq != table.seq + 1:
            raise RecordMismatch(f"action {record.seq} follows action {table.seq}")
        if record.seat not in table.engine.to_act(table.state):
            raise NotYourTurn(f"seat {record.seat} was not to act")
        action = table.engine.parse_action(record.action)
        table.state = table.engine.apply(table.state, record.seat, action).state
        table.seq = record.seq
        table.count_timeouts(record.seat, record.source)
        self.answered = set()  # what was answered since is not known: NotYourTurn, not
        # AlreadyAnswered, for a seat that answers twice after a restart

    def _hand(self, record: HandRecord) -> None:
        table = self.table
        if table.phase != PLAYING or not table.engine.is_terminal(table.state):
            raise RecordMismatch(f"hand {record.hand} was scored before it was over")
        scores = table.match.finish(table.state)
        if (scores, table.totals) != (record.scores, record.totals):
            raise RecordMismatch(f"hand {record.hand}'s scores are not the rules' scores")
        table.phase = HAND_OVER

    def legacy(self, actions: Sequence[ActionRecord]) -> None:
        """Replay the actions of a room stored before the chain (its deals: ``seeded-v0``)."""
        table, match = self.table, self.table.match
        if table.phase == WAITING:
            return
        table.state, table.phase = match.deal(), PLAYING
        for record in actions:
            while record.hand > match.hand:
                if table.phase == PLAYING:
                    match.finish(table.state)
                match.advance()
                table.state, table.phase = match.deal(), PLAYING
            self._action(record)
            table.version = max(table.version, record.version)
            if table.engine.is_terminal(table.state):
                match.finish(table.state)
                table.phase = HAND_OVER

    def finish(self, now: float, remaining: Mapping[Seat, float]) -> None:
        """Make the rebuilt table live at ``now``: bots made, decisions open with their
        ``remaining`` seconds (person's seats: at least ``restore_grace``), the next deal
        due if it was, and every viewer's version above any stored one."""
        table = self.table
        table.seats.load(table.seats.stored())
        table.version += 1
        if table.phase == PLAYING:
            table._refresh(now, lazy=True)
            table.decisions.answered = self.answered - set(table.decisions.waiting)
            self._deadlines(now, remaining)
        elif table.phase == HAND_OVER and table.state is not None:
            table._next_hand_at = now + table.settings.between_hands
        before_deal = isinstance(self.last, Snapshot) and self.last.state is None
        due_deal = before_deal and table.phase in (WAITING, HAND_OVER)
        started = table.phase == WAITING and table.seats.all_ready()
        table._deal_due = due_deal or started
        table.viewers.restart_above(table.version)

    def _deadlines(self, now: float, remaining: Mapping[Seat, float]) -> None:
        table = self.table
        automatic = set(table.seats.automatic())
        grace = table.settings.restore_grace
        for seat, waiting in table.decisions.waiting.items():
            waiting.shown_from = None
            left = remaining.get(seat)
            if waiting.deadline is None:
                continue
            if seat in automatic:
                if left is not None:
                    waiting.deadline = now + max(0.0, left)
            elif left is not None:
                waiting.deadline = now + max(left, grace)
            else:  # no stored deadline (a room from before they were stored): a fresh one
                waiting.deadline = max(waiting.deadline, now + grace)
