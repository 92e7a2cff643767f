"""The state codec of mid-hand snapshots: every real engine's states round-trip, and stored
data can name no class outside the engine's own package."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.registry import get_engine, get_variant
from paiju.table.match import Match
from paiju.table.states import StateCodecError, StateReader, encode_state, reader_for


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


@dataclass(frozen=True)
class Lone:
    """A dataclass of one field (read alone, not as a tuple of two or more)."""

    tile: int


@dataclass(frozen=True)
class Empty:
    """A dataclass of no field."""


@dataclass(frozen=True)
class Flat:
    """A dataclass of scalars only, which is copied without a walk."""

    kind: str
    tile: int
    open: bool
    offer: None


def test_dataclasses_of_any_number_of_fields_are_written_in_field_order() -> None:
    tag = "tests.table.test_states:"
    assert encode_state(Lone(7)) == {"D": tag + "Lone", "F": [7]}
    assert encode_state(Lone((1, 2))) == {"D": tag + "Lone", "F": [[1, 2]]}
    assert encode_state(Empty()) == {"D": tag + "Empty", "F": []}
    assert encode_state(Flat("peng", 17, True, None)) == {
        "D": tag + "Flat", "F": ["peng", 17, True, None]}
    # A field that is no scalar is walked: a float is checked, a set is sorted.
    assert encode_state(Flat("x", 1, False, frozenset({3, 12}))) == {  # type: ignore[arg-type]
        "D": tag + "Flat", "F": ["x", 1, False, {"S": [12, 3]}]}
    with pytest.raises(StateCodecError):
        encode_state(Lone(math.nan))  # type: ignore[arg-type]


def _json_order(items: list[object]) -> list[object]:
    """The order a set's items are stored in, by definition: their JSON text, keys sorted."""
    return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))


def test_sets_are_stored_in_the_order_of_their_items_json_text() -> None:
    # Integers by their text, not their value ("12" before "3"); negative ones too.
    assert encode_state(frozenset({3, 12, -1, 100, 0})) == {"S": [-1, 0, 100, 12, 3]}
    assert encode_state(frozenset()) == {"S": []}
    tag = "tests.table.test_states:"
    flats = frozenset({Flat("peng", 3, False, None), Flat("chi", 12, True, None),
                       Flat("chi", 2, False, None), Flat("é", 1, True, None)})
    stored = encode_state(flats)["S"]
    assert stored == _json_order([encode_state(f) for f in flats])
    # (The standard library's text: "é" as "\\u00e9", before any letter.)
    assert [f["F"][:2] for f in stored] == [["é", 1], ["chi", 12], ["chi", 2], ["peng", 3]]
    assert stored[0]["D"] == tag + "Flat"
    # Asked again (its items' texts now remembered), the same order.
    assert encode_state(flats)["S"] == stored
    mixed = frozenset({1, "1", Lone(2), (4, 5)})
    assert encode_state(mixed)["S"] == _json_order([encode_state(v) for v in mixed])


def test_a_remembered_text_is_never_another_values_with_an_equal_key() -> None:
    # True == 1 and hash(True) == hash(1): a set of ``Lone(1)`` is written after one of
    # ``Lone(True)`` was, each with its own text (and so its own order among others).
    tag = "tests.table.test_states:"
    assert encode_state(frozenset({Lone(True), Lone(0)}))["S"] == [  # type: ignore[arg-type]
        {"D": tag + "Lone", "F": [0]}, {"D": tag + "Lone", "F": [True]}]
    assert encode_state(frozenset({Lone(1), Lone(0)}))["S"] == [
        {"D": tag + "Lone", "F": [0]}, {"D": tag + "Lone", "F": [1]}]
    assert encode_state(frozenset({Lone(True), Lone(10)}))["S"] == [  # type: ignore[arg-type]
        {"D": tag + "Lone", "F": [10]}, {"D": tag + "Lone", "F": [True]}]
