"""The combinations of rules §2.3: which calls a hand allows on a card, how it can take the
card, and the complete-hand test that makes 丢 legal.

"Same cards" are cards with the same ``Profile.same`` key: the same face, or in ``poker54``
the same rank (so ♠5 ♥5 + a claimed ♣5 is a 硬对).

A meld is classified by its cards (the claimed card included):

=============  ======  ===============================================================
call           level   shape
=============  ======  ===============================================================
chi 吃         1       a 吃 shape of the profile (no 听用 unless ``wild_in_chi``: then one)
kuai 筷/块     2       two same cards + one 听用
kuai_shui 筷水 3       two same cards + two 听用
hard_dui 硬对  4       three same cards (硬 = no 听用)
ying_shui 硬水 4       three same cards + one 听用, or four same cards (natural four)
diu 丢         5       the card + two named hand cards make a chi / hard_dui / kuai meld and
                       the rest of the concealed hand splits into such 3-card melds
=============  ======  ===============================================================

With ``allow_upgrade_exposed_meld`` (A13) a seat may also call 硬水 by adding the card to one
of its exposed 硬对 or 筷 melds of that card (no hand card used).

The §2.3 options: ``natural_four_level`` — the level of a natural four (4: a 硬水, the
default; 3: called as 筷水; 0: not a meld), which also governs upgrading an exposed 硬对;
``diu_requires_complete_hand`` — false drops the complete-rest condition of 丢 (the card and
the two named cards must still make a meld); ``diu_min_points`` — a 丢 needs at least this
many melds in the winning hand (exposed + the 丢 meld + the rest ÷ 3, the ``per_meld`` count).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from typing import NamedTuple

from paiju.engines.diu.cards import WILD, profile, sort_cards

LEVELS: dict[str, int] = {
    "pass": 0,
    "chi": 1,
    "kuai": 2,
    "kuai_shui": 3,
    "hard_dui": 4,
    "ying_shui": 4,
    "diu": 5,
}
CALLS: tuple[str, ...] = ("chi", "kuai", "kuai_shui", "hard_dui", "ying_shui", "diu")


@dataclass(frozen=True)
class ComboRules:
    """The options that shape combinations (rules §2.3, A13)."""

    profile: str = "zipai80"
    chi_shapes: tuple[str, ...] = ("big_small", "run", "two_seven_ten")
    wild_in_chi: bool = False
    allow_upgrade: bool = True
    natural_four_level: int = 4  # 4: 硬水 | 3: 筷水 | 0: not a meld
    diu_requires_complete_hand: bool = True
    diu_min_points: int = 0

    @property
    def natural_four(self) -> str | None:
        """The call a natural four (the card + three same hand cards) makes, if any."""
        return {4: "ying_shui", 3: "kuai_shui"}.get(self.natural_four_level)


@dataclass(frozen=True, order=True)
class Take:
    """One way to take a card: the hand cards laid with it, or an exposed meld upgraded."""

    cards: tuple[str, ...] = ()
    upgrade: int = -1  # index of the exposed meld to upgrade, -1 for none


@cache
def chi_index(rules: ComboRules) -> dict[str, tuple[tuple[str, str, str], ...]]:
    """Face -> every 吃 triple (of the allowed shapes) that contains it."""
    melds = profile(rules.profile).chi_melds(rules.chi_shapes)
    index: dict[str, list[tuple[str, str, str]]] = {}
    for meld in sorted(melds):
        for face in set(meld):
            index.setdefault(face, []).append(meld)
    return {face: tuple(ms) for face, ms in index.items()}


def _minus(multiset: Sequence[str], remove: Sequence[str]) -> list[str] | None:
    """``multiset`` without ``remove`` (as multisets), or None if it does not contain it."""
    left = list(multiset)
    for card in remove:
        if card not in left:
            return None
        left.remove(card)
    return left


def is_chi(rules: ComboRules, cards: Sequence[str]) -> bool:
    """Whether three cards form a 吃 (at most one 听用, and only with ``wild_in_chi``)."""
    if len(cards) != 3:
        return False
    real = [c for c in cards if c != WILD]
    wilds = 3 - len(real)
    if wilds > (1 if rules.wild_in_chi else 0) or not real:
        return False
    return any(_minus(m, real) is not None for m in chi_index(rules).get(real[0], ()))


def _key(rules: ComboRules) -> Callable[[str], str]:
    """The "same card" key of the rules' profile."""
    return profile(rules.profile).same


