"""What a node loads to start: one without a cluster never imports Redis's client."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from paiju.persistence.memory import MemoryStore
from paiju.server.app import PaijuServer
from paiju.server.collector import collector_paused
from paiju.server.run import run_server
from tests.server.conftest import make_config

SERVE_WITHOUT_CLUSTER = """
import sys
import paiju.cli.__main__, paiju.server.run, paiju.persistence.sqlite
from paiju.persistence.memory import MemoryStore
from paiju.server.app import PaijuServer
from paiju.server.config import ServerConfig
server = PaijuServer(ServerConfig(), MemoryStore(), "t" * 32)
assert server.cluster is None
loaded = [m for m in sys.modules if m.split(".")[0] == "redis" or m == "paiju.server.cluster"]
print(sorted(loaded))
"""


def test_a_node_without_a_cluster_does_not_import_redis() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SERVE_WITHOUT_CLUSTER], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout


async def test_the_collector_is_off_while_the_server_starts_and_back_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[bool] = []

    async def start(self: PaijuServer) -> None:
        seen.append(gc.isenabled())
        raise ValueError("a start that fails")  # run_server gives up here

    monkeypatch.setattr(PaijuServer, "start", start)
    assert gc.isenabled()
    with pytest.raises(ValueError, match="a start that fails"):
        await run_server(make_config(), MemoryStore())
    assert seen == [False]
    assert gc.isenabled()


def test_the_command_line_pauses_the_collector_only_where_it_was_on() -> None:
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
