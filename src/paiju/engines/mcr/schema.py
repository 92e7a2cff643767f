"""The MCR view, event data and error codes as types (docs/rules/mcr.md, "What a client sees").

``TypedDict``s keep the engine stdlib-only; the view code builds them, so mypy checks every
field, and ``paiju schema`` exports them as JSON Schema. Keys that are Python keywords
(``from``) use the functional syntax.
"""

# No ``from __future__ import annotations`` here: ``TypedDict`` needs evaluated annotations
# to tell ``NotRequired`` keys (Python 3.11 counts a string annotation as required).
from typing import Any, NotRequired, TypedDict


class MeldView(TypedDict):
    """An exposed meld, or a concealed kong shown to its owner (and to all after the hand)."""

    kind: str
    tile: str
    offer: int
    tiles: list[str]


class HiddenMeldView(TypedDict):
    """Another seat's concealed kong while the hand lasts: face down."""

    kind: str
    hidden: bool


class PlayerView(TypedDict):
    """One seat as the viewer sees it; ``hand`` only once the hand is over."""

    seat: int
    wind: str
    melds: list[MeldView | HiddenMeldView]
    flowers: list[str]
    flower_count: int
    discards: list[str]
    concealed_count: int
    hand: NotRequired[list[str]]


ClaimView = TypedDict(
    "ClaimView",
    {
        # The tile a claim window is open on, who gave it, the window's kind ("claim" for a
        # discard, "rob" for an added kong) and the viewer's own pending answer.
        "tile": str,
        "from": int,
        "kind": str,
        "answered": str | None,
    },
)

WinView = TypedDict(
    "WinView",
    {
        "seat": int,
        "tile": str,
        "from": int | None,
        "self_drawn": bool,
        "robbed_kong": bool,
        "fans": list[list[Any]],
        "total": int,
    },
)


class ResultView(TypedDict):
    """The hand's outcome (phase ``over``)."""

    wins: list[WinView]
    scores: list[int]
    exhaustive_draw: bool


class OptionsView(TypedDict):
    """The table options a hand is played under (public: every player may know them)."""

    multiple_win: bool
    concealed_and_melded_kong_5: bool
    min_fan: int
    rounds: int
    claim_prompts: str


class LastDiscardView(TypedDict):
    """The discard a client marks as the last one: who discarded it and the tile."""

    seat: int
    tile: str


class McrView(TypedDict):
    """What a seat (``seat`` null: a spectator) sees of an MCR hand."""

    variant: str
    options: OptionsView
    seat: int | None
    phase: str
    hand_index: int
    prevalent_wind: str
    dealer: int
    order: list[int]
    current: int
    to_act: list[int]
    wall_count: int
    players: list[PlayerView]
    legal: list[str]
    legal_complete: bool
    last_discard: LastDiscardView | None
    hand: NotRequired[list[str]]
    winning_tiles: NotRequired[list[str] | None]
    drawn: NotRequired[str | None]
    claim: NotRequired[ClaimView]
    result: NotRequired[ResultView]


class SeatEvent(TypedDict):
    """``angang``: a seat made a concealed kong (which tile is the maker's secret)."""

    seat: int


class TileEvent(TypedDict):
    """``discard``, ``bugang``, ``angang_tile`` (to the maker only), ``drawn`` (to the drawer
    only): a seat and a tile."""

    seat: int
    tile: str


class DrawEvent(TypedDict):
    """``draw``: a seat drew from the wall (a replacement after a kong or flower or not)."""

    seat: int
    replacement: bool


class FlowerEvent(TypedDict):
    """``flower``: a seat set a flower aside."""

    seat: int
    flower: str


class ClaimEvent(TypedDict):
    """``claim``: the claimer's own answer in a window (to that seat only)."""

    seat: int
    action: str


#: ``chi``, ``peng``, ``gang``: a claim won; ``meld`` is the claim's notation.
MeldEvent = TypedDict("MeldEvent", {"seat": int, "from": int, "tile": str, "meld": str})

#: ``hu``: a seat won (``from`` null when self-drawn), with its fan total.
HuEvent = TypedDict("HuEvent", {"seat": int, "tile": str, "from": int | None, "total": int})


class NoData(TypedDict):
    """``exhausted``: the wall ran out with no winner."""


EVENTS: dict[str, Any] = {
    "discard": TileEvent,
    "angang": SeatEvent,
    "angang_tile": TileEvent,
    "bugang": TileEvent,
    "draw": DrawEvent,
    "drawn": TileEvent,
    "flower": FlowerEvent,
    "claim": ClaimEvent,
    "chi": MeldEvent,
    "peng": MeldEvent,
    "gang": MeldEvent,
    "hu": HuEvent,
    "exhausted": NoData,
}

ERROR_CODES: dict[str, str] = {
    "bad_tile": "the text names no tile, or a flower where flowers cannot be played",
    "no_discard_to_claim": "a claim (chi, peng, gang, pass) outside a claim window",
    "tile_not_in_hand": "a discard of a tile the hand does not hold",
    "not_a_winning_hand": "hu with a hand that is not complete with 8 fans",
    "no_replacement_tile": "a kong when the wall has no replacement tile left",
    "kong_not_possible": "angang or bugang without the tiles for it",
    "only_hu_on_added_kong": "anything but hu or pass while an added kong may be robbed",
    "chi_only_from_left": "chi of a tile not discarded by the seat on the left",
    "chow_not_possible": "chi without the two tiles it needs",
    "last_tile_hu_only": "a claim other than hu on the last discard",
    "claim_not_possible": "peng or gang without the tiles for it",
}
