"""The 32-tile pai gow set (牌九), as 21 tile kinds.

A tile kind is a small int ``0..20`` in single-rank order (天 first, 丁三 last). A tile is named
by its two halves' pips, low half first: ``66`` 天牌, ``11`` 地牌, ``13`` 鹅牌, ``24`` 二四,
``12`` 丁三. The 11 civil (文) kinds come in two identical copies (the two copies of a civil
tile are the same tile); the 10 military (武) kinds come once. Every pair of pips 1..6 is
exactly one kind, so a kind is also an edge of the pip graph that chains are drawn in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from paiju.core.errors import MalformedAction

Kind = int


@dataclass(frozen=True)
class Tile:
    """One tile kind: its code, halves, Chinese and English names, copies and suit."""

    kind: Kind
    code: str
    low: int
    high: int
    name: str
    english: str
    copies: int

    @property
    def civil(self) -> bool:
        """Civil (文) tiles come in pairs of identical copies; military (武) tiles once."""
        return self.copies == 2

    @property
    def pips(self) -> int:
        """The total pips of the tile (left + right half)."""
        return self.low + self.high

    @property
    def double(self) -> bool:
        """Both halves show the same pips."""
        return self.low == self.high


# (code, name, english, copies) in single-rank order (§3 of the rules).
_TABLE: tuple[tuple[str, str, str, int], ...] = (
    ("66", "天牌", "Teen", 2),
    ("11", "地牌", "Day", 2),
    ("44", "人牌", "Yun", 2),
    ("13", "鹅牌", "Gor", 2),
    ("55", "梅牌", "Mooy", 2),
    ("33", "长三", "Chong", 2),
    ("22", "板凳", "Bon", 2),
    ("56", "斧头", "Foo", 2),
    ("46", "红头十", "Ping", 2),
    ("16", "高脚七", "Tit", 2),
    ("15", "零霖六", "Look", 2),
    ("45", "杂九", "Chop Gow", 1),
    ("36", "杂九", "Chop Gow", 1),
    ("35", "杂八", "Chop Bot", 1),
    ("26", "杂八", "Chop Bot", 1),
    ("34", "杂七", "Chop Chit", 1),
    ("25", "杂七", "Chop Chit", 1),
    ("24", "二四", "Gee Joon", 1),
    ("14", "杂五", "Chop Ng", 1),
    ("23", "杂五", "Chop Ng", 1),
    ("12", "丁三", "Gee Joon", 1),
)

TILES: tuple[Tile, ...] = tuple(
    Tile(k, code, int(code[0]), int(code[1]), name, english, copies)
    for k, (code, name, english, copies) in enumerate(_TABLE)
)
"""Every tile kind, indexed by kind."""

KIND_COUNT = len(TILES)
BY_CODE: dict[str, Kind] = {t.code: t.kind for t in TILES}

TEEN, DAY, YUN = BY_CODE["66"], BY_CODE["11"], BY_CODE["44"]
GEE_JOON_SIX, GEE_JOON_THREE = BY_CODE["24"], BY_CODE["12"]
GEE_JOON: frozenset[Kind] = frozenset({GEE_JOON_SIX, GEE_JOON_THREE})

#: The single rank of §3 (1 = 天 .. 17 = 丁三); the military twins share a rank.
SINGLE_RANK: tuple[int, ...] = (
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
    12,
    13,
    13,
    14,
    14,
    15,
    16,
    16,
    17,
)

FULL_SET: tuple[Kind, ...] = tuple(t.kind for t in TILES for _ in range(t.copies))
"""The 32 tiles of a set, as kinds, in kind order (civil copies adjacent)."""


def tile_code(kind: Kind) -> str:
    """The code of a kind (``66``, ``12``)."""
    return TILES[kind].code


#: Every tile's text, halves in either order (``46`` and ``64``) -> its kind: an action's
#: tiles are read a few dozen times while it is parsed and judged.
_BY_TEXT: dict[str, Kind] = {
    f"{a}{b}": t.kind for t in TILES for a, b in ((t.low, t.high), (t.high, t.low))
}

#: The text of every tile, halves in either order (what ``kind_of`` accepts).
TEXTS: tuple[str, ...] = tuple(_BY_TEXT)


def kind_of(text: str) -> Kind:
    """The kind named by ``text``, halves in either order (``46`` or ``64``).

    Raises ``MalformedAction`` for anything that is not two pips naming a tile of the set.
    """
    kind = _BY_TEXT.get(text)
    if kind is not None:
        return kind
    if len(text) != 2 or not text.isdigit():
        raise MalformedAction(f"{text!r} is not a tile: a tile is two pips 1-6 such as 66 or 24")
    low, high = sorted(text)
    kind = BY_CODE.get(low + high)
    if kind is None:
        raise MalformedAction(f"{text!r} is not a tile: pips run from 1 to 6")
    return kind


def sort_kinds(kinds: Iterable[Kind]) -> tuple[Kind, ...]:
    """Kinds in canonical (single-rank) order."""
    return tuple(sorted(kinds))


def counts_of(kinds: Iterable[Kind]) -> list[int]:
    """How many of each kind, indexed by kind."""
    counts = [0] * KIND_COUNT
    for k in kinds:
        counts[k] += 1
    return counts


def over_copies(kinds: Iterable[Kind]) -> list[Kind]:
    """The kinds that occur more often than the set holds them (sorted, each once)."""
    counts = counts_of(kinds)
    return [k for k in range(KIND_COUNT) if counts[k] > TILES[k].copies]
