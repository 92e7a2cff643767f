"""What one seat (or a spectator) sees of an MCR hand, as JSON data.

A seat sees its own concealed tiles and drawn tile, the tiles that would complete its hand
(``winning_tiles``, a client hint), its own pending claim, everyone's exposed
melds, rivers and flowers, the wall count and whose turn it is. Concealed kongs of other seats
are face down (``{"kind": "angang", "hidden": true}``) and other hands are only counted until
the hand ends; then everything is revealed with each winner's fan breakdown and the scores.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple, cast

from paiju.core.seats import Seat
from paiju.engines.mcr.actions import ANGANG, BUGANG, CHI, DISCARD, Action, format_action
from paiju.engines.mcr.schema import (
    ClaimView,
    HiddenMeldView,
    LastDiscardView,
    McrView,
    MeldView,
    OptionsView,
    PlayerView,
    ResultView,
    WinView,
)
from paiju.engines.mcr.state import ANGANG_MELD, OVER, ROB, McrState, Meld, Rules, Win
from paiju.engines.mcr.tiles import Tile, tile_code

WIND_CODES = ("F1", "F2", "F3", "F4")


_CODES = tuple(tile_code(t) for t in range(42))


def _codes(tiles: tuple[Tile, ...]) -> list[str]:
    return list(_codes_of(tiles))


@lru_cache(maxsize=4096)
def _codes_of(tiles: tuple[Tile, ...]) -> tuple[str, ...]:
    # Rivers and hands change a tile at a time and are viewed by every seat: memoise.
    return tuple(_CODES[t] for t in tiles)


def meld_json(meld: Meld, *, reveal: bool) -> MeldView | HiddenMeldView:
    """One meld; a concealed kong is face down unless ``reveal``."""
    if meld.kind == ANGANG_MELD and not reveal:
        return HiddenMeldView(hidden=True, kind=ANGANG_MELD)
    return MeldView(
        kind=meld.kind, offer=meld.offer, tile=tile_code(meld.tile), tiles=_codes(meld.tiles())
    )


def win_json(win: Win) -> WinView:
    """A winner's hand summary: tile, who paid as discarder, the fan breakdown."""
    return {
        "fans": [[name, points, count] for name, points, count in win.fans],
        "from": win.source,
        "robbed_kong": win.robbed,
        "seat": win.seat,
        "self_drawn": win.source is None,
        "tile": tile_code(win.tile),
        "total": win.total,
    }


def _player(state: McrState, seat: Seat, viewer: Seat | None) -> PlayerView:
    over = state.phase == OVER
    hand, flowers = state.hands[seat], state.flowers[seat]
    melds = [meld_json(m, reveal=over or seat == viewer) for m in state.melds[seat]]
    wind = WIND_CODES[state.seat_wind(seat)]
    discards = _codes(state.discards[seat])
    if over:  # (the same keys and the hand, in sorted order)
        return PlayerView(
            concealed_count=len(hand), discards=discards, flower_count=len(flowers),
            flowers=_codes(flowers), hand=_codes(hand), melds=melds, seat=seat, wind=wind,
        )
    return PlayerView(
        concealed_count=len(hand), discards=discards, flower_count=len(flowers),
        flowers=_codes(flowers), melds=melds, seat=seat, wind=wind,
    )


