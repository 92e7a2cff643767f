"""The chain's canonical JSON: orjson's fast text is the standard library's, byte for byte, for
any data; what the standard library refuses (NaN, infinities) is refused."""

from __future__ import annotations

import dataclasses
import enum
import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.table.ledger import Entry, Ledger, _long_number, canonical
from paiju.table.phases import PLAYING


def standard(data: Any) -> str:
    """The canonical form as it was defined (docs/fairness.md): the standard library's."""
    return json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


class Kind(enum.IntEnum):
    ONE = 1


finite = st.floats(allow_nan=False, allow_infinity=False)
tiny = st.floats(min_value=-1e-4, max_value=1e-4, allow_nan=False)  # written "1e-05" by json
text = st.text()  # any code point, astral ones and controls included
scalars = (
    st.none() | st.booleans() | st.integers() | st.integers(-(2**70), 2**70) | finite | tiny
    | text | st.sampled_from([PLAYING, Kind.ONE])
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner)
    | st.dictionaries(text, inner, max_size=5),
    max_leaves=40,
)


@settings(max_examples=600, deadline=None)
@given(st.dictionaries(text, values, max_size=6))
def test_the_fast_text_is_the_standard_librarys(data: dict[str, Any]) -> None:
    assert canonical(data) == standard(data)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers() | st.booleans(), values, max_size=4))
def test_keys_that_are_not_text_are_written_as_the_standard_library_writes_them(
    data: dict[Any, Any],
) -> None:
    try:
        expected = standard(data)
    except TypeError:  # keys of mixed types cannot be sorted
        with pytest.raises(TypeError):
            canonical(data)
    else:
        assert canonical(data) == expected


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, -math.nan])
def test_nan_and_infinities_are_refused_wherever_they_are(bad: float) -> None:
    for data in ({"x": bad}, {"x": [None, 1, ("a", bad)]}, {"x": None, "y": {"z": bad}}):
        with pytest.raises(ValueError):
            canonical(data)


def test_what_json_cannot_hold_is_refused() -> None:
    from dataclasses import dataclass

    @dataclass
    class Point:
        x: int

    with pytest.raises(TypeError):
        canonical({"p": Point(1)})
    with pytest.raises(TypeError):
        canonical({"s": {1, 2}})


def test_a_chain_entry_hashes_the_same_text() -> None:
    # The vector of docs/fairness.md's first entry is unchanged by the faster writer.
    body = {"b": [1, 2.5, None, "é"], "a": {"y": True, "x": 1e-05}}
    entry = Ledger().append("room", body)
    assert entry.body == standard(body)
    assert entry.intact()


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(text, values, max_size=6))
def test_an_entry_reads_back_what_the_standard_library_reads(data: dict[str, Any]) -> None:
    entry = Ledger().append("room", data)
    assert entry.data() == json.loads(entry.body)


@pytest.mark.parametrize("body", ['{"seed": 123456789012345678901234567890}', '{"s": "\\ud800"}'])
def test_what_orjson_refuses_to_read_is_read_as_the_standard_library_reads_it(body: str) -> None:
    entry = Entry(1, "room", body, "prev", "hash")
    assert entry.data() == json.loads(body)


@pytest.mark.parametrize(
    ("body", "long"),
    [
        ('{"n": 123456789012345678}', False),  # 18 digits: orjson reads it exactly
        ('{"n": 1234567890123456789}', True),  # 19: may be beyond 64 bits
        ('{"n": -18446744073709551616}', True),
        ('{"a": 123456789, "b": 1234567890}', False),  # runs are counted apart
        ('{"f": 0.0000000000000000001}', True),  # any run counts, zeros too
        ('{"s": "١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨٩٠"}', False),  # not JSON number digits
        ('{"s": "\ud800 1234567890123456789"}', True),  # a lone surrogate is no obstacle
    ],
)
def test_a_long_run_of_digits_is_found_wherever_it_is(body: str, long: bool) -> None:
    assert _long_number(body) is long


def test_an_integer_beyond_64_bits_reads_back_exactly() -> None:
    body = '{"a": 18446744073709551616, "b": [-9223372036854775809], "c": 1}'
    assert Entry(1, "room", body, "prev", "hash").data() == {
        "a": 18446744073709551616, "b": [-9223372036854775809], "c": 1}


