"""Real cluster nodes for the tests: ``paiju serve --set store=redis://...`` subprocesses
(short leases, zero bot delays), and players that follow redirects and remember every action
the server acknowledged (a state that came after it)."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from paiju.engines.registry import get_engine
from tests.server.client import Client
from tests.server.test_end_to_end import free_port, paiju

TOKEN = "cluster-admin-token-0123456789abcdefghij"
VARIANTS = ("dragon", "mcr", "shengji", "diu")
#: Lease of the test nodes (seconds): a dead node's rooms are claimed after about this long.
LEASE = 2.0


class Node:
    """One ``paiju serve`` node of the cluster, killable, stoppable, restartable."""

    def __init__(self, tmp: Path, name: str, redis_url: str, *settings: str) -> None:
        self.name, self.redis_url, self.settings = name, redis_url, settings
        self.port = free_port()
        self.folder = tmp / name
        self.folder.mkdir(parents=True, exist_ok=True)
        rooms = tmp / "rooms"
        rooms.mkdir(exist_ok=True)
        for variant in VARIANTS:  # the packaged presets set timers; these leave the server's
            (rooms / f"{variant}.toml").write_text(f'variant = "{variant}"\ntitle = "{variant}"\n')
        self.rooms_dir = rooms
        self.proc: subprocess.Popen[str] | None = None
        self.log = self.folder / "stderr.log"

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def start(self) -> None:
        args = ["serve", "--port", str(self.port), "--database", str(self.folder / "db.sqlite3"),
                "--admin-token", TOKEN, "--rooms-dir", str(self.rooms_dir),
                "--config", str(self.folder / "none.toml"),
                "--set", f"store={self.redis_url}", "--set", f"node_id={self.name}",
                "--set", f"lease_ttl={LEASE}", "--set", "bot_delay=0.0",
                "--set", "between_hands=0.0", "--set", "trustee_delay=60.0",
                "--set", "timers={turn=120.0,claim=120.0,arrange=120.0}",
                "--set", "log_format=\"json\""]
        for setting in self.settings:
            args += ["--set", setting]
        (self.folder / "none.toml").write_text("")
        with self.log.open("a") as err:
            self.proc = subprocess.Popen(paiju(*args), stdout=subprocess.DEVNULL, stderr=err,
                                         text=True)
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(self.log.read_text()) from None
                time.sleep(0.05)

    def signal(self, sig: signal.Signals) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)
        if sig == signal.SIGKILL:
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def lines(self, event: str) -> list[dict[str, Any]]:
        """The node's JSON log lines of ``event``."""
        found = []
        for line in self.log.read_text().splitlines():
            if line.startswith("{") and f'"{event}"' in line:
                found.append(json.loads(line))
        return [f for f in found if f.get("event") == event]

    async def admin(self, **request: Any) -> Any:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with connect(f"{self.url}admin", additional_headers=headers) as ws:
            await ws.send(json.dumps({"type": "admin", **request}))
            reply = json.loads(await ws.recv())
            assert reply["ok"], reply
            return reply["result"]


def seats_of(variant: str) -> int:
    engine = get_engine(variant)
    return engine.seat_count(engine.normalize_options({}))


class Player:
    """A person in seat 0 of one room, reaching the cluster through ``entry`` nodes: follows
    redirects, resumes with its token, and keeps every action the server acknowledged."""

    def __init__(self, room: str) -> None:
        self.room = room
        self.client: Client | None = None
        self.token = ""
        self.acked: list[str] = []
        self.version = 0

    async def _open(self, url: str, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message`` to ``url``, follow redirects; the answer (joined) or error."""
        entry = url
        for _ in range(100):
            port = int(url.rstrip("/").rsplit(":", 1)[1])
            try:
                client = await Client.open(port)
            except OSError:  # redirected to a node that just died: ask the entry again
                url = entry
                await asyncio.sleep(0.2)
                continue
            await client.send(message)
            while True:
                answer = await client.recv()
                if answer["type"] in ("joined", "redirect", "error"):
                    break
            if answer["type"] == "joined":
                self.client = client
                return answer
            await client.close()
            if answer["type"] == "redirect" and answer["url"]:
                url = answer["url"]
            else:  # between owners, or not claimed yet: again through the entry
                url = entry
                await asyncio.sleep(0.2)
        raise AssertionError(f"could not reach room {self.room}: {answer}")

    async def join(self, url: str) -> None:
        joined = await self._open(url, {"type": "join", "room": self.room, "name": "ann"})
        self.token = joined["token"]

    async def resume(self, url: str) -> dict[str, Any]:
        """Resume through ``url``; the first state."""
        await self._open(url, {"type": "resume", "room": self.room, "token": self.token})
        assert self.client is not None
        state = await self.client.expect("state")
        self.version = state["version"]
        return state

    async def play(self, actions: int) -> None:
        """Say ready if need be, then make ``actions`` moves, each until acknowledged."""
        assert self.client is not None
        state = await self.client.until_state(lambda s: True)
        if state["phase"] == "waiting":
            await self.client.send({"type": "ready"})
        for _ in range(actions):
            # only seat 0 is asked: nothing but this act can move the version on
            state = await self.client.until_state(
                lambda s: s["to_act"] == [0] and s["view"].get("legal")
                and s["version"] >= self.version
            )
            action = state["view"]["legal"][0]
            await self.client.send({"type": "act", "version": state["version"], "action": action})
            acked = await self.client.until_state(lambda s, v=state["version"]: s["version"] > v)
            self.acked.append(action)
            self.version = acked["version"]

    async def close(self) -> None:
        if self.client is not None:
            await self.client.close()
            self.client = None


async def until(check: Callable[[], Any], timeout: float = 15.0) -> Any:
    """Poll ``check`` until it returns something true; fail after ``timeout`` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        found = check()
        if found:
            return found
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)
