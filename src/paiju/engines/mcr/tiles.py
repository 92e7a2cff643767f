"""MCR tiles as small ints, and the Botzone tile codes.

Tile ints: W1-W9 (characters 万) = 0-8, T1-T9 (bamboo 条) = 9-17, B1-B9 (dots 饼) = 18-26,
F1-F4 (winds 东南西北) = 27-30, J1-J3 (dragons 中发白) = 31-33. Flowers (花牌) H1-H8 = 34-41;
flowers never take part in a hand, they are only counted.
"""

from __future__ import annotations

from collections.abc import Iterable

from paiju.core.errors import MalformedAction

Tile = int

NUM_KINDS = 34
"""Number of distinct playing tiles (flowers excluded)."""

FLOWER_FIRST = 34
FLOWER_LAST = 41

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33

ALL_TILES: tuple[Tile, ...] = tuple(range(NUM_KINDS))
"""The 34 playing tile kinds in code order."""

FLOWERS: tuple[Tile, ...] = tuple(range(FLOWER_FIRST, FLOWER_LAST + 1))

TERMINALS: tuple[Tile, ...] = (0, 8, 9, 17, 18, 26)
HONORS: tuple[Tile, ...] = tuple(range(27, 34))
TERMINALS_AND_HONORS: tuple[Tile, ...] = TERMINALS + HONORS

_SUIT_LETTERS = "WTB"


def _build_codes() -> tuple[str, ...]:
    codes = [f"{_SUIT_LETTERS[s]}{r}" for s in range(3) for r in range(1, 10)]
    codes += [f"F{r}" for r in range(1, 5)]
    codes += [f"J{r}" for r in range(1, 4)]
    codes += [f"H{r}" for r in range(1, 9)]
    return tuple(codes)


_CODES = _build_codes()
_BY_CODE = {c: i for i, c in enumerate(_CODES)}


def tile_code(t: Tile) -> str:
    """The Botzone code of a tile or flower (``W1``, ``F3``, ``J2``, ``H5``)."""
    if not 0 <= t <= FLOWER_LAST:
        raise ValueError(f"not a tile: {t!r}")
    return _CODES[t]


def parse_tile(s: str) -> Tile:
    """Parse a Botzone code; raise ``MalformedAction`` (code ``bad_tile``) on anything else."""
    t = _BY_CODE.get(s) if isinstance(s, str) else None
    if t is None:
        raise MalformedAction(f"not a tile code: {s!r}", code="bad_tile")
    return t


def is_flower(t: Tile) -> bool:
    """True for the eight flowers H1-H8."""
    return FLOWER_FIRST <= t <= FLOWER_LAST


def is_honor(t: Tile) -> bool:
    """True for winds and dragons (字牌)."""
    return 27 <= t <= 33


def is_suited(t: Tile) -> bool:
    """True for characters, bamboo and dots (序数牌)."""
    return 0 <= t <= 26


def is_terminal(t: Tile) -> bool:
    """True for the 1s and 9s of the three suits (幺九, honors excluded)."""
    return 0 <= t <= 26 and t % 9 in (0, 8)


def is_terminal_or_honor(t: Tile) -> bool:
    """True for terminals and honors (幺九牌)."""
    return is_honor(t) or is_terminal(t)


def suit_of(t: Tile) -> int:
    """0 characters, 1 bamboo, 2 dots, 3 winds, 4 dragons (5 for flowers)."""
    if t < 27:
        return t // 9
    if t < 31:
        return 3
    if t < 34:
        return 4
    return 5


def rank_of(t: Tile) -> int:
    """Rank 1-9 for suited tiles, 1-4 for winds, 1-3 for dragons, 1-8 for flowers."""
    if t < 27:
        return t % 9 + 1
    if t < 31:
        return t - 26
    if t < 34:
        return t - 30
    return t - 33


def make_tile(suit: int, rank: int) -> Tile:
    """The suited tile of ``suit`` (0-2) and ``rank`` (1-9)."""
    return suit * 9 + rank - 1


def full_set() -> list[Tile]:
    """The 144 tiles of a set: 4 copies of each of the 34 kinds, then the 8 flowers once."""
    tiles = [t for t in ALL_TILES for _ in range(4)]
    tiles.extend(FLOWERS)
    return tiles


def counts(tiles: Iterable[Tile]) -> list[int]:
    """34 counts, one per playing tile kind (flowers are ignored)."""
    c = [0] * NUM_KINDS
    for t in tiles:
        if t < NUM_KINDS:
            c[t] += 1
    return c
