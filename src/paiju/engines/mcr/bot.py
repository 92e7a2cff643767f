"""MCR bots (they fill empty seats). Every bot reads only its seat's view.

* Level 1 — the seed article's discard procedure in 8 steps (see ``discard_level1``); claims a
  chow/pung when it lowers the shanten, a kong when it does not raise it, hu whenever legal.
* Level 2 — shanten first, then effective tiles (ukeire) counted over the tiles it cannot see;
  when ready it prefers the waits that actually reach 8 fans.
* Level 3 — plans toward 8 fans (``bot_plan``: the distance to the nearest target worth 8,
  such as a mixed straight, a flush or seven pairs, then effective tiles), claims only what
  brings the hand nearer to 8 fans, and defends: when an opponent looks ready it folds a
  hand far from 8 fans and otherwise prefers the safer of equally planned discards.

Level 0 (uniform random over ``legal``) is the table's generic bot, not defined here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.core.rng import Rng
from paiju.engines.mcr.bot_read import (
    Seen,
    best_discard_shanten,
    claim_choice,
    read,
    shanten,
    ukeire,
    without,
)
from paiju.engines.mcr.bot_steps import discard_level1
from paiju.engines.mcr.tiles import Tile, parse_tile, tile_code


def kong_choice(seen: Seen) -> str | None:
    """A concealed or added kong that does not raise the shanten, if any."""
    if not any(text.startswith(("angang", "bugang")) for text in seen.legal):
        return None
    now = best_discard_shanten(seen.hand, seen.packs)
    for text in seen.legal:
        if text.startswith(("angang", "bugang")):
            tile = parse_tile(text.split()[1])
            n = 4 if text.startswith("angang") else 1
            rest = without(seen.hand, *([tile] * n))
            if shanten(rest, seen.packs + 1) <= now:
                return text
    return None


#: The levels ``make_bot`` makes (0, random-legal, is every variant's).
BOT_LEVELS = (1, 2, 3)


class McrBot:
    """A bot of ``level`` 1..3 that draws randomness (tie-breaks) only from ``rng``."""

    def __init__(self, level: int, rng: Rng) -> None:
        if level not in BOT_LEVELS:
            raise ValueError(f"MCR bots have levels 1-3, not {level}")
        self.level = level
        self.rng = rng

    def choose(self, view: Mapping[str, Any]) -> str:
        """One of ``view["legal"]``; ``pass`` when that is the only one, as for a seat asked
        without a claim under ``claim_prompts = "all"``."""
        legal = list(view["legal"])
        if not legal:
            raise ValueError("the view offers no legal action")
        if legal == ["pass"]:
            return "pass"  # nothing to weigh: skip reading the view
        seen = read(view)
        if "pass" in legal:
            return self._claim(seen, view)
        if "hu" in legal:
            return "hu"
        kong = kong_choice(seen)
        if kong is not None:
            return kong
        tile = self._discard(seen, view)
        text = f"discard {tile_code(tile)}"
        return text if text in legal else legal[self.rng.randbelow(len(legal))]

    def _claim(self, seen: Seen, view: Mapping[str, Any]) -> str:
        if self.level == 1:
            return claim_choice(seen)
        if self.level == 2:
            from paiju.engines.mcr.bot_levels import claim_level2

            return claim_level2(seen, view)
        from paiju.engines.mcr.bot_plan import claim_level3

        return claim_level3(seen, view)

    def _discard(self, seen: Seen, view: Mapping[str, Any]) -> Tile:
        if self.level == 1:
            return discard_level1(seen.hand, seen.packs)
        if self.level == 2:
            from paiju.engines.mcr.bot_levels import discard_level2

            return discard_level2(seen, view, self.rng)
        from paiju.engines.mcr.bot_plan import discard_defended

        return discard_defended(seen, view, self.rng)


def make_bot(level: int, rng: Rng) -> McrBot:
    """The MCR bot of ``level`` (1..3)."""
    return McrBot(level, rng)


__all__ = ["McrBot", "make_bot", "ukeire"]
