"""What every ``paiju`` command shares: the configuration from file, environment and flags,
help texts with an example, and where output goes (``rich`` consoles)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paiju.server.config import (
    CONFIG_VARIABLE,
    ConfigError,
    ServerConfig,
    load_with_sources,
    parse_setting,
)

if TYPE_CHECKING:
    from rich.console import Console

#: The config file read when neither ``--config`` nor ``PAIJU_CONFIG`` names one (if it exists).
DEFAULT_CONFIG = "configs/server.toml"
#: Flags that set a setting of the same name.
SETTING_FLAGS = ("host", "port", "database", "admin_token", "rooms_dir")


def config_path(args: argparse.Namespace) -> str | None:
    """The config file: ``--config``, else ``PAIJU_CONFIG``, else ``configs/server.toml`` if
    it exists here. Raises ``ConfigError`` for a named file that does not exist."""
    named = getattr(args, "config", None) or os.environ.get(CONFIG_VARIABLE)
    if named:
        if not Path(named).exists():
            raise ConfigError(f"no config file at {named}")
        return str(named)
    return DEFAULT_CONFIG if Path(DEFAULT_CONFIG).exists() else None


def config_with_sources(args: argparse.Namespace) -> tuple[ServerConfig, dict[str, str]]:
    """The effective configuration (defaults < file < ``PAIJU_*`` < flags), with sources."""
    flags: dict[str, Any] = dict(parse_setting(s) for s in getattr(args, "set", None) or [])
    for key in SETTING_FLAGS:
        value = getattr(args, key, None)
        if value is not None:
            flags[key] = value
    return load_with_sources(config_path(args), flags)


def config_from(args: argparse.Namespace) -> ServerConfig:
    """The effective configuration; ``ConfigError`` (one sentence) for a bad one."""
    return config_with_sources(args)[0]


def with_config(parser: argparse.ArgumentParser) -> None:
    """``--config`` and ``--set``, for every command that reads the server's settings."""
    parser.add_argument(
        "--config",
        help=f"server TOML file (default: ${CONFIG_VARIABLE}, else {DEFAULT_CONFIG} if present)",
    )
    parser.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="override any setting (the value is TOML: port=9000, host='\"::1\"'); repeatable",
    )


def add_command(
    sub: Any, name: str, text: str, example: str, **kwargs: Any
) -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` ends with an example."""
    return sub.add_parser(  # type: ignore[no-any-return]
        name,
        help=text,
        description=text[0].upper() + text[1:] + ".",
        epilog="example:\n  " + example.replace("\n", "\n  "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        **kwargs,
    )


def out() -> Console:
    """The console for results (stdout); plain when it is not a terminal."""
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def err() -> Console:
    """The console for progress and notes (stderr)."""
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def stored_records(args: argparse.Namespace) -> tuple[Any, str] | None:
    """The store that holds the rooms' records (per the command's settings) and its name:
    the cluster's Redis (``store`` setting; read only, never fenced), else the SQLite
    database; ``None``, said on stderr, if there is no such file."""
    config = config_from(args)
    if config.store:
        from paiju.persistence.redisstore import RedisStore

        return RedisStore(config.store), config.store
    if not Path(config.database).exists():
        print(f"paiju: no database at {config.database}", file=sys.stderr)
        return None
    from paiju.persistence.sqlite import SqliteStore

    return SqliteStore(config.database), config.database