def _picks(cards: Sequence[str], size: int) -> Iterator[tuple[str, ...]]:
    """Every distinct ``size``-card selection of ``cards`` (as a multiset), sorted."""
    return iter(sorted({sort_cards(c) for c in combinations(cards, size)}))


def classify(rules: ComboRules, cards: Sequence[str]) -> str | None:
    """The call a meld of these cards (claimed card included) makes, or None.

    A shape that is both a 吃 and a triplet (impossible in the shipped profiles) counts as
    the higher call.
    """
    real = [c for c in cards if c != WILD]
    wilds = len(cards) - len(real)
    key = _key(rules)
    same = bool(real) and all(key(c) == key(real[0]) for c in real)
    shape = (len(cards), wilds)
    if same and shape == (3, 0):
        return "hard_dui"
    if same and shape == (4, 0):
        return rules.natural_four
    if same and shape == (4, 1):
        return "ying_shui"
    if same and shape == (4, 2):
        return "kuai_shui"
    if same and shape == (3, 1):
        return "kuai"
    return "chi" if is_chi(rules, cards) else None


def is_meld3(rules: ComboRules, cards: Sequence[str]) -> bool:
    """Whether three cards are a 吃, 硬对 or 筷 — the melds a 丢 hand is made of."""
    return len(cards) == 3 and classify(rules, cards) in ("chi", "hard_dui", "kuai")


def _chi_takes(rules: ComboRules, card: str, hand: Counter[str]) -> set[tuple[str, ...]]:
    """The hand-card pairs that make a 吃 with ``card`` (from the profile's 吃 triples)."""
    if card == WILD and not rules.wild_in_chi:
        return set()
    index = chi_index(rules)
    takes: set[tuple[str, ...]] = set()
    melds = {m for ms in index.values() for m in ms} if card == WILD else index.get(card, ())
    for meld in melds:
        if card == WILD:
            # the claimed 听用 stands for one card of the triple; the hand holds the other two
            options = [[meld[0], meld[1]], [meld[0], meld[2]], [meld[1], meld[2]]]
        else:
            rest = list(meld)
            rest.remove(card)
            options = [rest]
            if rules.wild_in_chi:
                options += [[rest[0], WILD], [rest[1], WILD]]
        for a, b in options:
            if (hand[a] >= 2) if a == b else (hand[a] >= 1 and hand[b] >= 1):
                takes.add(sort_cards((a, b)))
    # x x + 听用 is a 筷 (the higher call), never a 吃
    return {t for t in takes if classify(rules, (card, *t)) == "chi"}


def _same_takes(
    rules: ComboRules, card: str, hand: Counter[str]
) -> dict[str, set[tuple[str, ...]]]:
    """筷 / 筷水 / 硬对 / 硬水 takes (same cards, with or without 听用) of ``card``; a natural
    four is taken as ``rules.natural_four`` (None: it is no meld)."""
    out: dict[str, set[tuple[str, ...]]] = {c: set() for c in CALLS}
    w = hand[WILD]
    key = _key(rules)
    if card == WILD:
        # The claimed 听用 joins a pair of the hand: W + x x is a 筷, W + x x W a 筷水, etc.
        groups: dict[str, list[str]] = {}
        for face in hand.elements():
            if face != WILD:
                groups.setdefault(key(face), []).append(face)
        for same in groups.values():
            for pair in _picks(same, 2):
                out["kuai"].add(pair)
                if w >= 1:
                    out["kuai_shui"].add((*pair, WILD))
            out["ying_shui"].update(_picks(same, 3))
        return out
    mates = [c for c in hand.elements() if c != WILD and key(c) == key(card)]
    for pair in _picks(mates, 2):
        out["hard_dui"].add(pair)
        if w >= 1:
            out["ying_shui"].add((*pair, WILD))
    for mate in set(mates):
        if w >= 1:
            out["kuai"].add((mate, WILD))
        if w >= 2:
            out["kuai_shui"].add((mate, WILD, WILD))
    if rules.natural_four is not None:
        out[rules.natural_four].update(_picks(mates, 3))
    return out


def takes_for(
    rules: ComboRules, card: str, hand: Sequence[str], melds: Sequence[Sequence[str]] = ()
) -> dict[str, tuple[Take, ...]]:
    """Every way this hand (and its exposed melds) can take ``card``, by call (diu excluded).

    A take must leave at least one hand card to discard afterwards (S18).
    """
    return dict(_takes_for(rules, card, tuple(hand), tuple(tuple(m) for m in melds)))


