"""Table options of diu: every key, its default and its allowed values (rules A1-A13).

``normalize(raw)`` returns every option with defaults filled in and raises
``InvalidOptions`` (code ``invalid_options``) for an unknown key or a bad value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from paiju.core.errors import InvalidOptions
from paiju.engines.diu.cards import profile

CALL_RANKS = ("chi", "kuai", "kuai_shui", "hard_dui", "ying_shui", "diu")

DEFAULTS: dict[str, Any] = {
    "players": 3,  # 3, or 4 with an idle 闲家 D each hand
    "deck_profile": "zipai80",  # A1: zipai80 | chuanpai84 | poker54
    "wild_count": 4,  # A1: 听用 cards added to the deck, 0-10
    "deal_sizes": [],  # A2: [A, B, C]; [] = auto (21/20/20 for an 84-card deck)
    "chi_shapes": [],  # §2.3: 吃 shapes allowed; [] = every shape of the profile
    "wild_in_chi": False,  # §2.3: may a 听用 stand in a 吃
    "natural_four_level": 4,  # §2.3: a natural four is 4 (硬水) | 3 (筷水) | 0 (no meld)
    "diu_requires_complete_hand": True,  # §2.3/S5: the rest of the hand must split into melds
    "diu_min_points": 0,  # §2.3: melds a 丢 hand needs at least (per_meld count), 0-20
    "chi_on_draw": "drawer_and_next",  # A3: drawer_and_next | next_only | any
    "diu_on_discard": False,  # A4 / S11
    "forfeit_fallback": "next_highest_claim",  # A5: next_highest_claim | reopen_after_forfeiter
    "poll_mode": "sequential",  # A12: sequential | parallel
    "offer_calls": "hand",  # A12: hand (every call the hand allows) | above_standing (reveals)
    "silent_seats": "ask",  # ask every polled seat | skip seats that can only pass (reveals)
    "allow_upgrade_exposed_meld": True,  # A13: 硬水 by adding the card to an exposed 对/筷
    "timeout_discard": "rightmost",  # A6: rightmost | random
    "dead_card_visible": True,  # A7: dead cards shown face up (else only counted)
    "head_rotation": "clockwise",  # A11: clockwise | winner
    "shuffle": "fisher_yates",  # A-S2: fisher_yates | seed_riffle
    "riffle_passes": 3,  # A-S1: passes of the seed riffle, 1-20
    "riffle_max_offset": 9,  # A-S1: the cut moves by a random 0..offset, 0-20
    "prefetch_mode": "none",  # A-D2: none | encrypted (never plain)
    "prefetch_batch": 10,  # S22: stock cards pushed per batch
    "prefetch_refill_at": 3,  # A-D1: push the next batch when this many or fewer are buffered
    "scoring": "per_meld",  # Q9: per_meld | flat
    "score_unit": 1,  # points per unit
    "match_hands": 0,  # hands in a match; 0 = one per player
}


def _choice(*values: Any) -> Callable[[Any], bool]:
    return lambda v: v in values and type(v) is type(values[0])


def _int_range(lo: int, hi: int) -> Callable[[Any], bool]:
    return lambda v: type(v) is int and lo <= v <= hi


def _bool(v: Any) -> bool:
    return type(v) is bool


def _int_list(v: Any) -> bool:
    return isinstance(v, list | tuple) and all(type(x) is int and x >= 1 for x in v)


_CHECKS: dict[str, Callable[[Any], bool]] = {
    "players": _choice(3, 4),
    "deck_profile": _choice("zipai80", "chuanpai84", "poker54"),
    "wild_count": _int_range(0, 10),
    "deal_sizes": lambda v: _int_list(v) and len(v) in (0, 3),
    "chi_shapes": lambda v: isinstance(v, list | tuple) and all(isinstance(x, str) for x in v),
    "wild_in_chi": _bool,
    "natural_four_level": _choice(4, 3, 0),
    "diu_requires_complete_hand": _bool,
    "diu_min_points": _int_range(0, 20),
    "chi_on_draw": _choice("drawer_and_next", "next_only", "any"),
    "diu_on_discard": _bool,
    "forfeit_fallback": _choice("next_highest_claim", "reopen_after_forfeiter"),
    "poll_mode": _choice("sequential", "parallel"),
    "offer_calls": _choice("hand", "above_standing"),
    "silent_seats": _choice("ask", "skip"),
    "allow_upgrade_exposed_meld": _bool,
    "timeout_discard": _choice("rightmost", "random"),
    "dead_card_visible": _bool,
    "head_rotation": _choice("clockwise", "winner"),
    "shuffle": _choice("fisher_yates", "seed_riffle"),
    "riffle_passes": _int_range(1, 20),
    "riffle_max_offset": _int_range(0, 20),
    "prefetch_mode": _choice("none", "encrypted"),
    "prefetch_batch": _int_range(1, 100),
    "prefetch_refill_at": _int_range(0, 99),
    "scoring": _choice("per_meld", "flat"),
    "score_unit": _int_range(1, 1000),
    "match_hands": _int_range(0, 1000),
}


def normalize(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Every option with defaults filled in; ``InvalidOptions`` for unknown keys or values."""
    unknown = sorted(set(raw) - set(DEFAULTS))
    if unknown:
        raise InvalidOptions(f"unknown diu options: {', '.join(unknown)}", code="invalid_options")
    opts = {**DEFAULTS, **raw}
    for key, check in _CHECKS.items():
        if not check(opts[key]):
            raise InvalidOptions(f"bad value for {key}: {opts[key]!r}", code="invalid_options")
    prof = profile(opts["deck_profile"])
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


def auto_deal(deck_size: int) -> list[int]:
    """A2: 21/20/20 for an 84-card deck, scaled for other decks (A gets one card more)."""
    h = max(2, round(20 * deck_size / 84))
    while 3 * h + 1 >= deck_size:
        h -= 1
    # Keep hands at 2 mod 3 after A's first discard so 丢 can complete a hand.
    while h % 3 != 2:
        h -= 1
    return [h + 1, h, h]
