"""Shuffling and dealing (rules §1.7, A1, A2).

Both shuffles draw only from the injected ``Rng``:

* ``fisher_yates`` — the authoritative default (``rng.shuffle``);
* ``seed_riffle`` — the seed's table riffle (洗牌规则): cut at the middle moved by a random
  offset ``0..max_offset`` with a random sign, then build a new pile by repeatedly taking the
  front card of one half chosen by the parity of a random number (the other half when one is
  empty); repeat ``passes`` times.
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.core.rng import Rng


def riffle_once(cards: Sequence[str], rng: Rng, max_offset: int = 9) -> list[str]:
    """One pass of the seed riffle; returns a new list with the same cards."""
    n = len(cards)
    if n < 2:
        return list(cards)
    offset = rng.randbelow(max_offset + 1)
    sign = 1 if rng.randbelow(2) else -1
    cut = min(max(n // 2 + sign * offset, 1), n - 1)
    left, right = list(cards[:cut]), list(cards[cut:])
    out: list[str] = []
    li = ri = 0
    while li < len(left) or ri < len(right):
        take_left = ri >= len(right) or (li < len(left) and rng.randbelow(2) == 0)
        if take_left:
            out.append(left[li])
            li += 1
        else:
            out.append(right[ri])
            ri += 1
    return out


def seed_riffle(cards: Sequence[str], rng: Rng, passes: int = 3, max_offset: int = 9) -> list[str]:
    """``passes`` passes of ``riffle_once``."""
    out = list(cards)
    for _ in range(passes):
        out = riffle_once(out, rng, max_offset)
    return out


def fisher_yates(cards: Sequence[str], rng: Rng) -> list[str]:
    """A uniform permutation drawn from ``rng`` (its own Fisher–Yates)."""
    out = list(cards)
    rng.shuffle(out)
    return out


def shuffle(cards: Sequence[str], rng: Rng, method: str, passes: int, max_offset: int) -> list[str]:
    """Shuffle with the named method (``fisher_yates`` | ``seed_riffle``)."""
    if method == "seed_riffle":
        return seed_riffle(cards, rng, passes, max_offset)
    return fisher_yates(cards, rng)


def deal(
    deck: Sequence[str], sizes: Sequence[int]
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Deal ``sizes[i]`` cards to role i (A, B, C) from the top, round by round (A2).

    Returns the hands by role and the stock (top card first). ``ValueError`` if the deck is
    too small to leave a stock.
    """
    if sum(sizes) >= len(deck):
        raise ValueError("the deal must leave at least one card in the stock")
    hands: list[list[str]] = [[] for _ in sizes]
    pos = 0
    for rnd in range(max(sizes)):
        for role, size in enumerate(sizes):
            if rnd < size:
                hands[role].append(deck[pos])
                pos += 1
    return tuple(tuple(h) for h in hands), tuple(deck[pos:])
