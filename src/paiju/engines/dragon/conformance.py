"""The dragon conformance adapter: the leak check and the redeal of unseen tiles.

Before the showdown a seat may see only its own 8 tiles (in ``hand``, its ``legal``
arrangements and ``my_submission``); every other part of the view must carry no tile at all,
and spectators see no tile. After the showdown every dealt hand is public, but the undealt
tiles of a short table never are.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

from paiju.core.rng import Rng
from paiju.core.seats import Seat
from paiju.engines.dragon.actions import Arrange, parse_action
from paiju.engines.dragon.state import DragonState
from paiju.engines.dragon.tiles import tile_code
from paiju.engines.variant import Conformance

_TILE_TEXT = re.compile(r"(^|\D)[1-6][1-6]($|\D)")
_OWN_FIELDS = ("hand", "legal", "my_submission", "best", "options")


def _tile_strings(value: Any, path: str) -> list[str]:
    """Paths of every string in ``value`` that names a tile."""
    if isinstance(value, str):
        return [f"{path}={value!r}"] if _TILE_TEXT.search(value) else []
    if isinstance(value, dict):
        return [leak for k, v in value.items() for leak in _tile_strings(v, f"{path}.{k}")]
    if isinstance(value, list | tuple):
        return [leak for i, v in enumerate(value) for leak in _tile_strings(v, f"{path}[{i}]")]
    return []


def _own_leaks(view: dict[str, Any], own: list[str], who: str) -> list[str]:
    leaks = []
    if view["hand"] != own:
        leaks.append(f"{who}: hand {view['hand']} is not its own tiles {own}")
    texts = list(view["legal"])
    for own_text in (view["my_submission"], view["best"]):
        if own_text is not None:
            texts.append(own_text)
    for text in texts:
        action = parse_action(text)
        if isinstance(action, Arrange):
            used = Counter(tile_code(k) for k in action.kinds())
            if used != Counter(own):
                leaks.append(f"{who}: action {text!r} uses tiles that are not its own")
    return leaks


def _before_showdown(engine: Any, state: DragonState) -> list[str]:
    leaks: list[str] = []
    for seat in [None, *range(state.seat_count)]:
        who = f"seat {seat}" if seat is not None else "spectator"
        view = engine.view(state, seat)
        own = [tile_code(k) for k in state.hands[seat]] if seat is not None else []
        leaks += _own_leaks(view, own, who)
        public = {k: v for k, v in view.items() if k not in _OWN_FIELDS}
        leaks += [f"{who}: {leak}" for leak in _tile_strings(public, "view")]
    return leaks


def _codes_in(value: Any) -> list[str]:
    """Every tile code named in ``value`` (a two-pip string, or a laid ``[l, r]`` pair)."""
    if isinstance(value, str):
        return ["".join(sorted(value))] if re.fullmatch(r"[1-6][1-6]", value) else []
    if isinstance(value, dict):
        return [c for v in value.values() for c in _codes_in(v)]
    if isinstance(value, list):
        return [c for v in value for c in _codes_in(v)]
    return []


def _after_showdown(engine: Any, state: DragonState) -> list[str]:
    leaks: list[str] = []
    for seat in [None, *range(state.seat_count)]:
        view = engine.view(state, seat)
        entries = view["result"]["seats"]
        if len(entries) != state.seat_count:
            leaks.append(f"seat {seat}: the reveal lists other than the seated hands")
        for entry in entries:
            dealt = Counter(tile_code(k) for k in state.hands[entry["seat"]])
            if Counter(entry["tiles"]) != dealt:
                leaks.append(f"seat {seat}: reveal of seat {entry['seat']} is not its dealt hand")
            if set(_codes_in(entry)) - set(dealt):
                leaks.append(f"seat {seat}: seat {entry['seat']}'s reveal names foreign tiles")
        public = {k: v for k, v in view.items() if k not in (*_OWN_FIELDS, "result")}
        leaks += [f"seat {seat}: {leak}" for leak in _tile_strings(public, "view")]
    return leaks


def hidden_leaks(engine: Any, state: DragonState) -> list[str]:
    """Every place a view shows a tile its viewer may not see (empty when none)."""
    if engine.is_terminal(state):
        return _after_showdown(engine, state)
    return _before_showdown(engine, state)


def redeal_unseen(state: DragonState, viewer: Seat | None, rng: Rng) -> DragonState | None:
    """The hands of the other seats that have not submitted, dealt again from their tiles and
    the undealt ones (a submitted arrangement names its hand's tiles, so those stay).
    ``None`` after the showdown (every hand is revealed)."""
    if state.over:
        return None
    others = [
        s for s in range(state.seat_count) if s != viewer and state.submissions[s] is None
    ]
    pool = [k for s in others for k in state.hands[s]] + list(state.undealt)
    rng.shuffle(pool)
    hands = list(state.hands)
    for seat in others:
        hands[seat], pool = tuple(sorted(pool[:8])), pool[8:]
    return replace(state, hands=tuple(hands), undealt=tuple(sorted(pool)))


CONFORMANCE = Conformance[DragonState](
    hidden_leaks=hidden_leaks,
    redeal_unseen=redeal_unseen,
    option_sets=(
        {"seats": 2, "scoring": "best"},
        {"specials": True, "gee_joon_wild": True, "single_rank": "geejoon_lowest"},
    ),
)