@lru_cache(maxsize=4096)
def _takes_for(
    rules: ComboRules, card: str, hand: tuple[str, ...], melds: tuple[tuple[str, ...], ...]
) -> dict[str, tuple[Take, ...]]:
    counts = Counter(hand)
    found = _same_takes(rules, card, counts)
    found["chi"] = _chi_takes(rules, card, counts)
    out: dict[str, tuple[Take, ...]] = {}
    for call in CALLS[:-1]:
        takes = [Take(cards) for cards in found[call] if len(hand) - len(cards) >= 1]
        if rules.allow_upgrade and card != WILD:
            takes += [Take((), i) for i, m in enumerate(melds) if _upgrade(rules, m, card) == call]
        if takes:
            out[call] = tuple(sorted(takes))
    return out


def _upgrade(rules: ComboRules, meld: Sequence[str], card: str) -> str | None:
    """The call that adds ``card`` to an exposed meld (A13): an exposed 筷 (c c W) makes a
    硬水; an exposed 硬对 (c c c) makes a natural four (``natural_four_level``); else None.
    ``c`` is any card the same as ``card``."""
    if len(meld) != 3:
        return None
    key = _key(rules)
    real = [c for c in meld if c != WILD]
    if any(key(c) != key(card) for c in real):
        return None
    if len(real) == 2:
        return "ying_shui"
    return rules.natural_four if len(real) == 3 else None


@lru_cache(maxsize=1 << 16)
def _complete(rules: ComboRules, faces: tuple[str, ...], wilds: int) -> bool:
    if not faces:
        return wilds == 0
    x, rest = faces[0], list(faces[1:])
    key = _key(rules)
    mates = [c for c in rest if key(c) == key(x)]
    # 硬对 x y z, then 筷 x y W (y, z the same cards as x)
    for pair in _picks(mates, 2):
        left = _minus(rest, pair)
        if left is not None and _complete(rules, tuple(left), wilds):
            return True
    for mate in set(mates) if wilds else ():
        left = _minus(rest, [mate])
        if left is not None and _complete(rules, tuple(left), wilds - 1):
            return True
    for meld in chi_index(rules).get(x, ()):
        others = list(meld)
        others.remove(x)
        for used_wilds in _wild_fills(others, rules.wild_in_chi, wilds):
            needed = _minus(others, used_wilds) or []
            left = _minus(rest, needed)
            if left is not None and _complete(rules, tuple(left), wilds - len(used_wilds)):
                return True
    return False


def _wild_fills(others: list[str], wild_in_chi: bool, wilds: int) -> list[list[str]]:
    """Which of ``others`` a 听用 may replace: none, or (with wild_in_chi) exactly one."""
    fills: list[list[str]] = [[]]
    if wild_in_chi and wilds:
        fills += [[o] for o in dict.fromkeys(others)]
    return fills


def is_complete(rules: ComboRules, cards: Sequence[str]) -> bool:
    """Whether ``cards`` split entirely into 3-card melds (吃, 硬对, 筷)."""
    if len(cards) % 3:
        return False
    real = sort_cards(c for c in cards if c != WILD)
    return _complete(rules, real, len(cards) - len(real))


def diu_pairs(
    rules: ComboRules, card: str, hand: Sequence[str], exposed: int = 0
) -> tuple[tuple[str, str], ...]:
    """The pairs of hand cards that 丢 ``card``: a meld with it, the rest complete (S5; the
    rest condition only with ``diu_requires_complete_hand``), and — with ``diu_min_points`` —
    at least that many melds counting the ``exposed`` ones."""
    melds = exposed + 1 + (len(hand) - 2) // 3
    if melds < rules.diu_min_points:
        return ()
    return _diu_pairs(rules, card, tuple(hand))


