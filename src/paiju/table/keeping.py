"""What a table keeps: its records as entries of the room's chain, its snapshots, and the
client seeds it takes for fair deals.

A mixin of ``Table``; docs/operations.md lists the records, docs/fairness.md the seeds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paiju.core.fairness import MAX_CLIENT_SEED
from paiju.core.seats import Seat
from paiju.table.decisions import Decisions, TableSettings
from paiju.table.effects import Effect, Persist, RoomStatus, SeedRecord, Snapshot
from paiju.table.errors import SeedRefused
from paiju.table.ledger import Ledger
from paiju.table.match import Match
from paiju.table.phases import CLOSED, FINISHED, PLAYING, Phase
from paiju.table.records import Record, record_body
from paiju.table.seats import Seats
from paiju.table.states import StateCodecError, encode_state

#: A snapshot's field written by ``encode_state``, which refuses a NaN or an infinity.
_STATE = ("state",)


class Keeping:
    """Records, snapshots and client seeds."""

    state: Any
    phase: Phase
    version: int
    seq: int
    match: Match
    seats: Seats
    settings: TableSettings
    decisions: Decisions
    ledger: Ledger
    genesis: str
    _hand_seq: int
    _deal_due: bool
    _broadcast_states: Callable[[float], list[Effect]]  # from ``Output``

    @property
    def totals(self) -> tuple[int, ...]:
        """The match totals so far."""
        return self.match.totals

    @property
    def hand_scores(self) -> list[tuple[int, ...]]:
        """Each finished hand's scores."""
        return self.match.hand_scores

    def _persist(self, record: Record, finite: tuple[str, ...] = ()) -> Persist:
        """``record`` as the next entry of the room's chain, with the open deadlines
        (``finite``: its fields known to hold no NaN or infinity, see ``canonical``)."""
        entry = self.ledger.append(record.kind, record_body(record), finite)
        deadlines = self.decisions.deadlines() if self.phase == PLAYING else {}
        return Persist(record, entry, deadlines)

    def status(self) -> RoomStatus:
        """The room's summary as it is stored."""
        return RoomStatus(self.phase, self.totals, self.seats.stored(), self.version)

    def hand_snapshot(self, **during: Any) -> Snapshot:
        """The room at this hand boundary, before hand ``hand`` is dealt (see ``Snapshot``);
        ``during``: what a snapshot during a hand adds (its state, answers and seeds)."""
        return Snapshot(
            hand=self.match.hand,
            totals=self.totals,
            carry=self.match.carry,
            hand_scores=tuple(self.hand_scores),
            seq=self.seq,
            version=self.version,
            seats=self.seats.stored(),
            client_seeds={str(s): seed for s, seed in sorted(self.match.client_seeds.items())},
            genesis=self.genesis,
            phase=self.phase,
            **during,
        )

    def _state_snapshot(self) -> list[Effect]:
        """A snapshot with the engine's state, every ``snapshot_every`` actions of a hand
        (none for a state the codec cannot write: restores then replay the whole hand)."""
        every = self.settings.snapshot_every
        if not every or (self.seq - self._hand_seq) % every:
            return []
        try:
            state = encode_state(self.state)
        except StateCodecError:
            return []
        snapshot = self.hand_snapshot(  # (one record made, not one and then a copy)
            state=state,
            answered=tuple(sorted(self.decisions.answered)),
            dealt=tuple(s.stored() for s in self.match.dealt_seeds),
        )
        # The state's floats were checked as it was written (a null in it is a None): only
        # the rest of the snapshot is searched for a NaN.
        return [self._persist(snapshot, finite=_STATE)]

    def _seed(self, seat: Seat, hand: int, seed: str, now: float) -> list[Effect]:
        """Take the seat's client seed for the next hand to be dealt."""
        if not self.match.fair:
            raise SeedRefused("this room deals without client seeds (it was made before them)")
        if self.phase in (FINISHED, CLOSED) or self.match.over():
            raise SeedRefused("the match is over; no hand is left to deal")
        expected = self.seed_hand()
        if hand != expected:
            raise SeedRefused(f"seeds are taken for hand {expected} now, not hand {hand}")
        if seat in self.match.client_seeds:
            raise SeedRefused(f"seat {seat} already sent its seed for hand {hand}")
        if not seed or len(seed.encode("utf-8")) > MAX_CLIENT_SEED:
            raise SeedRefused(f"a client seed has 1 to {MAX_CLIENT_SEED} bytes (UTF-8)")
        self.match.client_seeds[seat] = seed
        self.version += 1
        record = self._persist(SeedRecord(hand, seat, seed, self.version))
        return [record, *self._broadcast_states(now)]

    def seed_hand(self) -> int:
        """The hand whose client seeds are taken now: the next one to be dealt."""
        dealt = self.state is not None and not self._deal_due
        return self.match.hand + 1 if dealt else self.match.hand
