"""Leak check for MCR views: what each seat's view shows that the seat may not see.

Until the hand ends a viewer may see only its own concealed tiles, drawn tile, concealed
kongs and pending claim; the wall never appears; other seats' hands are only counted.
"""

from __future__ import annotations

from typing import Any

from paiju.engines.mcr.state import ANGANG_MELD, OVER, McrState
from paiju.engines.mcr.tiles import tile_code

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
