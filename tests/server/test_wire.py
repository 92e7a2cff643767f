"""The encoding of the table's messages: unchecked (production) and checked by the schema
(the tests) give the same JSON for every message of a played hand of each variant, and the
checked encoding refuses data that is not a server message."""

from __future__ import annotations

import json
from typing import Any

import pydantic
import pytest

from paiju.core.rng import SeededRng
from paiju.engines.registry import get_engine, get_variant
from paiju.server import wire
from paiju.table.commands import Act, Join, Ready
from paiju.table.effects import Send
from paiju.table.table import PLAYING, Table, TableSettings


def played_messages(variant: str, actions: int = 150) -> list[dict[str, Any]]:
    """Every message a table of people sends while it plays up to ``actions`` actions."""
    return [e.message for e in played_sends(variant, actions)]


def played_sends(variant: str, actions: int = 150) -> list[Send]:
    """Every ``Send`` of a table of people while it plays up to ``actions`` actions."""
    engine = get_engine(variant)
    options = engine.normalize_options({})
    seats = engine.seat_count(options)
    table = Table("r", engine, options, "wire", TableSettings(timers={}), lambda s, lv: None)  # type: ignore[arg-type,return-value]
    effects = [e for s in range(seats) for e in table.handle(None, Join(f"p{s}"), 0.0)]
    effects += [e for s in range(seats) for e in table.handle(s, Ready(), 0.0)]
    players = [get_variant(variant).make_bot(1, SeededRng(f"wire/{s}")) for s in range(seats)]
    for _ in range(actions):
        if table.phase != PLAYING:
            break
        seat = min(table.decisions.waiting)
        text = players[seat].choose(engine.view(table.state, seat))
        effects += table.handle(seat, Act(table.shown_version(seat), text), 0.0)
    return [e for e in effects if isinstance(e, Send)]


@pytest.mark.parametrize("variant", ["mcr", "shengji", "diu", "dragon"])
def test_unchecked_and_checked_encodings_agree(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    messages = played_messages(variant)
    assert {m["type"] for m in messages} == {"state", "event"}
    monkeypatch.setattr(wire, "CHECKED", False)
    fast = [wire.encode_bytes(m) for m in messages]
    monkeypatch.setattr(wire, "CHECKED", True)
    checked = [wire.encode_bytes(m) for m in messages]
    assert [json.loads(f) for f in fast] == [json.loads(c) for c in checked]


@pytest.mark.parametrize("variant", ["mcr", "shengji", "diu", "dragon"])
def test_a_message_the_table_encoded_is_sent_as_that_json(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    sends = played_sends(variant)
    encoded = [s for s in sends if s.frame is not None]
    assert {s.message["type"] for s in encoded} == {"state", "event"} and len(encoded) > 10
    monkeypatch.setattr(wire, "CHECKED", False)
    for send in encoded:
        assert wire.frame_of(send.message, send.frame) is send.frame
        assert json.loads(send.frame or b"") == json.loads(wire.encode_bytes(send.message))
        if send.message["type"] == "event":  # written key for key as the message is
            assert send.frame == wire.encode_bytes(send.message)
    monkeypatch.setattr(wire, "CHECKED", True)  # the bytes themselves meet the schema
    with pytest.raises(pydantic.ValidationError):
        wire.frame_of(encoded[0].message, b'{"type": "state", "room": 3}')


def test_the_checked_encoding_refuses_what_is_not_a_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(wire, "CHECKED", True)
    with pytest.raises(pydantic.ValidationError):
        wire.encode_bytes({"type": "state", "room": 3})
    monkeypatch.setattr(wire, "CHECKED", False)
    assert json.loads(wire.encode_bytes({"type": "state", "room": 3})) == {
        "type": "state", "room": 3}
