"""What a room stores, record by record (each is one entry of the room's hash chain).

Every record carries the table's ``version`` when it was made, so that after a restart every
viewer's next version can start above any version it was ever sent (docs/protocol.md).
``record_body`` is the JSON data an entry holds; ``parse_record`` reads it back.
docs/operations.md lists the kinds and their fields.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RoomCreated:
    """Entry 0: how the room was made. A room stored before the chain existed gets one when
    the database is upgraded, with ``pre_chain`` pinning its older records (their count and
    digest) and ``status`` its summary at the upgrade."""

    room: str
    variant: str
    options: dict[str, Any]
    seed: str
    settings: dict[str, Any]
    created_at: float
    scheme: str
    pre_chain: dict[str, Any] | None = None
    status: dict[str, Any] | None = None
    version: int = 0
    kind = "room"


@dataclass(frozen=True)
class ActionRecord:
    """One accepted action."""

    hand: int
    seq: int
    seat: int
    action: str
    source: str  # "player", "bot", "timeout", "trustee" or "bot_fallback"
    version: int = 0
    kind = "action"


@dataclass(frozen=True)
class HandRecord:
    """The end of a hand: its per-seat scores, the match totals after it, and (fair deals)
    its revealed hand seed."""

    hand: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    version: int = 0
    hand_seed: str | None = None
    kind = "hand"


@dataclass(frozen=True)
class RoomStatus:
    """The room's phase changed, or its seats did: the summary after the change."""

    phase: str
    totals: tuple[int, ...]
    seats: tuple[dict[str, Any], ...]
    version: int = 0
    kind = "status"


@dataclass(frozen=True)
class SeedRecord:
    """A seat's client seed for hand ``hand``, received before that hand was dealt."""

    hand: int
    seat: int
    seed: str
    version: int = 0
    kind = "seed"


@dataclass(frozen=True)
class DealRecord:
    """Hand ``hand`` was dealt: the commitment to its seed and the client seeds used, as
    ``(seed, origin)`` per seat (none for ``seeded-v0`` deals)."""

    hand: int
    commitment: str | None
    seeds: tuple[tuple[str, str], ...]
    version: int = 0
    kind = "deal"


@dataclass(frozen=True)
class Snapshot:
    """The room, enough to restore it without the records before (which it follows in the
    chain). Taken at a hand boundary, just before hand ``hand`` is dealt (``state`` is
    ``None``), and every few actions during a hand: then ``state`` is the engine's state
    (``paiju.table.states``), ``answered`` the seats that answered the open simultaneous
    decision and ``dealt`` the hand's client seeds. ``genesis`` is the hash of entry 0,
    whose room settings the snapshot goes with."""

    hand: int
    totals: tuple[int, ...]
    carry: dict[str, Any]
    hand_scores: tuple[tuple[int, ...], ...]
    seq: int
    version: int
    seats: tuple[dict[str, Any], ...]
    client_seeds: dict[str, str] = field(default_factory=dict)
    genesis: str = ""
    phase: str = "waiting"
    state: Any = None
    answered: tuple[int, ...] = ()
    dealt: tuple[tuple[str, str], ...] = ()
    kind = "snapshot"


def _one_step_init(cls: type[Any]) -> None:
    """Give the frozen dataclass ``cls`` an ``__init__`` of the same signature that sets its
    instance dict in one step: the generated one sets each field through
    ``object.__setattr__`` (a snapshot's 13 fields cost more than the rest of its making;
    a table makes a record or two per action). As ``Entry`` does by hand."""
    names: dict[str, Any] = {"_set": object.__setattr__, "_MISSING": dataclasses.MISSING}
    params, items = [], []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            names[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
            items.append(f"{f.name!r}: {f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            names[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_MISSING")
            items.append(f"{f.name!r}: _factory_{f.name}() if {f.name} is _MISSING else {f.name}")
        else:
            params.append(f.name)
            items.append(f"{f.name!r}: {f.name}")
    made: dict[str, Any] = {}
    # (the text is made here from the class's own field names, as dataclasses does)
    exec(
        f"def __init__(self, {', '.join(params)}):\n"
        f"    _set(self, '__dict__', {{{', '.join(items)}}})\n", names, made)
    made["__init__"].__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = made["__init__"]


Record = (
    RoomCreated | ActionRecord | HandRecord | RoomStatus | SeedRecord | DealRecord | Snapshot
)

KINDS: dict[str, type[Any]] = {
    cls.kind: cls
    for cls in (RoomCreated, ActionRecord, HandRecord, RoomStatus, SeedRecord, DealRecord,
                Snapshot)
}
#: Each kind's fields in order, and whether a field keeps the lists it is read with (JSON
#: data kept as it is) rather than turning them into tuples: worked out once
#: (``dataclasses.fields`` walks a class's fields anew on every call: a few microseconds per
#: record, and a table stores one or two per action and reads every room's at a restart).
_KEEPS_LISTS: dict[type[Any], dict[str, bool]] = {
    cls: {
        f.name: f.type in ("dict[str, Any]", "dict[str, Any] | None", "Any")
        for f in dataclasses.fields(cls)
    }
    for cls in KINDS.values()
}
_FIELD_NAMES = {cls: tuple(fields) for cls, fields in _KEEPS_LISTS.items()}
for _kind in KINDS.values():
    _one_step_init(_kind)


def record_body(record: Record) -> dict[str, Any]:
    """The JSON data of ``record``, its fields as they are (JSON writes tuples as lists);
    no deep copy: the body is serialized at once (``Ledger.append``).

    A record's fields are all ``__init__`` fields and they are all its instance dict holds:
    a copy of the dict is a sixth of the cost of asking for each field (1.5 us a record, one
    or two an action). Anything else kept in the dict is left out, the slow way."""
    body = record.__dict__.copy()
    names = _FIELD_NAMES[type(record)]
    if len(body) != len(names):
        return {name: getattr(record, name) for name in names}
    return body


def _tuples(value: list[Any]) -> tuple[Any, ...]:
    """``value`` with every list in it, at any depth, a tuple. Only the lists are walked: a
    call per element (scalars and the seats' dicts too) was a third of a record's reading."""
    return tuple([_tuples(v) if isinstance(v, list) else v for v in value])


def parse_record(kind: str, data: dict[str, Any]) -> Record:
    """The record of ``kind`` held in ``data``.

    Raises ``ValueError`` for an unknown kind or data that does not fit it."""
    cls = KINDS.get(kind)
    if cls is None:
        raise ValueError(f"unknown record kind {kind!r}")
    keeps = _KEEPS_LISTS[cls]
    unknown = data.keys() - keeps.keys()
    if unknown:
        raise ValueError(f"a {kind} record has no field {sorted(unknown)[0]!r}")
    values = {
        name: _tuples(value) if isinstance(value, list) and not keeps[name] else value
        for name, value in data.items()
    }
    try:
        record: Record = cls(**values)
    except TypeError as exc:
        raise ValueError(f"a {kind} record is incomplete: {exc}") from None
    return record
