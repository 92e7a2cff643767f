"""Server settings: defaults, ``configs/server.toml``, then command-line overrides."""

from __future__ import annotations

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
