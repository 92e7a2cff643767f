"""``paiju serve``, ``paiju config show`` and ``paiju health``."""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import ssl
import urllib.error
import urllib.request
from typing import Any

from paiju.cli.common import add_command, config_from, config_with_sources, out, with_config
from paiju.persistence.store import Store
from paiju.server.collector import collector_paused
from paiju.server.config import ServerConfig, describe


def cmd_serve(args: argparse.Namespace) -> int:
    with collector_paused():  # the server's modules load (the restore pauses it again)
        from paiju.persistence.memory import MemoryStore
        from paiju.persistence.signing import key_path, load_or_create
        from paiju.persistence.sqlite import SqliteStore
        from paiju.server.logs import configure_logging
        from paiju.server.loops import loop_factory
        from paiju.server.run import DataLock, data_folders, run_server

        config = config_from(args)
        configure_logging(config.log_level, config.log_format)
        _, new_loop = loop_factory(config.event_loop)
    clustered = bool(config.store)  # the records live in Redis, not in a local database
    lock = DataLock(data_folders(config, args.memory or clustered))
    try:
        try:
            store: Store = (
                cluster_store(config) if clustered
                else MemoryStore() if args.memory else SqliteStore(config.database)
            )
        except sqlite3.Error as exc:
            raise ValueError(f"cannot open the database {config.database}: {exc}") from None
        key = None
        if not args.memory or config.history_key_file:
            key = load_or_create(key_path(config.database, config.history_key_file))
        with asyncio.Runner(loop_factory=new_loop) as runner:
            runner.run(run_server(config, store, key))
    finally:
        lock.release()
    return 0


def cluster_store(config: ServerConfig) -> Store:
    """The fenced Redis store of a cluster node (``store`` setting); ``ValueError`` when
    Redis does not answer."""
    import redis

    from paiju.persistence.redisstore import RedisStore
    from paiju.server.nodes import default_node_id

    store = RedisStore(config.store, node=config.node_id or default_node_id(),
                       retry_for=config.redis_retry)
    try:
        store.client.ping()
    except redis.exceptions.RedisError as exc:
        raise ValueError(f"cannot reach the Redis store {config.store}: {exc}") from None
    return store


def cmd_config_show(args: argparse.Namespace) -> int:
    config, sources = config_with_sources(args)
    rows = describe(config, sources)
    if args.json:
        print(json.dumps({key: {"value": value, "source": source} for key, value, source in rows},
                         ensure_ascii=False, indent=2))
        return 0
    from rich.table import Table

    table = Table("setting", "value", "from", title="paiju configuration", title_justify="left")
    for key, value, source in rows:
        table.add_row(key, json.dumps(value, ensure_ascii=False), source)
    out().print(table)
    return 0


def health_url(args: argparse.Namespace) -> str:
    """Where ``paiju health`` asks: ``--url``, else this machine's server from the config."""
    if args.url:
        return str(args.url)
    config = config_from(args)
    host = "127.0.0.1" if config.host in ("", "0.0.0.0") else config.host
    host = "::1" if host == "::" else host
    host = f"[{host}]" if ":" in host else host
    scheme = "https" if config.tls_cert_file else "http"
    return f"{scheme}://{host}:{config.port}/{'healthz' if args.live else 'readyz'}"


def cmd_health(args: argparse.Namespace) -> int:
    url = health_url(args)
    # The check talks to its own server (a container's HEALTHCHECK): it sends no secret, so
    # a certificate made for the public name need not match the loopback address.
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:
        with urllib.request.urlopen(url, timeout=args.timeout, context=context) as answer:
            print(f"{url}: {answer.read().decode(errors='replace').strip()}")
            return 0
    except urllib.error.HTTPError as exc:
        body = exc.read().decode(errors="replace").strip().replace("\n", "; ")
        print(f"paiju: {url}: {exc.code} {body}")
        return 1
    except OSError as exc:
        print(f"paiju: {url}: {getattr(exc, 'reason', exc)}")
        return 1


def add_serve_commands(sub: Any) -> None:
    serve = add_command(
        sub, "serve", "run the server until SIGTERM or SIGINT (which drain it)",
        "paiju serve --port 9000 --set log_format='\"console\"'\n"
        "PAIJU_PORT=9000 PAIJU_METRICS_PORT=9100 paiju serve",
    )
    with_config(serve)
    serve.add_argument("--host", help="address to listen on (setting host)")
    serve.add_argument("--port", type=int, help="port for players, operators and the page")
    serve.add_argument("--database", help="SQLite file for rooms and logs")
    serve.add_argument("--admin-token", dest="admin_token")
    serve.add_argument("--rooms-dir", dest="rooms_dir",
                       help="folder of room presets that add to or replace the packaged ones")
    serve.add_argument("--memory", action="store_true", help="keep nothing on disk (testing)")
    serve.set_defaults(func=cmd_serve)

    config = add_command(
        sub, "config", "the effective configuration", "paiju config show --set port=9000"
    )
    config_sub = config.add_subparsers(dest="config_command", required=True)
    show = add_command(
        config_sub, "show",
        "print every setting with its value and where it came from (secrets masked)",
        "PAIJU_PORT=9000 paiju config show --json",
    )
    with_config(show)
    show.add_argument("--host")
    show.add_argument("--port", type=int)
    show.add_argument("--database")
    show.add_argument("--admin-token", dest="admin_token")
    show.add_argument("--rooms-dir", dest="rooms_dir")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(func=cmd_config_show)

    health = add_command(
        sub, "health", "ask a running server whether it is ready (exit 0) or not (exit 1)",
        "paiju health            # GET /readyz of the configured port\n"
        "paiju health --live     # GET /healthz (alive)",
    )
    with_config(health)
    health.add_argument("--port", type=int)
    health.add_argument("--url", help="full URL to ask instead")
    health.add_argument("--live", action="store_true", help="ask /healthz instead of /readyz")
    health.add_argument("--timeout", type=float, default=3.0, help="seconds (default 3)")
    health.set_defaults(func=cmd_health)
