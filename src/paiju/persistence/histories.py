"""Signed hand histories: one document per finished hand, made from the room's records.

A history holds the room's records of one hand, from the snapshot taken just before its deal
to its result (``chain.entries``, each ``[n, kind, body, prev, hash]``, the last one's hash
being ``chain.head``), and, read from those records, the deal (scheme, the revealed hand
seed, its commitment, each seat's client seed and whether the seat sent it or the server put
it in), every action with its seat and source, the scores and totals. The server signs the
canonical JSON of the document with its Ed25519 key; ``paiju verify`` checks it all.

A history exists only once its hand is over: nothing is ever told about a hand in progress.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from paiju.persistence.signing import HistoryKey
from paiju.persistence.store import Store
from paiju.table.ledger import Entry, canonical
from paiju.table.records import (
    ActionRecord,
    DealRecord,
    HandRecord,
    RoomCreated,
    Snapshot,
    parse_record,
)

#: The document format named in every history.
FORMAT = "paiju-history-v1"


def hand_segment(entries: Sequence[Entry], hand: int) -> list[Entry] | None:
    """The entries of hand ``hand``: from the snapshot taken just before its deal to its
    result, or ``None`` while the hand is not over (or was played before the chain)."""
    end = _last(entries, len(entries) - 1, HandRecord.kind, hand)
    deal = _last(entries, end, DealRecord.kind, hand) if end is not None else None
    start = _last(entries, deal, Snapshot.kind, hand) if deal is not None else None
    return list(entries[start : end + 1]) if start is not None and end is not None else None


def _last(entries: Sequence[Entry], before: int, kind: str, hand: int) -> int | None:
    """The index of the last entry of ``kind`` for ``hand`` at or before ``before``."""
    for i in range(before, -1, -1):
        if entries[i].kind == kind and entries[i].data()["hand"] == hand:
            return i
    return None


def describe(
    room: str, variant: str, options: Mapping[str, Any], hand: int, segment: Sequence[Entry],
    public_key: str,
) -> dict[str, Any]:
    """The history document of hand ``hand`` from its ``segment`` of the chain (unsigned).

    Raises ``ValueError`` for a segment that is not one hand's records."""
    records = [parse_record(e.kind, e.data()) for e in segment]
    start, result = records[0], records[-1]
    if isinstance(start, Snapshot) and start.state is not None:
        raise ValueError("a hand's records start with the snapshot taken before its deal")
    deals = [r for r in records if isinstance(r, DealRecord)]
    if not isinstance(start, Snapshot) or not isinstance(result, HandRecord) or len(deals) != 1:
        raise ValueError("the records are not those of one dealt and finished hand")
    deal = deals[0]
    return {
        "format": FORMAT,
        "room": room,
        "variant": variant,
        "options": dict(options),
        "hand": hand,
        "start": {"totals": list(start.totals), "carry": start.carry},
        "deal": {
            "scheme": "fair-v1" if deal.commitment is not None else "seeded-v0",
            "hand_seed": result.hand_seed,
            "commitment": deal.commitment,
            "client_seeds": [
                {"seat": seat, "seed": seed, "origin": origin}
                for seat, (seed, origin) in enumerate(deal.seeds)
            ],
        },
        "actions": [
            {"seq": r.seq, "seat": r.seat, "action": r.action, "source": r.source}
            for r in records
            if isinstance(r, ActionRecord)
        ],
        "scores": list(result.scores),
        "totals": list(result.totals),
        "chain": {
            "head": segment[-1].hash,
            "entries": [[e.n, e.kind, e.body, e.prev, e.hash] for e in segment],
        },
        "public_key": public_key,
    }


def signed(document: dict[str, Any], key: HistoryKey) -> dict[str, Any]:
    """``{"history": document, "signature": ...}``: Ed25519 over the document's canonical
    JSON (UTF-8)."""
    return {"history": document, "signature": key.sign(canonical(document).encode("utf-8"))}


class Histories:
    """Builds and signs histories on request, keeping the latest few (they never change),
    and each room's records while the room has no new one: a stream of requests for hands
    that are not over reads a room once, not once per request."""

    def __init__(self, store: Store, key: HistoryKey, keep: int = 256) -> None:
        self.store = store
        self.key = key
        self._kept: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._read: OrderedDict[str, tuple[int, list[Entry]]] = OrderedDict()
        self._keep = keep

    def _entries(self, room_id: str) -> list[Entry]:
        last = self.store.last_entry(room_id)
        if last is None:
            return []
        read = self._read.get(room_id)
        if read is None or read[0] != last:
            read = (last, self.store.chain(room_id))
            self._read[room_id] = read
            if len(self._read) > 16:
                self._read.popitem(last=False)
        self._read.move_to_end(room_id)
        return read[1]

    def get(self, room_id: str, hand: int) -> dict[str, Any] | None:
        """The signed history of hand ``hand`` of ``room_id``, or ``None`` (no such room,
        or the hand is not over)."""
        found = self._kept.get((room_id, hand))
        if found is not None:
            self._kept.move_to_end((room_id, hand))
            return found
        entries = self._entries(room_id)
        if not entries or entries[0].kind != RoomCreated.kind:
            return None
        segment = hand_segment(entries, hand)
        if segment is None:
            return None
        created = parse_record(entries[0].kind, entries[0].data())
        assert isinstance(created, RoomCreated)
        document = describe(
            room_id, created.variant, created.options, hand, segment, self.key.public_hex
        )
        found = signed(document, self.key)
        self._kept[(room_id, hand)] = found
        if len(self._kept) > self._keep:
            self._kept.popitem(last=False)
        return found