class PublicParts:
    """What every viewer of the last state viewed sees alike: each seat as the others see
    it, and the table's public facts (options, winds, wall, last discard, result); and what
    each seat's own view showed last of its hand, its winning tiles and its legal actions.

    A table builds every viewer's view of one state in a row, and a seat's public part
    (melds with concealed kongs face down, flowers, river, count of tiles) is the same in
    all of them but its own: it is built once per state, not once per viewer. Held by
    identity, for one state at a time (a state's instance dict is copied into the next
    state by ``evolve``, so the memo cannot live there); the parts are only read (encoded,
    digested), so a list may be shared by the views of several states."""

    def __init__(self) -> None:
        self.state: McrState | None = None
        self.players: list[PlayerView] = []
        self.facts: _Facts | None = None
        #: what every viewer's view of the state holds, seat-dependent keys left empty
        self.common: dict[str, Any] = {}
        # Per seat: what its public part was built from, and the part. An action changes one
        # or two seats' melds, river or tile count: the others' parts are kept from the last
        # state (equal inputs, equal part), not built again for every state, and a changed
        # part keeps the lists of the inputs that did not change. With each part: whether
        # the seat's own view differs from it (``_hides``), worked out with the part.
        self._made: list[tuple[_PartInputs, PlayerView, bool] | None] = [None] * 4
        # Per seat, for its own view: its hand and the hand's codes; its waits and their
        # codes; its legal actions (a set the state keeps) and their sorted texts. The hand
        # changes once or twice a round, the waits with the hand, the actions once a turn.
        self._hand: list[tuple[tuple[Tile, ...], list[str]] | None] = [None] * 4
        self._waits: list[tuple[frozenset[Tile], list[str]] | None] = [None] * 4
        self._legal: list[tuple[frozenset[Action], list[str]] | None] = [None] * 4
        # The empty lists of the parts (no melds, no flowers, an empty river: every seat
        # at a deal): one of each for all, not one per seat and key.
        self._no_melds: list[MeldView | HiddenMeldView] = []
        self._no_tiles: list[str] = []
        # Outside claim windows, who is to act as every viewer sees it: the set the engine
        # gives (one kept set per seat in turn) and its sorted list, shared by the views.
        self._to_act: tuple[frozenset[Seat], list[Seat]] | None = None
        #: in a claim window, the claim as every viewer that has not answered sees it
        self.claim: ClaimView | None = None

    def of(self, state: McrState) -> PublicParts:
        if self.state is not state:
            self.state = state
            self.players = self._parts(state)
            facts = self.facts = _facts(state, self.facts)
            # Every viewer's view begins as a copy of this one (its own keys then set, in
            # place, so the keys keep their order): cheaper than writing each out again.
            # Every key a view of the state may hold is here, in sorted order (a seat's own
            # keys, ``None`` here, are taken out of a spectator's view): every dict of a view
            # is built with its keys sorted, as the table writes them, and a sorted writing
            # of dicts already in order costs a fifth less.
            common: dict[str, Any] = {}
            if state.window is not None:
                common["claim"] = None
            common |= {
                "current": state.current,
                "dealer": state.order[0],
                "drawn": None,
                "hand": None,
                "hand_index": state.hand_index,
                "last_discard": facts.last_discard,
                "legal": [],
                "legal_complete": True,
                "options": facts.options,
                "order": facts.order,
                "phase": state.phase,
                "players": self.players,
                "prevalent_wind": facts.prevalent_wind,
            }
            if facts.result is not None:
                common["result"] = facts.result
            common |= {
                "seat": None,
                "to_act": [],
                "variant": "mcr",
                "wall_count": len(state.wall),
                "winning_tiles": None,
            }
            self.common = common
            window = state.window
            self.claim = None if window is None else ClaimView(
                {"answered": None, "from": window.source, "kind": state.phase,
                 "tile": _CODES[window.tile]}
            )
        return self

    def to_act(self, to_act: frozenset[Seat]) -> list[Seat]:
        """``sorted(to_act)`` outside a claim window (the same for every viewer)."""
        kept = self._to_act
        if kept is not None and kept[0] is to_act:
            return kept[1]
        listed = sorted(to_act)
        self._to_act = (to_act, listed)
        return listed

    def _parts(self, state: McrState) -> list[PlayerView]:
        """Every seat's part as the others see it: the one made last if it was made from
        equal inputs (the same tuples, most often), else a new one (``_part``)."""
        # (one loop over the four seats, the state's fields read once: most parts are kept)
        over = state.phase == OVER
        hands, melds, flowers, discards = state.hands, state.melds, state.flowers, state.discards
        order, made_all = state.order, self._made
        parts = []
        for seat in range(4):
            hand = hands[seat]
            inputs: _PartInputs = (
                melds[seat], flowers[seat], discards[seat],
                hand if over else len(hand), order.index(seat),
            )
            made = made_all[seat]
            if made is not None and made[0] == inputs:
                parts.append(made[1])
            else:
                parts.append(self._part(state, seat, inputs))
        return parts

    def _part(self, state: McrState, seat: Seat, inputs: _PartInputs) -> PlayerView:
        """A new part of ``seat`` from ``inputs``, taking what it can from the last one."""
        over = state.phase == OVER
        made = self._made[seat]
        if made is None or over or not isinstance(made[0][3], int):
            part = _player(state, seat, None)
        else:
            part = _renewed(seat, inputs, made[0], made[1])
        if not part["melds"]:
            part["melds"] = self._no_melds
        if not part["flowers"]:
            part["flowers"] = self._no_tiles
        if not part["discards"]:
            part["discards"] = self._no_tiles
        self._made[seat] = (inputs, part, _hides(state, seat))
        return part

    def hides(self, seat: Seat) -> bool:
        """``_hides`` of ``seat`` in the state of ``of`` (equal inputs of the part, equal
        answer: its melds and whether the hand is over are among them)."""
        made = self._made[seat]
        assert made is not None
        return made[2]

    def hand_codes(self, state: McrState, seat: Seat) -> list[str]:
        """``_codes`` of ``seat``'s hand."""
        hand = state.hands[seat]
        kept = self._hand[seat]
        if kept is not None and (kept[0] is hand or kept[0] == hand):
            return kept[1]
        # Not through ``_codes_of``: the memo above keeps the list, and a hand's codes in
        # that cache too would stay there (thousands of tables' hands) long after.
        codes = [_CODES[t] for t in hand]
        self._hand[seat] = (hand, codes)
        return codes

    def winning_tiles(self, state: McrState, seat: Seat) -> list[str] | None:
        """``_winning_tiles`` of ``seat``."""
        if len(state.hands[seat]) % 3 != 1:
            return None
        waits = state.waits[seat]
        if not waits:
            # Most hands: a new empty list costs less than the memo's test, and keeping
            # none saves an idle seat two objects.
            self._waits[seat] = None
            return []
        kept = self._waits[seat]
        if kept is not None and (kept[0] is waits or kept[0] == waits):
            return kept[1]
        codes = [_CODES[t] for t in sorted(waits)]
        self._waits[seat] = (waits, codes)
        return codes

    def legal_texts(self, seat: Seat, legal: frozenset[Action]) -> list[str]:
        """The sorted notation of ``legal``, the legal actions of ``seat``."""
        if not legal:
            # Not asked: the texts of its last decision are let go (with its set of
            # actions, some 900 bytes a seat that a busy table would keep for nothing).
            self._legal[seat] = None
            return []
        kept = self._legal[seat]
        if kept is not None and kept[0] is legal:  # (equal sets: rare, and slow to compare)
            return kept[1]
        # (``_text`` written out: a call per action costs as much as the rest)
        texts = sorted(
            [a.kind if a.tile is None else _TILE_TEXTS[a.kind][a.tile] for a in legal]
        )
        self._legal[seat] = (legal, texts)
        return texts


