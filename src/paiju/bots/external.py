"""Seat drivers: how an external bot program is asked for a seat's decisions.

A ``SeatDriver`` is fed, state after state, the events the seat saw and (when the seat must
act) a ``Decision``; it answers an action in the variant's notation, or ``None`` when the
program failed (it crashed, missed its time, or answered something unreadable), after
reporting the failure with the request that caused it. Whoever drives it (the bridge over
a WebSocket, the arena in-process) then plays the fallback. Two drivers exist:

* ``JsonLinesDriver`` — paiju's own protocol (docs/bots.md): one JSON request line per
  decision, one JSON answer line, one long-running process.
* ``paiju.bots.botzone.BotzoneDriver`` — the Botzone "Chinese Standard Mahjong" protocol.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

from paiju.bots.program import Program, ProgramCrashed, ProgramError, ProgramTimeout

#: Seconds kept back from a server deadline so the answer arrives before it.
DEADLINE_MARGIN = 0.25
#: The shortest time a program is ever given.
MIN_THINK = 0.05


class RoomRefused(Exception):
    """A seat's program cannot play this room (its rules differ from what the program
    expects in a way no translation can hide); the message says why."""


@dataclass(frozen=True)
class Decision:
    """A decision the seat must make now, with the match context a bot may want.

    ``deadline`` is the seconds left before the table acts for the seat (``None``: no limit).
    """

    variant: str
    seat: int
    view: Mapping[str, Any]
    deadline: float | None = None
    room: str | None = None
    hand: int = 0
    totals: Sequence[int] = ()
    seats: Sequence[Mapping[str, Any]] = ()
    key: Any = None  # who asks may tag the decision (the bridge: room and decision version)

    def time_limit(self, answer_timeout: float) -> float:
        """How long the program may think: the deadline less a margin, at most
        ``answer_timeout`` seconds (the limit where there is no deadline)."""
        if self.deadline is None:
            return answer_timeout
        return max(MIN_THINK, min(answer_timeout, self.deadline - DEADLINE_MARGIN))


@dataclass
class Reporter:
    """Writes failures to a stream (stderr) as one block each, naming the request."""

    stream: TextIO = field(default_factory=lambda: sys.stderr)
    label: str = "paiju bot"
    failures: int = 0

    def failure(self, what: str, request: Any, fallback: str) -> None:
        """Report that ``what`` went wrong with ``request``; ``fallback`` says what happens."""
        self.failures += 1
        shown = request if isinstance(request, str) else json.dumps(request, ensure_ascii=False)
        self.stream.write(f"{self.label}: {what}; {fallback}\n  request: {shown}\n")
        self.stream.flush()

    def note(self, text: str) -> None:
        """An informative line (a rule difference, a rematch, ...)."""
        self.stream.write(f"{self.label}: {text}\n")
        self.stream.flush()


class SeatDriver(Protocol):
    """Asks an external program for one seat's actions."""

    def step(
        self,
        events: Sequence[Mapping[str, Any]],
        view: Mapping[str, Any] | None,
        decision: Decision | None,
    ) -> str | None:
        """Take in ``events`` (``{"kind", "data"}``, as the seat saw them since the last
        step) and the seat's current ``view``; when ``decision`` is given, the action to play
        (notation), or ``None`` after reporting a failure."""
        ...

    def refused(self, action: str, reason: str, fallback: str) -> None:
        """Report that the table refused ``action`` (the answer to the last request)."""
        ...

    def match_over(self, totals: Sequence[int]) -> None:
        """The match ended with ``totals``."""
        ...

    def close(self) -> None:
        """Stop the program."""
        ...


