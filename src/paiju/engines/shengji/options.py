"""Table options (the knobs of the rules doc §1.11) with their defaults and allowed values."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.core.options import choice, normalize_options
from paiju.engines.shengji.order import TrumpContext, trump_context

#: name -> (default, allowed values); an empty tuple of values means "an int in range".
CHOICES: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "kitty_multiplier": ("times", ("times", "power")),
    "throw_fail_forced": (
        "smallest_by_size_then_rank",
        ("smallest_by_size_then_rank", "lowest_rank", "first_challenger"),
    ),
    "throw_penalty": ("none", ("none", "10_per_attempt", "10_per_card")),
    "reveal_throw_blocker": (False, (False, True)),
    "throw_evaluation": ("all", ("all", "largest_component", "highest")),
    "level_gap_adjacent": (True, (False, True)),
    "offsuit_level_tractors": (True, (False, True)),
    "joker_tractors": (True, (False, True)),
    "nt_trumps": ("jokers_and_levels", ("jokers_and_levels", "jokers_only")),
    "tractor_min_length": (2, (2, 3, 4)),
    "draw_policy": ("no_protections", ("no_protections", "no_format_draw")),
    "bid_policy": (
        "joker_or_greater_length",
        ("joker_or_greater_length", "joker_or_higher_suit", "greater_length"),
    ),
    "bid_reinforcement": (
        "while_winning",
        ("while_winning", "overturn_or_while_winning", "while_equivalent"),
    ),
    "joker_bid": (
        "both_two_or_more",
        ("both_two_or_more", "both_num_decks", "lj_two_bj_one", "disabled"),
    ),
    "first_landlord": ("winning_bidder", ("winning_bidder", "first_bidder")),
    "kitty_bid_policy": ("first_card", ("first_card", "first_level_or_highest")),
    "kitty_theft": (False, (False, True)),
    "scoring_step": (40, (20, 30, 40, 50)),
    "turnover_steps": (2, (1, 2, 3)),
    "result_cap": (0, (0, 1, 2, 3, 4)),
    "must_defend": ("A", ("A", "A_5_10_K", "none")),
    "max_rank": ("A", ("A", "NT")),
    "jack_variation": (False, (False, True)),
    "next_landlord_on_win": ("partner", ("partner", "same")),
    "game_mode": ("tractor", ("tractor", "finding_friends")),
    "friend_selection": (
        "non_trump",
        ("non_trump", "trumps_included", "highest_not_allowed", "points_not_allowed"),
    ),
}


#: The same table as declarative specs (default first, then the allowed values).
SPECS = {name: choice(default, *allowed) for name, (default, allowed) in CHOICES.items()}


def normalize(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Every option with defaults filled in; ``InvalidOptions`` for unknown keys or values."""
    return normalize_options("shengji", raw, SPECS)


def context(level: int, suit: str | None, options: Mapping[str, Any]) -> TrumpContext:
    """The trump context of a hand under the ordering options."""
    return trump_context(
        level,
        suit,
        bool(options.get("level_gap_adjacent", True)),
        bool(options.get("offsuit_level_tractors", True)),
        bool(options.get("joker_tractors", True)),
        options.get("nt_trumps", "jokers_and_levels") == "jokers_and_levels",
    )
