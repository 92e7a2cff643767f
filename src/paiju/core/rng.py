"""Injected randomness.

Rules never touch a global RNG: every shuffle and every bot choice goes through an ``Rng``
handed in by the caller, so a game is fully determined by its seed and its action log.
Seeds are strings; derived seeds use string keys (``derive("3")``), which, unlike ``hash()``,
do not depend on PYTHONHASHSEED.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, MutableSequence, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class Rng(Protocol):
    """The randomness a rule engine or a bot may ask for."""

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``; ``n`` must be positive."""
        ...

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (a uniform permutation)."""
        ...

    def derive(self, key: str) -> Rng:
        """An independent generator for a named sub-stream (a hand, a bot)."""
        ...


def _seed_int(seed: str) -> int:
    return int.from_bytes(hashlib.sha256(seed.encode("utf-8")).digest(), "big")


class SeededRng:
    """A reproducible generator: the same seed string always gives the same stream."""

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self._random = random.Random(_seed_int(seed))

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        return self._random.randrange(n)

    def shuffle(self, items: MutableSequence[T]) -> None:
        # Fisher–Yates from the back, drawing from our own stream only.
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def derive(self, key: str) -> SeededRng:
        return SeededRng(f"{self.seed}/{key}")

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence."""
        return items[self.randbelow(len(items))]


class ScriptedRng:
    """A generator that replays a fixed list of numbers, for tests that need a known deal.

    ``randbelow(n)`` returns the next scripted number (which must be below ``n``);
    ``shuffle`` leaves the items in their given order when the script is exhausted or empty,
    so a test can lay out a wall or a deck exactly as it wants it dealt.
    """

    def __init__(self, numbers: Iterable[int] = ()) -> None:
        self._numbers = list(numbers)
        self._pos = 0

    def randbelow(self, n: int) -> int:
        if self._pos >= len(self._numbers):
            raise IndexError("ScriptedRng ran out of numbers")
        value = self._numbers[self._pos]
        self._pos += 1
        if not 0 <= value < n:
            raise ValueError(f"scripted value {value} is not below {n}")
        return value

    def shuffle(self, items: MutableSequence[T]) -> None:
        return None

    def derive(self, key: str) -> ScriptedRng:
        return self
