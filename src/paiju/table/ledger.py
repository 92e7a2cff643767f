"""A room's hash chain: every stored record carries the hash of the one before it.

An entry is ``(n, kind, body, prev, hash)``: ``n`` counts the room's records from 0 (the
room's creation), ``body`` is the record as canonical JSON text (``canonical``), ``prev`` is
the previous entry's hash (64 zeros for entry 0) and

    hash = SHA-256( "paiju-chain-v1" || 0x00 || prev (32 bytes) || u64(n) || kind (UTF-8)
                    || 0x00 || body (UTF-8) )

as lowercase hex (u64 big-endian). The body is hashed as stored, so a verifier in any
language hashes the bytes it reads and parses them only for their meaning. Changing, adding,
removing or reordering any record changes every later hash; the head (the last hash) is
announced with every ``hand_scored`` and signed into every hand history, which anchors it
outside the database. docs/fairness.md specifies this; the tests check its vectors.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

#: Domain separation of the chain's hash.
CHAIN_DOMAIN = b"paiju-chain-v1\x00"
#: ``prev`` of entry 0.
GENESIS_PREV = "0" * 64
_set = object.__setattr__


def canonical(data: Mapping[str, Any], finite: Collection[str] = ()) -> str:
    """``data`` as canonical JSON: keys sorted, no spaces, UTF-8 text kept as it is, no NaN.

    The text is the standard library's (``_standard``); orjson writes the same text some ten
    times faster for the data a table keeps (a snapshot's state is kilobytes, every two
    actions), and the standard library writes whatever orjson does not surely write alike.
    ``finite``: keys whose values the caller knows to hold no NaN and no infinity (a
    snapshot's state, which ``encode_state`` checked as it wrote it): only the others are
    searched for them. Raises ``ValueError`` (or ``TypeError``) for data that JSON cannot
    hold."""
    return _texts(data, finite)[0]


def _texts(data: Mapping[str, Any], finite: Collection[str]) -> tuple[str, bytes]:
    """The canonical text of ``data`` and its UTF-8 bytes (which orjson writes: the chain
    hashes them, and encoding the text again cost a microsecond per snapshot)."""
    try:
        fast, nulls = _fast(data, finite)
    except TypeError:  # keys that are not text, integers beyond 64 bits, other types
        text = _standard(data)
        return text, text.encode("utf-8")
    # (``-`` first: one byte is looked for at C speed, and most texts hold none; a search
    # for ``e-`` took 2.5 us in a snapshot of MCR, which holds many an ``e``.)
    if ((b"-" in fast and b"e-" in fast) or b"0.0000" in fast
            or (fast.count(b"null") != nulls and not _finite(data, finite))):
        text = _standard(data)
        return text, text.encode("utf-8")
    return fast.decode("utf-8"), fast


def _fast(data: Mapping[str, Any], finite: Collection[str]) -> tuple[bytes, int]:
    """orjson's text of ``data`` and how many ``null`` are in the values of the keys in
    ``finite`` (a null there is a ``None``): a count of them in the whole text that is no
    higher says that no other value is a NaN or an infinity (written as ``null`` too).

    Those values are written first, each on its own, and put in the text as they are
    (``orjson.Fragment``: the same bytes as written inline, keys sorted), so that their
    nulls are counted in their own text: a snapshot's state always holds one, and writing
    the rest again to look for them (``_finite``) was a third of a snapshot's text."""
    parts = {key: orjson.dumps(data[key], option=_ORJSON) for key in finite if key in data}
    if not parts:
        return orjson.dumps(data, option=_ORJSON), 0
    nulls = sum(part.count(b"null") for part in parts.values())
    whole = {**data, **{key: orjson.Fragment(part) for key, part in parts.items()}}
    return orjson.dumps(whole, option=_ORJSON), nulls


def _standard(data: Mapping[str, Any]) -> str:
    """The canonical text as the standard library writes it (the definition)."""
    return json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


#: orjson's canonical form; the types the standard library refuses or writes otherwise
#: (dataclasses, dates, subclasses of str, int, list and dict) are refused, for ``_standard``.
_ORJSON = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)
#: A float in a pickle: the BINFLOAT opcode and the IEEE 754 bits, big-endian; all exponent
#: bits set is an infinity or a NaN.
_NOT_FINITE = re.compile(rb"G[\x7f\xff][\xf0-\xff]")


def _finite(data: Mapping[str, Any], known: Collection[str] = ()) -> bool:
    """Whether ``data`` holds no NaN and no infinity (orjson writes them as ``null``, which
    the canonical form refuses) besides in the values of the keys ``known`` to hold none.

    The rest is written again, without them: most often it holds no ``null`` at all (a
    snapshot's nulls are in its state), which settles it. Otherwise pickle writes every
    float as its IEEE bits, at C speed: a scan of them is several times cheaper than a walk
    in Python (but 17 us for a snapshot of MCR, whose state always holds a null); a false
    alarm only costs the standard library's encoding."""
    if known:
        data = {key: value for key, value in data.items() if key not in known}
        if b"null" not in orjson.dumps(data):  # (in any order: no need to sort the keys)
            return True
    return _NOT_FINITE.search(pickle.dumps(data, protocol=5)) is None


