"""Points, the kitty multiplier (底牌翻倍), level bands (升级), next landlord, match end.

Attackers (闲家) collect 5s, 10s and Ks (200 points in two decks). Kitty points count only
when the attackers win the last trick, multiplied by ``2*m`` (``times``) or ``2**m``
(``power``) where ``m`` is the card count of the largest component of that trick's lead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paiju.engines.shengji.cards import points

MULTIPLIERS = ("times", "power")
MUST_DEFEND = ("A", "A_5_10_K", "none")
ACE = 14


def kitty_multiplier(largest_component: int, mode: str = "times") -> int:
    """The multiplier for a last-trick lead whose largest component has that many cards."""
    if mode == "power":
        return int(2**largest_component)
    return 2 * largest_component


def kitty_bonus(kitty: Sequence[str], largest_component: int, mode: str = "times") -> int:
    """Kitty points added to the attackers when they win the last trick."""
    return points(kitty) * kitty_multiplier(largest_component, mode)


@dataclass(frozen=True)
class Outcome:
    """The hand's result: which side won and by how many levels (``gain`` may be 0)."""

    attackers_win: bool
    gain: int


def outcome(attacker_points: int, step: int = 40, turnover_steps: int = 2, cap: int = 0) -> Outcome:
    """Level bands for the attackers' final points ``A`` (tricks + kitty ± penalties).

    With the default step 40: ``A <= 0`` declarers +3 (+1 per further 40 below zero),
    5-35 declarers +2, 40-75 declarers +1, 80-115 attackers take over +0, then +1 per 40.
    ``cap`` > 0 limits the gain (a common house rule caps at 3).
    """
    turnover = step * turnover_steps
    if attacker_points >= turnover:
        result = Outcome(True, (attacker_points - turnover) // step)
    elif attacker_points >= step:
        result = Outcome(False, 1)
    elif attacker_points > 0:
        result = Outcome(False, 2)
    else:
        result = Outcome(False, 3 + (-attacker_points) // step)
    if cap > 0 and result.gain > cap:
        return Outcome(result.attackers_win, cap)
    return result


def advance(
    level: int, gain: int, as_declarers: bool, must_defend: str = "A", top: int = ACE
) -> tuple[int, bool]:
    """(new level, match won) for a team at ``level`` gaining ``gain`` levels.

    ``top`` is the final level: A (14), or NT (15, option ``max_rank``). A must-defend rank
    (A and the final level; with ``A_5_10_K`` also 5, 10, K) can only be passed by winning a
    hand as declarers at that rank; jumps stop there. Winning as declarers at the final
    level ends the match (gains beyond it are lost). With ``none`` a team passing the final
    level wins the match.
    """
    ranks = {"A": (ACE, top), "A_5_10_K": (5, 10, 13, ACE, top), "none": ()}[must_defend]
    defended = sorted(set(ranks))
    if as_declarers and level == top and must_defend != "none" and gain > 0:
        return top, True
    target = level + gain
    for rank in defended:
        if level < rank < target or (rank == level and not as_declarers and target > rank):
            return rank, False
    if target > top:
        return top, must_defend == "none"
    return target, False


def next_landlord(landlord: int, declarers_won: bool, same_on_win: bool = False) -> int:
    """The next seat after ``landlord`` on the winning team (4 seats; partners opposite)."""
    if declarers_won:
        return landlord if same_on_win else (landlord + 2) % 4
    return (landlord + 1) % 4