@lru_cache(maxsize=4096)
def _diu_pairs(rules: ComboRules, card: str, hand: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    complete = rules.diu_requires_complete_hand
    if complete and (len(hand) - 2) % 3:
        return ()
    counts = Counter(hand)
    same = _same_takes(rules, card, counts)
    pairs = _chi_takes(rules, card, counts) | same["hard_dui"] | same["kuai"]
    out = []
    for pair in sorted(pairs):
        rest = _minus(hand, pair)
        if rest is None or len(pair) != 2:
            continue
        if not complete or is_complete(rules, rest):
            out.append((pair[0], pair[1]))
    return tuple(out)


class _Plan(NamedTuple):
    """What ``available_calls`` needs of the rules, looked up once per call (the rules are
    a dataclass each table has its own equal copy of: every cache lookup hashes and
    compares it)."""

    key: Callable[[str], str]
    by_face: bool  # "the same card" is the face itself (every profile but poker54)
    natural_four: str | None
    allow_upgrade: bool
    chi_pairs: dict[str, tuple[tuple[str, str], ...]]  # card -> hand pairs making a 吃
    card_melds: dict[str, tuple[tuple[tuple[str, int], ...], ...]]


@cache
def _plan(rules: ComboRules) -> _Plan:
    faces = profile(rules.profile).faces
    chi_pairs = {card: _chi_pairs(rules, card) for card in (*faces, WILD)}
    return _Plan(
        key=_key(rules),
        by_face=not profile(rules.profile).by_rank,
        natural_four=rules.natural_four,
        allow_upgrade=rules.allow_upgrade,
        chi_pairs={card: pairs for card, pairs in chi_pairs.items() if pairs},
        card_melds=_card_melds(rules),
    )


def _chi_pairs(rules: ComboRules, card: str) -> tuple[tuple[str, str], ...]:
    """The pairs ``_chi_takes`` tries for ``card`` that make a 吃 with it (not a 筷)."""
    if card == WILD and not rules.wild_in_chi:
        return ()
    index = chi_index(rules)
    every = sorted({m for ms in index.values() for m in ms})
    melds = every if card == WILD else index.get(card, ())
    pairs: list[tuple[str, str]] = []
    for meld in melds:
        if card == WILD:
            options = [(meld[0], meld[1]), (meld[0], meld[2]), (meld[1], meld[2])]
        else:
            rest = list(meld)
            rest.remove(card)
            options = [(rest[0], rest[1])]
            if rules.wild_in_chi:
                options += [(rest[0], WILD), (rest[1], WILD)]
        pairs += [p for p in options if classify(rules, (card, *p)) == "chi"]
    return tuple(dict.fromkeys(pairs))


def available_calls(
    rules: ComboRules,
    card: str,
    hand: Sequence[str],
    melds: Sequence[Sequence[str]],
    *,
    chi_right: bool,
    diu_ok: bool,
) -> tuple[str, ...]:
    """The calls this hand allows on ``card`` (not yet filtered by the standing call).

    Every seat is asked this on every discard and most can make no call, so it tests each
    call for existence from counts instead of listing the takes (``takes_for``) and the 丢
    pairs (``diu_pairs``) it would throw away; ``full_available_calls`` is that listing, which
    the tests hold this to."""
    plan = _plan(rules)
    wilds = hand.count(WILD)
    n = len(hand)
    mates = _same_count(plan, card, hand)
    found: set[str] = set()
    if card == WILD:
        # the claimed 听用 joins two (筷) or three (硬水) same cards of the hand, or a 筷
        # and a hand 听用 (筷水); the counts of _same_takes, leaving a card to discard (S18)
        if mates >= 2 and n >= 3:
            found.add("kuai")
        if mates >= 2 and wilds >= 1 and n >= 4:
            found.add("kuai_shui")
        if mates >= 3 and n >= 4:
            found.add("ying_shui")
    else:
        # the counts of _same_takes; a take must leave a hand card to discard (S18)
        if mates >= 1 and wilds >= 1 and n >= 3:
            found.add("kuai")
        if mates >= 1 and wilds >= 2 and n >= 4:
            found.add("kuai_shui")
        if mates >= 2 and n >= 3:
            found.add("hard_dui")
        if mates >= 2 and wilds >= 1 and n >= 4:
            found.add("ying_shui")
        if mates >= 3 and n >= 4 and plan.natural_four is not None:
            found.add(plan.natural_four)
        if plan.allow_upgrade:
            # on a face-keyed profile an upgradable meld holds the card itself
            found.update(
                u
                for m in melds
                if (card in m or not plan.by_face) and (u := _upgrade(rules, m, card))
            )
    pairs = plan.chi_pairs.get(card, ())
    if chi_right and n >= 3 and _holds_a_pair(hand, pairs):
        found.add("chi")
    same_pair = _same_pair(card, mates, wilds)
    if diu_ok and _has_diu(rules, plan, card, hand, len(melds), same_pair):
        found.add("diu")
    return tuple(c for c in CALLS if c in found)


def can_diu(rules: ComboRules, card: str, hand: Sequence[str], exposed: int = 0) -> bool:
    """Whether ``diu_pairs`` is not empty, without listing the pairs (the 丢 re-ask)."""
    plan = _plan(rules)
    same_pair = _same_pair(card, _same_count(plan, card, hand), hand.count(WILD))
    return _has_diu(rules, plan, card, hand, exposed, same_pair)


def _same_count(plan: _Plan, card: str, hand: Sequence[str]) -> int:
    """For a real ``card`` the hand's cards the same as it; for a claimed 听用 the most
    same cards the hand holds (the 听用 joins them)."""
    if card == WILD:
        sames = Counter(hand) if plan.by_face else Counter(plan.key(c) for c in hand)
        sames.pop(WILD, None)  # a 听用's key is itself, never a face's or rank's
        return max(sames.values(), default=0)
    if plan.by_face:
        return hand.count(card)
    same = plan.key(card)
    return sum(1 for c in hand if c != WILD and plan.key(c) == same)


def _same_pair(card: str, same: int, wilds: int) -> bool:
    """Whether the hand holds a 硬对 or 筷 pair for ``card`` (``same``: ``_same_count``)."""
    if card == WILD:
        return same >= 2
    return same >= 2 or (same >= 1 and wilds >= 1)


def _holds_a_pair(hand: Sequence[str], pairs: Sequence[tuple[str, str]]) -> bool:
    """Whether the hand holds one of these pairs (both cards; twice a card paired with
    itself)."""
    return any(hand.count(a) >= 2 if a == b else (a in hand and b in hand) for a, b in pairs)


def _has_diu(
    rules: ComboRules, plan: _Plan, card: str, hand: Sequence[str], exposed: int, same_pair: bool
) -> bool:
    """Whether ``diu_pairs`` is not empty (``same_pair``: the hand holds a 硬对 or 筷 pair
    for ``card``).

    With ``diu_requires_complete_hand`` that is exactly "the hand and the card split into
    3-card melds": a 丢 pair's meld plus its complete rest is such a split, and in any split
    the card's meld takes a pair ``diu_pairs`` tries (硬对, 筷, or a 吃 — one a 筷 in
    disguise is among the 筷) whose rest, the other melds, is complete. Without it, any pair
    making a meld with the card will do."""
    if exposed + 1 + (len(hand) - 2) // 3 < rules.diu_min_points:
        return False
    if not rules.diu_requires_complete_hand:
        return same_pair or _holds_a_pair(hand, plan.chi_pairs.get(card, ()))
    if (len(hand) - 2) % 3:
        return False
    whole = (*hand, card)
    return _each_card_fits(plan, whole) and is_complete(rules, whole)


def _card_melds(rules: ComboRules) -> dict[str, tuple[tuple[tuple[str, int], ...], ...]]:
    """Face -> for each 吃 triple holding it, the cards (with counts) a hand must hold for it:
    the whole triple, and with ``wild_in_chi`` the triple with one other card a 听用."""
    out: dict[str, list[tuple[tuple[str, int], ...]]] = {}
    for face, melds in chi_index(rules).items():
        needs = out.setdefault(face, [])
        for meld in melds:
            needs.append(tuple(Counter(meld).items()))
            if rules.wild_in_chi:
                others = list(meld)
                others.remove(face)
                for other in dict.fromkeys(others):
                    filled = list(meld)
                    filled[filled.index(other)] = WILD
                    needs.append(tuple(Counter(filled).items()))
    return {face: tuple(dict.fromkeys(needs)) for face, needs in out.items()}


def _each_card_fits(plan: _Plan, cards: Sequence[str]) -> bool:
    """A cheap necessary condition of ``is_complete``: every real card has a meld it could
    be in — two more of the same card (硬对), one more and a 听用 (筷), or a 吃 triple (one
    card of it a 听用 with ``wild_in_chi``) — among ``cards``. Most hands fail it at once."""
    counts = Counter(cards)
    wilds = counts.get(WILD, 0)
    key = plan.key
    by_face = plan.by_face
    sames = counts if by_face else Counter(key(c) for c in cards if c != WILD)
    needs_of = plan.card_melds
    for face in counts:
        if face == WILD:
            continue
        same = sames[face] if by_face else sames[key(face)]
        if same >= 3 or (same >= 2 and wilds >= 1):
            continue
        if not any(all(counts.get(c, 0) >= k for c, k in need) for need in needs_of.get(face, ())):
            return False
    return True


def full_available_calls(
    rules: ComboRules,
    card: str,
    hand: Sequence[str],
    melds: Sequence[Sequence[str]],
    *,
    chi_right: bool,
    diu_ok: bool,
) -> tuple[str, ...]:
    """``available_calls`` from the full listings: every take and every 丢 pair."""
    calls = [c for c in takes_for(rules, card, hand, melds) if c != "chi" or chi_right]
    if diu_ok and diu_pairs(rules, card, hand, len(melds)):
        calls.append("diu")
    return tuple(c for c in CALLS if c in calls)
