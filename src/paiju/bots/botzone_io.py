"""Running a Botzone bot program, and the ``SeatDriver`` that plays a seat with one.

Botzone's bot interface (its wiki's "Bot" page): every turn the bot gets the game's requests
so far and its own earlier responses, and prints one response. With JSON I/O the input is one
line ``{"requests": [...], "responses": [...], "data": ..., "globaldata": ...}`` and the
output a JSON object ``{"response": ..., "data": ..., "globaldata": ...}``; with simple I/O
the input is the turn number ``n``, then the ``2n - 1`` requests and responses alternating,
then ``data`` and ``globaldata``, and the output the response line (then debug, data and
globaldata lines). A bot that prints ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after its output
stays running (long-running mode): from then on it is sent only each new request (JSON I/O:
the request as a JSON string; simple I/O: the line), and ``data`` no longer applies.
Otherwise every turn is a fresh process given the whole history (one-shot mode).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from paiju.bots.botzone import HandTranslator, Untranslatable
from paiju.bots.external import Decision, ProgramDriver, Reporter
from paiju.bots.program import Program, ProgramCrashed, ProgramError

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
IO_MODES = ("json", "simple")


class BotzoneRunner:
    """One Botzone game at a time: ``ask`` sends a request and returns the bot's response."""

    def __init__(self, program: Program, io: str = "json") -> None:
        if io not in IO_MODES:
            raise ValueError(f"Botzone I/O is 'json' or 'simple', not {io!r}")
        self.program = program
        self.io = io
        self.requests: list[str] = []
        self.responses: list[str] = []
        self.data = ""
        self.globaldata = ""  # kept across games, as Botzone keeps it across matches
        self.keep = False

    def new_game(self) -> None:
        """Forget the game (a long-running process is stopped; ``globaldata`` stays)."""
        self.program.stop()
        self.requests, self.responses, self.data, self.keep = [], [], "", False

    def ask(self, request: str, timeout: float) -> str:
        """The bot's response to ``request``; ``ProgramError`` if it fails (the turn is then
        recorded as PASS and the next one starts a fresh process)."""
        self.requests.append(request)
        try:
            if self.keep and self.program.running:
                self.program.send(json.dumps(request) if self.io == "json" else request)
            else:
                self.keep = False
                self.program.start()
                self.program.send(self._history())
            response = self._read(timeout)
        except ProgramError:
            self.responses.append("PASS")
            self.program.stop()
            self.keep = False
            raise
        self.responses.append(response)
        return response

    def _history(self) -> str:
        """The whole input of a fresh process (requests so far, responses, data)."""
        if self.io == "json":
            return json.dumps(
                {
                    "requests": self.requests,
                    "responses": self.responses,
                    "data": self.data,
                    "globaldata": self.globaldata,
                },
                ensure_ascii=False,
            )
        lines = [str(len(self.requests))]
        for i, request in enumerate(self.requests):
            lines.append(request)
            if i < len(self.responses):
                lines.append(self.responses[i])
        return "\n".join([*lines, self.data, self.globaldata])

    def _read(self, timeout: float) -> str:
        """Read the output up to the keep-running mark or the end of the process."""
        ends = time.monotonic() + timeout
        lines: list[str] = []
        while True:
            try:
                line = self.program.read_line(max(0.0, ends - time.monotonic()))
            except ProgramCrashed:
                if not lines:
                    raise
                break  # a one-shot bot exits after its output
            if line.strip() == KEEP_RUNNING:
                self.keep = True
                break
            lines.append(line)
        return self._parse(lines)

    def _parse(self, lines: list[str]) -> str:
        if self.io == "simple":
            if not self.keep:
                self.data = lines[2] if len(lines) > 2 else ""
                if len(lines) > 3:
                    self.globaldata = "\n".join(lines[3:])
            return lines[0].strip() if lines else ""
        text = "\n".join(lines).strip()
        try:
            output, _ = json.JSONDecoder().raw_decode(text)
        except ValueError:
            return text  # not JSON: the caller reports it as an unreadable response
        if not isinstance(output, dict):
            return text
        if not self.keep:
            self.data = _text(output.get("data", self.data))
            self.globaldata = _text(output.get("globaldata", self.globaldata))
        return _text(output.get("response", ""))


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