#: ``format_action`` of every action with a playing tile, by kind and tile: read without
#: hashing the action (a Python ``__hash__``, most of what a memo lookup costs).
_TILE_TEXTS = {
    kind: tuple(format_action(Action(kind, t)) for t in range(len(_CODES)))
    for kind in (DISCARD, ANGANG, BUGANG, CHI)
}


def _text(action: Action) -> str:
    """``format_action(action)`` of a legal action."""
    if action.tile is None:
        return action.kind
    return _TILE_TEXTS[action.kind][action.tile]


def _renewed(
    seat: Seat, inputs: _PartInputs, was: _PartInputs, part: PlayerView
) -> PlayerView:
    """The part of ``seat`` from ``inputs`` while the hand is not over, taking from ``part``
    (made from ``was``, also before the end) the lists of the inputs that are equal."""
    melds, flowers, discards, held, wind = inputs
    assert isinstance(held, int)  # (a count of tiles: the hand is not over)
    return PlayerView(
        concealed_count=held,
        # (a river that changed is new: a miss of ``_codes_of``, twice the cost of its codes)
        discards=_river(discards, was[2], part["discards"]),
        flower_count=len(flowers),
        flowers=part["flowers"] if flowers == was[1] else _codes(flowers),
        melds=part["melds"] if melds == was[0] else [meld_json(m, reveal=False) for m in melds],
        seat=seat,
        wind=WIND_CODES[wind],
    )


def _river(discards: tuple[Tile, ...], was: tuple[Tile, ...], codes: list[str]) -> list[str]:
    """The codes of the river ``discards``, given ``codes``, those of the river ``was``."""
    if discards == was:
        return codes
    if len(discards) == len(was) + 1 and discards[:-1] == was:
        # A river grows by one discard at a time: the codes so far and the new one.
        return [*codes, _CODES[discards[-1]]]
    return [_CODES[t] for t in discards]


#: What a seat's public part depends on: its melds, flowers and river, its hand once the
#: hand is over (its tile count before: an ``int`` never equals a tuple) and its wind.
_PartInputs = tuple[
    tuple[Meld, ...], tuple[Tile, ...], tuple[Tile, ...], tuple[Tile, ...] | int, int
]


class _Facts(NamedTuple):
    options: OptionsView
    prevalent_wind: str
    order: list[Seat]
    last_discard: LastDiscardView | None
    result: ResultView | None
    # what the facts above were made from (kept while the next state's are the same)
    rules: Rules
    seats: tuple[Seat, ...]
    marked: tuple[Seat, Tile] | None


