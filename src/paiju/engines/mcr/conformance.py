"""The MCR conformance adapter: the leak check and the redeal of unseen tiles.

Until the hand ends a viewer may see only its own concealed tiles, drawn tile, concealed
kongs and pending claim; the wall never appears; other seats' hands are only counted.
"""

from __future__ import annotations

from typing import Any

from paiju.core.rng import Rng
from paiju.core.seats import Seat
from paiju.engines.mcr.ready import ready_waits
from paiju.engines.mcr.state import ANGANG_MELD, OVER, McrState, evolve
from paiju.engines.mcr.tiles import is_flower, tile_code
from paiju.engines.variant import Conformance

_SECRET_KEYS = frozenset({"wall", "wall_tiles", "responses", "waits"})


def _walk_keys(data: Any, path: str = "") -> list[str]:
    """Paths of every dict key in ``data`` that names a secret."""
    found: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key in _SECRET_KEYS:
                found.append(f"{path}/{key}")
            found.extend(_walk_keys(value, f"{path}/{key}"))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found.extend(_walk_keys(value, f"{path}[{i}]"))
    return found


def _viewer_leaks(state: McrState, view: dict[str, Any], viewer: int | None) -> list[str]:
    who = "spectator" if viewer is None else f"seat {viewer}"
    leaks = [f"{who} sees {p}" for p in _walk_keys(view)]
    over = state.phase == OVER
    for seat, player in enumerate(view["players"]):
        if seat == viewer or over:
            continue
        if "hand" in player:
            leaks.append(f"{who} sees seat {seat}'s concealed hand")
        for meld in player["melds"]:
            if meld["kind"] == ANGANG_MELD and ("tile" in meld or "tiles" in meld):
                leaks.append(f"{who} sees seat {seat}'s concealed kong")
    if viewer is None:
        if "hand" in view or view.get("drawn") is not None:
            leaks.append("spectator sees a concealed hand")
    else:
        if view.get("hand") != [tile_code(t) for t in state.hands[viewer]]:
            leaks.append(f"{who}'s 'hand' is not its own hand")
        if view.get("drawn") is not None and state.current != viewer:
            leaks.append(f"{who} sees another seat's drawn tile")
    if state.window is not None and any(s != viewer for s in view["to_act"]):
        leaks.append(f"{who} sees which other seats may claim the tile")
    claim = view.get("claim")
    if claim is not None and claim.get("answered") is not None and state.window is not None:
        own = dict(state.window.responses).get(viewer) if viewer is not None else None
        if own is None:
            leaks.append(f"{who} sees another seat's pending claim")
    return leaks


def hidden_leaks(engine: Any, state: McrState) -> list[str]:
    """Every place some view shows a tile or claim its viewer may not see."""
    leaks: list[str] = []
    for viewer in (None, 0, 1, 2, 3):
        leaks.extend(_viewer_leaks(state, engine.view(state, viewer), viewer))
    return leaks


def redeal_unseen(state: McrState, viewer: Seat | None, rng: Rng) -> McrState | None:
    """The wall and the other seats' concealed tiles (``viewer``: ``None`` for a spectator)
    dealt again from the same tiles, every count kept; ``None`` once the hand is over.

    The others hold no flowers (flowers are always set aside), their waits are recomputed,
    and another seat's drawn tile is one of its new tiles. What depends on other hands alone
    and that the viewer never sees is kept as it was: their options in an open claim window.
    """
    if state.phase == OVER:
        return None
    others = [s for s in range(4) if s != viewer]
    pool = [t for s in others for t in state.hands[s]] + list(state.wall)
    rng.shuffle(pool)
    plain = [t for t in pool if not is_flower(t)]
    hands, waits = list(state.hands), list(state.waits)
    for seat in others:
        size = len(state.hands[seat])
        hands[seat], plain = tuple(sorted(plain[:size])), plain[size:]
        if size % 3 == 1:
            waits[seat] = ready_waits(hands[seat])
    for tile in (t for s in others for t in hands[s]):
        pool.remove(tile)
    drawn = state.drawn
    if drawn is not None and state.current != viewer:
        drawn = hands[state.current][-1]
    return evolve(state, hands=tuple(hands), waits=tuple(waits), wall=tuple(pool), drawn=drawn)


CONFORMANCE = Conformance[McrState](
    hidden_leaks=hidden_leaks,
    redeal_unseen=redeal_unseen,
    option_sets=(
        {"claim_prompts": "all"},
        {"multiple_win": True, "min_fan": 0, "concealed_and_melded_kong_5": True},
    ),
)
