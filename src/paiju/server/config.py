"""Server settings: defaults, ``configs/server.toml``, then command-line overrides."""

from __future__ import annotations

import ipaddress
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from paiju.core.errors import InvalidOptions


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
    player_rooms: bool = True
    web_root: str = ""
    # Hostile clients (docs/security.md lists each limit with its close code or error).
    hello_timeout: float = 5.0
    max_connections_per_address: int = 32
    trusted_proxies: list[str] = field(default_factory=list)
    allowed_origins: list[str] = field(default_factory=list)
    rate_bytes_per_second: int = 32768
    rate_bytes_burst: int = 131072
    max_spectators_per_room: int = 100
    max_spectators: int = 2000
    outbound_queue_bytes: int = 1048576
    send_timeout: float = 10.0
    socket_send_buffer: int = 65536
    finished_room_grace: float = 600.0
    admin_backoff: float = 1.0
    admin_backoff_max: float = 300.0
    log_lines_per_second: float = 20.0
    tls_cert_file: str = ""
    tls_key_file: str = ""
    public_cleartext: bool = False

    def __post_init__(self) -> None:
        check_limits(self)

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
    elif isinstance(default, list):
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    else:  # timers: a table of kind -> seconds
        ok = isinstance(value, dict) and all(
            isinstance(v, int | float) and not isinstance(v, bool) and v >= 0
            for v in value.values()
        )
        value = {str(k): float(v) for k, v in value.items()} if ok else value
    if not ok:
        kind = type(default).__name__
        if isinstance(default, dict | list):
            kind = "a table of seconds" if isinstance(default, dict) else "a list of strings"
        raise ValueError(f"setting {name} must be {kind}, not {value!r}")
    return value


#: The shortest admin token a configuration may set (a generated one has 32 characters).
MIN_ADMIN_TOKEN = 32

#: Settings that must not be negative (0 means "no limit" or "at once", see configs/server.toml).
NOT_NEGATIVE = (
    "hello_timeout", "max_connections_per_address", "rate_bytes_per_second", "send_timeout",
    "socket_send_buffer", "finished_room_grace", "admin_backoff", "admin_backoff_max",
    "log_lines_per_second", "max_spectators_per_room", "max_spectators",
)
#: Settings that must be above zero.
POSITIVE = (
    "max_frame_bytes", "rate_per_second", "rate_burst", "flood_strikes", "outbound_queue",
    "outbound_queue_bytes", "max_connections",
)


def check_limits(config: ServerConfig) -> None:
    """Refuse settings that contradict each other or leave a door open, with one sentence.

    Raises ``ValueError``: a negative or zero limit where that makes no sense, a configured
    admin token shorter than ``MIN_ADMIN_TOKEN``, a byte burst too small for one frame, a
    trusted proxy or allowed origin that does not parse, half a TLS setting."""
    for name in NOT_NEGATIVE:
        if getattr(config, name) < 0:
            raise ValueError(f"setting {name} must not be negative")
    for name in POSITIVE:
        if getattr(config, name) <= 0:
            raise ValueError(f"setting {name} must be above zero")
    if config.admin_token and len(config.admin_token) < MIN_ADMIN_TOKEN:
        raise ValueError(
            f"setting admin_token must have at least {MIN_ADMIN_TOKEN} characters "
            f"(it has {len(config.admin_token)}); leave it empty to get a random one"
        )
    if config.rate_bytes_per_second and config.rate_bytes_burst < config.max_frame_bytes:
        raise ValueError("setting rate_bytes_burst must be at least max_frame_bytes")
    if bool(config.tls_cert_file) != bool(config.tls_key_file):
        raise ValueError("settings tls_cert_file and tls_key_file go together: set both or none")
    for entry in config.trusted_proxies:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ValueError(
                f"setting trusted_proxies: {entry!r} is not an address or network"
            ) from None
    for origin in config.allowed_origins:
        if origin != "*" and "://" not in origin:
            raise ValueError(
                f"setting allowed_origins: {origin!r} is not an origin like https://example.com"
            )


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
    """A room preset (``<rooms_dir>/<name>.toml``): a variant, default options and timers,
    and ``choices``: the options a player may set when making a room, with allowed values."""

    name: str
    variant: str
    options: dict[str, Any]
    timers: dict[str, float]
    title: str = ""
    choices: dict[str, list[Any]] = field(default_factory=dict)

    def player_options(self, chosen: dict[str, Any]) -> dict[str, Any]:
        """The preset's options with a player's ``chosen`` ones applied.

        Raises ``InvalidOptions`` for an option the preset does not let players set, or a
        value outside its allowed list."""
        for key, value in chosen.items():
            allowed = self.choices.get(key)
            if allowed is None:
                open_ = ", ".join(sorted(self.choices)) or "none"
                raise InvalidOptions(
                    f"preset {self.name} does not let players set {key!r} (they may set: {open_})"
                )
            if not any(_same(value, a) for a in allowed):
                raise InvalidOptions(
                    f"{key} = {value!r} is not allowed in preset {self.name}; "
                    f"choose one of {allowed}"
                )
        return {**self.options, **chosen}


def _same(a: Any, b: Any) -> bool:
    """JSON equality: ``True`` is not ``1``, ``1`` is ``1.0``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def load_presets(rooms_dir: str | Path) -> dict[str, RoomPreset]:
    """Every preset of ``rooms_dir`` by name (the file's stem), sorted by name.

    Raises ``ValueError`` naming the file for one that cannot be read."""
    folder = Path(rooms_dir)
    presets: dict[str, RoomPreset] = {}
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        presets[path.stem] = _read_preset(path)
    return presets


def _read_preset(path: Path) -> RoomPreset:
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
        timers = {str(k): float(v) for k, v in data.get("timers", {}).items()}
        choices = {str(k): list(v) for k, v in data.get("choices", {}).items()}
        return RoomPreset(
            name=path.stem,
            variant=str(data.get("variant", path.stem)),
            options=dict(data.get("options", {})),
            timers=timers,
            title=str(data.get("title", "")),
            choices=choices,
        )
    except (OSError, ValueError, TypeError) as exc:
        raise ValueError(f"cannot read the room preset {path}: {exc}") from exc


def load_preset(rooms_dir: str | Path, name: str) -> RoomPreset:
    """The preset called ``name`` (by convention each variant's default preset carries the
    variant's name), or an empty one for that variant if there is no such file."""
    path = Path(rooms_dir) / f"{name}.toml"
    if not path.exists():
        return RoomPreset(name, name, {}, {})
    return _read_preset(path)
