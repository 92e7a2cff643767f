"""The room preset lists every option at its default."""

from __future__ import annotations

import tomllib
from pathlib import Path

from paiju.engines.dragon.rules import DEFAULTS

PRESET = Path(__file__).parents[3] / "src" / "paiju" / "presets" / "dragon.toml"


def test_room_preset_has_every_option_at_its_default() -> None:
    preset = tomllib.loads(PRESET.read_text(encoding="utf-8"))
    assert preset["variant"] == "dragon"
    assert preset["options"] == DEFAULTS
    assert set(preset["timers"]) == {"arrange"}
