"""The table options of dragon (牌九接龙) and their normalisation.

Every option of rules §4, with its default. ``ScoringOptions`` is the hashable subset that
decides how a leftover (得分牌) scores; the solver and the scoring tables are keyed on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from paiju.core.errors import InvalidOptions

PAIR_SETS = ("paigow", "civil", "civil+geejoon")
SINGLE_POINTS = ("mod10", "raw")
SINGLE_RANKS = ("wikipedia", "geejoon_lowest")
SCORINGS = ("submitted", "best")

#: Every option with its default value.
DEFAULTS: dict[str, Any] = {
    "seats": 4,
    "hands": 4,
    "specials": False,
    "pair_set": "paigow",
    "single_points": "mod10",
    "single_rank": "wikipedia",
    "zero_tiebreak": False,
    "gee_joon_wild": False,
    "scoring": "submitted",
}

_CHOICES: dict[str, tuple[str, ...]] = {
    "pair_set": PAIR_SETS,
    "single_points": SINGLE_POINTS,
    "single_rank": SINGLE_RANKS,
    "scoring": SCORINGS,
}
_FLAGS = ("specials", "zero_tiebreak", "gee_joon_wild")
_INT_RANGES: dict[str, tuple[int, int]] = {"seats": (2, 4), "hands": (1, 1000)}


@dataclass(frozen=True)
class ScoringOptions:
    """The options that decide the score key of a leftover (rules R5-R9)."""

    specials: bool = False
    pair_set: str = "paigow"
    single_points: str = "mod10"
    single_rank: str = "wikipedia"
    zero_tiebreak: bool = False
    gee_joon_wild: bool = False


DEFAULT_SCORING = ScoringOptions()


def _check(key: str, value: Any) -> None:
    if key in _FLAGS:
        if not isinstance(value, bool):
            raise InvalidOptions(f"option {key!r} must be true or false, not {value!r}")
    elif key in _CHOICES:
        if value not in _CHOICES[key]:
            allowed = ", ".join(_CHOICES[key])
            raise InvalidOptions(f"option {key!r} must be one of {allowed}, not {value!r}")
    else:
        low, high = _INT_RANGES[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidOptions(f"option {key!r} must be an integer {low}-{high}, not {value!r}")


def normalize_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Every option with defaults filled in; ``InvalidOptions`` for unknown keys or values."""
    unknown = sorted(set(raw) - set(DEFAULTS))
    if unknown:
        known = ", ".join(DEFAULTS)
        raise InvalidOptions(f"unknown dragon option(s) {', '.join(unknown)}; known: {known}")
    options = dict(DEFAULTS)
    options.update(raw)
    for key, value in options.items():
        _check(key, value)
    return options


def scoring_options(raw: Mapping[str, Any]) -> ScoringOptions:
    """The scoring subset of (raw or normalized) options; ``InvalidOptions`` if bad."""
    options = normalize_options({k: v for k, v in raw.items() if k not in ("seats", "hands")})
    return ScoringOptions(
        specials=options["specials"],
        pair_set=options["pair_set"],
        single_points=options["single_points"],
        single_rank=options["single_rank"],
        zero_tiebreak=options["zero_tiebreak"],
        gee_joon_wild=options["gee_joon_wild"],
    )
