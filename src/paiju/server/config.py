"""Server settings: defaults, ``configs/server.toml``, then command-line overrides."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class ServerConfig:
    """Every setting of a running server."""

    host: str = "127.0.0.1"
    port: int = 8765
    database: str = "var/paiju.sqlite3"
    admin_token: str = ""
    admin_token_file: str = "var/admin.token"
    rooms_dir: str = "configs/rooms"
    max_frame_bytes: int = 65536
    rate_per_second: float = 20.0
    rate_burst: int = 40
    flood_strikes: int = 20
    max_rooms: int = 1000
    max_connections: int = 10000
    outbound_queue: int = 256
    bot_delay: float = 0.6
    between_hands: float = 4.0
    timers: dict[str, float] = field(default_factory=lambda: {"turn": 30.0, "claim": 10.0})

    def with_overrides(self, overrides: dict[str, Any]) -> ServerConfig:
        """A copy with the given settings replaced (``None`` values are ignored).

        Raises ``ValueError`` naming an unknown setting or a value of the wrong kind, so a
        typo fails at start-up with a sentence instead of deep inside the server.
        """
        known = {f.name for f in fields(self)}
        unknown = set(overrides) - known
        if unknown:
            raise ValueError(f"unknown settings: {', '.join(sorted(unknown))}")
        checked = {
            k: _checked(k, v, getattr(self, k)) for k, v in overrides.items() if v is not None
        }
        return replace(self, **checked)


def _checked(name: str, value: Any, default: Any) -> Any:
    """``value`` for setting ``name`` in the type of its default (an integer may be a float)."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(default, bool | str):
        ok = type(value) is type(default)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        ok, value = number, float(value) if number else value
    else:  # timers: a table of kind -> seconds
        ok = isinstance(value, dict) and all(
            isinstance(v, int | float) and not isinstance(v, bool) and v >= 0
            for v in value.values()
        )
        value = {str(k): float(v) for k, v in value.items()} if ok else value
    if not ok:
        kind = "a table of seconds" if isinstance(default, dict) else type(default).__name__
        raise ValueError(f"setting {name} must be {kind}, not {value!r}")
    return value


def load_config(path: str | Path | None) -> ServerConfig:
    """Defaults, overridden by the ``[server]`` and ``[timers]`` tables of a TOML file."""
    config = ServerConfig()
    if path is None:
        return config
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    settings = dict(data.get("server", {}))
    if "timers" in data:
        settings["timers"] = data["timers"]
    return config.with_overrides(settings)


def parse_setting(text: str) -> tuple[str, Any]:
    """``key=value`` from ``--set``; the value is read as TOML (``port=9000``, ``host="::1"``),
    falling back to a plain string."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise ValueError(f"expected key=value, got {text!r}")
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return key.strip(), value


@dataclass(frozen=True)
class RoomPreset:
    """A room preset (``configs/rooms/<variant>.toml``): default options and timers."""

    variant: str
    options: dict[str, Any]
    timers: dict[str, float]


def load_preset(rooms_dir: str | Path, variant: str) -> RoomPreset:
    """The preset for ``variant``, or an empty one if the file does not exist."""
    path = Path(rooms_dir) / f"{variant}.toml"
    if not path.exists():
        return RoomPreset(variant, {}, {})
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    timers = {str(k): float(v) for k, v in data.get("timers", {}).items()}
    return RoomPreset(variant, dict(data.get("options", {})), timers)
