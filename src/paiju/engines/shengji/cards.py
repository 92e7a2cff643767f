"""Card names and the two-deck pack.

A card is its name, a ``str``: a suit letter ``S H D C`` and a rank ``2``-``10 J Q K A``
(``S10``, ``HA``, ``SJ`` is the jack of spades), or a joker: ``BJ`` (big, 大王) and ``LJ``
(little, 小王). The two copies of a card in the 108-card pack are *equal*: a hand is a
multiset of names, kept as a tuple in the canonical (trump-independent) order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from paiju.core.errors import MalformedAction

SUITS = ("S", "H", "D", "C")
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: Rank name -> number (2..14).
RANK_NUMBER = {name: i + 2 for i, name in enumerate(RANK_NAMES)}
RANK_NAME = {number: name for name, number in RANK_NUMBER.items()}
#: The level after A when option ``max_rank`` is ``"NT"``: no level card, jokers-only trumps.
NT_LEVEL = 15
#: Level number -> name, ``"NT"`` included; and back.
LEVEL_NAME = {**RANK_NAME, NT_LEVEL: "NT"}
LEVEL_NUMBER = {name: number for number, name in LEVEL_NAME.items()}
BIG_JOKER = "BJ"
LITTLE_JOKER = "LJ"
JOKERS = (LITTLE_JOKER, BIG_JOKER)
DECKS = 2
KITTY_SIZE = 8
HAND_SIZE = 25
SEATS = 4

#: Every distinct card name of one deck (54).
ALL_CARDS: tuple[str, ...] = (
    *(suit + rank for suit in SUITS for rank in RANK_NAMES),
    LITTLE_JOKER,
    BIG_JOKER,
)
_CANON = {card: i for i, card in enumerate(ALL_CARDS)}


def is_joker(card: str) -> bool:
    """Whether ``card`` is one of the jokers."""
    return card in JOKERS


def suit_of(card: str) -> str | None:
    """The printed suit letter, ``None`` for a joker."""
    return None if card in JOKERS else card[0]


def rank_of(card: str) -> int | None:
    """The printed rank number 2..14, ``None`` for a joker."""
    return None if card in JOKERS else RANK_NUMBER[card[1:]]


def card_points(card: str) -> int:
    """Points a card carries: 5 for a five, 10 for a ten or a king, else 0."""
    rank = card[1:]
    if rank == "5":
        return 5
    return 10 if rank in ("10", "K") and card not in JOKERS else 0


def points(cards: Iterable[str]) -> int:
    """Total points of ``cards``."""
    return sum(card_points(c) for c in cards)


def parse_card(text: str) -> str:
    """The card named ``text`` (case-insensitive); ``MalformedAction`` if it names none."""
    name = text.strip().upper()
    if name not in _CANON:
        raise MalformedAction(f"not a card: {text!r}")
    return name


def canon_key(card: str) -> int:
    """Position in the canonical, trump-independent order used for notation and hands."""
    return _CANON[card]


#: ``canon_key`` as a built-in callable: a sort key called once per card, for sorting many
#: plays (a legal list's), costs less when it is not a Python function.
CANON_ORDER: Callable[[str], int] = _CANON.__getitem__


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """``cards`` in canonical order."""
    return tuple(sorted(cards, key=CANON_ORDER))


def full_pack() -> list[str]:
    """The 108 cards of two decks, in canonical order."""
    return [card for card in ALL_CARDS for _ in range(DECKS)]


def remove_cards(hand: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...] | None:
    """``hand`` minus the multiset ``cards``; ``None`` if ``hand`` does not hold them all."""
    rest = list(hand)
    for card in cards:
        try:
            rest.remove(card)
        except ValueError:
            return None
    return tuple(rest)
