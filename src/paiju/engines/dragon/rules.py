"""The table options of dragon (牌九接龙) and their normalisation.

Every option of rules §4, with its default. ``ScoringOptions`` is the hashable subset that
decides how a leftover (得分牌) scores; the solver and the scoring tables are keyed on it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from paiju.core.options import Option, choice, flag, int_range
from paiju.core.options import normalize_options as normalize

VARIANT = "dragon"

PAIR_SETS = ("paigow", "civil", "civil+geejoon")
SINGLE_POINTS = ("mod10", "raw")
SINGLE_RANKS = ("wikipedia", "geejoon_lowest")
SCORINGS = ("submitted", "best")


_SPECS: dict[str, Option] = {
    "seats": int_range(4, 2, 4),
    "hands": int_range(4, 1, 1000),
    "specials": flag(False),
    "pair_set": choice("paigow", *PAIR_SETS),
    "single_points": choice("mod10", *SINGLE_POINTS),
    "single_rank": choice("wikipedia", *SINGLE_RANKS),
    "zero_tiebreak": flag(False),
    "gee_joon_wild": flag(False),
    "scoring": choice("submitted", *SCORINGS),
}
#: Every option with its default value.
DEFAULTS: dict[str, Any] = {name: spec.default for name, spec in _SPECS.items()}


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


def normalize_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Every option with defaults filled in; ``InvalidOptions`` for unknown keys or values."""
    return normalize(VARIANT, raw, _SPECS)


#: The option values ``normalized`` remembers: scalars, told apart by type (``True == 1``).
_SCALARS = (bool, int, float, str, type(None))


def normalized(raw: Mapping[str, Any]) -> Mapping[str, Any]:
    """``normalize_options(raw)`` for a reader that only reads it, remembered per distinct
    options: the table asks ``seat_count`` and ``match_over`` with the same options at every
    hand, and normalizing them afresh was a few per cent of a dragon action. Options holding
    anything but scalars are normalized afresh (they are refused anyway)."""
    items = []
    for name, value in raw.items():
        if type(name) is not str or type(value) not in _SCALARS:
            return normalize_options(raw)
        items.append((name, type(value), value))
    return _normalized(tuple(items))


@functools.lru_cache(maxsize=64)
def _normalized(items: tuple[tuple[str, type, Any], ...]) -> Mapping[str, Any]:
    # Read-only: every caller with these options shares it.
    return MappingProxyType(normalize_options({name: value for name, _, value in items}))


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
