"""``draw`` with the caller's other changes folded into its copy of the state."""

from __future__ import annotations

from paiju.core.rng import SeededRng
from paiju.engines.base import Event, MatchInfo
from paiju.engines.mcr.engine import McrEngine
from paiju.engines.mcr.state import OVER, McrState, evolve
from paiju.engines.mcr.wall import draw, put

ENGINE = McrEngine()


def dealt(seed: str) -> McrState:
    opts = ENGINE.normalize_options({})
    return ENGINE.initial_state(opts, SeededRng(seed), MatchInfo(0, (0,) * 4))


def test_changes_given_to_the_draw_equal_the_same_changes_made_before_it() -> None:
    state = dealt("wall/1")
    source = state.current
    rivers = put(state.discards, source, (*state.discards[source], 27))
    seat = state.next_seat(source)
    events_before: list[Event] = []
    events_folded: list[Event] = []
    before = draw(evolve(state, discards=rivers, last_discard=(source, 27)), seat, events_before)
    folded = draw(state, seat, events_folded, discards=rivers, last_discard=(source, 27))
    assert folded == before and folded.discards == rivers and folded.current == seat
    assert events_folded == events_before


def test_changes_given_to_a_draw_from_an_empty_wall_are_made_as_the_hand_ends() -> None:
    state = evolve(dealt("wall/2"), wall=())
    source = state.current
    rivers = put(state.discards, source, (*state.discards[source], 27))
    seat = state.next_seat(source)
    events: list[Event] = []
    over = draw(state, seat, events, discards=rivers, last_discard=(source, 27))
    assert over.phase == OVER and over.discards == rivers and over.last_discard == (source, 27)
    assert over.current == source and [e.kind for e in events] == ["exhausted"]
