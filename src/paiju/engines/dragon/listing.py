"""The notation of every legal action of a hand (a view's ``legal``), written as its chains
are walked.

Every seat of every new hand gets this list, so it is worked out without the solver's
general machinery (``solver.arrangements``: a tuple per trail, a canonical turn of each, a
set, then a string per arrangement). The result is the same sorted list (the tests hold it
to that path, and that path to a brute force):

1. ``solver.chain_leftovers`` gives the leftovers whose other tiles lay one chain and the
   pips to read that chain from; none means ``bust``.
2. From each start pip one depth-first walk over the hand's tiles writes the chain's text
   as it goes (`` 16 66 64``). With 6 or 7 tiles laid, the tiles not laid are a leftover;
   when it is one of this start's, the arrangement is written out.
3. The walk goes on only while some leftover of its start has none of its tiles laid
   (``alive``, one bit per leftover), which cuts most dead ends and every chain read from
   its wrong end.
4. The tiles are the hand's 8 positions (sorted, so two copies of a civil tile sit side by
   side). The earlier copy is always laid first, so a pair of copies gives each chain once,
   and a single copy left over is the later position.
5. An open chain read from its lower odd pip is already canonical (its first pip is below
   its last). A closed chain is met from the same pip in both directions: only the reading
   not above its reverse is written. The text of a chain read backwards is its text
   reversed character by character (two digits a tile, one space between), so that test
   is one comparison of two strings.
"""

from __future__ import annotations

from paiju.engines.dragon.solver import chain_leftovers
from paiju.engines.dragon.tiles import TILES, Kind, tile_code

#: Per kind, the ways to lay it from a pip: (from pip, to pip, its text), pips 0-based.
_LAYS: tuple[tuple[tuple[int, int, str], ...], ...] = tuple(
    ((t.low - 1, t.low - 1, f" {t.low}{t.low}"),)
    if t.double
    else (
        (t.low - 1, t.high - 1, f" {t.low}{t.high}"),
        (t.high - 1, t.low - 1, f" {t.high}{t.low}"),
    )
    for t in TILES
)
_CODES = tuple(f" {tile_code(t.kind)}" for t in TILES)
#: The bits set in a byte, low first.
_BITS = tuple(tuple(p for p in range(8) if m >> p & 1) for m in range(256))

#: A tile the walk may lay from a pip: (positions of its kind, the pip it leads to, its text).
Laying = tuple[int, int, str]


def legal_notation(
    hand: tuple[Kind, ...], leftovers: list[tuple[tuple[Kind, ...], int]] | None = None
) -> list[str]:
    """The sorted notation of every legal action of an 8-tile hand: ``chain ... | ...`` for
    each arrangement, or ``["bust"]`` when it lays no chain. ``leftovers``: the sorted
    hand's ``chain_leftovers``, when the caller has them."""
    hand = tuple(sorted(hand))
    if leftovers is None:
        leftovers = chain_leftovers(hand)
    if not leftovers:
        return ["bust"]
    positions: dict[Kind, int] = {}
    for p, k in enumerate(hand):
        positions[k] = positions.get(k, 0) | 1 << p
    # Per start pip: the positions a leftover holds -> its text; the leftovers as bits.
    texts: list[dict[int, str]] = [{}, {}, {}, {}, {}, {}]
    starting = [0, 0, 0, 0, 0, 0]
    holding = [0, 0, 0, 0, 0, 0, 0, 0]  # per position: the leftovers that hold it
    for n, (leftover, starts) in enumerate(leftovers):
        held = _held(positions, leftover)
        text = " |" + "".join([_CODES[k] for k in leftover])
        for p in _BITS[held]:
            holding[p] |= 1 << n
        for v in _BITS[starts]:
            texts[v][held] = text
            starting[v] |= 1 << n
    every = (1 << len(leftovers)) - 1
    # laying the tile at a position keeps alive the leftovers that do not hold it
    keeps = [0] * 129  # indexed by the position's bit (a list reads faster than a dict)
    for p in range(8):
        keeps[1 << p] = every ^ holding[p]
    steps: tuple[list[Laying], ...] = ([], [], [], [], [], [])
    for k, at in positions.items():
        for v, w, laid in _LAYS[k]:
            steps[v].append((at, w, laid))
    found: list[str] = []

    def walk(v: int, free: int, alive: int, chain: str, laid: int, ends: dict[int, str]) -> None:
        """Lay on from pip ``v`` (``laid`` tiles so far, ``free`` the positions not laid)."""
        for kind_at, w, text in steps[v]:
            here = free & kind_at
            if here:
                tile = here & -here  # the earlier copy first
                still = alive & keeps[tile]
                if still:
                    if laid == 4:
                        last_two(w, free ^ tile, still, chain + text, ends)
                    else:
                        walk(w, free ^ tile, still, chain + text, laid + 1, ends)

    def last_two(v: int, free: int, alive: int, chain: str, ends: dict[int, str]) -> None:
        """Lay the 6th tile from pip ``v`` and write the arrangement if what is left is a
        leftover of this start, then each 7th tile (what is left then must be one)."""
        for kind_at, w, text in steps[v]:
            here = free & kind_at
            if here:
                tile = here & -here
                still = alive & keeps[tile]
                if still:
                    rest = free ^ tile
                    six = chain + text
                    left = ends.get(rest)
                    if left is not None and six[1:] <= six[:0:-1]:
                        found.append("chain" + six + left)
                    for kind_at7, _, text7 in steps[w]:
                        here7 = rest & kind_at7
                        if here7:
                            tile7 = here7 & -here7
                            if still & keeps[tile7]:
                                seven = six + text7
                                if seven[1:] <= seven[:0:-1]:
                                    found.append("chain" + seven + ends[rest ^ tile7])

    for v in range(6):
        if starting[v]:
            walk(v, 255, starting[v], "", 0, texts[v])
    found.sort()
    return found


def _held(positions: dict[Kind, int], leftover: tuple[Kind, ...]) -> int:
    """The positions a leftover holds: both copies of a pair left, else each tile's later
    copy (the walk lays the earlier one first)."""
    if len(leftover) == 2 and leftover[0] == leftover[1]:
        return positions[leftover[0]]
    held = 0
    for k in leftover:
        held |= 1 << positions[k].bit_length() - 1
    return held
