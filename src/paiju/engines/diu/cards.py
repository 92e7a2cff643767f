"""Card tokens and deck profiles.

A card is a short string token, the same in the state, the views and the notation:

* ``zipai80`` (字牌, the default): ``s1`` … ``s10`` are 小写 一…十, ``b1`` … ``b10`` are
  大写 壹…拾, four of each;
* ``chuanpai84`` (川牌): ``pXY`` is the domino face with X ≤ Y pips on its halves, 21 faces,
  four of each;
* ``poker54``: ``S1`` … ``S13``, ``H…``, ``C…``, ``D…`` (suit letter + rank, ace = 1), one of each,
  and its two jokers as 听用;
* ``W`` is a 听用 (wild card) in every profile; the deck has ``wild_count`` of them (always 2 in
  ``poker54``: a poker deck's jokers).

"The same card" of the 对 / 筷 / 水 calls is the same face in ``zipai80`` and ``chuanpai84``
(小写 三 ≠ 大写 叁) and the same rank in ``poker54`` (♠5 ♥5 ♣5 make a 硬对): ``Profile.same``.

Every token of every profile is distinct, so actions can be parsed without knowing the table's
profile (the engine then checks that the card exists in its deck).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

WILD = "W"

ZIPAI_FACES: tuple[str, ...] = tuple(f"{case}{n}" for case in "sb" for n in range(1, 11))
CHUANPAI_FACES: tuple[str, ...] = tuple(f"p{a}{b}" for a in range(1, 7) for b in range(a, 7))
POKER_FACES: tuple[str, ...] = tuple(f"{suit}{r}" for suit in "SHCD" for r in range(1, 14))
POKER_JOKERS = 2

ALL_TOKENS: frozenset[str] = frozenset((*ZIPAI_FACES, *CHUANPAI_FACES, *POKER_FACES, WILD))


@dataclass(frozen=True)
class Profile:
    """A deck profile: its faces, how many copies of each, and its 吃 shapes.

    ``chi_shapes`` maps a shape name to the 3-card multisets (sorted face tuples) of that
    shape; a 吃 is any one of them (rules §2.3).
    """

    name: str
    faces: tuple[str, ...]
    copies: int
    chi_shapes: tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...]
    by_rank: bool = False  # "the same card" is the same rank (poker), not the same face
    wilds: int | None = None  # the 听用 the deck always has; None: option ``wild_count``

    def same(self, card: str) -> str:
        """What makes cards "the same card" for 对 / 筷 / 水: the face, or the poker rank."""
        return card[1:] if self.by_rank and card != WILD else card

    def deck(self, wild_count: int) -> tuple[str, ...]:
        """The full deck in a fixed order (faces × copies, then the 听用)."""
        return tuple(f for f in self.faces for _ in range(self.copies)) + (WILD,) * wild_count

    def chi_melds(self, shapes: Iterable[str]) -> frozenset[tuple[str, str, str]]:
        """Every 吃 triple (sorted by ``card_key``) of the named shapes."""
        wanted = set(shapes)
        return frozenset(m for name, melds in self.chi_shapes if name in wanted for m in melds)

    def shape_names(self) -> tuple[str, ...]:
        """The 吃 shape names this profile knows."""
        return tuple(name for name, _ in self.chi_shapes)


def card_key(card: str) -> tuple[int, int, int]:
    """Sort key: faces by profile group, then case/suit, then number; 听用 last."""
    if card == WILD:
        return (9, 0, 0)
    head, num = card[0], card[1:]
    if head in "sb":
        return (0, "sb".index(head), int(num))
    if head == "p":
        return (1, int(num[0]), int(num[1]))
    return (2, "SHCD".index(head), int(num))


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """The cards in canonical order (the order hands and melds are shown and written in)."""
    return tuple(sorted(cards, key=card_key))


def _triple(*cards: str) -> tuple[str, str, str]:
    a, b, c = sort_cards(cards)
    return (a, b, c)


def _zipai_shapes() -> tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...]:
    runs = tuple(
        _triple(f"{c}{n}", f"{c}{n + 1}", f"{c}{n + 2}") for c in "sb" for n in range(1, 9)
    )
    two_seven_ten = tuple(_triple(f"{c}2", f"{c}7", f"{c}10") for c in "sb")
    big_small = tuple(
        _triple(f"{x}{n}", f"{x}{n}", f"{y}{n}") for n in range(1, 11) for x, y in ("sb", "bs")
    )
    return (("run", runs), ("two_seven_ten", two_seven_ten), ("big_small", big_small))


def _chuanpai_shapes() -> tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...]:
    # House default (assumption, rules §2.3): three different faces with the same pip total.
    def pips(face: str) -> int:
        return int(face[1]) + int(face[2])

    triples = tuple(
        _triple(a, b, c)
        for i, a in enumerate(CHUANPAI_FACES)
        for j, b in enumerate(CHUANPAI_FACES[i + 1 :], i + 1)
        for c in CHUANPAI_FACES[j + 1 :]
        if pips(a) == pips(b) == pips(c)
    )
    return (("same_total", triples),)


def _poker_shapes() -> tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...]:
    runs = tuple(
        _triple(f"{s}{r}", f"{s}{r + 1}", f"{s}{r + 2}") for s in "SHCD" for r in range(1, 12)
    )
    return (("run", runs),)


@cache
def profile(name: str) -> Profile:
    """The named profile; ``KeyError`` if there is none (options are validated before)."""
    if name == "zipai80":
        return Profile(name, ZIPAI_FACES, 4, _zipai_shapes())
    if name == "chuanpai84":
        return Profile(name, CHUANPAI_FACES, 4, _chuanpai_shapes())
    if name == "poker54":
        return Profile(name, POKER_FACES, 1, _poker_shapes(), by_rank=True, wilds=POKER_JOKERS)
    raise KeyError(name)


PROFILES: tuple[str, ...] = ("zipai80", "chuanpai84", "poker54")
