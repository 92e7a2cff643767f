"""Capacity: N live tables of real WebSocket clients against one server pinned to one core.

    .venv/bin/python benchmarks/load.py --variant mcr --tables 200,500,1000 --seconds 30
    .venv/bin/python benchmarks/load.py --variant dragon --tables 500 --reference ../old/src

The server (``paiju serve`` with a SQLite file, started through ``probe_server.py``) runs on
core 0; this process, every client of every table, runs on core 1. Each table is a room of
its variant's preset with a person in every seat; each person answers its decisions with a
random legal action after a think time (1-3 s for turns, 0.2-0.6 s for prompts that offer
``pass``: claims, bids, polls) and asks for a rematch when a match ends. The tables are added
step by step; after a warm-up each step is measured for ``--seconds`` and printed as a row:

* actions/s — acts answered by the server;
* actor p50/p99 — act sent -> the actor's state that answers it (a state that still shows
  the decision open comes from another seat's answer to a simultaneous one, and is skipped);
* last p50/p99 — for a turn (an act with no ``pass`` among the choices: a discard, a play),
  act sent -> the last other seat of the table has its state;
* srv CPU, RSS — the server process (from /proc); us/act — its CPU time per act answered
  (all of its work, connections and timers included, divided by the acts); gc — collections
  and the longest pause, gcms/s — CPU milliseconds a second spent in collections;
  lag p99 — the server's event-loop lag; err — error frames and failed connections;
  races — acts refused as stale because another seat's answer reopened the decision first
  (``Player.raced``: the state with the new decision came before the refusal, or is the
  state the refusal names as current, come after it: states wait until their records are
  stored, a refusal does not);
* gen CPU — this process (on uvloop where installed): near 100% means the generator, not the
  server, is the limit;
* steal — the share of the server's core that the hypervisor gave to other machines during
  the step, as the guest's kernel reports it (``/proc/stat``; 0 on bare metal): a step with
  time stolen is not comparable with one without.

``--reference SRC`` runs the same steps against another checkout's ``src`` (today's code, or
an older commit) in the same run, so the two tables can be read side by side.
``--set KEY=VALUE`` and ``--reference-set KEY=VALUE`` give either run a server setting: one
checkout on two event loops is ``--reference ./src --reference-set event_loop='"asyncio"'``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
#: The seat's current version in a ``stale_version`` refusal (docs/protocol.md, "error").
_CURRENT = re.compile(r"your current state is version (\d+)")
_REFUSED = re.compile(r"version (\d+) is stale")
TOKEN = "load-benchmark-admin-token-0123456789abcdef"
#: Match options that keep a table playing for many minutes (rematches cover the rest).
LONG_MATCH = {"mcr": {"rounds": 4}, "dragon": {"hands": 8}, "shengji": {}, "diu": {}}


def presets_of(src: Path) -> list[str]:
    """``--rooms-dir`` for a checkout from before the presets were packaged (``configs/rooms``
    beside its ``src``); nothing for one whose package carries them."""
    folder = Path(src).resolve().parent / "configs" / "rooms"
    return ["--rooms-dir", str(folder)] if folder.is_dir() else []


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# ---------------------------------------------------------------- the server


@dataclass
class Server:
    """A ``paiju serve`` subprocess pinned to one core, with its probe file."""

    src: Path
    port: int = field(default_factory=free_port)
    overrides: dict[str, Any] = field(default_factory=dict)  # settings beyond the defaults
    proc: subprocess.Popen[bytes] | None = None
    stats: Path = Path()
    _cpu: tuple[float, float] = (0.0, 0.0)
    _stats_at: int = 0

    def start(self, workdir: Path) -> None:
        self.stats = workdir / f"stats-{self.port}.jsonl"
        env = {**os.environ, "PYTHONPATH": str(self.src)}
        settings = {
            "max_connections": 40000,
            "max_connections_per_address": 0,
            "max_rooms": 20000,
            "rate_per_second": 50.0,
            "hello_timeout": 60.0,
            "bot_delay": 0.0,
            "between_hands": 1.0,
            "timers": "{}",
            **self.overrides,
        }
        sets = [arg for k, v in settings.items() for arg in ("--set", f"{k}={v}")]
        command = [
            sys.executable, str(ROOT / "benchmarks" / "probe_server.py"), str(self.stats),
            str(SERVER_CORE),
            "--", "serve", "--config", os.devnull,
            "--port", str(self.port), "--database", str(self.database(workdir)),
            "--admin-token", TOKEN, *presets_of(self.src), *sets,
        ]
        self.proc = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for _ in range(600):
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server at {self.src} did not start")
            time.sleep(0.05)
        raise RuntimeError("the server did not open its port")

    def database(self, workdir: Path) -> Path:
        """The server's SQLite file."""
        return workdir / f"load-{self.port}.sqlite3"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def cpu_seconds(self) -> float:
        assert self.proc is not None
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def steal_ticks(self) -> tuple[int, int]:
        """The server core's stolen and total ticks so far (``/proc/stat``, its ``cpu0`` line)."""
        for line in Path("/proc/stat").read_text().splitlines():
            if line.startswith(f"cpu{SERVER_CORE} "):
                ticks = [int(t) for t in line.split()[1:]]
                return (ticks[7] if len(ticks) > 7 else 0), sum(ticks[:8])
        return 0, 0

    def rss_mb(self) -> float:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def probes_since(self, since: float) -> tuple[list[list[float]], list[float]]:
        """GC pauses and loop-lag samples the server wrote after monotonic time ``since``."""
        pauses: list[list[float]] = []
        lags: list[float] = []
        if self.stats.exists():
            for line in self.stats.read_text().splitlines():
                row = json.loads(line)
                if row["t"] >= since:
                    pauses += row["gc"]
                    lags += row["lag"]
        return pauses, lags


