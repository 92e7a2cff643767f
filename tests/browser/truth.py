"""What a spectator may see, from the server's own state: every tile or card that is public.

The spectator page's DOM (every ``data-tile`` / ``data-card``) must be covered by these
multisets; a concealed tile in the DOM would show up as one copy too many."""

from __future__ import annotations

from collections import Counter
from typing import Any

from paiju.engines.diu.state import DiuState
from paiju.engines.mcr.state import ANGANG_MELD, McrState
from paiju.engines.mcr.tiles import tile_code
from paiju.engines.shengji.state import ShengjiState


def mcr_public(state: McrState) -> Counter[str]:
    """Rivers, flowers and exposed melds (concealed kongs stay face down)."""
    seen: Counter[str] = Counter()
    for seat in range(4):
        seen.update(tile_code(t) for t in state.discards[seat])
        seen.update(tile_code(t) for t in state.flowers[seat])
        for meld in state.melds[seat]:
            if meld.kind != ANGANG_MELD:
                seen.update(tile_code(t) for t in meld.tiles())
    return seen


def shengji_public(state: ShengjiState) -> Counter[str]:
    """Every card played (tricks and the current trick), bids and turned-up kitty cards."""
    seen: Counter[str] = Counter()
    for trick in state.tricks:
        for play in trick.plays:
            seen.update(play.cards)
    for play in state.trick:
        seen.update(play.cards)
    for bid in state.bids:
        seen.update([bid.card] * bid.count)
    seen.update(state.flipped)
    return seen


def diu_public(state: DiuState) -> Counter[str]:
    """Every meld, the dead cards and the card being polled."""
    seen: Counter[str] = Counter(state.dead)
    for melds in state.melds:
        for meld in melds:
            seen.update(meld)
    if state.card is not None:
        seen[state.card] += 1
    return seen


def shown(page: Any) -> Counter[str]:
    """The faces in the page: every ``data-tile`` and ``data-card`` attribute."""
    values = page.eval_on_selector_all(
        "[data-tile], [data-card]", "els => els.map(e => e.dataset.tile || e.dataset.card)"
    )
    return Counter(v for v in values if v)
