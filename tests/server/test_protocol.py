"""Parsing client frames: anything at all gets a model or a typed error, never a crash."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.errors import GameError
from paiju.server.protocol import PROTOCOL_VERSION, Act, Hello, JoinRoom
from paiju.server.wire import parse_frame

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
types = st.sampled_from(["hello", "join", "resume", "ready", "act", "leave", "ping", "x", ""])


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        json_values,
        st.dictionaries(st.just("type"), types).flatmap(
            lambda base: st.dictionaries(
                st.sampled_from(
                    [
                        "room",
                        "name",
                        "version",
                        "action",
                        "token",
                        "protocol_version",
                        "seat",
                        "spectate",
                    ]
                ),
                json_values,
                max_size=4,
            ).map(lambda extra: {**extra, **base})
        ),
    )
)
def test_any_json_is_a_model_or_a_typed_error(value: object) -> None:
    try:
        parse_frame(json.dumps(value))
    except GameError as exc:
        assert exc.code in {"malformed_json", "invalid_message"}
        assert exc.message


@settings(max_examples=200)
@given(st.binary(max_size=50))
def test_any_bytes_are_a_model_or_a_typed_error(frame: bytes) -> None:
    try:
        parse_frame(frame)
    except GameError as exc:
        assert exc.code in {"malformed_json", "invalid_message"}


@pytest.mark.parametrize(
    ("frame", "model"),
    [
        ({"type": "hello", "protocol_version": PROTOCOL_VERSION}, Hello),
        ({"type": "join", "room": "abc-1", "name": "Mei"}, JoinRoom),
        ({"type": "act", "version": 3, "action": "bust"}, Act),
    ],
)
def test_valid_frames_parse_to_their_models(frame: dict[str, object], model: type) -> None:
    assert isinstance(parse_frame(json.dumps(frame)), model)


def test_room_ids_are_restricted_to_safe_characters() -> None:
    with pytest.raises(GameError) as info:
        parse_frame(json.dumps({"type": "join", "room": "../etc"}))
    assert info.value.code == "invalid_message" and "room" in info.value.message