class ProgramDriver:
    """What every driver of a program keeps: where failures are reported, how long the
    program may think without a deadline, what a failure falls back to, and the request last
    sent (reported with a refusal)."""

    def __init__(self, reporter: Reporter, answer_timeout: float, fallback: str) -> None:
        self.reporter = reporter
        self.answer_timeout = answer_timeout
        self.fallback = fallback
        self.last_request: Any = None

    def refused(self, action: str, reason: str, fallback: str) -> None:
        """Report that the table refused ``action``, the answer to the last request."""
        self.reporter.failure(f"invalid answer {action!r}: {reason}", self.last_request, fallback)


class JsonLinesDriver(ProgramDriver):
    """paiju's JSON-lines protocol: one request line per decision, one answer line.

    Requests carry ``id``; an answer may echo it. Answers left over from a request whose time
    ran out are read and dropped, so every decision is answered by its own answer. A program
    that crashes is started again for the next decision.
    """

    def __init__(
        self, program: Program, reporter: Reporter, answer_timeout: float, fallback: str
    ) -> None:
        super().__init__(reporter, answer_timeout, fallback)
        self.program = program
        self._events: list[Mapping[str, Any]] = []
        self._next_id = 0
        self._owed = 0  # requests whose answers timed out and may still arrive

    def step(
        self,
        events: Sequence[Mapping[str, Any]],
        view: Mapping[str, Any] | None,
        decision: Decision | None,
    ) -> str | None:
        self._events.extend(events)
        if decision is None:
            return None
        self._next_id += 1
        request = request_for(decision, self._next_id, self._events, self.answer_timeout)
        self._events = []
        self.last_request = request
        limit = decision.time_limit(self.answer_timeout)
        try:
            if not self.program.running:
                self._owed = 0
            self.program.send(json.dumps(request, ensure_ascii=False))
            return self._answer(request, limit)
        except ProgramTimeout:
            self._owed += 1
            what = f"no answer within {limit:.2f} s (missed deadline)"
        except ProgramCrashed as exc:
            self._owed = 0
            what = f"the program crashed: {exc}"
        self.reporter.failure(what, request, self.fallback)
        return None

    def _answer(self, request: Mapping[str, Any], limit: float) -> str | None:
        """Read lines until this request's answer (dropping late ones); validate it."""
        ends = time.monotonic() + limit
        while True:
            line = self.program.read_line(max(0.0, ends - time.monotonic()))
            if not line.strip():
                continue
            answer = _parse_answer(line)
            ident = answer.get("id") if isinstance(answer, dict) else None
            if ident is not None and ident != request["id"]:
                self._owed = max(0, self._owed - 1)
                continue  # the late answer to an older request
            if ident is None and self._owed:
                self._owed -= 1
                continue
            action = answer.get("action") if isinstance(answer, dict) else None
            if isinstance(action, str) and action.strip():
                return action.strip()
            self.reporter.failure(
                f"unreadable answer {line[:200]!r} (expected a JSON object with a string "
                '"action")',
                request,
                self.fallback,
            )
            return None

    def match_over(self, totals: Sequence[int]) -> None:
        notice = {"type": "match_over", "totals": list(totals)}
        try:
            if self.program.running:
                self.program.send(json.dumps(notice))
        except ProgramError:
            pass  # a notice needs no answer; a gone program is started again when needed

    def close(self) -> None:
        self.program.stop()


def request_for(
    decision: Decision, ident: int, events: Sequence[Mapping[str, Any]], answer_timeout: float
) -> dict[str, Any]:
    """The JSON-lines request for ``decision`` (docs/bots.md, "The request")."""
    view = decision.view
    limit = decision.time_limit(answer_timeout)
    return {
        "type": "request",
        "id": ident,
        "variant": decision.variant,
        "room": decision.room,
        "seat": decision.seat,
        "hand": decision.hand,
        "totals": list(decision.totals),
        "seats": [dict(s) for s in decision.seats],
        "deadline_ms": int(limit * 1000),
        "legal": list(view.get("legal", [])),
        "legal_complete": bool(view.get("legal_complete", True)),
        "view": dict(view),
        "events": [dict(e) for e in events],
    }


def _parse_answer(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None
