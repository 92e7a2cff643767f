"""The room preset lists every option at its default."""

from __future__ import annotations

import tomllib
from pathlib import Path

from paiju.engines.diu.options import DEFAULTS, normalize

PRESET = Path(__file__).resolve().parents[3] / "src" / "paiju" / "presets" / "diu.toml"


def test_room_preset_has_every_option_at_default() -> None:
    preset = tomllib.loads(PRESET.read_text(encoding="utf-8"))
    assert preset["variant"] == "diu"
    assert preset["options"] == DEFAULTS
    assert normalize(preset["options"])["deal_sizes"] == [21, 20, 20]
    assert preset["timers"] == {"claim": 15.0, "turn": 20.0}
