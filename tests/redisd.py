"""A real ``redis-server`` (the Debian package) for the tests: its own temporary directory,
a free port on the loopback address, AOF with ``appendfsync always`` (what a cluster that
must lose no acknowledged action runs), stopped, killed or restarted on demand.

Without the binary the Redis tests skip, except under ``CI=true``, where that is a failure
(``make test`` installs it when run as root). ``PAIJU_REDIS_SERVER`` names another binary.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis

#: Where the Debian package puts it (when /usr/bin is not on PATH).
DEBIAN_BINARY = Path("/usr/bin/redis-server")


def redis_binary() -> str:
    """The ``redis-server`` to run; skips (fails under ``CI=true``) when there is none."""
    found = os.environ.get("PAIJU_REDIS_SERVER") or shutil.which("redis-server")
    if found is None and DEBIAN_BINARY.exists():
        found = str(DEBIAN_BINARY)
    if found is None:
        reason = "redis-server is missing: sudo apt-get install redis-server (make test does)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"Redis tests cannot run in CI: {reason}")
        pytest.skip(reason)
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """One redis-server process; ``url`` stays the same across restarts."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.binary = redis_binary()
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        folder.mkdir(parents=True, exist_ok=True)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = [
            self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
            "--dir", str(self.folder), "--appendonly", "yes", "--appendfsync", "always",
            "--save", "", "--daemonize", "no", "--protected-mode", "yes",
            "--loglevel", "warning", "--logfile", str(self.folder / "redis.log"),
        ]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 10
        while True:
            try:
                if client.ping():
                    break
            except redis.exceptions.RedisError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    log = (self.folder / "redis.log").read_text(errors="replace")
                    raise RuntimeError(f"redis-server did not start: {log}") from None
                time.sleep(0.02)
        client.close()

    def stop(self, sig: signal.Signals = signal.SIGTERM) -> None:
        """SIGTERM: Redis finishes its AOF and exits; SIGKILL: it dies as it stands."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(10)
        self.proc = None

    def flush(self) -> None:
        client = redis.Redis(port=self.port)
        client.flushall()
        client.close()
