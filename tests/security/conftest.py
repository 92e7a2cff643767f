"""The hostile-client suite: each attack runs against a real server on a free port (real
sockets, the server's own loop) with limits made small so that every defence is reached in
well under a second; the figures of the same attacks at full size are in
``benchmarks/attacks.py``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import Any

import pytest
import structlog
from structlog.testing import LogCapture

from paiju.server.app import PaijuServer
from paiju.table.commands import Start
from tests.server.conftest import ADMIN_TOKEN, running

__all__ = ["ADMIN_TOKEN", "eventually", "running", "start_bots_only"]


@pytest.fixture(autouse=True)
def race(race_variant: None) -> None:
    """Every attack may use the tests' tiny "race" variant next to the real ones."""


@pytest.fixture(autouse=True)
def no_tracebacks(caplog: pytest.LogCaptureFixture) -> Iterator[LogCapture]:
    """Every attack must leave the log free of errors and tracebacks (client input is never
    a server failure); the captured lines are there for the tests to read."""
    capture = LogCapture()
    old = structlog.get_config()
    structlog.configure(processors=[capture])
    caplog.set_level(logging.WARNING)
    try:
        yield capture
    finally:
        structlog.configure(**old)
    bad = [e for e in capture.entries if e["log_level"] in ("error", "critical") or "exc_info" in e]
    assert not bad, bad
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def start_bots_only(server: PaijuServer, hands: int) -> str:
    """A race room of two bots that plays ``hands`` hands at once (no delays): a source of
    many changes for spectators."""
    room = server.rooms.create("race", bots=2, bot_level=0, options={"hands": hands})
    await room.call(lambda table, now: (None, table.handle(None, Start(0), now)))
    return room.room_id


async def eventually(predicate: Any, timeout: float = 5.0) -> None:
    """Wait (polling) until ``predicate()`` holds; fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "timed out waiting for the defence"
        await asyncio.sleep(0.02)
