"""Bots for diu (绥江-丢). They read only the seat's view and answer one of ``view["legal"]``.

Level 1 (``GreedyBot``): always takes 丢 when legal (S5/S9); otherwise calls when taking the
card leaves its hand at least as close to complete, preferring the higher call on a tie; never
gives a won card up; discards the card whose loss hurts its melds least.

"Close to complete" is ``shortfall(hand)``: the hand size minus the best credit of a split into
complete 3-card melds (3 each) and two-card partial melds (1 each) — 0 means the hand is
made of melds only, as a 丢 needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from paiju.core.rng import Rng
from paiju.engines.diu.cards import WILD, card_key, profile, sort_cards
from paiju.engines.diu.combos import LEVELS, ComboRules, chi_index, takes_for


def _rules_from_view(view: Mapping[str, Any], hand: Sequence[str]) -> ComboRules:
    """The table's combination rules as the view states them (else guessed from the cards)."""
    table = view.get("table")
    if isinstance(table, Mapping) and table.get("deck_profile"):
        return ComboRules(
            profile=str(table["deck_profile"]),
            chi_shapes=tuple(table.get("chi_shapes") or ()),
            wild_in_chi=bool(table.get("wild_in_chi", False)),
            natural_four_level=int(table.get("natural_four_level", 4)),
        )
    return _rules_for(hand)


def _rules_for(cards: Sequence[str]) -> ComboRules:
    name = "zipai80"
    for card in cards:
        if card != WILD:
            name = "chuanpai84" if card[0] == "p" else "poker54" if card[0] in "SHCD" else name
            break
    return ComboRules(profile=name, chi_shapes=profile(name).shape_names())


class _Credit:
    """Best 3·(complete melds) + 1·(partial melds) over a hand's cards, for one set of rules,
    memoised.

    The search takes the first card and tries it unused, in a 对/筷/水 with the same cards,
    with a 听用, and in each 吃 that holds it. A hand is written as bytes, one per card (the
    face's rank in card order, so sorted bytes are the sorted hand): slicing, finding and
    removing a card and hashing the memo's key are then the bytes type's own fast loops,
    where tuples of strings cost most of the search. The memo holds exact values, so it is
    simply emptied when it is full: that changes no answer, only the time."""

    LIMIT = 1 << 17

    def __init__(self, rules: ComboRules) -> None:
        self.deck = profile(rules.profile)
        self.rules = rules
        self.codes: dict[str, int] = {}
        self._index(self.deck.faces)

    def _index(self, faces: Iterable[str]) -> None:
        """Number every face known so far in card order (anew when a face is new)."""
        known = sorted({*self.codes, *faces}, key=card_key)
        if len(known) > 255:
            raise ValueError("too many faces for the credit search")
        self.codes = {face: i for i, face in enumerate(known)}
        same = self.deck.same
        ranks = {same(face): None for face in known}
        rank_ids = {r: i for i, r in enumerate(ranks)}
        self.rank = [rank_ids[same(face)] for face in known]
        self.chi: dict[int, tuple[tuple[bytes, ...], ...]] = {}
        for face, melds in chi_index(self.rules).items():
            if face in self.codes:
                self.chi[self.codes[face]] = tuple(
                    tuple(bytes([self.codes[c]]) for c in _minus(meld, [face]))
                    for meld in melds
                    if all(c in self.codes for c in meld)
                )
        self.memo: dict[bytes, int] = {}

    def credit(self, faces: Sequence[str], wilds: int) -> int:
        """The credit of ``faces`` (sorted, no 听用) with ``wilds`` 听用."""
        if any(face not in self.codes for face in faces):
            self._index(faces)
        codes = self.codes
        return self(bytes(codes[face] for face in faces), wilds)

    def __call__(self, hand: bytes, wilds: int) -> int:
        key = hand + _WILDS[wilds]
        found = self.memo.get(key, -1)
        if found >= 0:
            return found
        value = self._search(hand, wilds) if hand else 0
        if len(self.memo) >= self.LIMIT:
            self.memo.clear()
        self.memo[key] = value
        return value

    def _search(self, hand: bytes, wilds: int) -> int:
        x, rest = hand[0], hand[1:]
        best = self(rest, wilds)  # x left unused
        if self.deck.by_rank:  # "the same card" is the same rank: any suit, in card order
            rank = self.rank
            mates = [c for c in rest if rank[c] == rank[x]]
            one = rest.replace(bytes(mates[:1]), b"", 1)
            two = one.replace(bytes(mates[1:2]), b"", 1)
        else:  # the same face: its copies come first in the sorted rest
            mates = list(rest[: len(rest) - len(rest.lstrip(hand[:1]))])
            two, one = rest[2:], rest[1:]
        if len(mates) >= 2:
            best = max(best, 3 + self(two, wilds))
        if mates:
            best = max(best, 1 + self(one, wilds))
            if wilds:
                best = max(best, 3 + self(one, wilds - 1))
        for others in self.chi.get(x, ()):
            left = rest
            found = 0
            for other in others:
                if other in left:
                    left = left.replace(other, b"", 1)
                    found += 1
            if found == 2:
                best = max(best, 3 + self(left, wilds))
            elif found == 1:
                best = max(best, 1 + self(left, wilds))
        return best


