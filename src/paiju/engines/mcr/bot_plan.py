"""Planning toward 8 fans (MCR bot level 3): how far a hand is from a win worth 8.

Plain shanten (向听) counts the steps to *any* complete hand, but an MCR win needs 8 fans, and
most complete hands have fewer. ``fan_distance`` is the shanten toward the cheapest of a set
of **targets** that are worth 8 or more by themselves:

* fixed-part targets: three sets that a fan names exactly, completed by one more set and a
  pair — Mixed Straight (花龙 8, six suit orders), Pure Straight (清龙 16), Mixed Triple Chow
  (三色三同顺 8, seven chows), Mixed Shifted Pungs (三色三节高 8); the distance is the fixed
  tiles missing plus the shanten of the rest with the fixed sets counted as packs (the way
  ``hand.knitted_straight_shanten`` counts the knitted straight);
* one-suit targets: Full Flush (清一色 24) counts only the suit's tiles; Half Flush (混一色 6)
  the suit and the honors, one step dearer (it needs 2 fans more, e.g. a dragon pung);
* the special forms: Seven Pairs (24), Knitted Straight (12), Honors and Knitted (12),
  Thirteen Orphans (88);
* any other regular hand, ``CHICKEN_PENALTY`` steps dearer than its plain shanten (it reaches
  8 only by adding small fans together, which a ready hand often fails to do).

Exposed melds must fit a target (a chow of a straight counts as that straight's part); a
target they contradict is out of reach. Pure: tile ints in, numbers out, memoised.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from paiju.core.rng import Rng
from paiju.engines.mcr.bot_levels import (
    danger,
    own_packs,
    pick_best,
    scoring_waits,
    threats,
)
from paiju.engines.mcr.bot_read import Seen, claim_tiles, shanten, ukeire, without
from paiju.engines.mcr.hand import (
    Pack,
    honors_and_knitted_shanten,
    knitted_straight_shanten,
    regular_shanten,
    seven_pairs_shanten,
    thirteen_orphans_shanten,
)
from paiju.engines.mcr.tiles import NUM_KINDS, Tile, counts, parse_tile

#: Extra steps charged to a hand that reaches 8 fans with no named target.
CHICKEN_PENALTY = 2
#: Extra steps charged to Half Flush (6 fans: it needs 2 more).
HALF_FLUSH_PENALTY = 1

#: A fixed part: three sets, each ("CHI", middle) or ("PENG", tile).
Part = tuple[tuple[str, Tile], ...]


def _fixed_parts() -> tuple[Part, ...]:
    parts: list[Part] = []
    orders = [(a, b, c) for a in range(3) for b in range(3) for c in range(3)
              if len({a, b, c}) == 3]
    for a, b, c in orders:  # Mixed Straight: 123 in one suit, 456 in another, 789 in the third
        parts.append((("CHI", 9 * a + 1), ("CHI", 9 * b + 4), ("CHI", 9 * c + 7)))
    for s in range(3):  # Pure Straight
        parts.append((("CHI", 9 * s + 1), ("CHI", 9 * s + 4), ("CHI", 9 * s + 7)))
    for rank in range(1, 8):  # Mixed Triple Chow
        parts.append(tuple(("CHI", 9 * s + rank) for s in range(3)))
    for a, b, c in orders:  # Mixed Shifted Pungs
        for rank in range(7):
            parts.append((("PENG", 9 * a + rank), ("PENG", 9 * b + rank + 1),
                          ("PENG", 9 * c + rank + 2)))
    return tuple(parts)


FIXED_PARTS = _fixed_parts()


def _set_tiles(kind: str, tile: Tile) -> tuple[Tile, ...]:
    return (tile - 1, tile, tile + 1) if kind == "CHI" else (tile, tile, tile)


def _pack_key(pack: Pack) -> tuple[str, Tile]:
    return ("CHI", pack.tile) if pack.kind == "CHI" else ("PENG", pack.tile)


def fan_distance(concealed: Sequence[Tile], packs: Sequence[Pack]) -> int:
    """Steps from ``concealed`` (with exposed ``packs``) to being ready for a win that the
    targets make worth 8 fans (0: such a wait is possible now; -1: such a hand is complete)."""
    return _distance(tuple(sorted(concealed)), tuple(_pack_key(p) for p in packs))


@lru_cache(maxsize=1 << 15)
def _distance(concealed: tuple[Tile, ...], packs: tuple[tuple[str, Tile], ...]) -> int:
    c = counts(concealed)
    n = len(packs)
    best = regular_shanten(c, n) + CHICKEN_PENALTY
    best = min(best, _suit_targets(c, packs))
    if n == 0:
        best = min(best, seven_pairs_shanten(c), thirteen_orphans_shanten(c),
                   honors_and_knitted_shanten(c))
    if n <= 1:
        best = min(best, knitted_straight_shanten(c, n, best))
    for part in FIXED_PARTS:
        best = min(best, _part_distance(c, packs, part, best))
    return best


def _part_distance(
    c: list[int], packs: tuple[tuple[str, Tile], ...], part: Part, bound: int
) -> int:
    """Distance to ``part`` + one set + a pair (``bound`` or more when it cannot beat it)."""
    todo = list(part)
    others = 0
    for key in packs:
        if key in todo:
            todo.remove(key)
        else:
            others += 1
    if others > 1:
        return bound  # four sets: the part's three and at most one more
    need = [t for kind, tile in todo for t in _set_tiles(kind, tile)]
    work = list(c)
    missing = 0
    for t in need:
        if work[t]:
            work[t] -= 1
        else:
            missing += 1
    if missing - 1 >= bound:
        return bound  # the rest can take off at most one more step
    return missing + regular_shanten(work, 3 + others)


def _suit_targets(c: list[int], packs: tuple[tuple[str, Tile], ...]) -> int:
    """Full Flush and Half Flush toward each suit the exposed melds allow."""
    best = 99
    n = len(packs)
    for s in range(3):
        lo, hi = 9 * s, 9 * s + 9
        suits = {("honor" if t >= 27 else t // 9) for _, t in packs}
        if suits <= {s}:
            flush = [c[t] if lo <= t < hi else 0 for t in range(NUM_KINDS)]
            best = min(best, regular_shanten(flush, n))
        if suits <= {s, "honor"}:
            half = [c[t] if lo <= t < hi or t >= 27 else 0 for t in range(NUM_KINDS)]
            best = min(best, regular_shanten(half, n) + HALF_FLUSH_PENALTY)
    return best


# --------------------------------------------------------------------------- level 3 choices


def ranked_plan(seen: Seen, view: Mapping[str, Any]) -> list[tuple[tuple[int, ...], Tile]]:
    """Discards with their level-3 keys (smaller is better), best first.

    A discard that leaves the hand ready with waits worth 8 fans (counted with the real fan
    counter, as level 2 does) comes first, by how many such tiles are unseen; every other
    discard is ordered by the distance to 8 fans, then plain shanten, then effective tiles
    (computed only for the discards still tied)."""
    packs = own_packs(view, seen.seat)
    keyed = []
    for tile in sorted(set(seen.hand)):
        rest = without(seen.hand, tile)
        plain = shanten(rest, seen.packs)
        good = round(3 * scoring_waits(rest, view, seen, packs)) if plain == 0 else 0
        keyed.append(((-good, fan_distance(rest, packs), plain), tile, rest))
    keyed.sort()
    best = keyed[0][0]
    out: list[tuple[tuple[int, ...], Tile]] = []
    for key, tile, rest in keyed:
        spread = -ukeire(rest, seen.packs, seen) if key == best else 0
        out.append(((*key, spread), tile))
    out.sort()
    return out


def discard_level3(seen: Seen, view: Mapping[str, Any], rng: Rng) -> Tile:
    """The best-planned discard; ties broken by ``rng``."""
    return pick_best(ranked_plan(seen, view), rng)


def claim_level3(seen: Seen, view: Mapping[str, Any]) -> str:
    """Hu when legal; otherwise the claim that brings the hand nearest to 8 fans, if it gets
    nearer than it is now (a kong: if it does not get farther)."""
    if "hu" in seen.legal:
        return "hu"
    tile = seen.claim_tile
    if tile is None:
        return "pass"
    packs = own_packs(view, seen.seat)
    now = fan_distance(seen.hand, packs)
    best, choice = now, "pass"
    for text in seen.legal:
        if text == "gang":
            rest = without(seen.hand, tile, tile, tile)
            if fan_distance(rest, (*packs, Pack("PENG", tile, 1))) <= now and choice == "pass":
                choice = text
        elif text == "peng" or text.startswith("chi"):
            after = without(seen.hand, *claim_tiles(text, tile))
            meld = _claimed(text, tile)
            grown = (*packs, meld)
            reach = min(fan_distance(without(after, t), grown) for t in set(after))
            if reach < best:
                best, choice = reach, text
    return choice


def _claimed(text: str, tile: Tile) -> Pack:
    if text == "peng":
        return Pack("PENG", tile, 1)
    middle = parse_tile(text.split()[1])
    return Pack("CHI", middle, tile - middle + 2)


def discard_defended(seen: Seen, view: Mapping[str, Any], rng: Rng) -> Tile:
    """Level 3's discard, defending when an opponent looks ready (``threats``).

    Far from 8 fans (``FOLD_DISTANCE`` steps or more after the discard) it folds: the safest
    tile. Nearer, it keeps the plan and lets danger break ties; one step from ready it gives
    up a little for safety only when the planned discard is dangerous to every threat."""
    against = threats(view, seen)
    if not against:
        return discard_level3(seen, view, rng)
    ranked = ranked_plan(seen, view)
    risk = {t: danger(t, view, seen, against) for _, t in ranked}
    distance = ranked[0][0][1]
    if distance >= FOLD_DISTANCE:
        return min(ranked, key=lambda kt: (risk[kt[1]], kt[0]))[1]
    best = [(k, t) for k, t in ranked if k == ranked[0][0]]
    choice = min(best, key=lambda kt: risk[kt[1]])[1]
    if distance <= 1 and risk[choice] >= 0.9 * len(against):
        same = [(k, t) for k, t in ranked if k[1] == distance]
        return min(same, key=lambda kt: (risk[kt[1]], kt[0]))[1]
    return choice


#: Steps from 8 fans at which a threatened hand stops trying and plays safe.
FOLD_DISTANCE = 4