async def admin(port: int, request: dict[str, Any]) -> Any:
    async with connect(
        f"ws://127.0.0.1:{port}/admin",
        additional_headers={"Authorization": f"Bearer {TOKEN}"},
        open_timeout=60,  # a saturated server answers late; the run must not end on it
    ) as ws:
        await ws.send(json.dumps({"type": "admin", **request}))
        reply = json.loads(await ws.recv())
    if not reply.get("ok"):
        raise RuntimeError(f"admin {request['command']}: {reply}")
    return reply["result"]


# ---------------------------------------------------------------- the players


@dataclass
class Figures:
    """What one measured step collected."""

    acts: int = 0
    actor: list[float] = field(default_factory=list)
    last: list[float] = field(default_factory=list)
    errors: int = 0
    races: int = 0


class Table:
    """The people of one room; knows which turn acts still wait for other seats' states."""

    def __init__(self, load: Load) -> None:
        self.load = load
        self.players: list[Player] = []
        self.turns: list[tuple[float, set[int]]] = []  # (sent at, seats still to hear)

    def heard(self, seat: int, now: float) -> None:
        for entry in list(self.turns):
            sent, pending = entry
            pending.discard(seat)
            if not pending:
                self.turns.remove(entry)
                self.load.figures.last.append(now - sent)
            elif now - sent > 10.0:
                self.turns.remove(entry)