def link(prev: str, n: int, kind: str, body: str) -> str:
    """The hash of entry ``n`` of ``kind`` with ``body`` after the entry whose hash is
    ``prev``. Raises ``ValueError`` if ``prev`` is not 64 hex digits."""
    return _link(prev, n, kind, body.encode("utf-8"))


def _link(prev: str, n: int, kind: str, body: bytes) -> str:
    """``link`` of a body given as its UTF-8 bytes."""
    if len(prev) != 64:
        raise ValueError("a chain hash has 64 hex digits")
    material = CHAIN_DOMAIN + bytes.fromhex(prev) + n.to_bytes(8, "big")
    material += kind.encode("utf-8") + b"\x00" + body
    return hashlib.sha256(material).hexdigest()


#: Every ASCII digit as "0", so that a run of digits is a run of zeros: a body's digits are
#: found by ``bytes.translate`` and ``bytes.find`` at C speed (the regular expression
#: ``\d{19}`` tried each digit as the start of a run: 27 us a record, twice orjson's reading
#: of it, 2.4 us this way; 10% of a restart's restore of 1,000 rooms).
_DIGITS_AS_ZERO = bytes.maketrans(b"0123456789", b"0" * 10)
#: Digits enough for an integer beyond 64 bits, which orjson would read as a float.
_LONG_NUMBER = b"0" * 19


def _long_number(body: str) -> bool:
    """Whether ``body`` holds a run of 19 ASCII digits (JSON writes numbers in ASCII digits
    only; a lone surrogate, which orjson refuses anyway, is encoded as it is)."""
    return body.encode("utf-8", "surrogatepass").translate(_DIGITS_AS_ZERO).find(
        _LONG_NUMBER) >= 0


@dataclass(frozen=True, init=False)
class Entry:
    """One record of a room's chain, as stored."""

    n: int
    kind: str
    body: str
    prev: str
    hash: str

    def __init__(self, n: int, kind: str, body: str, prev: str, hash: str) -> None:
        # The fields in one step: a frozen dataclass's own ``__init__`` sets each through
        # ``object.__setattr__`` (0.7 us against 1.2; an entry is made for every record
        # stored and for every one a restart reads).
        _set(self, "__dict__", {"n": n, "kind": kind, "body": body, "prev": prev,
                                "hash": hash})

    def data(self) -> dict[str, Any]:
        """The body parsed: by orjson (a restart reads a few records of every room, and
        the standard library took twice as long), by the standard library where orjson
        would read it otherwise: an integer beyond 64 bits (orjson makes it a float; any
        run of 19 digits goes the slow way) and what orjson refuses (a lone surrogate)."""
        body = self.body
        if not _long_number(body):
            try:
                fast: dict[str, Any] = orjson.loads(body)
                return fast
            except orjson.JSONDecodeError:
                pass
        parsed: dict[str, Any] = json.loads(body)
        return parsed

    def intact(self) -> bool:
        """Whether ``hash`` is the hash of this entry's own fields."""
        try:
            return link(self.prev, self.n, self.kind, self.body) == self.hash
        except ValueError:
            return False


class Ledger:
    """Makes a room's next entries: knows the head (the last hash) and the next number."""

    def __init__(self, head: str = GENESIS_PREV, next_n: int = 0) -> None:
        self.head = head
        self.next_n = next_n

    @classmethod
    def after(cls, entry: Entry) -> Ledger:
        """A ledger that continues after ``entry``."""
        return cls(entry.hash, entry.n + 1)

    def append(self, kind: str, data: Mapping[str, Any], finite: Collection[str] = ()
               ) -> Entry:
        """The next entry, holding ``data`` (``finite``: as for ``canonical``); the head
        moves to it."""
        body, raw = _texts(data, finite)
        n, head = self.next_n, self.head
        entry = Entry(n, kind, body, head, _link(head, n, kind, raw))
        self.head, self.next_n = entry.hash, n + 1
        return entry


@dataclass(frozen=True)
class Break:
    """Where a chain fails to verify: the entry number and why."""

    n: int
    reason: str


def first_break(entries: Iterable[Entry], prev: str | None = None, n: int | None = None
                ) -> Break | None:
    """The first entry that does not verify, or ``None``.

    ``entries`` must follow each other without a gap from number ``n`` (default: the first
    entry's own), each linking to the one before (the first to ``prev``, when given) and
    each hash matching its fields."""
    for entry in entries:
        if n is not None and entry.n != n:
            return Break(n, f"record {n} is missing (the next stored record is {entry.n})")
        if prev is not None and entry.prev != prev:
            return Break(entry.n, "it does not link to the record before it")
        if not entry.intact():
            return Break(entry.n, "its hash does not match its contents")
        prev, n = entry.hash, entry.n + 1
    return None
