"""A variant package made outside paiju plays over the server.

``tests/fixtures/toy_variant`` ("pebbles", docs/variants.md) is built and installed with pip
into a temporary folder (offline, no build isolation), then a real ``paiju serve`` runs in a
subprocess that sees it only through that folder on ``PYTHONPATH``: the operator creates a room
with ``paiju room create``, and a player joins over a WebSocket and plays the match to the end
against the variant's own bot. Nothing in paiju names pebbles.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.client import Client
from tests.server.test_variants import play

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "toy_variant"
TOKEN = "plugin-test-admin-token-0123456789abcdef"


@pytest.fixture(scope="module")
def pebbles_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the installed pebbles package (its code and its entry point)."""
    work = tmp_path_factory.mktemp("pebbles")
    source = work / "source"
    shutil.copytree(FIXTURE, source)  # the build writes next to the sources: not in the repo
    target = work / "site"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    pip += ["--no-build-isolation", "--target", str(target), str(source)]
    subprocess.run(pip, check=True, capture_output=True, timeout=120)
    assert (target / "pebbles" / "engine.py").exists()
    return target


def environment(extra: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(extra), *filter(None, [env.get("PYTHONPATH")])])
    return env


def paiju(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "paiju.cli", *args]
    return subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def server(pebbles_path: Path, tmp_path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    env = environment(pebbles_path)
    port = free_port()
    command = [sys.executable, "-m", "paiju.cli", "serve", "--memory", "--port", str(port)]
    command += ["--admin-token", TOKEN, "--set", "bot_delay=0", "--set", "between_hands=0"]
    log = tmp_path / "serve.log"
    with open(log, "wb") as output:
        process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=output, stderr=output)
    try:
        wait_for_port(port, process, log)
        yield port, env
    finally:
        process.terminate()
        process.wait(timeout=20)


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    """Until the server accepts connections (it is a fresh process: imports take a moment)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"paiju serve exited: {log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"paiju serve did not open its port: {log.read_text()}")


async def join_and_play(port: int, room: str) -> tuple[dict[str, Any], list[Any]]:
    client = await Client.open(port)
    welcome = client.seen[-1]
    assert "pebbles" in welcome["variants"]
    await client.send({"type": "join", "room": room, "name": "Mei"})
    await client.expect("joined")
    await client.send({"type": "ready"})
    final = await play(client, until=("finished",))
    events = [m["event"] for m in client.seen if m["type"] == "event"]
    scored = [e["data"] for e in events if e["kind"] == "hand_scored"]
    taken = [e for e in events if e["kind"] == "taken"]
    await client.close()
    assert taken, "the variant's own events reach the player"
    return final, scored


def test_an_installed_variant_package_plays_over_the_server(
    server: tuple[int, dict[str, str]],
) -> None:
    port, env = server
    url = f"ws://127.0.0.1:{port}/admin"
    create = ["room", "create", "--variant", "pebbles", "--bots", "1", "--url", url]
    created = paiju([*create, "--admin-token", TOKEN, "--json"], env)
    assert created.returncode == 0, created.stderr
    room = json.loads(created.stdout)["room"]
    final, scored = asyncio.run(join_and_play(port, room))
    assert final["variant"] == "pebbles" and final["view"]["variant"] == "pebbles"
    assert len(scored) == 2  # the pebbles default: a match of two hands
    assert final["totals"] == scored[-1]["totals"]
    assert sorted(scored[-1]["scores"]) == [-1, 1]


def test_the_command_line_says_cleanly_what_the_variant_lacks(pebbles_path: Path) -> None:
    env = environment(pebbles_path)
    judged = paiju(["judge", "pebbles"], env)
    assert judged.returncode == 2
    assert judged.stderr == "paiju: the variant 'pebbles' provides no judge\n"
    schema = json.loads(paiju(["schema"], env).stdout)
    assert schema["variants"]["pebbles"]["error_codes"] == {
        "not_enough_pebbles": "a take of more pebbles than are left"
    }
    selfplay = ["selfplay", "--variant", "pebbles", "--games", "4", "--bots", "1,0", "--quiet"]
    report = paiju(selfplay, env)
    assert report.returncode == 0 and "pebbles: 4 games, 8 hands" in report.stdout