class Player:
    """One person at one table: a WebSocket client that answers its own decisions."""

    def __init__(self, load: Load, table: Table, seat: int) -> None:
        self.load, self.table, self.seat = load, table, seat
        self.ws: ClientConnection | None = None
        self.rng = random.Random(f"{id(table)}/{seat}")
        self.decision: asyncio.TimerHandle | None = None
        self.sent_at: float | None = None
        #: The decision (its ``decision_version``) the act in flight answers, while the state
        #: that answers it has not come: a state from another seat's answer to a simultaneous
        #: decision (a bid, a claim) still shows this one open, and answering it again was
        #: refused (already_answered, or stale_version once the next decision opened).
        self.answering: int | None = None
        self.acted_on: int | None = None  # the decision version of the last act sent
        self.shown_decision: int | None = None  # that of the last state received
        #: a stale refusal's decision and the version it named current, judged at that state
        self.stale_on: tuple[int, int] | None = None
        self.acted_version: int | None = None  # the version the last act sent named
        self.rematched = False

    async def join(self, room: str) -> None:
        # No client pings: a browser never sends one (the server's own pings still run).
        self.ws = await connect(f"ws://127.0.0.1:{self.load.port}/", max_size=None,
                                open_timeout=60, ping_interval=None)
        await self.ws.send(json.dumps({"type": "hello", "protocol_version": 1}))
        await self.ws.send(json.dumps({"type": "join", "room": room, "name": f"p{self.seat}",
                                       "seat": self.seat}))
        await self.ws.send(json.dumps({"type": "ready"}))

    async def run(self) -> None:
        assert self.ws is not None
        ended: BaseException | None = None
        try:
            # orjson: at 2,500 tables the generator parses some 6,000 states a second, and
            # the standard library's parser alone took a sixth of its core.
            async for frame in self.ws:
                self.receive(orjson.loads(frame))
        except Exception as error:  # a lost connection ends the person, counted as an error
            ended = error
        if not self.load.stopping:
            self.load.figures.errors += 1
            if os.environ.get("LOAD_DEBUG"):
                print("error: connection", repr(ended), self.ws.close_code, self.ws.close_reason,
                      file=sys.stderr)

    def receive(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        now = time.monotonic()
        if kind == "error":
            if self.refuses_an_older_act(message):
                # A saturated server judged this seat's earlier act only after a newer state
                # had reopened the decision and the seat had answered that too: the race, and
                # the newer act is still in flight (its answer and latency still to come).
                self.count_refusal(True, message)
                return
            stale = message["code"] == "stale_version" and self.acted_on is not None
            current = _CURRENT.search(message["message"]) if stale else None
            if stale and self.shown_decision == self.acted_on and current is not None:
                # Judged by the state the refusal names as current: it can come after the
                # refusal (states wait until their records are stored; a refusal has none),
                # and states made before the refusal may come first.
                self.stale_on = (self.acted_on, int(current.group(1)))
            else:
                self.count_refusal(stale and self.raced(), message)
            self.sent_at = None
            self.answering = self.acted_on = None
        elif kind == "joined" and self.rematched:
            self.rematched = False
            self.send({"type": "ready"})
        elif kind == "state":
            self.on_state(message, now)

    def refuses_an_older_act(self, message: dict[str, Any]) -> bool:
        """Whether ``message`` is a ``stale_version`` refusal of an act other than the last
        one sent (the refusal names the version the act named)."""
        refused = _REFUSED.match(message["message"]) if message["code"] == "stale_version" else None
        return (refused is not None and self.acted_version is not None
                and int(refused.group(1)) != self.acted_version)

    def count_refusal(self, raced: bool, message: dict[str, Any]) -> None:
        if raced:
            self.load.figures.races += 1
        else:
            self.load.figures.errors += 1
        if os.environ.get("LOAD_DEBUG"):
            print("race:" if raced else "error:", message["code"], message["message"],
                  file=sys.stderr)

    def on_state(self, state: dict[str, Any], now: float) -> None:
        self.table.heard(self.seat, now)
        self.shown_decision = state["decision_version"]
        if self.stale_on is not None and state["version"] >= self.stale_on[1]:
            # the state a stale refusal named as current, come after the refusal
            self.count_refusal(self.raced_by(state, self.stale_on[0]), {
                "code": "stale_version",
                "message": f"judged at version {state['version']} (acted on decision "
                f"{self.stale_on[0]} with version {self.acted_version}; refused as stale "
                f"against {self.stale_on[1]}; this state: decision "
                f"{state['decision_version']}, to act {state['to_act']})"})
            self.stale_on = None
        if self.answering is not None and self.answers_nothing(state):
            return  # another seat's answer: ours is still in flight
        self.answering = None
        if self.sent_at is not None:
            self.load.figures.actor.append(now - self.sent_at)
            self.sent_at = None
        if self.decision is not None:
            self.decision.cancel()
            self.decision = None
        if state["phase"] == "finished" and not self.rematched:
            self.rematched = True
            self.send({"type": "rematch"})
            return
        if state["phase"] != "playing" or self.seat not in state["to_act"]:
            return
        legal = state["view"]["legal"]
        if not legal:
            return
        prompt = "pass" in legal
        low, high = self.load.claim if prompt else self.load.think
        delay = self.rng.uniform(low, high)
        action = self.rng.choice(legal)
        loop = asyncio.get_running_loop()
        self.decision = loop.call_later(
            delay, self.act, state["version"], state["decision_version"], action, prompt
        )

    def answers_nothing(self, state: dict[str, Any]) -> bool:
        """Whether ``state`` still shows open the decision this seat's act in flight answers
        (so it is not the reply to that act)."""
        return self.seat in state["to_act"] and state["decision_version"] == self.answering

    def raced(self) -> bool:
        """Whether a ``stale_version`` refusal is the race of a simultaneous decision: another
        seat's answer (a shengji bid) reopened the decision this seat's act answered, and the
        state showing it, with a new decision version, came before the refusal. A real client
        meets the same race; it decides again on the state it holds, as this one does.
        """
        return self.acted_on is not None and self.shown_decision != self.acted_on

    def raced_by(self, state: dict[str, Any], decision: int) -> bool:
        """Whether ``state``, the first after a stale refusal of an act on ``decision``, shows
        that decision over (a new one, or none): the race, with the state behind the refusal.
        """
        return self.seat not in state["to_act"] or state["decision_version"] != decision

    def act(self, version: int, decision: int, action: str, prompt: bool) -> None:
        self.decision = None
        self.answering = self.acted_on = decision
        self.acted_version = version
        self.sent_at = time.monotonic()
        self.load.figures.acts += 1
        if not prompt:
            others = {p.seat for p in self.table.players if p is not self}
            self.table.turns.append((self.sent_at, others))
        self.send({"type": "act", "version": version, "action": action})

    def send(self, message: dict[str, Any]) -> None:
        if self.ws is not None:
            task = asyncio.ensure_future(self._send(json.dumps(message)))
            self.load.sending.add(task)  # held until done: a bare task may be collected
            task.add_done_callback(self.load.sending.discard)

    async def _send(self, frame: str) -> None:
        assert self.ws is not None
        try:
            await self.ws.send(frame)
        except Exception as error:
            self.load.figures.errors += 0 if self.load.stopping else 1
            if os.environ.get("LOAD_DEBUG") and not self.load.stopping:
                print("error: send", repr(error), file=sys.stderr)


class Load:
    """Every table of one run against one server."""

    def __init__(self, port: int, variant: str, args: argparse.Namespace) -> None:
        self.port, self.variant = port, variant
        self.think = (args.think_min, args.think_max)
        self.claim = (args.claim_min, args.claim_max)
        self.tables: list[Table] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.figures = Figures()
        self.stopping = False
        self.sending: set[asyncio.Future[None]] = set()

    async def grow(self, count: int) -> None:
        """Add tables until there are ``count``, fifty at a time."""
        while len(self.tables) < count:
            batch = min(50, count - len(self.tables))
            await asyncio.gather(*(self._add_table() for _ in range(batch)))

    async def _add_table(self) -> None:
        options = LONG_MATCH.get(self.variant, {})
        room = await admin(self.port, {"command": "create", "preset": self.variant,
                                       "options": options})
        table = Table(self)
        seats = len(room["seats"])
        table.players = [Player(self, table, seat) for seat in range(seats)]
        for player in table.players:
            await player.join(room["room"])
        self.tables.append(table)
        self.tasks += [asyncio.create_task(p.run()) for p in table.players]

    async def close(self) -> None:
        """Drop every connection at once: a closing handshake each, one after the other,
        against a saturated server took longer than the whole run."""
        self.stopping = True
        for table in self.tables:
            for player in table.players:
                if player.ws is not None:
                    player.ws.transport.abort()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


# ---------------------------------------------------------------- steps


#: The core the server is pinned to (the generator runs on the other one).
SERVER_CORE = 0


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def run_steps(server: Server, variant: str, args: argparse.Namespace) -> list[str]:
    load = Load(server.port, variant, args)
    rows = []
    try:
        for count in args.tables:
            await load.grow(count)
            await asyncio.sleep(args.warmup)
            load.figures = Figures()
            began, cpu0, gen0 = time.monotonic(), server.cpu_seconds(), time.process_time()
            steal0 = server.steal_ticks()
            await asyncio.sleep(args.seconds)
            wall = time.monotonic() - began
            figures = load.figures
            pauses, lags = server.probes_since(began)
            longest = max((p[1] for p in pauses), default=0.0) * 1000
            collecting = sum(p[-1] for p in pauses) * 1000 / wall
            cpu = server.cpu_seconds() - cpu0
            steal1 = server.steal_ticks()
            stolen = 100 * (steal1[0] - steal0[0]) / max(1, steal1[1] - steal0[1])
            rows.append(
                f"{count:>6} {figures.acts / wall:>8.0f} "
                f"{pct(figures.actor, 0.5):>7.1f} {pct(figures.actor, 0.99):>7.1f} "
                f"{pct(figures.last, 0.5):>7.1f} {pct(figures.last, 0.99):>7.1f} "
                f"{100 * cpu / wall:>6.0f}% {1e6 * cpu / max(1, figures.acts):>6.0f} "
                f"{server.rss_mb():>7.0f} "
                f"{len(pauses):>4}/{longest:>5.0f}ms {collecting:>5.1f} {pct(lags, 0.99):>7.1f} "
                f"{figures.errors:>5} {figures.races:>5} "
                f"{100 * (time.process_time() - gen0) / wall:>6.0f}% {stolen:>5.1f}%"
            )
            print(rows[-1], flush=True)
    finally:
        await load.close()
    return rows


HEADER = (
    "tables  acts/s actorp50 actorp99  lastp50  lastp99  srvCPU us/act  RSS MB   gc n/max gcms/s"
    "  lag99"
    "   err races genCPU  steal"
)


def generator_loop() -> Any:
    """The generator's own event loop: uvloop where installed (the server's default too), so
    that thousands of clients on one core leave the generator room to keep their times."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop
    return uvloop.new_event_loop


def settings_of(pairs: list[str]) -> dict[str, str]:
    """``KEY=VALUE`` arguments as server settings (each passed on as ``--set KEY=VALUE``)."""
    settings = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals:
            raise SystemExit(f"a setting is KEY=VALUE, not {pair!r}")
        settings[key] = value
    return settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="mcr", choices=["mcr", "dragon", "shengji", "diu"])
    parser.add_argument("--tables", default="100,200,500",
                        type=lambda s: [int(x) for x in s.split(",")])
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time per step")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--think-min", type=float, default=1.0)
    parser.add_argument("--think-max", type=float, default=3.0)
    parser.add_argument("--claim-min", type=float, default=0.2)
    parser.add_argument("--claim-max", type=float, default=0.6)
    parser.add_argument("--reference", type=Path, help="another checkout's src/ to compare")
    parser.add_argument("--set", dest="sets", action="append", default=[], metavar="KEY=VALUE",
                        help="a server setting of this checkout's run (repeatable)")
    parser.add_argument("--reference-set", dest="reference_sets", action="append", default=[],
                        metavar="KEY=VALUE",
                        help='a server setting of the reference run, e.g. event_loop="asyncio"'
                        " with --reference pointing at this checkout's src")
    args = parser.parse_args()
    os.sched_setaffinity(0, {1})
    sources = [("this checkout", ROOT / "src", settings_of(args.sets))]
    if args.reference is not None:
        sources.append(("reference", args.reference.resolve(), settings_of(args.reference_sets)))
    with tempfile.TemporaryDirectory() as tmp:
        for label, src, overrides in sources:
            shown = "".join(f" {k}={v}" for k, v in overrides.items())
            print(f"\n{args.variant}: {label} ({src}{shown}); "
                  "server on core 0, generator on core 1")
            print(HEADER)
            server = Server(src, overrides=overrides)
            server.start(Path(tmp))
            try:
                with asyncio.Runner(loop_factory=generator_loop()) as runner:
                    runner.run(run_steps(server, args.variant, args))
            finally:
                server.stop()


if __name__ == "__main__":
    main()
