"""A real `paiju serve` killed with SIGKILL and started again on the same database: every
seat's next state has a version above every version it was sent before (waiting rooms too),
and a decision keeps its remaining time, never less than the restore grace."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from tests.server.client import Client
from tests.server.test_end_to_end import free_port, paiju

TOKEN = "kill-nine-admin-token-0123456789abcdef"


class Served:
    """One database, one port, a server process that can be killed and started again."""

    def __init__(self, tmp: Path, *settings: str) -> None:
        self.tmp, self.port, self.settings = tmp, free_port(), settings
        (tmp / "rooms").mkdir(exist_ok=True)
        # the packaged dragon preset sets its own timer; this one leaves the server's
        (tmp / "rooms" / "dragon.toml").write_text('variant = "dragon"\ntitle = "Dragon"\n')
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        args = ["serve", "--port", str(self.port), "--database", str(self.tmp / "db.sqlite3"),
                "--admin-token", TOKEN, "--rooms-dir", str(self.tmp / "rooms"),
                "--config", str(self.tmp / "none.toml"), "--set", "bot_delay=0.0",
                "--set", "between_hands=0.0"]
        for setting in self.settings:
            args += ["--set", setting]
        (self.tmp / "none.toml").write_text("")
        self.proc = subprocess.Popen(paiju(*args), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        for _ in range(400):  # readiness: until the port accepts
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    error = self.proc.stderr.read() if self.proc.stderr else ""
                    raise RuntimeError(error) from None
                time.sleep(0.05)
        raise RuntimeError("the server did not open its port")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            # SIGTERM drains: it would wait for the hands in play to end
            self.proc.send_signal(signal.SIGKILL)
            self.proc.communicate(timeout=30)

    async def admin(self, **request: Any) -> Any:
        url = f"ws://127.0.0.1:{self.port}/admin"
        async with connect(url, additional_headers={"Authorization": f"Bearer {TOKEN}"}) as ws:
            await ws.send(json.dumps({"type": "admin", **request}))
            reply = json.loads(await ws.recv())
            assert reply["ok"], reply
            return reply["result"]

    async def seat(self, room: str, name: str) -> tuple[Client, str]:
        client = await Client.open(self.port)
        await client.send({"type": "join", "room": room, "name": name})
        token = (await client.expect("joined"))["token"]
        await client.expect("state")
        return client, token

    async def resume(self, room: str, token: str) -> tuple[Client, dict[str, Any]]:
        client = await Client.open(self.port)
        await client.send({"type": "resume", "room": room, "token": token})
        await client.expect("joined")
        return client, await client.expect("state")


@pytest.fixture
def served(tmp_path: Path) -> Any:
    made: list[Served] = []

    def make(*settings: str) -> Served:
        server = Served(tmp_path, *settings)
        made.append(server)
        return server

    yield make
    for server in made:
        server.stop()


def seen_versions(client: Client) -> int:
    return max(m["version"] for m in client.seen if m["type"] in ("state", "event"))


async def test_versions_never_go_back_across_kill_9(served: Any) -> None:
    server: Served = served("timers={arrange=120.0}", "trustee_delay=60.0")
    server.start()
    playing = (await server.admin(command="create", variant="dragon", bots=3,
                                  options={"hands": 20}))["room"]
    waiting = (await server.admin(command="create", variant="dragon"))["room"]
    ann, play_token = await server.seat(playing, "ann")
    bob, wait_token = await server.seat(waiting, "bob")
    await ann.send({"type": "ready"})
    await ann.until_state(lambda s: s["phase"] == "playing" and 0 in s["to_act"])
    high = {"play": seen_versions(ann), "wait": seen_versions(bob)}
    for cycle in range(5):
        # changes that are stored before they are sent: an arrangement (a new hand follows)
        # and ready toggles in the waiting room
        state = ann.last_state
        assert state is not None
        await ann.send({"type": "act", "version": state["version"],
                        "action": state["view"]["legal"][0]})
        await ann.until_state(lambda s, v=state["version"]: s["version"] > v
                              and 0 in s["to_act"])
        for ready in (True, False, True, False):
            await bob.send({"type": "ready", "ready": ready})
            await bob.until_state(lambda s, r=ready: s["seats"][0]["ready"] is r)
        high = {"play": seen_versions(ann), "wait": seen_versions(bob)}
        await ann.close()
        await bob.close()
        server.kill()
        server.start()
        ann, first = await server.resume(playing, play_token)
        assert first["version"] > high["play"], (cycle, first["version"], high)
        assert first["hand"] == cycle + 1 and 0 in first["to_act"]
        bob, first_wait = await server.resume(waiting, wait_token)
        assert first_wait["version"] > high["wait"], (cycle, first_wait["version"], high)
    await ann.close()
    await bob.close()


async def asked_then_killed(server: Served, wait: float) -> tuple[dict[str, Any],
                                                                 dict[str, Any], float]:
    """A dragon room against three bots: the player is asked, ``wait`` seconds pass, the
    server is killed and started again, the player resumes. Returns the state that asked,
    the state after the resume and the milliseconds between them."""
    server.start()
    room = (await server.admin(command="create", variant="dragon", bots=3))["room"]
    ann, token = await server.seat(room, "ann")
    await ann.send({"type": "ready"})
    asked = await ann.until_state(lambda s: s["phase"] == "playing" and 0 in s["to_act"])
    since = time.monotonic()
    time.sleep(wait)
    server.kill()
    server.start()
    again, resumed = await server.resume(room, token)
    await again.close()
    return asked, resumed, (time.monotonic() - since) * 1000


async def test_a_decision_keeps_its_remaining_time_across_kill_9(served: Any) -> None:
    asked, resumed, gone = await asked_then_killed(
        served("timers={arrange=30.0}", "restore_grace=1.0"), 2.0
    )
    assert 29_000 <= asked["deadline_ms"] <= 30_000
    assert 0 in resumed["to_act"]
    # what was left, not a fresh 30 s (and nothing played for ann meanwhile)
    left = resumed["deadline_ms"]
    assert 30_000 - gone - 1_500 <= left <= 30_000 - gone + 500, (left, gone)


async def test_a_nearly_spent_decision_gets_the_restore_grace(served: Any) -> None:
    _, resumed, _ = await asked_then_killed(
        served("timers={arrange=3.0}", "restore_grace=8.0"), 2.5
    )
    assert 0 in resumed["to_act"] and resumed["hand"] == 0  # the timeout did not fire
    assert 6_500 <= resumed["deadline_ms"] <= 8_000