class BotzoneDriver(ProgramDriver):
    """Plays an MCR seat with a Botzone bot: every event the seat sees becomes the requests
    Botzone would send, every request is answered, and the response to the request a
    decision is about becomes the seat's action."""

    def __init__(
        self, runner: BotzoneRunner, reporter: Reporter, answer_timeout: float, fallback: str
    ) -> None:
        super().__init__(reporter, answer_timeout, fallback)
        self.runner = runner
        self.hand: HandTranslator | None = None
        self.last_request = ""

    def step(
        self,
        events: Sequence[Mapping[str, Any]],
        view: Mapping[str, Any] | None,
        decision: Decision | None,
    ) -> str | None:
        requests = self._requests(events, view)
        if decision is not None and _after_claim(decision.view) and self.hand is not None:
            self._answer_all(requests)
            return self._claimed_discard()
        last = requests.pop() if decision is not None and requests else None
        self._answer_all(requests)
        if decision is None:
            return None
        if last is None or not _fits(last, decision.view):
            self.reporter.failure(
                "no Botzone request matches this decision", last or "", self.fallback
            )
            return None
        return self._decide(last, decision)

    def _requests(
        self, events: Sequence[Mapping[str, Any]], view: Mapping[str, Any] | None
    ) -> list[str]:
        out: list[str] = []
        started = False
        for event in events:
            if event.get("kind") == "hand_started":
                started = True
            elif self.hand is not None and not started:
                out.extend(self.hand.requests(event))
        if view is not None and view.get("phase") != "over" and view.get("seat") is not None:
            fresh = self.hand is None or view["hand_index"] != self.hand.hand_index
            if started or fresh:
                self.runner.new_game()
                self.hand = HandTranslator.for_view(view)
                out.extend(self.hand.opening(view))
        return out

    def _answer_all(self, requests: Sequence[str]) -> None:
        """Requests that decide nothing here: the only valid response is PASS."""
        for request in requests:
            response = self._ask(request, self.answer_timeout)
            if response is not None and response.strip().upper() != "PASS":
                self.reporter.failure(
                    f"response {response!r} where paiju asks nothing of the seat (Botzone "
                    "expects PASS here, or the seat has no such claim)",
                    request,
                    "ignored",
                )

    def _ask(self, request: str, timeout: float) -> str | None:
        self.last_request = request
        try:
            return self.runner.ask(request, timeout)
        except ProgramError as exc:
            what = "missed deadline" if "within" in str(exc) else f"the program failed: {exc}"
            self.reporter.failure(what, request, self.fallback)
            return None

    def _decide(self, request: str, decision: Decision) -> str | None:
        response = self._ask(request, decision.time_limit(self.answer_timeout))
        if response is None:
            return None
        assert self.hand is not None
        try:
            return self.hand.action(response, decision.view)
        except Untranslatable as exc:
            self.reporter.failure(f"invalid response: {exc}", request, self.fallback)
            return None

    def _claimed_discard(self) -> str | None:
        assert self.hand is not None
        action = self.hand.discard_after_claim()
        if action is None:
            self.reporter.failure("no discard named with the claim", "", self.fallback)
        return action

    def match_over(self, totals: Sequence[int]) -> None:
        self.runner.new_game()
        self.hand = None

    def close(self) -> None:
        self.runner.program.stop()


def _after_claim(view: Mapping[str, Any]) -> bool:
    """The seat's turn after its own chow or pung: it discards without drawing."""
    return view.get("phase") == "turn" and view.get("drawn") is None


def _fits(request: str, view: Mapping[str, Any]) -> bool:
    """Whether ``request`` is the one Botzone would ask this decision with."""
    words = request.split()
    phase = view.get("phase")
    if phase == "turn":
        return words[0] == "2"
    if phase == "rob":
        return len(words) > 2 and words[2] == "BUGANG"
    return len(words) > 2 and words[0] == "3" and words[2] in ("PLAY", "PENG", "CHI")
