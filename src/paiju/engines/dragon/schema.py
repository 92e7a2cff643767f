"""The dragon view, event data and error codes as types (docs/rules/dragon.md, "What a
client sees"). ``TypedDict``s keep the engine stdlib-only; the view code builds them, so mypy
checks every field, and ``paiju schema`` exports them as JSON Schema."""

# No ``from __future__ import annotations`` here: ``TypedDict`` needs evaluated annotations
# to tell ``NotRequired`` keys (Python 3.11 counts a string annotation as required).
from typing import Any, NotRequired, TypedDict


class PlayerView(TypedDict):
    """One seat before the showdown: how many tiles it holds and whether it has submitted."""

    seat: int
    tiles: int
    submitted: bool


class ArrangementView(TypedDict):
    """An arrangement: its notation, the chain as laid (``[tile, [left, right]]`` pairs) and
    the leftover tiles (empty for ``bust``)."""

    text: str
    chain: list[Any]
    leftover: list[str]


class ScoredView(TypedDict):
    """The optimal arrangement the hand was scored by (``scoring = "best"``)."""

    chain: list[Any]
    leftover: list[str]


class RevealView(TypedDict):
    """One seat at the showdown."""

    seat: int
    tiles: list[str]
    submitted: ArrangementView
    category: str
    key: list[int]
    points: int | None
    score: int
    scored: NotRequired[ScoredView]


class ResultView(TypedDict):
    """The showdown: every hand, the pairwise payments (``payments[a][b]``: what ``a`` pays
    ``b``) and the net scores."""

    seats: list[RevealView]
    payments: list[list[int]]
    scores: list[int]


class DragonView(TypedDict):
    """What a seat (``seat`` null: a spectator) sees of a dragon hand."""

    variant: str
    hand_index: int
    seat: int | None
    seats: int
    phase: str
    options: dict[str, Any]
    to_act: list[int]
    hand: list[str]
    my_submission: str | None
    best: str | None
    players: list[PlayerView]
    legal: list[str]
    legal_complete: bool
    result: NotRequired[ResultView]


class SubmittedEvent(TypedDict):
    """``submitted``: a seat has submitted its arrangement (which one stays secret)."""

    seat: int


class ShowdownEvent(TypedDict):
    """``showdown``: the last seat submitted; the net scores of the hand."""

    scores: list[int]


EVENTS: dict[str, Any] = {"submitted": SubmittedEvent, "showdown": ShowdownEvent}

ERROR_CODES: dict[str, str] = {
    "already_submitted": "a seat that has submitted its arrangement acts again",
    "not_bust": "bust declared by a hand that can lay a chain of 6",
    "wrong_tile_count": "an arrangement that does not use all 8 tiles",
    "chain_length": "a chain of other than 6 or 7 tiles",
    "not_your_tiles": "an arrangement with tiles that are not the hand's",
    "halves_do_not_match": "a chain whose touching halves differ",
}
