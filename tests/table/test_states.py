"""The state codec of mid-hand snapshots: every real engine's states round-trip, and stored
data can name no class outside the engine's own package."""

from __future__ import annotations

import gc
import json
import math
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.registry import get_engine, get_variant
from paiju.table.match import Match
from paiju.table.states import (
    StateCodecError,
    StateReader,
    StateWriter,
    encode_state,
    reader_for,
)


@pytest.mark.parametrize("variant", ["mcr", "shengji", "diu", "dragon"])
def test_every_state_of_a_played_hand_round_trips(variant: str) -> None:
    engine = get_engine(variant)
    bots = get_variant(variant)
    match = Match(engine, engine.normalize_options({}), "codec")
    state = match.deal()
    reader = StateReader(engine)
    players = [bots.make_bot(1, SeededRng(str(s))) for s in range(len(match.totals))]
    steps = 0
    while not engine.is_terminal(state) and steps < 400:
        text = json.dumps(encode_state(state))
        assert reader.decode(json.loads(text)) == state
        seat = min(engine.to_act(state))
        action = players[seat].choose(engine.view(state, seat))
        state = engine.apply(state, seat, engine.parse_action(action)).state
        steps += 1
    assert steps > 3


@pytest.mark.parametrize(
    "data",
    [
        {"D": "subprocess:Popen", "F": []},
        {"D": "paiju.server.config:ServerConfig", "F": []},
        {"D": "paiju.engines.mcr.state:NoSuchThing", "F": []},
        {"D": "paiju.engines.dragon.tiles:tile_code", "F": []},  # not a dataclass
        {"X": 1},
        {"D": "paiju.engines.dragon.state:DragonState", "F": [1]},  # wrong field count
    ],
)
def test_data_naming_other_classes_is_refused(data: object) -> None:
    with pytest.raises(StateCodecError):
        StateReader(get_engine("dragon")).decode(data)


def test_other_values_are_refused_when_written() -> None:
    with pytest.raises(StateCodecError):
        encode_state(object())
    assert encode_state({"a": [1, (2, frozenset({3}))]}) == {
        "M": [["a", {"L": [1, [2, {"S": [3]}]]}]]
    }


def test_rooms_of_one_variant_share_a_reader_that_still_refuses_what_it_refused() -> None:
    dragon, mcr = get_engine("dragon"), get_engine("mcr")
    reader = reader_for(dragon)
    assert reader_for(get_engine("dragon")) is reader
    assert reader_for(mcr) is not reader and reader_for(mcr).package == "paiju.engines.mcr."
    # A class read once for dragon does not open the door to another variant's classes.
    match = Match(mcr, mcr.normalize_options({}), "codec")
    mcr_state = json.loads(json.dumps(encode_state(match.deal())))
    assert reader_for(mcr).decode(mcr_state) == StateReader(mcr).decode(mcr_state)
    with pytest.raises(StateCodecError):
        reader.decode(mcr_state)
    with pytest.raises(StateCodecError):  # and a refusal is not remembered as a class
        reader.decode({"D": "subprocess:Popen", "F": []})
    with pytest.raises(StateCodecError):
        reader.decode({"D": "subprocess:Popen", "F": []})


@dataclass(frozen=True)
class Odds:
    """A state holding floats, as an engine's might."""

    odds: tuple[float, ...]
    weight: float


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_float_that_json_cannot_hold_is_refused_wherever_it_is(bad: float) -> None:
    # The ledger does not search a snapshot's state for a NaN: the codec must refuse it.
    for value in (bad, (1, bad), Odds((0.5, bad), 1.0), Odds((0.5,), bad), ((1,), (2.0, bad)),
                  frozenset({bad}), [bad], {"k": bad}):
        with pytest.raises(StateCodecError):
            encode_state(value)


def test_finite_floats_are_written_as_themselves() -> None:
    assert encode_state(Odds((0.5, 1, -2.25), 1e-7)) == {
        "D": "tests.table.test_states:Odds", "F": [[0.5, 1, -2.25], 1e-7]}


