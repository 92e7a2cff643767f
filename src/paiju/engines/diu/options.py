"""Table options of diu: every key, its default and its allowed values (rules A1-A13).

``normalize(raw)`` returns every option with defaults filled in and raises
``InvalidOptions`` (code ``invalid_options``) for an unknown key or a bad value.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from paiju.core.errors import InvalidOptions
from paiju.core.options import Option, choice, custom, flag, int_range, normalize_options
from paiju.engines.diu.cards import profile

CALL_RANKS = ("chi", "kuai", "kuai_shui", "hard_dui", "ying_shui", "diu")


def _int_list(v: Any) -> bool:
    return isinstance(v, list | tuple) and all(type(x) is int and x >= 1 for x in v)


def _deal_sizes(v: Any) -> bool:
    return _int_list(v) and len(v) in (0, 3)


def _str_list(v: Any) -> bool:
    return isinstance(v, list | tuple) and all(isinstance(x, str) for x in v)


#: Every option: its default (first), what it accepts, and the rule it comes from.
_SPECS: dict[str, Option] = {
    # 3, or 4 with an idle 闲家 D each hand
    "players": choice(3, 3, 4),
    # A1: the deck profile and the 听用 cards added to it
    "deck_profile": choice("zipai80", "zipai80", "chuanpai84", "poker54"),
    "wild_count": int_range(4, 0, 10),
    # A2: [A, B, C]; [] = auto (21/20/20 for an 84-card deck)
    "deal_sizes": custom([], _deal_sizes, "a list of three positive integers, or []"),
    # §2.3: 吃 shapes allowed ([] = every shape of the profile); may a 听用 stand in a 吃
    "chi_shapes": custom([], _str_list, "a list of 吃 shape names, or []"),
    "wild_in_chi": flag(False),
    # §2.3: a natural four is 4 (硬水) | 3 (筷水) | 0 (no meld)
    "natural_four_level": choice(4, 4, 3, 0),
    # §2.3/S5: the rest of a 丢 hand must split into melds; melds it needs at least
    "diu_requires_complete_hand": flag(True),
    "diu_min_points": int_range(0, 0, 20),
    # A3, A4/S11, A5: who may 吃 a drawn card; 丢 on a discard; where a forfeited card goes
    "chi_on_draw": choice("drawer_and_next", "drawer_and_next", "next_only", "any"),
    "diu_on_discard": flag(False),
    "forfeit_fallback": choice(
        "next_highest_claim", "next_highest_claim", "reopen_after_forfeiter"
    ),
    # A12: polling; offering only calls above the standing one, or skipping seats that can
    # only pass, reveals the standing call — both off by default
    "poll_mode": choice("sequential", "sequential", "parallel"),
    "offer_calls": choice("hand", "hand", "above_standing"),
    "silent_seats": choice("ask", "ask", "skip"),
    # A13: 硬水 by adding the card to an exposed 对/筷
    "allow_upgrade_exposed_meld": flag(True),
    # A6, A7, A11: timeout discard; dead cards face up (else only counted); head rotation
    "timeout_discard": choice("rightmost", "rightmost", "random"),
    "dead_card_visible": flag(True),
    "head_rotation": choice("clockwise", "clockwise", "winner"),
    # A-S1/A-S2: the shuffle, and the seed riffle's passes and cut offset
    "shuffle": choice("fisher_yates", "fisher_yates", "seed_riffle"),
    "riffle_passes": int_range(3, 1, 20),
    "riffle_max_offset": int_range(9, 0, 20),
    # S22, A-D1, A-D2: stock prefetch (never plain), batch size, refill threshold
    "prefetch_mode": choice("none", "none", "encrypted"),
    "prefetch_batch": int_range(10, 1, 100),
    "prefetch_refill_at": int_range(3, 0, 99),
    # Q9: scoring per meld or flat, points per unit; hands per match (0 = one per player)
    "scoring": choice("per_meld", "per_meld", "flat"),
    "score_unit": int_range(1, 1, 1000),
    "match_hands": int_range(0, 0, 1000),
}
#: Every option with its default value.
DEFAULTS: dict[str, Any] = {name: spec.default for name, spec in _SPECS.items()}


def normalize(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Every option with defaults filled in; ``InvalidOptions`` for unknown keys or values."""
    opts = normalize_options("diu", raw, _SPECS)
    prof = profile(opts["deck_profile"])
    if prof.wilds is not None:
        # A poker deck's 听用 are its own two jokers: wild_count (the 听用 added to the other
        # decks, which a room preset or a lobby choice may carry over) does not apply.
        opts["wild_count"] = prof.wilds
    bad_shapes = sorted(set(opts["chi_shapes"]) - set(prof.shape_names()))
    if bad_shapes:
        raise InvalidOptions(f"unknown chi_shapes for {prof.name}: {bad_shapes}")
    opts["chi_shapes"] = sorted(opts["chi_shapes"]) or list(prof.shape_names())
    deck_size = len(prof.deck(opts["wild_count"]))
    opts["deal_sizes"] = list(opts["deal_sizes"]) or auto_deal(deck_size)
    if sum(opts["deal_sizes"]) >= deck_size:
        raise InvalidOptions("deal_sizes must leave at least one card in the stock")
    if opts["prefetch_refill_at"] >= opts["prefetch_batch"]:
        raise InvalidOptions("prefetch_refill_at must be below prefetch_batch")
    return opts


#: The option values ``normalized`` remembers: scalars, told apart by type (``True == 1``).
_SCALARS = (bool, int, float, str, type(None))


def normalized(raw: Mapping[str, Any]) -> Mapping[str, Any]:
    """``normalize(raw)`` for a reader that only reads it, remembered per distinct options:
    the table asks ``seat_count`` and ``match_over`` with the same (normalized) options at
    every hand, and normalizing builds the deck to check the deal. Options holding
    anything but scalars and lists of scalars are normalized afresh."""
    items: list[tuple[str, type, Any]] = []
    for name, value in raw.items():
        kind = type(value)
        if kind is list:
            if any(type(v) not in _SCALARS for v in value):
                return normalize(raw)
            value = tuple((type(v), v) for v in value)
        elif kind not in _SCALARS or type(name) is not str:
            return normalize(raw)
        items.append((name, kind, value))
    return _normalized(tuple(items))


@lru_cache(maxsize=64)
def _normalized(items: tuple[tuple[str, type, Any], ...]) -> Mapping[str, Any]:
    # Read-only: every caller with these options shares it.
    raw = {name: [v for _, v in value] if kind is list else value for name, kind, value in items}
    return MappingProxyType(normalize(raw))


def auto_deal(deck_size: int) -> list[int]:
    """A2: 21/20/20 for an 84-card deck, scaled for other decks (A gets one card more)."""
    h = max(2, round(20 * deck_size / 84))
    while 3 * h + 1 >= deck_size:
        h -= 1
    # Keep hands at 2 mod 3 after A's first discard so 丢 can complete a hand.
    while h % 3 != 2:
        h -= 1
    return [h + 1, h, h]