def _facts(state: McrState, last: _Facts | None = None) -> _Facts:
    """The public facts of ``state``; those of ``last`` (the facts of the state viewed
    before) that are equal, kept (a table's states share the options and order all hand,
    and a marked discard for a few states)."""
    rules = state.rules
    marked = _marked(state)
    if (
        last is not None
        and last.rules is rules
        and last.seats is state.order
        and last.marked == marked
        and last.result is None
        and state.phase != OVER
        and last.prevalent_wind is WIND_CODES[state.prevalent]
    ):
        return last  # (most states: the same facts as the last one's)
    options = OptionsView(
        claim_prompts=rules.claim_prompts,
        concealed_and_melded_kong_5=rules.concealed_and_melded_kong_5,
        min_fan=rules.min_fan,
        multiple_win=rules.multiple_win,
        rounds=rules.rounds,
    ) if last is None or last.rules is not rules else last.options
    order = list(state.order) if last is None or last.seats is not state.order else last.order
    if last is not None and last.marked == marked:
        last_discard = last.last_discard
    else:
        last_discard = None if marked is None else LastDiscardView(
            seat=marked[0], tile=_CODES[marked[1]]
        )
    result = None
    if state.phase == OVER:
        result = ResultView(
            exhaustive_draw=not state.wins,
            scores=list(state.result),
            wins=[win_json(w) for w in state.wins],
        )
    return _Facts(
        options, WIND_CODES[state.prevalent], order, last_discard, result,
        rules, state.order, marked,
    )


def _marked(state: McrState) -> tuple[Seat, Tile] | None:
    """The seat and tile of ``_last_discard``."""
    window = state.window
    if window is not None and state.phase != ROB:
        return window.source, window.tile
    return state.last_discard


def _hides(state: McrState, seat: Seat) -> bool:
    """Whether others see ``seat``'s part otherwise than the seat itself: only a concealed
    kong, face down to the others until the hand is over (else the seat's own view shares
    the part the others see)."""
    return state.phase != OVER and any(m.kind == ANGANG_MELD for m in state.melds[seat])


def _visible_to_act(state: McrState, viewer: Seat | None, to_act: frozenset[Seat]) -> list[int]:
    """Whose decision the table waits for, as far as ``viewer`` may know.

    In a claim window (by default) only the seats with a legal claim are asked; telling
    everyone who they are would reveal that those hands can use the tile, so a viewer sees
    only itself there. Under ``claim_prompts = "all"`` the same holds, so that who has
    already answered stays private.
    """
    if state.window is None:
        return sorted(to_act)
    return [viewer] if viewer is not None and viewer in to_act else []


def _winning_tiles(state: McrState, viewer: Seat) -> list[str] | None:
    """The client hint: every tile that would complete ``viewer``'s hand (8 fans or not),
    while it holds 3n+1 tiles; ``None`` while it holds 3n+2 (its own turn)."""
    if len(state.hands[viewer]) % 3 != 1:
        return None
    return [_CODES[t] for t in sorted(state.waits[viewer])]


def _last_discard(state: McrState) -> LastDiscardView | None:
    """The discard a client marks: the one a claim window is open on, else the newest one
    lying unclaimed in a river (public facts both)."""
    window = state.window
    if window is not None and state.phase != ROB:
        return LastDiscardView(seat=window.source, tile=tile_code(window.tile))
    if state.last_discard is None:
        return None
    seat, tile = state.last_discard
    return LastDiscardView(seat=seat, tile=tile_code(tile))


def build_view(
    state: McrState,
    viewer: Seat | None,
    to_act: frozenset[Seat],
    legal: frozenset[Action],
    public_parts: PublicParts | None = None,
) -> McrView:
    """The JSON view of ``state`` for ``viewer`` (None = spectator). Every listed action is
    all there is (``legal_complete``): MCR decisions are small. ``public_parts``: the
    engine's memo of the last state's shared parts (one engine per table; none: built here)."""
    public = (public_parts or PublicParts()).of(state)
    view = cast(McrView, public.common.copy())
    view["seat"] = viewer
    window = state.window
    if window is None:
        view["to_act"] = public.to_act(to_act)
    else:  # (``_visible_to_act`` in a claim window)
        view["to_act"] = [viewer] if viewer is not None and viewer in to_act else []
    if viewer is not None:
        if public.hides(viewer):
            view["players"] = [
                _player(state, s, viewer) if s == viewer else p
                for s, p in enumerate(public.players)
            ]
        view["legal"] = public.legal_texts(viewer, legal)
        view["hand"] = public.hand_codes(state, viewer)
        view["winning_tiles"] = public.winning_tiles(state, viewer)
        own_turn = state.current == viewer and state.drawn is not None and state.phase == "turn"
        view["drawn"] = _CODES[state.drawn] if own_turn and state.drawn is not None else None
    else:
        del view["drawn"], view["hand"], view["winning_tiles"]
    if window is not None:
        mine = None
        for seat, answer in window.responses:
            if seat == viewer:
                mine = _text(answer)
        # (a viewer that has not answered sees the claim all such viewers see)
        shared = public.claim
        view["claim"] = shared if mine is None and shared is not None else ClaimView(
            {"answered": mine, "from": window.source, "kind": state.phase,
             "tile": _CODES[window.tile]}
        )
    return view
