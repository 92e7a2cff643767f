"""The canonical text of diu actions (see ``state.Action``); parse and format round-trip."""

from __future__ import annotations

from paiju.core.errors import MalformedAction
from paiju.core.notation import join_tokens, split_tokens
from paiju.engines.diu.cards import ALL_TOKENS, sort_cards
from paiju.engines.diu.combos import CALLS
from paiju.engines.diu.state import Action


def format_action(action: Action) -> str:
    """``pass`` | ``call X`` | ``diu a b`` | ``take cards…`` | ``take mI`` | ``discard c``."""
    if action.kind == "pass":
        return "pass"
    if action.kind == "call":
        return f"call {action.call}"
    if action.kind == "take" and action.meld >= 0:
        return f"take m{action.meld}"
    return join_tokens((action.kind, *action.cards))


def _cards(tokens: list[str]) -> tuple[str, ...]:
    bad = [t for t in tokens if t not in ALL_TOKENS]
    if bad:
        raise MalformedAction(f"unknown card {bad[0]!r}")
    return sort_cards(tokens)


def parse_action(text: str) -> Action:
    """The action written ``text``; ``MalformedAction`` if it is not valid notation.

    The texts seats send are few (a pass, a call, a discard of one of the deck's cards, a
    take of a hand's cards), so each is read once and its (immutable) action kept, up to
    ``_PARSED_KEPT`` of them: any text may arrive, so the memo is emptied when full."""
    found = _PARSED.get(text)
    if found is None:
        found = _parse(text)
        if len(_PARSED) >= _PARSED_KEPT:
            _PARSED.clear()
        _PARSED[text] = found
    return found


_PARSED: dict[str, Action] = {}
_PARSED_KEPT = 4096


def _parse(text: str) -> Action:
    head, *rest = split_tokens(text)
    if head == "pass" and not rest:
        return Action("pass")
    if head == "call" and len(rest) == 1 and rest[0] in CALLS:
        return Action("call", call=rest[0])
    if head == "diu" and len(rest) == 2:
        return Action("diu", cards=_cards(rest))
    if head == "discard" and len(rest) == 1:
        return Action("discard", cards=_cards(rest))
    if head == "take" and len(rest) == 1 and rest[0].startswith("m") and rest[0][1:].isdigit():
        return Action("take", meld=int(rest[0][1:]))
    if head == "take" and 2 <= len(rest) <= 3:
        return Action("take", cards=_cards(rest))
    raise MalformedAction(f"cannot read diu action {text!r}")
