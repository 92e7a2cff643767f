"""The wheel an operator installs: built from the sources, installed into a fresh virtual
environment outside the repository (offline: its dependencies are the ones already installed
for the tests), ``paiju serve`` run from an empty folder; every packaged preset makes a room
whose decisions have the preset's deadlines."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from websockets.asyncio.client import connect

from tests.server.client import Client
from tests.server.test_end_to_end import free_port

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "wheel-test-admin-token-0123456789abcdef"


def run(*command: str | Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in command], check=True, capture_output=True,
                          text=True, timeout=180, **kwargs)  # type: ignore[call-overload]


def wheel_requirements(wheel: Path) -> list[str]:
    """The ``Requires-Dist`` lines of a wheel's metadata."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        text = archive.read(name).decode()
    return [line.split(":", 1)[1].strip() for line in text.splitlines()
            if line.startswith("Requires-Dist:")]


def link_dependencies(requirements: list[str], folder: Path) -> None:
    """Link every installed distribution the ``requirements`` need (recursively) into
    ``folder``."""
    folder.mkdir()
    seen: set[str] = set()
    todo: list[list[str]] = [requirements]
    while todo:
        for text in todo.pop():
            requirement = Requirement(text)
            wanted = requirement.marker is None or requirement.marker.evaluate({"extra": ""})
            key = canonicalize_name(requirement.name)
            if not wanted or key in seen:
                continue
            seen.add(key)
            dist = metadata.distribution(requirement.name)
            todo.append(dist.requires or [])
            tops = {Path(str(f)).parts[0] for f in dist.files or [] if ".." not in str(f)}
            for top in tops - {"bin"}:
                target = Path(str(dist.locate_file(top)))
                if target.exists() and not (folder / top).exists():
                    (folder / top).symlink_to(target)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the paiju wheel installed; returns its bin folder."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"  # the build writes next to its sources: not in the repository
    shutil.copytree(ROOT / "src", source / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    dist = work / "dist"
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index",
        "--no-build-isolation", "--wheel-dir", dist, source)
    venv = work / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    # The dependencies are those installed for the tests, and only those: a folder of links
    # to each distribution paiju needs (not to the repository's editable paiju), which the
    # new environment reads through a .pth line.
    deps = work / "deps"
    (wheel,) = dist.glob("paiju-*.whl")
    link_dependencies(wheel_requirements(wheel), deps)
    purelib = Path(run(venv / "bin" / "python", "-c",
                       "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    (purelib / "test-dependencies.pth").write_text(f"{deps}\n")
    run(sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "--quiet",
        "--no-index", "--find-links", dist, "paiju")
    return venv / "bin"


def test_the_installed_package_is_the_wheel_not_the_repository(installed: Path,
                                                               tmp_path: Path) -> None:
    where = run(installed / "python", "-c", "import paiju; print(paiju.__file__)",
                cwd=tmp_path).stdout.strip()
    assert str(installed.parent) in where and str(ROOT) not in where
    assert run(installed / "paiju", "--version", cwd=tmp_path).stdout.strip().startswith("paiju ")


@pytest.fixture
def serving(installed: Path, tmp_path: Path) -> Iterator[int]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAIJU_", "PYTHONPATH"))}
    command = [str(installed / "paiju"), "serve", "--memory", "--port", str(port),
               "--admin-token", TOKEN, "--set", "bot_delay=0.0", "--set", "drain_timeout=0.0"]
    process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "serving" in line, process.stderr.read() if process.stderr else line
        yield port
    finally:
        process.terminate()
        process.wait(30)


async def admin(port: int, **request: object) -> dict[str, object]:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with connect(f"ws://127.0.0.1:{port}/admin", additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "admin", **request}))
        answer: dict[str, object] = json.loads(await ws.recv())
        assert answer["ok"], answer
        return answer


async def test_every_packaged_preset_makes_a_room_with_its_deadlines(serving: int) -> None:
    lobby = await Client.open(serving)
    await lobby.send({"type": "lobby"})
    presets = (await lobby.expect("lobby"))["presets"]
    assert {p["name"] for p in presets} == {"diu", "dragon", "mcr", "shengji"}
    await lobby.close()
    for preset in presets:
        assert preset["timers"] and preset["choices"] and preset["title"] != preset["name"]
        made = await admin(serving, command="create", preset=preset["name"],
                           bots=preset["seats"] - 1, bot_level=0)
        room = made["result"]["room"]  # type: ignore[index]
        client = await Client.open(serving)
        await client.send({"type": "join", "room": room, "name": "ann"})
        await client.expect("joined")
        await client.send({"type": "ready"})
        state = await client.until_state(
            lambda s: s["phase"] == "playing" and s["deadline_ms"] is not None
        )
        longest = max(preset["timers"].values()) * 1000
        assert 0 < state["deadline_ms"] <= longest, (preset["name"], state["deadline_ms"])
        await client.close()
