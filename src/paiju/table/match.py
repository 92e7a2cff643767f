"""One hand bookkeeping for a whole match, shared by the table, replay and self-play.

A match is its seed plus its hands: ``Match`` deals each hand from the seed (the same
generator everywhere, so a replay or a self-play deal is the table's deal), adds each finished
hand's scores to the totals, keeps what the engine carries to the next hand, and says when the
match is over. It is pure: no clock, no I/O.

Deals follow the room's scheme (``paiju.core.fairness``). ``fair-v1``: hand ``n`` is dealt by
the keyed stream of the secret hand seed ``hand_seed_for(seed, n)`` (whose commitment is public
before the deal) and one client seed per seat, sent by the seat or drawn by the server.
``seeded-v0`` (rooms stored before fair deals): ``SeededRng(seed).derive(str(n))``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju.core.fairness import (
    FAIR_V1,
    SEEDED_V0,
    FairRng,
    commitment,
    hand_seed_for,
    server_client_seed,
)
from paiju.core.rng import Rng, SeededRng
from paiju.engines.base import Engine, MatchInfo

#: Where a hand's client seed came from.
CLIENT, SERVER = "client", "server"


@dataclass(frozen=True)
class DealSeed:
    """One seat's client seed of a deal, and whether the seat sent it or the server drew it."""

    seed: str
    origin: str  # CLIENT or SERVER

    def stored(self) -> tuple[str, str]:
        """As records keep it: ``(seed, origin)``."""
        return (self.seed, self.origin)


@dataclass
class Match:
    """The hands of one match: the next hand's number, the totals, the carried data, and the
    client seeds sent for the hand not dealt yet."""

    engine: Engine[Any, Any]
    options: Mapping[str, Any]
    seed: str
    hand: int = 0
    totals: tuple[int, ...] = ()
    carry: dict[str, Any] = field(default_factory=dict)
    hand_scores: list[tuple[int, ...]] = field(default_factory=list)
    scheme: str = FAIR_V1
    client_seeds: dict[int, str] = field(default_factory=dict)  # seat -> seed, for ``hand``
    dealt_seeds: tuple[DealSeed, ...] = ()  # the client seeds of the hand dealt last
    #: Hand seeds known without the room seed (a verifier has only the revealed ones).
    revealed: dict[int, bytes] = field(default_factory=dict)
    #: The last commitment worked out from the seed: (seed, hand, commitment). Every state
    #: the table sends shows it, and it is two SHA-256s; one tuple of text per room.
    _committed: tuple[str, int, str] | None = field(
        default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.scheme not in (FAIR_V1, SEEDED_V0):
            raise ValueError(f"unknown deal scheme {self.scheme!r}")
        if not self.totals:
            self.totals = (0,) * self.engine.seat_count(self.options)

    @property
    def fair(self) -> bool:
        """Whether hands are dealt by the committed fair scheme."""
        return self.scheme == FAIR_V1

    def info(self) -> MatchInfo:
        """What the engine is told about the match before dealing hand ``hand``."""
        return MatchInfo(
            hand=self.hand, totals=self.totals, carry=self.carry, deal_scheme=self.scheme
        )

    def over(self) -> bool:
        """Whether the match ends before hand ``hand`` would be dealt."""
        return self.engine.match_over(self.options, self.info())

    def hand_seed(self, hand: int) -> bytes:
        """The secret seed of hand ``hand`` (fair scheme): revealed once the hand is over."""
        known = self.revealed.get(hand)
        return known if known is not None else hand_seed_for(self.seed, hand)

    def commitment(self, hand: int) -> str | None:
        """The public commitment to hand ``hand``'s seed (``None`` for ``seeded-v0``)."""
        if not self.fair:
            return None
        known = self.revealed.get(hand)
        if known is not None:
            return commitment(known)
        memo = self._committed
        if memo is None or memo[1] != hand or memo[0] != self.seed:
            memo = self._committed = (self.seed, hand, commitment(hand_seed_for(self.seed, hand)))
        return memo[2]

    def deal_seeds(self) -> tuple[DealSeed, ...]:
        """The client seeds hand ``hand`` would be dealt with now: each seat's own, or one
        the server draws for it (none at all for ``seeded-v0``)."""
        if not self.fair:
            return ()
        return tuple(
            DealSeed(self.client_seeds[seat], CLIENT)
            if seat in self.client_seeds
            else DealSeed(server_client_seed(self.hand_seed(self.hand), seat), SERVER)
            for seat in range(len(self.totals))
        )

    def hand_rng(self, seeds: Sequence[DealSeed] = ()) -> Rng:
        """The generator that deals hand ``hand`` with the client ``seeds``; it does not
        depend on anything played before."""
        if not self.fair:
            return SeededRng(self.seed).derive(str(self.hand))
        return FairRng.for_hand(self.hand_seed(self.hand), self.hand, [s.seed for s in seeds])

    def deal(self, seeds: Sequence[DealSeed] | None = None) -> Any:
        """The first state of hand ``hand``, dealt with ``seeds`` (by default
        ``deal_seeds()``: what the seats sent, the rest drawn by the server)."""
        chosen = tuple(seeds) if seeds is not None else self.deal_seeds()
        state = self.engine.initial_state(self.options, self.hand_rng(chosen), self.info())
        self.dealt_seeds = chosen
        self.client_seeds = {}
        return state

    def finish(self, state: Any) -> tuple[int, ...]:
        """Book the finished hand ``state``: its scores go to the totals and its carried data
        to the next hand (``hand`` still names it until ``advance``). Returns its scores."""
        scores = tuple(self.engine.scores(state))
        self.totals = tuple(t + s for t, s in zip(self.totals, scores, strict=True))
        self.hand_scores.append(scores)
        # As JSON reads it back: a match restored from a snapshot carries the same data.
        self.carry = json.loads(json.dumps(self.engine.carry(state)))
        return scores

    def next_commitment(self) -> str | None:
        """The commitment to the next hand's seed, once hand ``hand`` is booked (``None``
        when the match ends with it, or for ``seeded-v0``)."""
        if self.ends_before(self.hand + 1):
            return None
        return self.commitment(self.hand + 1)

    def ends_before(self, hand: int) -> bool:
        """Whether the match ends before ``hand`` would be dealt, ``hand`` being this hand
        or (once this one is booked) the next."""
        info = MatchInfo(hand, self.totals, self.carry, self.scheme)
        return self.engine.match_over(self.options, info)

    def advance(self) -> None:
        """Move on to the next hand."""
        self.hand += 1

    def restart(self) -> None:
        """Back to the first hand of a new match (same seed)."""
        self.hand, self.carry, self.hand_scores = 0, {}, []
        self.totals = (0,) * self.engine.seat_count(self.options)
