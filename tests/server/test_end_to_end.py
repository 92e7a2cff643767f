"""The real thing: `paiju serve` in a subprocess, `paiju room create` over the admin channel,
and a client written from docs/protocol.md playing a dragon match against three bots, losing
its connection mid-hand, resuming with its token, and seeing the result."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.client import Client

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def paiju(*args: str) -> list[str]:
    return [sys.executable, "-m", "paiju.cli", *args]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, list[str]]]:
    port = free_port()
    common = [
        "--config",
        str(ROOT / "configs" / "server.toml"),
        "--set",
        f'admin_token_file="{tmp_path / "admin.token"}"',
    ]
    proc = subprocess.Popen(
        paiju(
            "serve",
            *common,
            "--port",
            str(port),
            "--database",
            str(tmp_path / "p.sqlite3"),
            "--set",
            "bot_delay=0.0",
            "--set",
            "between_hands=0.0",
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(400):  # readiness, not timing: wait until the port accepts
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError(proc.stderr.read() if proc.stderr else "exit") from None
                time.sleep(0.05)
        yield port, [*common, "--port", str(port)]
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
        assert "server_stopped" in err
        assert f"serving http://127.0.0.1:{port}/ (open it in a browser" in out


async def test_a_full_dragon_match_against_three_bots_with_a_reconnect(
    served: tuple[int, list[str]],
) -> None:
    port, common = served
    created = subprocess.run(
        paiju(
            "room",
            "create",
            *common,
            "--variant",
            "dragon",
            "--seats",
            "4",
            "--bots",
            "3",
            "--option",
            "hands=3",
            "--json",
        ),
        capture_output=True,
        text=True,
        check=True,
    )
    room = json.loads(created.stdout)["room"]
    listed = subprocess.run(
        paiju("room", "list", *common), capture_output=True, text=True, check=True
    )
    assert room in listed.stdout and "dragon" in listed.stdout

    client = await Client.open(port)
    await client.send({"type": "join", "room": room, "name": "Mei"})
    token = (await client.expect("joined"))["token"]
    await client.send({"type": "ready"})
    state = await client.until_state(lambda s: s["phase"] == "playing" and s["you"] in s["to_act"])
    assert len(state["view"]["hand"]) == 8
    await client.close()  # the connection drops mid-hand

    again = await Client.open(port)
    await again.send({"type": "resume", "room": room, "token": token})
    assert (await again.expect("joined"))["seat"] == 0
    state = await again.expect("state")
    while state["phase"] != "finished":
        if state["phase"] == "playing" and state["you"] in state["to_act"]:
            await again.send(
                {"type": "act", "version": state["version"], "action": state["view"]["legal"][0]}
            )
        state = await again.expect("state")
    assert sum(state["totals"]) == 0
    assert state["view"]["result"]["scores"] is not None
    shown = subprocess.run(
        paiju("room", "show", *common, room, "--json"), capture_output=True, text=True,
        check=True,
    )
    assert json.loads(shown.stdout)["phase"] == "finished"
    await again.close()
