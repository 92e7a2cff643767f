"""MCR bot level 2 (tile efficiency over unseen tiles, 8-fan waits) and the threat reading
level 3 defends with (``threats``, ``danger``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.core.rng import Rng
from paiju.engines.mcr.bot_read import Seen, claim_choice, claim_tiles, shanten, ukeire, without
from paiju.engines.mcr.fans import WinContext, evaluate
from paiju.engines.mcr.hand import Pack
from paiju.engines.mcr.ready import ready_waits
from paiju.engines.mcr.tiles import Tile, is_honor, parse_tile

_WINDS = {"F1": 0, "F2": 1, "F3": 2, "F4": 3}
_PACK_KIND = {"chi": "CHI", "peng": "PENG", "gang": "GANG", "bugang": "GANG", "angang": "GANG"}


def own_packs(view: Mapping[str, Any], seat: int) -> tuple[Pack, ...]:
    """The seat's melds as judge packs (its own concealed kongs are visible to it)."""
    packs = []
    for meld in view["players"][seat]["melds"]:
        offer = 0 if meld["kind"] == "angang" else int(meld["offer"])
        packs.append(Pack(_PACK_KIND[meld["kind"]], parse_tile(meld["tile"]), offer))
    return tuple(packs)


def scoring_waits(
    rest: tuple[Tile, ...],
    view: Mapping[str, Any],
    seen: Seen,
    packs: tuple[Pack, ...] | None = None,
) -> float:
    """Unseen copies of the waits of ready ``rest`` that reach 8 fans: in full when they win
    on a discard, a third when only a self-draw reaches 8."""
    player = view["players"][seen.seat]
    packs = own_packs(view, seen.seat) if packs is None else packs
    total = 0.0
    for tile in ready_waits(rest):
        if not seen.unseen(tile):
            continue
        for self_drawn, weight in ((False, 1.0), (True, 1.0 / 3)):
            ctx = WinContext(
                packs=packs, hand=rest, win_tile=tile, flowers=0, self_drawn=self_drawn,
                seat_wind=_WINDS[player["wind"]], prevalent_wind=_WINDS[view["prevalent_wind"]],
            )
            result = evaluate(ctx)
            if result is not None and result.total_without_flowers >= 8:
                total += weight * seen.unseen(tile)
                break
    return total


def claim_level2(seen: Seen, view: Mapping[str, Any]) -> str:
    """Level-1 claims, except a claim that makes the hand ready without an 8-fan wait."""
    choice = claim_choice(seen)
    if choice in ("hu", "pass", "gang") or seen.claim_tile is None:
        return choice
    used = claim_tiles(choice, seen.claim_tile)
    after = without(seen.hand, *used)
    if shanten(after, seen.packs + 1) > 0:
        return choice
    meld = _claimed_pack(choice, seen)
    packs = (*own_packs(view, seen.seat), meld)
    for tile in set(after):
        rest = without(after, tile)
        if shanten(rest, seen.packs + 1) == 0 and scoring_waits(rest, view, seen, packs) >= 1:
            return choice
    return "pass"


def _claimed_pack(choice: str, seen: Seen) -> Pack:
    tile = seen.claim_tile
    assert tile is not None and seen.claim_from is not None
    if choice == "peng":
        return Pack("PENG", tile, 1)
    middle = parse_tile(choice.split()[1])
    return Pack("CHI", middle, tile - middle + 2)


def _flush_bias(rest: tuple[Tile, ...]) -> int:
    """Tiles outside the dominant suit (fewer is closer to a flush, a common 8-fan route)."""
    suits = [sum(1 for t in rest if not is_honor(t) and t // 9 == s) for s in range(3)]
    return sum(suits) - max(suits)


def ranked_discards(seen: Seen, view: Mapping[str, Any]) -> list[tuple[tuple[int, ...], Tile]]:
    """Discards with their level-2 keys (smaller is better), best first."""
    hand, packs = seen.hand, seen.packs
    keyed = []
    for tile in sorted(set(hand)):
        rest = without(hand, tile)
        keyed.append(((shanten(rest, packs),), tile, rest))
    low = min(k[0] for k, _, _ in keyed)
    out: list[tuple[tuple[int, ...], Tile]] = []
    for key, tile, rest in keyed:
        if key[0] > low:
            out.append(((key[0], 0, 0, 0), tile))
            continue
        if key[0] == 0:
            good = round(3 * scoring_waits(rest, view, seen))
            out.append(((0, -good, -ukeire(rest, packs, seen), 0), tile))
        else:
            out.append(((key[0], -ukeire(rest, packs, seen), _flush_bias(rest), 0), tile))
    out.sort()
    return out


def pick_best(ranked: list[tuple[tuple[int, ...], Tile]], rng: Rng) -> Tile:
    """One of the discards sharing the best (first) key, chosen by ``rng``."""
    best = [t for k, t in ranked if k == ranked[0][0]]
    return best[rng.randbelow(len(best))]


def discard_level2(seen: Seen, view: Mapping[str, Any], rng: Rng) -> Tile:
    """Lowest shanten, then the most effective unseen tiles (8-fan waits when ready)."""
    return pick_best(ranked_discards(seen, view), rng)


def threats(view: Mapping[str, Any], seen: Seen) -> list[int]:
    """Opponents that look ready: two or more melds, one meld late in the wall, or anyone at
    the very end of the wall."""
    out = []
    for seat, player in enumerate(view["players"]):
        if seat == seen.seat:
            continue
        melds = len(player["melds"])
        if melds >= 2 or (melds >= 1 and seen.wall_count < 24) or seen.wall_count < 12:
            out.append(seat)
    return out


def danger(tile: Tile, view: Mapping[str, Any], seen: Seen, against: list[int]) -> float:
    """A rough weight of dealing in by discarding ``tile`` to the seats ``against``."""
    if not seen.unseen(tile):
        return 0.0  # every other copy is visible: nobody can be waiting on it
    total = 0.0
    for seat in against:
        river = {parse_tile(c) for c in view["players"][seat]["discards"]}
        if tile in river:
            risk = 0.1  # no furiten in MCR, but few hands wait on a tile they threw away
        elif is_honor(tile):
            risk = 0.2 if seen.unseen(tile) == 1 else 0.5
        else:
            risk = 0.7 if tile % 9 in (0, 8) else 1.0
            if any(t in river for t in (tile - 3, tile + 3) if 0 <= t < 27 and t // 9 == tile // 9):
                risk *= 0.6  # 筋 (suji): a two-sided wait on it would have taken the discard
        total += risk
    return total
