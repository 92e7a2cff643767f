"""Room presets: the package's own (``paiju/presets/*.toml``, read with ``importlib.resources``
so an installed wheel has them), and an operator's folder (``rooms_dir``) whose files add
presets or replace the package's of the same name.

A preset file holds ``variant``, ``title``, ``[options]`` (the defaults), ``[timers]``,
``[choices]`` (the options a player may set when opening a room, each with its allowed values)
and, optionally, ``spectator_delay`` (seconds) and ``spectator_delay_actions``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from paiju.core.errors import InvalidOptions

#: The keys a preset file may hold.
PRESET_KEYS = (
    "variant", "title", "options", "timers", "choices", "spectator_delay",
    "spectator_delay_actions",
)


@dataclass(frozen=True)
class RoomPreset:
    """A room preset: a variant, default options and timers, ``choices`` (the options a
    player may set when making a room, with allowed values) and the spectators' delay
    (``None``: the server's default)."""

    name: str
    variant: str
    options: dict[str, Any]
    timers: dict[str, float]
    title: str = ""
    choices: dict[str, list[Any]] = field(default_factory=dict)
    spectator_delay: float | None = None
    spectator_delay_actions: int | None = None
    origin: str = "package"

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


class _PresetFile(BaseModel):
    """What a preset file may hold (anything else is refused with the file's name)."""

    model_config = ConfigDict(extra="forbid")

    variant: str | None = None
    title: str = ""
    options: dict[str, Any] = Field(default_factory=dict)
    timers: dict[str, float] = Field(default_factory=dict)
    choices: dict[str, list[Any]] = Field(default_factory=dict)
    spectator_delay: float | None = Field(default=None, ge=0)
    spectator_delay_actions: int | None = Field(default=None, ge=0)


def packaged() -> Traversable:
    """The folder of the presets that ship with the package."""
    return resources.files("paiju").joinpath("presets")


def load_presets(rooms_dir: str | Path = "") -> dict[str, RoomPreset]:
    """Every preset by name (the file's stem), sorted by name: the package's, then those of
    ``rooms_dir`` (if set), which replace a packaged one of the same name.

    Raises ``ValueError`` naming the file for one that cannot be read, or a ``rooms_dir``
    that is not a folder."""
    presets = _read_folder(packaged(), "package")
    if rooms_dir:
        folder = Path(rooms_dir)
        if not folder.is_dir():
            raise ValueError(f"rooms_dir {rooms_dir} is not a folder")
        presets.update(_read_folder(folder, str(folder)))
    return dict(sorted(presets.items()))


def _read_folder(folder: Traversable, origin: str) -> dict[str, RoomPreset]:
    files = sorted(
        (f for f in folder.iterdir() if f.is_file() and f.name.endswith(".toml")),
        key=lambda f: f.name,
    )
    return {f.name.removesuffix(".toml"): _read_preset(f, origin) for f in files}


def _read_preset(path: Traversable, origin: str) -> RoomPreset:
    name = path.name.removesuffix(".toml")
    try:
        data = _PresetFile.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, ValidationError) as exc:
        where = f"{origin}/{path.name}" if origin != "package" else f"paiju/presets/{path.name}"
        raise ValueError(f"cannot read the room preset {where}: {_first(exc)}") from None
    return RoomPreset(
        name=name,
        variant=data.variant or name,
        options=dict(data.options),
        timers={str(k): float(v) for k, v in data.timers.items()},
        title=data.title,
        choices={str(k): list(v) for k, v in data.choices.items()},
        spectator_delay=data.spectator_delay,
        spectator_delay_actions=data.spectator_delay_actions,
        origin=origin,
    )


def _first(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "file"
        return f"{where}: {first['msg']}"
    return str(exc)


def default_preset(variant: str) -> RoomPreset:
    """The preset of a variant that has none: its engine's defaults, no timers of its own."""
    return RoomPreset(variant, variant, {}, {})
