"""What an MCR bot reads from its seat's view: its tiles, the melds, the visible tiles.

Only the view dict is used (the JSON a client gets), so a bot never sees a hidden tile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from paiju.engines.mcr.hand import (
    KNITTED_STRAIGHTS,
    honors_and_knitted_shanten,
    knitted_straight_shanten,
    regular_shanten,
    seven_pairs_shanten,
    thirteen_orphans_shanten,
)
from paiju.engines.mcr.tiles import Tile, counts, is_honor, parse_tile, tile_code


@dataclass(frozen=True)
class Seen:
    """A seat's reading of its view."""

    seat: int
    hand: tuple[Tile, ...]
    packs: int
    claim_tile: Tile | None
    claim_from: int | None
    legal: tuple[str, ...]
    wall_count: int
    view: Mapping[str, Any] = field(compare=False, repr=False)

    @cached_property
    def visible(self) -> tuple[int, ...]:
        """Per tile kind: copies this seat can see (own hand, melds, rivers, the claim tile).

        Computed on first use: the level-1 bot never needs it.
        """
        visible = counts(self.hand)
        shown: list[str] = []
        for player in self.view["players"]:
            for meld in player["melds"]:
                shown.extend(meld.get("tiles", ()))
            shown.extend(player["discards"])
        for code, n in Counter(shown).items():
            visible[_tile(code)] += n
        if self.claim_tile is not None:
            visible[self.claim_tile] += 1
        return tuple(visible)

    def unseen(self, tile: Tile) -> int:
        """Copies of ``tile`` this seat cannot see (still in the wall or other hands)."""
        return max(0, 4 - self.visible[tile])


_CODE = {tile_code(t): t for t in range(42)}


def _tile(code: str) -> Tile:
    """Fast code -> tile for codes the engine wrote (falls back to the checked parser)."""
    t = _CODE.get(code)
    return t if t is not None else parse_tile(code)


def read(view: Mapping[str, Any]) -> Seen:
    """Parse the parts of ``view`` a bot needs."""
    seat = int(view["seat"])
    hand = tuple(_tile(c) for c in view.get("hand", []))
    packs = len(view["players"][seat]["melds"])
    claim = view.get("claim")
    claim_tile = _tile(claim["tile"]) if claim else None
    return Seen(
        seat=seat,
        hand=hand,
        packs=packs,
        claim_tile=claim_tile,
        claim_from=int(claim["from"]) if claim else None,
        legal=tuple(view["legal"]),
        wall_count=int(view.get("wall_count", 0)),
        view=view,
    )


_KNITTED_MASKS = tuple(sum(1 << t for t in ks) for ks in KNITTED_STRAIGHTS)


def shanten(concealed: Sequence[Tile], packs: int) -> int:
    """``hand.shanten`` with the costly knitted-straight form skipped when it cannot win.

    Knitted straight + set + pair is at least (missing knitted tiles - 1) from complete, so it
    is only computed when that bound beats the other forms. The result is the same. Memoised:
    a seat's hand is weighed again at every claim window until it changes.
    """
    return _shanten(tuple(sorted(concealed)), packs)


@lru_cache(maxsize=8192)
def _shanten(concealed: tuple[Tile, ...], packs: int) -> int:
    c = counts(concealed)
    best = regular_shanten(c, packs)
    if packs == 0:
        best = min(best, seven_pairs_shanten(c), thirteen_orphans_shanten(c),
                   honors_and_knitted_shanten(c))
    if packs <= 1:
        present = 0
        for t in range(27):
            if c[t]:
                present |= 1 << t
        missing = min((mask & ~present).bit_count() for mask in _KNITTED_MASKS)
        if missing - 1 < best:
            best = min(best, knitted_straight_shanten(c, packs))
    return best


def without(hand: Sequence[Tile], *tiles: Tile) -> tuple[Tile, ...]:
    """``hand`` minus one copy of each of ``tiles``."""
    out = list(hand)
    for t in tiles:
        out.remove(t)
    return tuple(out)


def best_discard_shanten(hand: Sequence[Tile], packs: int) -> int:
    """The lowest shanten reachable by discarding one tile of a 3n+2 hand.

    The shanten of a 3n+2 hand is exactly that minimum (a complete hand, -1, still leaves
    0 after any discard), so one call suffices.
    """
    return max(0, shanten(hand, packs))


def neighbours(tile: Tile) -> list[Tile]:
    """Tiles that can join ``tile`` in a set or partial set (itself, and +-2 in its suit)."""
    if is_honor(tile):
        return [tile]
    return [t for t in range(tile - 2, tile + 3) if 0 <= t < 27 and t // 9 == tile // 9]


def ukeire(hand: Sequence[Tile], packs: int, seen: Seen) -> int:
    """Unseen copies of the tiles that lower the shanten of a 3n+1 ``hand``."""
    base = shanten(hand, packs)
    candidates: set[Tile] = set()
    for t in set(hand):
        candidates.update(neighbours(t))
    total = 0
    for t in candidates:
        if seen.unseen(t) and shanten((*hand, t), packs) < base:
            total += seen.unseen(t)
    return total


def claim_choice(seen: Seen) -> str:
    """Claim-window answer: hu, a kong that keeps the shanten, a claim that lowers it, or pass."""
    if "hu" in seen.legal:
        return "hu"
    tile = seen.claim_tile
    if tile is None:
        return "pass"
    now = shanten(seen.hand, seen.packs)
    best, choice = now, "pass"
    for text in seen.legal:
        if text == "gang":
            rest = without(seen.hand, tile, tile, tile)
            if shanten(rest, seen.packs + 1) <= now and choice == "pass":
                choice = text
        elif text == "peng" or text.startswith("chi"):
            used = claim_tiles(text, tile)
            after = best_discard_shanten(without(seen.hand, *used), seen.packs + 1)
            if after < best:
                best, choice = after, text
    return choice


def claim_tiles(text: str, tile: Tile) -> tuple[Tile, ...]:
    """The tiles of the hand a pung/chow claim on ``tile`` uses."""
    if text == "peng":
        return (tile, tile)
    middle = parse_tile(text.split()[1])
    return tuple(t for t in (middle - 1, middle, middle + 1) if t != tile)
