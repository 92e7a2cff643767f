"""Starting and stopping ``paiju serve``: what must hold before the server listens (not in
cleartext on a public address, one server per data directory), the admin token written only
once the port is ours, the signals (SIGTERM and SIGINT drain; a second one stops at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import ipaddress
import os
import secrets
import signal
import sys
from pathlib import Path

from paiju.persistence.signing import HistoryKey
from paiju.persistence.store import Store
from paiju.server.app import PaijuServer
from paiju.server.collector import Collector, collector_paused
from paiju.server.config import ServerConfig

#: The lock file a server holds in each data directory it writes to.
LOCK_NAME = "paiju.lock"


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a bind address) is reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_exposure(config: ServerConfig) -> str | None:
    """Refuse to serve cleartext on a public address unless the operator said so
    (``public_cleartext``: a TLS proxy in front); returns the warning to print then.

    Raises ``ValueError`` with one sentence saying what to do."""
    if config.tls_cert_file or is_loopback(config.host):
        return None
    if not config.public_cleartext:
        raise ValueError(
            f"refusing to serve cleartext on {config.host or 'every address'}: seat and admin "
            "tokens would cross the network unencrypted; set tls_cert_file and tls_key_file, "
            "or put a TLS proxy in front and set public_cleartext = true (docs/security.md)"
        )
    return (
        f"paiju: warning: cleartext on {config.host or 'every address'}:{config.port} "
        "(public_cleartext = true): only a TLS proxy in front may be reachable from outside"
    )


def resolve_admin_token(config: ServerConfig) -> str:
    """The configured admin token, or a fresh one written to ``admin_token_file``, whose mode
    is set to 0600 even if the file existed with another one (a symlink is refused)."""
    if config.admin_token:
        return config.admin_token
    path = Path(config.admin_token_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(24)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    except OSError as exc:
        raise ValueError(f"cannot write the admin token file {path}: {exc}") from None
    with os.fdopen(fd, "w") as handle:
        os.fchmod(handle.fileno(), 0o600)
        handle.write(token + "\n")
    return token


class DataLock:
    """One server per data directory: an exclusive ``flock`` on ``<dir>/paiju.lock`` (holding
    the owner's pid) for each folder the server writes to, held until ``release``. The kernel
    lets go if the process dies, so a crash leaves no stale lock behind."""

    def __init__(self, folders: list[Path]) -> None:
        self._fds: list[int] = []
        try:
            for folder in dict.fromkeys(f.resolve() for f in folders):
                self._take(folder)
        except BaseException:
            self.release()
            raise

    def _take(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / LOCK_NAME
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise ValueError(
                f"the data directory {folder} is in use by another paiju server (pid {owner}); "
                "stop that one first, or give this one another --database and admin_token_file"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fds.append(fd)

    def release(self) -> None:
        """Let go of every lock (closing the files releases them)."""
        for fd in self._fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds.clear()


def data_folders(config: ServerConfig, memory: bool) -> list[Path]:
    """The folders a server with ``config`` writes to: the database's, unless it keeps
    nothing on disk, and the admin token file's, unless the token is configured."""
    folders = [] if memory else [Path(config.database).parent]
    if not config.admin_token:
        folders.append(Path(config.admin_token_file).parent)
    return folders


async def run_server(
    config: ServerConfig, store: Store, history_key: HistoryKey | None = None
) -> None:
    """Serve until SIGTERM or SIGINT, then drain (hands in play finish, up to
    ``drain_timeout``) and stop; a second signal stops at once.

    Raises ``ValueError`` (one sentence) for a set-up that must not start: cleartext on a
    public address without ``public_cleartext``, TLS files that do not load, a port in use.
    The admin token file is written only once the port is bound, so a server that cannot
    start never replaces the token of one that runs."""
    warning = check_exposure(config)
    # The garbage collector is off until the rooms are restored and the port is open: the
    # start loads the variants and builds every room, all of it kept, and the collections
    # meanwhile walked the whole growing heap for nothing (60 ms of a start's 0.55 s).
    with collector_paused():
        server = PaijuServer(config, store, config.admin_token, history_key)
        base = sys.getallocatedblocks()  # holding nothing yet: what a room or connection adds
        await server.start()
    # Once every room is restored: freeze what the server holds, then keep full collections
    # rare (benchmarks/load.py: the pauses of automatic ones set the latency at 500 tables),
    # due only when memory outgrows the rooms and connections held (paiju.server.collector).
    collector = Collector(held=server.held)
    collector.start(base)
    try:
        await serve_until_stopped(config, server, warning)
    finally:
        collector.stop()


async def serve_until_stopped(
    config: ServerConfig, server: PaijuServer, warning: str | None
) -> None:
    """Announce the server, then serve until it has stopped (see ``run_server``)."""
    if not config.admin_token:
        try:
            server.admin_token = resolve_admin_token(config)
        except ValueError:
            await server.stop()
            raise
    if warning:
        print(warning, file=sys.stderr, flush=True)
    where = "the configured admin_token" if config.admin_token else config.admin_token_file
    metrics = (
        f"; metrics on http://{config.metrics_host}:{server.metrics_port}/metrics"
        if server.metrics_port else f"; metrics at {server.url}metrics with the admin token"
    )
    print(
        f"paiju: serving {server.url} (open it in a browser to play); "
        f"admin token in {where}{metrics}",
        flush=True,
    )
    def on_signal() -> None:
        first = not server.draining
        server.signalled()
        if first:
            print(
                "paiju: draining: hands in play finish (at most drain_timeout = "
                f"{config.drain_timeout:g} s), then the server stops; signal again to stop now",
                file=sys.stderr, flush=True,
            )

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal)
    await server.stopped.wait()
