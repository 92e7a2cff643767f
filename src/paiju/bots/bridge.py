"""The bot bridge: an ordinary protocol client that plays one seat with an external program.

``paiju bot run --url ws://HOST:PORT --room ROOM -- CMD ARGS...`` connects like any client
(docs/protocol.md: hello, join, ready, act), and for every decision of its seat asks the
program through a ``SeatDriver`` (JSON lines, or the Botzone protocol). Nothing about it is
special to the server: the seat is a human seat.

Each decision is answered once. Every ``act`` is followed by a ``ping``: the server handles a
connection's messages in order, so an ``error`` that arrives before that ping's ``pong`` is
the act's refusal, and an act whose pong arrives without one was accepted. When the program
fails (docs/bots.md, "Failures") the seat falls back: where the decision has a deadline the
server plays the variant's timeout action when it passes; where it has none (a room without
timers) the bridge plays what the server's trustee would, paiju's level-1 bot of the
variant, from the same view.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from paiju.bots.external import Decision, Reporter, RoomRefused, SeatDriver
from paiju.core.rng import SeededRng
from paiju.engines.bot import Bot
from paiju.engines.registry import make_bot

#: What the bridge names itself in ``hello``.
CLIENT_NAME = "paiju-bot-bridge/1"
#: Codes that mean the decision had already moved on when the answer arrived.
TOO_LATE = {"stale_version", "not_your_turn", "already_answered", "game_over", "wrong_phase"}
#: The fallback texts reported with a failure.
SERVER_TIMEOUT = "the server plays the variant's timeout action at the deadline"
TRUSTEE = "the bridge plays the trustee's action (paiju's level-1 bot) instead"


class BridgeFailed(Exception):
    """The bridge cannot go on (refused join, connection lost, room closed)."""


class Redirected(Exception):
    """Cluster mode: the room is served at ``url`` (empty: ask the same address again)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.url = url


#: Redirects followed in a row before the bridge gives up.
MAX_REDIRECTS = 50


@dataclass(frozen=True)
class BridgeOptions:
    """What ``paiju bot run`` was told.

    ``room`` is a room id, or ``new:PRESET`` to open a room from a preset (bots fill
    ``bots`` seats; ``None``: every seat but this one). ``loop`` keeps playing rematches;
    ``matches`` stops after that many matches (``None``: one, or no limit with ``loop``).
    ``hands`` leaves the room after that many hands (the server's trustee plays the rest).
    ``rate`` caps the messages sent per second (0: no cap). ``client_seed`` sends a random
    client seed for every hand of a fair deal (docs/fairness.md), as the web client does.
    """

    url: str
    room: str
    seat: int | None = None
    name: str = "bridge bot"
    loop: bool = False
    matches: int | None = None
    bots: int | None = None
    bot_level: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)
    hands: int | None = None
    rate: float = 15.0
    answer_timeout: float = 30.0
    client_seed: bool = True

    def match_limit(self) -> int | None:
        if self.matches is not None:
            return self.matches
        return None if self.loop else 1


#: Makes the seat's driver from the room's variant and the seat's first view; raises
#: ``RoomRefused`` to refuse the room.
DriverFactory = Callable[[str, Mapping[str, Any]], SeatDriver]
#: Checks a room's variant and options before the bridge opens it; raises ``RoomRefused``.
RoomCheck = Callable[[str, Mapping[str, Any]], None]


@dataclass
class _Pending:
    """An act whose outcome is not known yet (its ping's pong has not come back)."""

    nonce: int
    action: str
    version: int
    decision: Decision
    trustee: bool
    refused: bool = False


class Throttle:
    """A token bucket: ``wait`` returns when one more message may be sent."""

    def __init__(self, rate: float, burst: float | None = None) -> None:
        self.rate = rate
        self.burst = burst if burst is not None else max(1.0, rate)
        self.tokens = self.burst
        self.at = time.monotonic()

    async def wait(self) -> None:
        if self.rate <= 0:
            return
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / self.rate)
            self.tokens = 1.0
            self.at = time.monotonic()
        self.tokens -= 1

    def slow_down(self) -> None:
        """Halve the rate (start at 10 messages a second when there was no cap)."""
        self.rate = self.rate / 2 if self.rate > 0 else 10.0
        self.burst = max(1.0, min(self.burst, self.rate))
        self.tokens = min(self.tokens, self.burst)


