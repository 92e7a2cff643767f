"""``paiju verify``: check a signed hand history, or a whole stored room.

Each check gives a ``Verdict``; the first failure names the record where it was found. A
history is checked for its signature, its chain (each record linked and hashed, the head the
last record's hash), that the document says what its records say, the commitment (SHA-256 of
the revealed hand seed), the client seeds (a server-drawn one must be the one derived from
the hand seed, a seat's own the one it sent), and then the deal is made again from the seeds
and every action replayed through the engine (legality, turn order), and the scores and
totals recomputed. A room (``--room``) is checked record by record from its creation: the
chain, the records from before the chain (their pinned digest), and a replay of everything.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from paiju.core.errors import GameError
from paiju.core.fairness import server_client_seed
from paiju.engines.registry import get_engine
from paiju.persistence.histories import FORMAT, describe
from paiju.persistence.restore import Damaged, check_chain, parse
from paiju.persistence.signing import signature_holds
from paiju.persistence.store import Store
from paiju.table.decisions import TableSettings
from paiju.table.ledger import Entry, canonical, first_break
from paiju.table.records import ActionRecord, RoomCreated, Snapshot
from paiju.table.restore import Rebuild, RecordMismatch
from paiju.table.seats import SeatBot
from paiju.table.table import Table


@dataclass(frozen=True)
class Verdict:
    """One check: its name, whether it held, what was found, and the failing record."""

    check: str
    ok: bool
    detail: str
    record: int | None = None

    def line(self) -> str:
        """The verdict as ``paiju verify`` prints it."""
        where = f" (record {self.record})" if self.record is not None else ""
        return f"{'ok  ' if self.ok else 'FAIL'}  {self.check}: {self.detail}{where}"


class Failed(Exception):
    """A check failed; ``verdict`` says which and where."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.line())
        self.verdict = verdict


def _no_bots(seat: int, level: int) -> SeatBot:
    raise ValueError("a verification plays no bot")


def _table(room: str, variant: str, options: Mapping[str, Any], seed: str, scheme: str
           ) -> Table:
    engine = get_engine(variant)
    return Table(room, engine, engine.normalize_options(dict(options)), seed, TableSettings(),
                 _no_bots, scheme)


# ---------------------------------------------------------------- one history


def verify_history(signed: Any, key: str | None = None) -> list[Verdict]:
    """Every check of a signed history, in order, up to the first failure. ``key``: the
    server's public key as the verifier knows it (hex); without it the document's own key is
    used, and the verdict says so."""
    verdicts: list[Verdict] = []

    def run(check: str, step: Callable[[], str]) -> bool:
        try:
            verdicts.append(Verdict(check, True, step()))
            return True
        except Failed as failed:
            verdicts.append(failed.verdict)
        except (GameError, RecordMismatch, ValueError, KeyError, TypeError) as exc:
            text = exc.message if isinstance(exc, GameError) else str(exc)
            verdicts.append(Verdict(check, False, text or type(exc).__name__))
        return False

    document: dict[str, Any] = {}
    entries: list[Entry] = []

    def form() -> str:
        if not isinstance(signed, dict) or not isinstance(signed.get("history"), dict):
            raise ValueError("not a signed history ({\"history\": ..., \"signature\": ...})")
        document.update(signed["history"])
        if document.get("format") != FORMAT:
            raise ValueError(f"the format is not {FORMAT}")
        entries.extend(Entry(*e) for e in document["chain"]["entries"])
        return f"room {document['room']}, hand {document['hand']}, {document['variant']}"

    checks: list[tuple[str, Callable[[], str]]] = [
        ("document", form),
        ("signature", lambda: _signature(signed, document, key)),
        ("chain", lambda: _chain(document, entries)),
        ("records", lambda: _records(document, entries)),
        ("commitment", lambda: _commitment(document)),
        ("client seeds", lambda: _client_seeds(document)),
        ("deal, actions and scores", lambda: _replay(document, entries)),
    ]
    for check, step in checks:
        if not run(check, step):
            break
    return verdicts


def _signature(signed: dict[str, Any], document: dict[str, Any], key: str | None) -> str:
    public = str(document.get("public_key", ""))
    if key is not None and key.lower() != public.lower():
        raise ValueError("the document names another key than the server's")
    data = canonical(document).encode("utf-8")
    if not signature_holds(public, data, str(signed.get("signature", ""))):
        raise ValueError("the signature does not hold")
    source = "the given key" if key is not None else "the document's own key (pass --key)"
    return f"Ed25519, {source} {public[:16]}..."


def _chain(document: dict[str, Any], entries: list[Entry]) -> str:
    broken = first_break(entries)
    if broken is not None:
        raise Failed(Verdict("chain", False, broken.reason, broken.n))
    if not entries or entries[-1].hash != document["chain"]["head"]:
        raise ValueError("the head is not the hash of the last record")
    return f"{len(entries)} records, head {entries[-1].hash[:16]}..."


