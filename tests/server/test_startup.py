"""What a node loads to start: one without a cluster never imports Redis's client."""

from __future__ import annotations

import subprocess
import sys

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