#: The memo key's suffix for a count of 听用 (a hand's bytes never reach 255).
_WILDS = [bytes([255, n]) for n in range(256)]
_SEARCHES: dict[ComboRules, _Credit] = {}


def _credit(rules: ComboRules, faces: tuple[str, ...], wilds: int) -> int:
    """Best 3·(complete melds) + 1·(partial melds) over the hand's cards (faces sorted)."""
    search = _SEARCHES.get(rules)
    if search is None:
        search = _SEARCHES[rules] = _Credit(rules)
    return search.credit(faces, wilds)


def shortfall(rules: ComboRules, hand: Sequence[str]) -> int:
    """How far the hand is from being all melds (lower is better)."""
    return len(hand) - credit_of(rules, hand)


def credit_of(rules: ComboRules, hand: Sequence[str]) -> int:
    """The hand's best 3·(complete melds) + 1·(partial melds)."""
    real = sort_cards(c for c in hand if c != WILD)
    return _credit(rules, real, len(hand) - len(real))


def _minus(hand: Sequence[str], cards: Sequence[str]) -> list[str]:
    left = list(hand)
    for card in cards:
        left.remove(card)
    return left


def _after_best_discard(rules: ComboRules, hand: Sequence[str]) -> int:
    if not hand:
        return 0
    return min(shortfall(rules, _minus(hand, [c])) for c in set(hand))


class GreedyBot:
    """Level 1: legal, greedy, deterministic except for ties broken by its own ``rng``."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, view: Mapping[str, Any]) -> str:
        """One of ``view["legal"]`` (``ValueError`` if there is none)."""
        legal: list[str] = list(view["legal"])
        if not legal:
            raise ValueError("the seat has no legal action")
        hand: list[str] = list(view.get("hand") or [])
        rules = _rules_from_view(view, hand)
        diu = [a for a in legal if a.startswith("diu ") or a == "call diu"]
        if diu:
            return diu[0]
        asked = view.get("asked")
        if asked == "discard":
            return self._discard(rules, hand, legal)
        if asked == "take":
            return self._take(rules, hand, legal)
        calls = [a for a in legal if a.startswith("call ")]
        return self._call(rules, hand, view, calls) if calls else "pass"

    def _discard(self, rules: ComboRules, hand: list[str], legal: list[str]) -> str:
        scored = [(shortfall(rules, _minus(hand, [a.split()[1]])), a) for a in legal]
        best = min(s for s, _ in scored)
        ties = sorted(a for s, a in scored if s == best)
        return ties[self.rng.randbelow(len(ties))]

    def _take(self, rules: ComboRules, hand: list[str], legal: list[str]) -> str:
        takes = [a for a in legal if a.startswith("take")]
        if not takes:
            return "pass"
        return min(takes, key=lambda a: (_after_best_discard(rules, _take_left(hand, a)), a))

    def _call(
        self, rules: ComboRules, hand: list[str], view: Mapping[str, Any], calls: list[str]
    ) -> str:
        now = shortfall(rules, hand)
        card = (view.get("card") or {}).get("card")
        if card is None:
            return "pass"
        best: tuple[int, int, str] | None = None
        melds = _own_melds(view)
        for action in calls:
            call = action.split()[1]
            after = _best_take_shortfall(rules, hand, card, call, melds)
            if after is not None and after <= now:
                key = (after, -LEVELS[call], action)
                best = key if best is None or key < best else best
        return best[2] if best else "pass"


def _take_left(hand: list[str], action: str) -> list[str]:
    tokens = action.split()[1:]
    return hand if tokens and tokens[0].startswith("m") else _minus(hand, tokens)


def _own_melds(view: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """The viewer's exposed melds (public in the view), for upgrades (A13)."""
    seat, melds = view.get("seat"), view.get("melds")
    if not isinstance(seat, int) or not isinstance(melds, list) or seat >= len(melds):
        return []
    return [tuple(m) for m in melds[seat]]


def _best_take_shortfall(
    rules: ComboRules,
    hand: list[str],
    card: str,
    call: str,
    melds: Sequence[Sequence[str]] = (),
) -> int | None:
    """The best shortfall after taking ``card`` with ``call`` and discarding (None: no take).
    An upgrade of an exposed meld (A13) uses no hand card."""
    takes = takes_for(rules, card, hand, melds).get(call, ())
    scores = [_after_best_discard(rules, _minus(hand, t.cards)) for t in takes]
    return min(scores) if scores else None