def test_stored_chains_keep_their_hashes() -> None:
    # Pinned: the hashes a snapshot and an action after it have had since the chain began
    # (the body holds nulls, negative numbers, floats, "e-" in a string and non-ASCII text);
    # a faster writer must not change a byte of them, or stored databases stop verifying.
    body = {
        "hand": 2, "totals": [-8, 24, -8, -8], "carry": {"dealer": 1},
        "hand_scores": [[-8, 24, -8, -8]], "seq": 12, "version": 31, "phase": PLAYING,
        "answered": [2], "client_seeds": {"0": "é-1e-5"}, "dealt": [["ab", "client"]],
        "genesis": "f" * 64, "seats": [{"seat": 0, "name": "Ñandú", "ready": True,
                                        "away": False}],
        "state": [{"D": "paiju.engines.mcr.state:Rules", "F": [False, False, 8, 4, "eligible"]},
                  [{"D": "paiju.engines.mcr.state:Meld", "F": ["chi", 21, 1]}, None],
                  [1.5, 0.25, -3.0], [[3, 4], []], {"S": [11, 2, 7]}],
    }
    action = {"hand": 2, "seq": 13, "seat": 0, "action": "play 21", "source": "player",
              "version": 32}
    for finite in ((), ("state",)):
        ledger = Ledger("c0ffee" * 10 + "abcd", 41)
        snapshot = ledger.append("snapshot", body, finite)
        after = ledger.append("action", action)
        assert snapshot.body == standard(body)
        assert (snapshot.n, snapshot.hash, after.hash) == (
            41,
            "cec70f988c1ba3c6ae6e8ee62f6be5f1ba53f35284ed7b2f1487ca459b18d6d1",
            "f31679ecdf4547121f9c3303eceb0c263dc337962ad79bafd1991744c29fc7d9",
        )


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(text, values, max_size=6), values)
def test_values_known_to_be_finite_are_written_alike(data: dict[str, Any], state: Any) -> None:
    data = {**data, "state": state}
    assert canonical(data, finite=("state",)) == standard(data)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_nan_outside_the_values_known_to_be_finite_is_refused(bad: float) -> None:
    # The state's nulls do not hide a NaN in another field; the others are still searched.
    for data in ({"state": [None], "carry": {"x": bad}}, {"state": None, "x": [None, bad]},
                 {"state": 1, "x": bad}):
        with pytest.raises(ValueError):
            canonical(data, finite=("state",))
        with pytest.raises(ValueError):
            Ledger().append("snapshot", data, ("state",))


def test_a_text_with_a_minus_but_no_exponent_is_written_fast_and_alike() -> None:
    data = {"a": -1, "b": "x-y", "c": [1e-07, -2.5e-05], "d": "e-mail"}
    assert canonical(data) == standard(data)


def test_an_entry_is_a_frozen_record_of_its_fields() -> None:
    entry = Entry(3, "action", "{}", "0" * 64, "f" * 64)
    assert (entry.n, entry.kind, entry.body, entry.prev, entry.hash) == (
        3, "action", "{}", "0" * 64, "f" * 64)
    assert entry == Entry(3, "action", "{}", "0" * 64, "f" * 64)
    assert entry != Entry(4, "action", "{}", "0" * 64, "f" * 64)
    assert len({entry, Entry(3, "action", "{}", "0" * 64, "f" * 64)}) == 1
    assert repr(entry).startswith("Entry(n=3, kind='action'")
    with pytest.raises(AttributeError):
        entry.n = 4  # type: ignore[misc]
    assert dataclasses.replace(entry, n=5).n == 5


def test_values_known_to_be_finite_that_orjson_refuses_are_written_by_the_standard_library(
) -> None:
    data = {"state": [2**70, None], "carry": {"x": "null"}}
    assert canonical(data, finite=("state",)) == standard(data)
    assert Ledger().append("snapshot", data, ("state",)).body == standard(data)


def test_a_null_outside_the_values_known_to_be_finite_is_looked_at() -> None:
    # The state's nulls are counted apart; a "null" elsewhere (here in a text, a false
    # alarm) sends the rest to the slower search, which finds nothing to refuse.
    data = {"state": [None, None], "name": "null", "x": [None]}
    assert canonical(data, finite=("state",)) == standard(data)
    assert canonical(data, finite=("state", "absent")) == standard(data)
    with pytest.raises(ValueError):
        canonical({**data, "x": [None, math.nan]}, finite=("state",))