def played_states(variant: str, hands: int) -> list[Any]:
    """Every state of ``hands`` hands of level-1 bots, one after the other."""
    engine = get_engine(variant)
    bots = get_variant(variant)
    options = engine.normalize_options({})
    states = []
    for hand in range(hands):
        match = Match(engine, options, f"writer/{hand}")
        state = match.deal()
        players = [bots.make_bot(1, SeededRng(f"{hand}/{s}")) for s in range(len(match.totals))]
        while not engine.is_terminal(state) and len(states) < 300 * (hand + 1):
            states.append(state)
            seat = min(engine.to_act(state))
            action = players[seat].choose(engine.view(state, seat))
            state = engine.apply(state, seat, engine.parse_action(action)).state
        states.append(state)
    return states


@pytest.mark.parametrize("variant", ["mcr", "shengji", "diu", "dragon"])
@pytest.mark.parametrize("every", [1, 2, 3])
def test_a_writer_writes_every_state_as_a_fresh_encoding_does(variant: str, every: int) -> None:
    # One writer for a table's states in turn (every ``every``-th, as snapshots are taken,
    # across hands): each is written to the same data as by itself.
    writer = StateWriter()
    for state in played_states(variant, 2)[::every]:
        assert writer.write(state) == encode_state(state)


@dataclass(frozen=True)
class Trick:
    cards: tuple[str, ...]
    winner: int


@dataclass(frozen=True)
class Table:
    tricks: tuple[Trick, ...]
    scores: Any = ()


@dataclass
class Loose:
    """A dataclass that is not frozen: its fields can be set again."""

    cards: tuple[str, ...]


def test_a_part_that_stayed_the_same_object_is_not_written_again() -> None:
    writer = StateWriter()
    first, second = Trick(("3s", "4s"), 0), Trick(("5h", "6h"), 1)
    tricks = (first,)
    old = writer.write(Table(tricks))
    again = writer.write(Table(tricks))  # the same tricks (a play, no trick ended)
    new = writer.write(Table((first, second)))
    assert new == encode_state(Table((first, second)))
    assert again["F"][0] is old["F"][0]
    # The trick is still the object written two states ago (kept with the tuple around it).
    assert new["F"][0][0] is old["F"][0][0]
    # An equal part that is another object is written again.
    assert writer.write(Table((Trick(("3s", "4s"), 0),)))["F"][0][0] is not old["F"][0][0]


@pytest.mark.parametrize("changing", [
    lambda: [1, 2], lambda: {"a": 1}, lambda: {1, 2}, lambda: Loose(("3s",)),
    lambda: (Loose(("3s",)),),
])
def test_a_part_that_can_change_is_written_again(changing: Callable[[], Any]) -> None:
    # A list, dict, set or dataclass that is not frozen can change in place while it stays
    # the same object: neither it nor a part holding it is kept.
    part = changing()
    state = Table((Trick(("3s",), 0),), (part,))
    writer = StateWriter()
    writer.write(state)
    mutate(part)
    assert writer.write(state) == encode_state(state)


def mutate(part: Any) -> None:
    if isinstance(part, list):
        part.append(3)
    elif isinstance(part, dict):
        part["b"] = 2
    elif isinstance(part, set):
        part.add(3)
    elif isinstance(part, Loose):
        part.cards = ("4s",)
    else:
        part[0].cards = ("4s",)


def test_a_writer_keeps_only_the_last_states_parts() -> None:
    writer = StateWriter()
    trick = Trick(("3s",), 0)
    gone = weakref.ref(trick)
    writer.write(Table((trick,)))
    writer.write(Table((Trick(("4s",), 1),)))
    del trick
    gc.collect()
    assert gone() is None


def test_a_writer_refuses_what_encode_state_refuses() -> None:
    writer = StateWriter()
    for bad in (Odds((0.5, math.nan), 1.0), (object(),), Table((), (math.inf,))):
        with pytest.raises(StateCodecError):
            writer.write(bad)
    assert writer.write(Odds((0.5, 1), 2.0)) == encode_state(Odds((0.5, 1), 2.0))