def _records(document: dict[str, Any], entries: list[Entry]) -> str:
    said = describe(document["room"], document["variant"], document["options"],
                    document["hand"], entries, document["public_key"])
    for field in said:
        if said[field] != document.get(field):
            raise ValueError(f"the document's {field!r} is not what its records say")
    return "the document says what its records say"


def _commitment(document: dict[str, Any]) -> str:
    deal = document["deal"]
    if deal["scheme"] != "fair-v1":
        return f"not applicable: a {deal['scheme']} deal (from before fair deals)"
    if hashlib.sha256(bytes.fromhex(deal["hand_seed"])).hexdigest() != deal["commitment"]:
        raise ValueError("SHA-256 of the revealed hand seed is not the commitment")
    return f"SHA-256(hand seed) = {deal['commitment'][:16]}..."


def _client_seeds(document: dict[str, Any]) -> str:
    deal = document["deal"]
    if deal["scheme"] != "fair-v1":
        return "not applicable"
    hand_seed = bytes.fromhex(deal["hand_seed"])
    counts = {"client": 0, "server": 0}
    for item in deal["client_seeds"]:
        if item["origin"] == "server" and item["seed"] != server_client_seed(
            hand_seed, item["seat"]
        ):
            raise ValueError(f"seat {item['seat']}'s server-drawn seed is not derived from the "
                             "hand seed")
        counts[item["origin"]] += 1
    return f"{counts['client']} sent by seats, {counts['server']} drawn from the hand seed"


def _replay(document: dict[str, Any], entries: list[Entry]) -> str:
    deal = document["deal"]
    if deal["scheme"] != "fair-v1":
        return "not applicable: the deal depends on the room's secret seed (paiju verify --room)"
    table = _table(document["room"], document["variant"], document["options"], "", "fair-v1")
    table.match.revealed[document["hand"]] = bytes.fromhex(deal["hand_seed"])
    records = [parse(document["room"], e) for e in entries]
    if not isinstance(records[0], Snapshot):
        raise ValueError("the records do not start with the hand's snapshot")
    table.genesis = records[0].genesis
    rebuild = Rebuild(table, check=True)
    for entry, record in zip(entries, records, strict=True):
        try:
            rebuild.apply(record)
        except (GameError, RecordMismatch) as exc:
            text = exc.message if isinstance(exc, GameError) else str(exc)
            raise Failed(Verdict("deal, actions and scores", False, text, entry.n)) from None
    actions = sum(isinstance(r, ActionRecord) for r in records)
    return f"dealt again, {actions} actions replayed legally, scores {document['scores']}"


# ---------------------------------------------------------------- a whole room


#: How many records pass between two reports to a progress bar.
PROGRESS_EVERY = 64


def verify_room(
    store: Store, room_id: str, progress: Callable[[int, int], None] | None = None
) -> list[Verdict]:
    """Every check of a stored room, up to the first failure; ``progress(done, total)`` is
    told how many records have been replayed (for a bar: a long match has thousands)."""
    verdicts: list[Verdict] = []
    try:
        check_chain(store, room_id)
    except Damaged as exc:
        return [Verdict("chain", False, exc.reason, exc.n)]
    stored = store.entries(room_id)
    created = parse(room_id, stored[0].entry)
    assert isinstance(created, RoomCreated)
    verdicts.append(Verdict("chain", True, f"{len(stored)} records, every one linked and "
                            f"hashed, head {stored[-1].entry.hash[:16]}..."))
    table = _table(room_id, created.variant, created.options, created.seed, created.scheme)
    table.genesis = stored[0].entry.hash
    rebuild = Rebuild(table, check=True)
    rebuild.apply(created)
    if created.pre_chain is not None:
        pinned = created.pre_chain
        try:
            rebuild.legacy(store.legacy_actions(room_id))
        except (GameError, RecordMismatch) as exc:
            text = exc.message if isinstance(exc, GameError) else str(exc)
            return [*verdicts, Verdict("pre-chain", False, text, 0)]
        verdicts.append(Verdict(
            "pre-chain", True, f"{pinned['actions']} actions and {pinned['hands']} hand results "
            "from before the chain: replayed, digest as pinned at the upgrade"))
    hands = actions = 0
    for done, item in enumerate(stored[1:], start=1):
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress(done, len(stored) - 1)
        try:
            record = parse(room_id, item.entry)
            rebuild.apply(record)
        except (GameError, RecordMismatch, Damaged) as exc:
            text = exc.message if isinstance(exc, GameError) else str(exc)
            return [*verdicts, Verdict("replay", False, text, item.entry.n)]
        hands += item.entry.kind == "hand"
        actions += item.entry.kind == "action"
    if progress is not None:
        progress(len(stored) - 1, len(stored) - 1)
    verdicts.append(Verdict("replay", True, f"{actions} actions replayed legally, {hands} hands "
                            "scored as the rules score them, snapshots and seeds as recorded"))
    return verdicts
