"""A real paiju server on a free port for the bridge tests, and a way to run a bridge."""

from __future__ import annotations

import io
import itertools
import sys
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from paiju.bots.bridge import Bridge, BridgeOptions, DriverFactory, RoomCheck
from paiju.bots.external import JsonLinesDriver, Reporter, SeatDriver
from paiju.bots.program import Program
from paiju.persistence.memory import MemoryStore
from paiju.server.app import PaijuServer
from tests.server.conftest import ADMIN_TOKEN, make_config

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "bots"
VARIANTS = ("mcr", "shengji", "diu", "dragon")


def presets(folder: Path, timer: float) -> str:
    """One preset per variant, every timer ``timer`` seconds (0: no deadline)."""
    for variant in VARIANTS:
        (folder / f"{variant}.toml").write_text(
            f'variant = "{variant}"\ntitle = "{variant}"\n[options]\n'
            f"[timers]\nturn = {timer}\nclaim = {timer}\nbid = {timer}\narrange = {timer}\n"
            + ("[choices]\nhands = [1, 2, 4]\n" if variant == "dragon" else "")
        )
    return str(folder)


async def start_server(rooms_dir: str) -> PaijuServer:
    """The server tests' configuration, with these presets and no rate limit to speak of (a
    bridge answers as fast as the bots it plays against)."""
    config = make_config(rooms_dir=rooms_dir, rate_per_second=10_000.0, rate_burst=10_000)
    server = PaijuServer(config, MemoryStore(), ADMIN_TOKEN)
    await server.start()
    return server


async def serving(folder: Path, timer: float) -> AsyncIterator[PaijuServer]:
    folder.mkdir()
    srv = await start_server(presets(folder, timer))
    yield srv
    await srv.stop()


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[PaijuServer]:
    """Rooms without deadlines (timers 0): failures fall back to the bridge's trustee."""
    async for srv in serving(tmp_path / "rooms", 0.0):
        yield srv


@pytest.fixture
async def timed_server(tmp_path: Path) -> AsyncIterator[PaijuServer]:
    """Rooms whose every decision has a short deadline (0.5 s)."""
    async for srv in serving(tmp_path / "timed", 0.5):
        yield srv


def python(script: Path | str, *args: str) -> list[str]:
    return [sys.executable, str(script), *args]


def json_driver(argv: list[str], reporter: Reporter, timeout: float = 10.0) -> DriverFactory:
    def make(variant: str, view: Mapping[str, Any]) -> SeatDriver:
        return JsonLinesDriver(Program(argv), reporter, timeout, "fallback")

    return make


def reporter() -> Reporter:
    return Reporter(io.StringIO(), label="test")


def report_text(rep: Reporter) -> str:
    stream = rep.stream
    assert isinstance(stream, io.StringIO)
    return stream.getvalue()


async def run_bridge(
    server: PaijuServer,
    room: str,
    make: DriverFactory,
    rep: Reporter,
    check_room: RoomCheck | None = None,
    **options: Any,
) -> int:
    url = f"ws://127.0.0.1:{server.port}/"
    options = {"rate": 0, **options}
    bridge = Bridge(
        BridgeOptions(url=url, room=room, **options), make, rep, check_room, counted_seeds()
    )
    return await bridge.run()


def counted_seeds() -> Callable[[], str]:
    """Client seeds that are the same in every run, so a seeded room deals the same hands."""
    drawn = itertools.count()
    return lambda: f"client-{next(drawn)}"
