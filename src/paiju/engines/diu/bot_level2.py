"""Diu bot level 2: level 1, but it counts the cards it has not seen.

A 丢 can come on any drawn card, drawn by anyone, so what matters after a discard is not
only how close the hand is to being all melds (level 1's ``shortfall``) but how many of the
unseen cards would bring it closer — or complete it. Level 2 ranks its discards by
shortfall, then by that **acceptance** (unseen copies of every face that lowers the
shortfall, counted twice when it completes the hand), and calls a card only when the take
and its best discard leave it at least as close *and* with no less acceptance, or strictly
closer. It reads only its view: its hand, the exposed melds, the dead cards and the polled
card are what it has seen; the stock and the other hands are not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from paiju.core.rng import Rng
from paiju.engines.diu.bot import (
    GreedyBot,
    _minus,
    _own_melds,
    _rules_from_view,
    credit_of,
    shortfall,
)
from paiju.engines.diu.cards import WILD, profile
from paiju.engines.diu.combos import LEVELS, ComboRules, chi_index, takes_for


def unseen(view: Mapping[str, Any], rules: ComboRules) -> Counter[str]:
    """Cards of the deck this seat has not seen (stock and other hands), by face."""
    table = view.get("table") or {}
    wilds = int(table.get("wild_count", 0) or 0)
    left = Counter(profile(rules.profile).deck(wilds))
    if profile(rules.profile).wilds is not None:
        left[WILD] = int(profile(rules.profile).wilds or 0)
    seen: list[str] = list(view.get("hand") or [])
    for melds in view.get("melds") or []:
        for meld in melds:
            seen.extend(meld)
    seen.extend(view.get("dead") or [])
    card = (view.get("card") or {}).get("card")
    if card:
        seen.append(card)
    left.subtract(seen)
    return +left


def acceptance(rules: ComboRules, hand: Sequence[str], left: Counter[str]) -> int:
    """Unseen cards that would bring ``hand`` closer to all melds (counted twice when they
    complete it).

    Such a card must complete a 3-card meld with two cards of the hand (a shortfall falls
    only when a meld's credit of 3 replaces less), so only those faces are weighed."""
    return _acceptance(rules, tuple(sorted(hand)), tuple(sorted(left.items())))


@lru_cache(maxsize=1 << 14)
def _acceptance(
    rules: ComboRules, hand: tuple[str, ...], left: tuple[tuple[str, int], ...]
) -> int:
    deck = profile(rules.profile)
    same = deck.same
    held = Counter(hand)
    by_same = Counter(same(c) for c in hand if c != WILD)
    melds = chi_index(rules)
    now = shortfall(rules, hand)
    total = 0
    for face, copies in left:
        if face == WILD:
            if not any(n >= 2 for n in by_same.values()):
                continue
            after = shortfall(rules, [*hand, face])
        elif deck.by_rank:
            mates = by_same[same(face)]
            useful = mates >= 2 or (mates >= 1 and held[WILD] >= 1) or any(
                _two_held(meld, face, held) for meld in melds.get(face, ())
            )
            if not useful:
                continue
            after = shortfall(rules, [*hand, face])
        else:
            lowered = _shortfall_with(rules, hand, held, face, len(hand) - now)
            if lowered is None:
                continue
            after = lowered
        if after < now:
            total += copies * (2 if after == 0 else 1)
    return total


def _shortfall_with(
    rules: ComboRules, hand: tuple[str, ...], held: Counter[str], face: str, credit: int
) -> int | None:
    """``shortfall(hand + [face])`` when ``face`` lowers it (``None`` when it does not), for
    a deck where "the same card" is the same face; ``credit`` is the hand's own.

    The shortfall falls only when the credit grows by 2 or more, which only a complete meld
    holding the new card can do (left unused it adds nothing, in a partial meld at most 1).
    So the new credit is the best of 3 + the credit of the hand less that meld's two other
    cards, over the melds the hand completes with the card: a few searches over 2 cards
    fewer, instead of one over the whole hand and the card, and the same answer."""
    best = -1
    wilds = held[WILD]
    for rest in _completions(rules, face, held, wilds):
        left = list(hand)
        for card in rest:
            left.remove(card)
        best = max(best, 3 + credit_of(rules, left))
    if best < credit + 2:
        return None
    return len(hand) + 1 - best


def _completions(
    rules: ComboRules, face: str, held: Counter[str], wilds: int
) -> list[tuple[str, ...]]:
    """The pairs of held cards that make a complete meld with ``face``: two more of it, one
    more and a 听用, or the other two cards of a 吃."""
    found: list[tuple[str, ...]] = []
    if held[face] >= 2:
        found.append((face, face))
    if held[face] >= 1 and wilds:
        found.append((face, WILD))
    for meld in chi_index(rules).get(face, ()):
        rest = list(meld)
        rest.remove(face)
        if all(held[c] >= n for c, n in Counter(rest).items()):
            found.append(tuple(rest))
    return found


def _two_held(meld: tuple[str, str, str], face: str, held: Counter[str]) -> bool:
    """Whether ``held`` has the two other cards of ``meld`` (besides one ``face``)."""
    rest = list(meld)
    rest.remove(face)
    need = Counter(rest)
    return all(held[c] >= n for c, n in need.items())


#: Hands a decision may weigh by acceptance (each costs a shortfall search per unseen face).
ACCEPTANCE_BUDGET = 8


class CountingBot(GreedyBot):
    """Level 2 (see the module docstring); ties broken by its own ``rng``.

    Acceptance is the dear part (a shortfall search per unseen face), so a decision weighs
    at most ``ACCEPTANCE_BUDGET`` hands by it; past that it decides as level 1 does. The
    budget counts hands, not time, so the bot stays deterministic."""

    def __init__(self, rng: Rng) -> None:
        super().__init__(rng)
        self._left: Counter[str] = Counter()
        self._budget = 0

    def choose(self, view: Mapping[str, Any]) -> str:
        hand = list(view.get("hand") or [])
        self._left = unseen(view, _rules_from_view(view, hand))
        self._budget = ACCEPTANCE_BUDGET
        return super().choose(view)

    def _acceptance(self, rules: ComboRules, hand: Sequence[str]) -> int | None:
        """``acceptance`` while the decision's budget lasts, else ``None``."""
        if self._budget <= 0:
            return None
        self._budget -= 1
        return acceptance(rules, hand, self._left)

    def _discard(self, rules: ComboRules, hand: list[str], legal: list[str]) -> str:
        by_shortfall = sorted((shortfall(rules, _minus(hand, [a.split()[1]])), a) for a in legal)
        tied = [a for f, a in by_shortfall if f == by_shortfall[0][0]]
        if len(tied) == 1:
            return tied[0]
        # Acceptance where shortfall does not decide, in a random order (the budget may not
        # reach them all): the best of those weighed.
        order = [tied.pop(self.rng.randbelow(len(tied))) for _ in range(len(tied))]
        gain = {a: self._acceptance(rules, _minus(hand, [a.split()[1]])) for a in order}
        weighed = {a: g for a, g in gain.items() if g is not None}
        top = max(weighed.values())
        best = sorted(a for a, g in weighed.items() if g == top)
        return best[self.rng.randbelow(len(best))]

    def _call(
        self, rules: ComboRules, hand: list[str], view: Mapping[str, Any], calls: list[str]
    ) -> str:
        card = (view.get("card") or {}).get("card")
        if card is None:
            return "pass"
        now = shortfall(rules, hand)
        now_gain: int | None = None
        melds = _own_melds(view)
        best: tuple[int, int, int, str] | None = None
        for action in calls:
            call = action.split()[1]
            for take in takes_for(rules, card, hand, melds).get(call, ()):
                after, gain = self._after_take(rules, _minus(hand, take.cards), now)
                if after > now:
                    continue
                if after == now and gain is not None:
                    if now_gain is None:
                        now_gain = self._acceptance(rules, hand)
                    if now_gain is not None and gain < now_gain:
                        continue
                key = (after, -(gain or 0), -LEVELS[call], action)
                best = key if best is None or key < best else best
        return best[3] if best else "pass"

    def _after_take(
        self, rules: ComboRules, left: list[str], now: int
    ) -> tuple[int, int | None]:
        """The best shortfall after one discard from ``left`` and, when it equals ``now``
        (acceptance then decides), the acceptance of the first such discard (``None`` past
        the budget; 0 when the shortfall decides)."""
        if not left:
            return (99, 0)
        scored = sorted((shortfall(rules, _minus(left, [c])), c) for c in set(left))
        low, card = scored[0]
        if low != now:
            return (low, 0)
        return (low, self._acceptance(rules, _minus(left, [card])))


#: The levels ``make_bot`` makes (0, random-legal, is every variant's).
BOT_LEVELS = (1, 2)


def make_bot(level: int, rng: Rng) -> GreedyBot:
    """The diu bot of ``level``: 1 ``GreedyBot``, 2 ``CountingBot`` (0 is the
    generic random bot); ``ValueError`` for another level."""
    if level not in BOT_LEVELS:
        raise ValueError(f"diu has bot levels 1 and 2, not {level}")
    if level == 2:
        return CountingBot(rng)
    return GreedyBot(rng)
