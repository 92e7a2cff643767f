"""``paiju judge diu``: claim arbitration for one card, answered from a JSON request.

Request::

    {"id": ..., "kind": "claim", "options": {...}?, "event": {
        "type": "draw" | "discard", "by": "A", "active": ["A", "B", "C"], "idle": "D"?,
        "calls": {"B": "hard_dui", ...}, "reask_diu": {"A": true}, "declines": ["C"],
        "timeouts": ["B"], "reopen_calls": {"C": "kuai"}, "switch": {"A": "diu"}}}

Response: ``{"id": ..., "card_to": seat | None, "claim": call | None, "game_over": bool}``.

Calls are taken as allowed by the seats' hands; only the arbitration rules of rules §3 are
applied (``arbitration``). An absent seat passes. ``timeouts`` turn the seat's first-pass
and re-offer calls into passes (A6). ``switch`` is a seat trying to change its call when the
card comes to it: calls are binding (S13), so a switch to another call is refused and the seat
keeps its own call; a switch to ``pass`` gives the card up like ``declines``. The idle seat is
never polled; a call from it is ignored. Any malformed request raises ``ValueError`` with a
message naming the problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.engines.diu.arbitration import (
    Poll,
    PollRules,
    awaiting,
    current_question,
    start_poll,
)
from paiju.engines.diu.arbitration import (
    answer as poll_answer,
)
from paiju.engines.diu.combos import CALLS

_ANSWERS = ("pass", *CALLS)
_ROLES = ("A", "B", "C", "D")
_EVENT_KEYS = {
    "type",
    "by",
    "active",
    "idle",
    "calls",
    "reask_diu",
    "declines",
    "timeouts",
    "reopen_calls",
    "switch",
}
_OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "chi_on_draw": ("drawer_and_next", "next_only", "any"),
    "diu_on_discard": (False, True),
    "forfeit_fallback": ("next_highest_claim", "reopen_after_forfeiter"),
    "poll_mode": ("sequential", "parallel"),
}


def answer(request: Mapping[str, Any]) -> dict[str, Any]:
    """The arbitration result for one request; ``ValueError`` for a bad request."""
    if not isinstance(request, Mapping):
        raise ValueError("the request must be a JSON object")
    if request.get("kind") != "claim":
        raise ValueError(f"unknown kind {request.get('kind')!r}; expected 'claim'")
    event = request.get("event")
    if not isinstance(event, Mapping):
        raise ValueError("event must be an object")
    rules = _rules(request.get("options") or {})
    poll = _run(rules, event)
    return {
        "id": request.get("id"),
        "card_to": None if poll.winner is None else _ROLES[poll.winner],
        "claim": poll.claim,
        "game_over": poll.game_over,
    }


def _rules(options: Any) -> PollRules:
    if not isinstance(options, Mapping):
        raise ValueError("options must be an object")
    for key, value in options.items():
        choices = _OPTION_CHOICES.get(key)
        if choices is None:
            raise ValueError(f"unknown option {key!r}")
        if value not in choices or type(value) is not type(choices[0]):
            raise ValueError(f"bad value for {key}: {value!r}; expected one of {list(choices)}")
    return PollRules(
        chi_on_draw=options.get("chi_on_draw", "drawer_and_next"),
        diu_on_discard=options.get("diu_on_discard", False),
        forfeit_fallback=options.get("forfeit_fallback", "next_highest_claim"),
        parallel=options.get("poll_mode", "sequential") == "parallel",
    )


def _seat(value: Any, what: str) -> int:
    if value not in _ROLES:
        raise ValueError(f"{what} must be a role letter A-D, not {value!r}")
    return _ROLES.index(value)


def _seat_map(event: Mapping[str, Any], key: str, values: tuple[Any, ...]) -> dict[int, Any]:
    raw = event.get(key) or {}
    if not isinstance(raw, Mapping):
        raise ValueError(f"{key} must be an object of seat -> value")
    out: dict[int, Any] = {}
    for seat, value in raw.items():
        if value not in values or type(value) is not type(values[-1]):
            raise ValueError(f"{key}[{seat}] must be one of {list(values)}, not {value!r}")
        out[_seat(seat, f"a seat in {key}")] = value
    return out


def _seat_list(event: Mapping[str, Any], key: str) -> set[int]:
    raw = event.get(key) or []
    if not isinstance(raw, list):
        raise ValueError(f"{key} must be a list of seats")
    return {_seat(s, f"a seat in {key}") for s in raw}


def _run(rules: PollRules, event: Mapping[str, Any]) -> Poll:
    unknown = sorted(set(event) - _EVENT_KEYS)
    if unknown:
        raise ValueError(f"unknown event fields: {unknown}")
    active_raw = event.get("active")
    if not isinstance(active_raw, list) or len(active_raw) < 2:
        raise ValueError("active must list the playing seats in turn order")
    active = tuple(_seat(s, "a seat in active") for s in active_raw)
    if len(set(active)) != len(active):
        raise ValueError("active lists a seat twice")
    if event.get("idle") is not None and _seat(event["idle"], "idle") in active:
        raise ValueError("the idle seat cannot be active")
    by = _seat(event.get("by"), "by")
    if by not in active:
        raise ValueError("by must be an active seat")
    calls = _seat_map(event, "calls", _ANSWERS)
    reopen = _seat_map(event, "reopen_calls", _ANSWERS)
    switch = _seat_map(event, "switch", _ANSWERS)
    reask = _seat_map(event, "reask_diu", (False, True))
    declines, timeouts = _seat_list(event, "declines"), _seat_list(event, "timeouts")
    if event.get("type") not in ("draw", "discard"):
        raise ValueError(f"type must be 'draw' or 'discard', not {event.get('type')!r}")
    poll = start_poll(rules, event["type"], by, active)
    while not poll.done:
        # In parallel mode answer the last asked seat first: the fold must not care.
        seat = awaiting(poll)[-1]
        question = current_question(poll)
        if question == "call":
            source = reopen if poll.stage == "reopen" else calls
            response = "pass" if seat in timeouts else source.get(seat, "pass")
        elif question == "reask":
            response = "diu" if reask.get(seat, False) else "pass"
        else:
            gives_up = seat in declines or switch.get(seat) == "pass"
            response = "pass" if gives_up else "take"
        poll = poll_answer(poll, seat, response)
    return poll
