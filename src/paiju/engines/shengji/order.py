"""The trump context of a hand: which cards are trumps, their order and their adjacency.

Every card gets an *effective suit* (``"T"`` for trump, else its printed suit) and an
integer *value* inside that suit. Equal values mean equal cards (the off-suit level cards
副级牌 are equal to each other); a higher value beats a lower one; two values are
*adjacent* (consecutive, for tractors 拖拉机) exactly when they differ by one. Breaks in
adjacency that options ask for are made by leaving a gap of two in the value scale, which
keeps comparisons unchanged.

Default trump order (standard hand, level ``L``, trump suit ``X``):
``BJ > LJ > X-L > {other L cards, equal} > X-A > ... > X-2`` with ``L`` skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from paiju.engines.shengji.cards import ALL_CARDS, BIG_JOKER, LITTLE_JOKER, RANK_NUMBER

TRUMP = "T"


@dataclass(frozen=True)
class TrumpContext:
    """Level rank (2..14), trump suit (``None`` for no-trump 无主) and adjacency switches."""

    level: int
    suit: str | None
    level_gap_adjacent: bool = True
    offsuit_level_tractors: bool = True
    joker_tractors: bool = True
    nt_level_trumps: bool = True
    _suit: dict[str, str] = field(default_factory=dict, compare=False, hash=False, repr=False)
    _value: dict[str, int] = field(default_factory=dict, compare=False, hash=False, repr=False)
    _shown_at: dict[str, int] = field(default_factory=dict, compare=False, hash=False, repr=False)
    _hash: int = field(default=0, init=False, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        for card in ALL_CARDS:
            suit, value = self._place(card)
            self._suit[card] = suit
            self._value[card] = value
        for place, card in enumerate(sorted(ALL_CARDS, key=self.sort_key)):
            self._shown_at[card] = place
        # Hashed once: the hash ``dataclass`` writes hashes the six fields at every call, and
        # a context is a memo's key in every view of a hand (``view._in_trump_order``).
        object.__setattr__(self, "_hash", hash(self._fields()))

    def _fields(self) -> tuple[int, str | None, bool, bool, bool, bool]:
        """The fields that make the context (all that its equality compares)."""
        return (
            self.level,
            self.suit,
            self.level_gap_adjacent,
            self.offsuit_level_tractors,
            self.joker_tractors,
            self.nt_level_trumps,
        )

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Made again from its fields (the hash kept is this process's hash)."""
        return TrumpContext, self._fields()

    def _position(self, rank: int, skip_level: bool) -> int:
        """Place of a rank in a suit; the level rank is removed when ``skip_level``."""
        if not (skip_level and self.level_gap_adjacent):
            return rank
        return rank - 1 if rank > self.level else rank

    def _place(self, card: str) -> tuple[str, int]:
        level_trumps = self.suit is not None or self.nt_level_trumps
        joker_step = 1 if self.joker_tractors else 2
        if self.suit is None:
            top = 20 if level_trumps else 19
        else:
            top_rank = 13 if self.level == 14 else 14
            top = self._position(top_rank, True)
        off_step = 1 if self.offsuit_level_tractors else 2
        off_level = top + off_step
        trump_level = off_level + (off_step if self.suit is not None else 0)
        if card == LITTLE_JOKER:
            return TRUMP, trump_level + joker_step
        if card == BIG_JOKER:
            return TRUMP, trump_level + 2 * joker_step
        printed, rank = card[0], RANK_NUMBER[card[1:]]
        if rank == self.level and level_trumps:
            return TRUMP, trump_level if printed == self.suit else off_level
        skip = level_trumps
        if printed == self.suit:
            return TRUMP, self._position(rank, skip)
        return printed, self._position(rank, skip)

    def suit_of(self, card: str) -> str:
        """Effective suit: ``"T"`` for trumps, else the printed suit letter."""
        return self._suit[card]

    def value(self, card: str) -> int:
        """Value inside the effective suit (equal values are equal cards)."""
        return self._value[card]

    def key(self, card: str) -> tuple[bool, int]:
        """Comparison key across suits for one trick: trumps above every plain card."""
        return self._suit[card] == TRUMP, self._value[card]

    def is_trump(self, card: str) -> bool:
        """Whether ``card`` is a trump in this hand."""
        return self._suit[card] == TRUMP

    def sort_key(self, card: str) -> tuple[int, int, str]:
        """A total order for display: by effective suit, then value, then name."""
        suit = self._suit[card]
        return ("SHDCT".index(suit), self._value[card], card)

    @property
    def display_order(self) -> Callable[[str], int]:
        """A card's place in the ``sort_key`` order, as a built-in sort key: a hand changes
        in every trick and is shown sorted, and a Python key function costs a call a card."""
        return self._shown_at.__getitem__


@lru_cache(maxsize=512)
def trump_context(
    level: int,
    suit: str | None,
    level_gap_adjacent: bool = True,
    offsuit_level_tractors: bool = True,
    joker_tractors: bool = True,
    nt_level_trumps: bool = True,
) -> TrumpContext:
    """A shared (cached) context; contexts are immutable in use."""
    return TrumpContext(
        level, suit, level_gap_adjacent, offsuit_level_tractors, joker_tractors, nt_level_trumps
    )
