"""The notation of every legal action of a hand (a view's ``legal``), written as its chains
are walked.

Every seat of every new hand gets this list, so it is worked out without the solver's
general machinery (``solver.arrangements``: a tuple per trail, a canonical turn of each, a
set, then a string per arrangement). The result is the same sorted list (the tests hold it
to that path, and that path to a brute force):

1. A chain of 6 or 7 tiles is any trail of 6 or 7 of the hand's tiles, and the tiles it
   does not lay are its leftover: so every trail of 6 or 7 tiles, from every pip, is an
   arrangement, and a hand with none is ``bust``. No leftover is tested for a chain first.
2. The tiles not yet laid are a multiset in one int, two bits of count per kind (the two
   copies of a civil tile are the same tile, so a chain that swaps them is not met twice).
   What may be laid next from a pip depends only on the counts of the kinds that touch it:
   ``_LAYS[pip][free & _TOUCHING[pip]]`` lists each such tile once, with its text, the pip
   it leads to and that pip's own table. The tables are shared by every hand (a hand needs
   no tables of its own), written out at import.
3. The chain's text is written as it is laid (`` 16 66 64``); at 6 and 7 tiles the
   leftover's text is looked up by its multiset.
4. Each chain is met from both ends. The reading from the lower end pip is canonical (its
   text is the smaller); a closed chain (both ends one pip) is met from that pip in both
   directions, and only the reading not above its reverse is written. The text of a chain
   read backwards is its text reversed character by character (two digits a tile, one
   space between), so that test is one comparison of two strings.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from paiju.engines.dragon.tiles import KIND_COUNT, TILES, Kind, tile_code

#: A kind's unit in a multiset of tiles (two bits of count per kind: at most 2 copies).
_UNIT = tuple(1 << 2 * k for k in range(KIND_COUNT))
#: Per pip (0-based): the count bits of the kinds with a half of those pips.
_TOUCHING = tuple(
    sum(3 << 2 * t.kind for t in TILES if pip in (t.low - 1, t.high - 1)) for pip in range(6)
)

#: A tile laid from a pip: (its unit, the tables of the pip it leads to, that pip's
#: ``_TOUCHING``, its text as laid, that pip).
Laying = tuple[int, dict[int, tuple["Laying", ...]], int, str, int]


def _lay_tables() -> tuple[dict[int, tuple[Laying, ...]], ...]:
    """Per pip: every set of counts of the kinds that touch it -> the tiles that may be laid
    from it, in kind order (a few hundred sets a pip, some 7 ms to write out at import)."""
    tables: tuple[dict[int, tuple[Laying, ...]], ...] = ({}, {}, {}, {}, {}, {})
    # each tile laid from each of its pips, once (every table that holds it shares it)
    laying: dict[tuple[int, Kind], Laying] = {}
    for t in TILES:
        for pip, to in ((t.low - 1, t.high - 1), (t.high - 1, t.low - 1)):
            text = f" {pip + 1}{to + 1}"
            laying[pip, t.kind] = (_UNIT[t.kind], tables[to], _TOUCHING[to], text, to)
    for pip, table in enumerate(tables):
        touching = [t.kind for t in TILES if pip in (t.low - 1, t.high - 1)]
        for counts in itertools.product(*[range(TILES[k].copies + 1) for k in touching]):
            free = sum(n << 2 * k for k, n in zip(touching, counts, strict=True))
            table[free] = tuple(laying[pip, k] for k, n in zip(touching, counts, strict=True) if n)
    return tables


_LAYS = _lay_tables()


def _leftover_texts() -> dict[int, tuple[str, tuple[Kind, ...]]]:
    """Every leftover of 1 or 2 tiles, by its multiset: `` | 11 22`` and its kinds."""
    found: dict[int, tuple[str, tuple[Kind, ...]]] = {}
    for a in range(KIND_COUNT):
        found[_UNIT[a]] = (f" | {tile_code(a)}", (a,))
        for b in range(a, KIND_COUNT):
            if a != b or TILES[a].civil:
                found[_UNIT[a] + _UNIT[b]] = (f" | {tile_code(a)} {tile_code(b)}", (a, b))
    return found


_LEFTOVERS = _leftover_texts()
_LEFT_TEXT = {tiles: text for tiles, (text, _) in _LEFTOVERS.items()}
#: The last 5 characters of an arrangement's notation -> its leftover's kinds: `` | 11`` for
#: one tile, ``11 22`` for two.
_LEFT_KINDS = {text[-5:]: kinds for text, kinds in _LEFTOVERS.values()}


def legal_notation(hand: Iterable[Kind]) -> list[str]:
    """The sorted notation of every legal action of an 8-tile hand: ``chain ... | ...`` for
    each arrangement, or ``["bust"]`` when it lays no chain."""
    free = 0
    for k in hand:
        free += _UNIT[k]
    found: list[str] = []
    for start in range(6):
        _walk(start, free, found)
    if not found:
        return ["bust"]
    found.sort()
    return found


def _walk(start: int, tiles: int, found: list[str]) -> None:
    """Append every canonical chain of 6 or 7 of ``tiles`` read from pip ``start``, with its
    leftover. The seven tiles' loops are written out one inside the other: a call per tile
    laid made the walk some 15% slower. ``six[6:]`` is a chain's text after ``chain ``, and
    ``six[:5:-1]`` that text reversed (the chain read from its other end)."""
    left = _LEFT_TEXT
    for u1, lays1, at1, text1, _ in _LAYS[start][tiles & _TOUCHING[start]]:
        free1 = tiles - u1
        chain1 = "chain" + text1
        for u2, lays2, at2, text2, _ in lays1[free1 & at1]:
            free2 = free1 - u2
            chain2 = chain1 + text2
            for u3, lays3, at3, text3, _ in lays2[free2 & at2]:
                free3 = free2 - u3
                chain3 = chain2 + text3
                for u4, lays4, at4, text4, _ in lays3[free3 & at3]:
                    free4 = free3 - u4
                    chain4 = chain3 + text4
                    for u5, lays5, at5, text5, _ in lays4[free4 & at4]:
                        free5 = free4 - u5
                        chain5 = chain4 + text5
                        for u6, lays6, at6, text6, end6 in lays5[free5 & at5]:
                            free6 = free5 - u6
                            six = chain5 + text6
                            if start < end6 or (start == end6 and six[6:] <= six[:5:-1]):
                                found.append(six + left[free6])
                            for u7, _, _, text7, end7 in lays6[free6 & at6]:
                                if start < end7:
                                    found.append(six + text7 + left[free6 - u7])
                                elif start == end7:
                                    seven = six + text7
                                    if seven[6:] <= seven[:5:-1]:
                                        found.append(seven + left[free6 - u7])


def listed_leftovers(listed: list[str]) -> list[tuple[Kind, ...]]:
    """The distinct leftovers a ``legal_notation`` list names (sorted kinds each): every
    leftover whose other tiles lay a chain, none for ``bust``."""
    if listed == ["bust"]:
        return []
    return list({_LEFT_KINDS[text[-5:]] for text in listed})
