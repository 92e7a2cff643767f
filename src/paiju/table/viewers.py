"""Versions per viewer: what each seat (and the spectators together) has been shown.

Each viewer has its own counter that increases only when a state it is sent differs from the
last one in something it can see, and every action echoes the version of the state its seat
decided on. The table's own ``version`` counts every change but never reaches a player: with
one shared counter a seat could tell from a jump, or by probing with a version it was never
shown, that another seat answered in secret. A seat's current decision became visible at some
version of its own; an action naming an older one is ``stale_version``, and so is one naming a
version the seat was never shown.
"""

from __future__ import annotations

from typing import Any

import orjson

from paiju.core.errors import StaleVersion
from paiju.core.seats import Seat
from paiju.table.decisions import Waiting
from paiju.table.effects import Send

#: What differs between two states without a viewer being able to tell: counters (they count
#: hidden answers too) and the countdown.
COUNTERS = ("version", "deadline_ms", "decision_version")


class Viewers:
    """Each viewer's version and a digest of the last state content it was sent."""

    def __init__(self) -> None:
        self._seen: dict[Seat, int] = {}  # per viewer (seat or SPECTATORS): its own version
        self._floor = 0  # where counters start (after a restore: above any old version)
        # A digest, not the content: thousands of rooms keeping every viewer's last state as
        # live objects gave the garbage collector most of its work.
        self._last_shown: dict[Seat, int] = {}

    def shown_version(self, target: Seat) -> int:
        """The version of the last state sent to ``target`` (a seat, or ``SPECTATORS``)."""
        return self._seen.get(target, self._floor)

    def check(self, seat: Seat, version: int, waiting: Waiting | None) -> None:
        """Refuse an action against a state the seat was never shown or has since left.

        The messages name only the seat's own versions, never the table's."""
        shown = self.shown_version(seat)
        if version > shown:
            raise StaleVersion(f"version {version} was never sent to seat {seat} (last: {shown})")
        began = waiting.shown_from if waiting is not None else None
        if version < shown and (began is None or version < began):
            raise StaleVersion(
                f"version {version} is stale: your current state is version {shown}; "
                "reload it and decide again"
            )

    def show(self, target: Seat, content: dict[str, Any], waiting: Waiting | None,
             deadline_ms: int | None = None, written: bytes | None = None) -> Send | None:
        """The ``state`` to send ``target``, or ``None`` when it would show nothing new.

        ``content`` is the state without its counters (``COUNTERS``): what is compared with
        what ``target`` was last shown. When it is sent, the counters are added to it (it
        becomes the message) and written before it in the frame.

        Skipping unchanged states matters for hidden information: a seat that is not told of
        a change cannot learn from the version bump that another seat answered in secret. Its
        older version stays valid for its own decision.

        ``written``: ``content`` as ``_content`` writes it, when the caller wrote it (from
        parts it shares between viewers): the same bytes, so the same digest and frame."""
        body = _content(content) if written is None else written
        seen = _digest_of(body)
        version = self._seen.get(target, self._floor)
        if self._last_shown.get(target) == seen:
            if waiting is not None and waiting.shown_from is None:
                waiting.shown_from = version
            return None
        self._last_shown[target] = seen
        version = self._seen[target] = version + 1
        decision_version = None
        if waiting is not None:
            if waiting.shown_from is None:
                waiting.shown_from = version
            decision_version = waiting.shown_from
        content["version"] = version
        content["deadline_ms"] = deadline_ms
        content["decision_version"] = decision_version
        return Send(target, content, _with_counters(version, deadline_ms, decision_version, body))

    def restart_above(self, version: int) -> None:
        """Forget what was shown; every counter starts above ``version`` (after a restart the
        clients hold versions from before it)."""
        self._floor = version
        self._seen.clear()
        self._last_shown.clear()


def digest(content: dict[str, Any]) -> int:
    """A digest of a state's content (its JSON data with sorted keys): equal for equal
    content, and for different content equal only by a 64-bit hash collision."""
    return _digest_of(orjson.dumps(content, option=SORTED))


def _digest_of(body: bytes) -> int:
    """The digest of a content's encoding: Python's own hash of bytes (SipHash, keyed at
    random per process), six times cheaper than blake2b on a 2 KiB state. Kept only in this
    process's memory (``restart_above`` forgets them), so its key changing between processes
    changes nothing. Two different contents of one viewer in a row share it with odds of
    2**-64; the key is secret, so no one can choose content to collide with another."""
    return hash(body)


#: The content's encoding: sorted keys, so that equal content is equal bytes.
SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def _content(content: dict[str, Any]) -> bytes:
    """A state's content (all but its counters) as JSON with sorted keys: what its digest is
    of, and, after the counters, what it is sent as.

    Written first as if every key were a string, as every view's are: orjson's option for
    other keys costs a quarter of the writing (2-4 us a state) even when no key needs it. A
    key that is not a string (orjson refuses it) sends the content through ``SORTED``, which
    writes string keys to the same bytes."""
    try:
        return orjson.dumps(content, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return orjson.dumps(content, option=SORTED)


def _with_counters(version: int, deadline_ms: int | None, decision_version: int | None,
                   body: bytes) -> bytes:
    """The state as sent: its counters, then its content as ``_content`` encoded it (one
    encoding for the digest and the wire). The counters are whole numbers or null, written
    as orjson writes them."""
    counters = b'{"version":%d,"deadline_ms":%b,"decision_version":%b' % (
        version, _number(deadline_ms), _number(decision_version))
    if body == b"{}":
        return counters + b"}"
    # (the content without its opening brace, not copied out of ``body`` first)
    return b",".join((counters, memoryview(body)[1:]))


def _number(value: int | None) -> bytes:
    """A counter as JSON: a whole number, or null."""
    return b"null" if value is None else b"%d" % value