class Bridge:
    """One connection playing one seat, match after match (``run``)."""

    def __init__(
        self,
        options: BridgeOptions,
        make_driver: DriverFactory,
        reporter: Reporter,
        check_room: RoomCheck | None = None,
        new_seed: Callable[[], str] = lambda: secrets.token_hex(16),
    ) -> None:
        self.options = options
        self.new_seed = new_seed
        self.make_driver = make_driver
        self.reporter = reporter
        self.check_room = check_room
        self.throttle = Throttle(options.rate)
        self.ws: Any = None
        self.driver: SeatDriver | None = None
        self.room: str | None = None
        self.seat: int | None = None
        self.token = ""
        self.events: list[dict[str, Any]] = []
        self.answered: set[tuple[str, int]] = set()
        self.pending: deque[_Pending] = deque()
        self.nonce = 0
        self.probing: int | None = None
        self.last_act: _Pending | None = None
        self.last_state: dict[str, Any] | None = None
        self.matches = 0
        self.hands = 0
        self.trustee: Bot | None = None
        #: ``ready`` waits for the first state, so the first hand's seed goes before it.
        self.ready_due = False
        self.seeded: set[tuple[str, int]] = set()

    async def run(self) -> int:
        """Play until the match (or the last of ``matches``) ends: 0; ``BridgeFailed`` when
        the server refuses the seat, closes the room or drops the connection."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        url = self.options.url
        try:
            for _ in range(MAX_REDIRECTS):
                try:
                    async with connect(url, max_size=None) as ws:
                        self.ws = ws
                        await self._enter()
                        return await self._play()
                except Redirected as moved:  # docs/cluster.md: follow it, then resume
                    url = moved.url or self.options.url
                    if not moved.url:
                        await asyncio.sleep(0.2)
            raise BridgeFailed(f"room {self.options.room} kept moving between nodes")
        except (OSError, WebSocketException) as exc:
            raise BridgeFailed(f"connection to {url} failed: {exc}") from exc
        finally:
            if self.driver is not None:
                self.driver.close()

    # ---------------------------------------------------------------- messages

    async def _send(self, message: Mapping[str, Any]) -> None:
        await self.throttle.wait()
        await self.ws.send(json.dumps(message, ensure_ascii=False))

    async def _recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await self.ws.recv())
        return message

    async def _expect(self, kind: str) -> dict[str, Any]:
        """The next message of type ``kind``; ``BridgeFailed`` on an error before it."""
        while True:
            message = await self._recv()
            if message["type"] == kind:
                return message
            if message["type"] == "error":
                raise BridgeFailed(f"{message['code']}: {message['message']}")
            if message["type"] == "redirect":
                raise Redirected(message["url"])
            if message["type"] == "event":
                self.events.append(message["event"])

    async def _enter(self) -> None:
        """hello, then take the seat (join, or open a room from a preset), then ready."""
        hello = {"type": "hello", "protocol_version": 1, "client": CLIENT_NAME, "bot": True}
        await self._send(hello)
        await self._expect("welcome")
        room = self.options.room
        if self.room is not None and self.token:  # the room moved: the seat is still ours
            await self._send({"type": "resume", "room": self.room, "token": self.token})
            await self._expect("joined")
            return
        if room.startswith("new:"):
            await self._create(room.removeprefix("new:"))
        else:
            await self._send(
                {"type": "join", "room": room, "name": self.options.name, "seat": self.options.seat}
            )
        await self._joined()

    async def _create(self, preset: str) -> None:
        await self._send({"type": "lobby"})
        lobby = await self._expect("lobby")
        presets = {p["name"]: p for p in lobby["presets"]}
        if preset not in presets:
            raise BridgeFailed(f"no room preset {preset!r}; presets: {', '.join(presets)}")
        chosen = presets[preset]
        if self.check_room is not None:
            try:
                self.check_room(chosen["variant"], {**chosen["options"], **self.options.options})
            except RoomRefused as exc:
                raise BridgeFailed(f"refusing the room: {exc}") from exc
        bots = self.options.bots if self.options.bots is not None else chosen["seats"] - 1
        await self._send(
            {
                "type": "create_room",
                "preset": preset,
                "options": dict(self.options.options),
                "bots": bots,
                "bot_level": self.options.bot_level,
                "name": self.options.name,
            }
        )

    async def _joined(self) -> None:
        joined = await self._expect("joined")
        self.room, self.seat, self.token = joined["room"], joined["seat"], joined["token"]
        self.reporter.note(f"seated at seat {self.seat} of room {self.room}")
        self.ready_due = True

    async def _play(self) -> int:
        while True:
            message = await self._recv()
            kind = message["type"]
            if kind == "event":
                self._event(message["event"])
            elif kind == "error":
                await self._error(message)
            elif kind == "pong":
                await self._pong(message.get("nonce"))
            elif kind == "redirect":
                raise Redirected(message["url"])
            elif kind == "state" and await self._state(message):
                return 0

    def _event(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        if event["kind"] == "timed_out":
            data = event.get("data", {})
            self.reporter.note(f"the server played {data.get('action')!r} for the seat (timeout)")

    # ---------------------------------------------------------------- states and decisions

    async def _state(self, state: dict[str, Any]) -> bool:
        """Handle one state; ``True`` when the bridge is done."""
        self.last_state = state
        await self._client_seed(state)
        if self.ready_due:
            self.ready_due = False
            await self._send({"type": "ready", "ready": True})
        phase = state["phase"]
        if phase == "closed":
            raise BridgeFailed(f"room {self.room} was closed")
        view = state.get("view")
        if self.driver is None and view is not None:
            try:
                self.driver = self.make_driver(state["variant"], view)
            except RoomRefused as exc:
                await self._send({"type": "leave"})  # the server's trustee plays the seat
                raise BridgeFailed(f"refusing the room: {exc}") from exc
            self.trustee = make_bot(state["variant"], 1, SeededRng(f"trustee/{self.room}"))
        decision = self._decision(state)
        events, self.events = self.events, []
        self.hands += sum(e["kind"] == "hand_scored" for e in events)
        if self.driver is not None:
            action = await asyncio.to_thread(self.driver.step, events, view, decision)
            if decision is not None:
                await self._answer(action, state, decision)
        if phase == "finished":
            return await self._match_over(state)
        if self.options.hands is not None and self.hands >= self.options.hands:
            self.reporter.note(f"leaving room {self.room} after {self.hands} hands")
            await self._send({"type": "leave"})
            return True
        return False

    async def _client_seed(self, state: dict[str, Any]) -> None:
        """Send a fresh client seed for the hand that takes seeds now, once (a seed that
        races the deal is refused with ``seed_refused``: the server draws one instead)."""
        deal = state.get("deal") or {}
        hand = deal.get("seed_hand")
        if not self.options.client_seed or state.get("you") is None or hand is None:
            return
        key = (str(state["room"]), int(hand))
        if deal.get("seed") is not None or key in self.seeded:
            return
        self.seeded.add(key)
        await self._send({"type": "seed", "hand": hand, "seed": self.new_seed()})

    def _decision(self, state: dict[str, Any]) -> Decision | None:
        view = state.get("view")
        if state["phase"] != "playing" or view is None or not view.get("legal"):
            return None
        if state["you"] not in state["to_act"]:
            return None
        key = _key(state)
        if key in self.answered:
            return None
        self.answered.add(key)
        deadline = state.get("deadline_ms")
        return Decision(
            key=key,
            variant=state["variant"],
            seat=int(state["you"]),
            view=view,
            deadline=deadline / 1000 if deadline is not None else None,
            room=state["room"],
            hand=int(state["hand"]),
            totals=list(state["totals"]),
            seats=list(state["seats"]),
        )

    async def _answer(self, action: str | None, state: dict[str, Any], decision: Decision) -> None:
        if action is None:
            await self._fallback(state["version"], decision)
        else:
            await self._act(action, state["version"], decision, trustee=False)

    async def _act(self, action: str, version: int, decision: Decision, trustee: bool) -> None:
        self.nonce += 1
        entry = _Pending(self.nonce, action, version, decision, trustee)
        self.pending.append(entry)
        self.last_act = entry
        await self._send({"type": "act", "version": version, "action": action})
        await self._send({"type": "ping", "nonce": self.nonce})

    async def _fallback(self, version: int, decision: Decision) -> None:
        """After a failed answer: nothing where the server's deadline will act, else the
        trustee's action."""
        if decision.deadline is not None or self.trustee is None:
            return
        await self._act(self.trustee.choose(decision.view), version, decision, trustee=True)

    def fallback_text(self, decision: Decision) -> str:
        return SERVER_TIMEOUT if decision.deadline is not None else TRUSTEE

    async def _error(self, message: dict[str, Any]) -> None:
        code, text = message["code"], message["message"]
        if code == "seed_refused":
            return  # our seed came after the deal: the hand's seed for us is server-drawn
        if code == "rate_limited":
            await self._resync()
            return
        if self.probing is not None:
            return  # what is left of an exchange the server dropped a message of
        if not self.pending:
            self.reporter.note(f"server error {code}: {text}")
            return
        entry = self.pending[0]
        entry.refused = True
        if code in TOO_LATE:
            self.reporter.note(f"answer {entry.action!r} came too late ({code}: {text})")
            return
        if entry.trustee:
            self.reporter.note(f"the trustee's action {entry.action!r} was refused: {code}")
            return
        assert self.driver is not None
        self.driver.refused(
            entry.action,
            f"refused by the server ({code}: {text})",
            self.fallback_text(entry.decision),
        )
        await self._fallback(entry.version, entry.decision)

    async def _resync(self) -> None:
        """The server dropped a message (rate limit): which one is unknown, so forget the
        acts in flight, slow down, and after a probe ping resend the last act if its
        decision is still open."""
        self.pending.clear()
        if self.probing is not None:
            return
        self.reporter.note("rate limited by the server: slowing down (see --rate)")
        self.throttle.slow_down()
        await asyncio.sleep(1.0)
        self.nonce += 1
        self.probing = self.nonce
        await self._send({"type": "ping", "nonce": self.nonce})

    async def _pong(self, nonce: Any) -> None:
        if nonce is not None and nonce == self.probing:
            self.probing = None
            last, state = self.last_act, self.last_state
            if last is not None and state is not None and self._open(state, last.decision):
                await self._act(last.action, last.version, last.decision, last.trustee)
            return
        while self.pending and isinstance(nonce, int) and self.pending[0].nonce <= nonce:
            self.pending.popleft()

    def _open(self, state: dict[str, Any], decision: Decision) -> bool:
        """Whether ``decision`` is still the seat's open decision in ``state``."""
        view = state.get("view") or {}
        return (
            state["phase"] == "playing"
            and state["you"] in state["to_act"]
            and bool(view.get("legal"))
            and _key(state) == decision.key
        )

    async def _match_over(self, state: dict[str, Any]) -> bool:
        """The match ended: tell the program; rematch while more matches are wanted."""
        self.matches += 1
        if self.driver is not None:
            self.driver.match_over(state["totals"])
        totals = state["totals"]
        self.reporter.note(f"match {self.matches} over in room {self.room}: totals {totals}")
        limit = self.options.match_limit()
        if limit is not None and self.matches >= limit:
            return True
        await self._send({"type": "rematch"})
        await self._joined()
        self.answered.clear()
        return False


def _key(state: Mapping[str, Any]) -> tuple[str, int]:
    """A decision's identity: its room and the version at which it became visible."""
    return (str(state["room"]), int(state["decision_version"] or state["version"]))


def run_bridge(
    options: BridgeOptions,
    make_driver: DriverFactory,
    reporter: Reporter,
    check_room: RoomCheck | None = None,
) -> int:
    """Run a bridge to the end: 0 when its matches ended, 1 when it failed (reported)."""
    try:
        return asyncio.run(Bridge(options, make_driver, reporter, check_room).run())
    except BridgeFailed as exc:
        reporter.note(f"stopped: {exc}")
        return 1
