"""Records read back from their stored JSON as the records that were stored."""

from __future__ import annotations

import json

from paiju.table.ledger import Ledger
from paiju.table.records import (
    ActionRecord,
    DealRecord,
    RoomStatus,
    Snapshot,
    parse_record,
    record_body,
)


def read_back(record: object) -> object:
    entry = Ledger().append(record.kind, record_body(record))  # type: ignore[attr-defined]
    return parse_record(entry.kind, json.loads(entry.body))


def test_a_snapshot_reads_back_with_its_nested_tuples_and_its_json_kept_as_it_was() -> None:
    snap = Snapshot(
        hand=2, totals=(3, -3), carry={"kept": [1, [2, 3]]}, hand_scores=((1, -1), (2, -2)),
        seq=7, version=9, seats=({"kind": "human", "name": "a"}, {"kind": "bot", "name": "b"}),
        client_seeds={"0": "ab"}, genesis="g", phase="playing",
        state={"D": "x", "F": [[1, 2], {"L": [3]}]}, answered=(1,), dealt=(("s", "server"),),
    )
    again = read_back(snap)
    assert again == snap
    assert isinstance(again, Snapshot)
    assert type(again.hand_scores[0]) is tuple and type(again.dealt[0]) is tuple
    # JSON fields keep their lists: the state reader and the carry read lists.
    assert again.carry == {"kept": [1, [2, 3]]} and type(again.carry["kept"][1]) is list
    assert type(again.state["F"][0]) is list


def test_lists_become_tuples_at_every_depth_but_dicts_in_them_are_left_alone() -> None:
    deal = DealRecord(hand=1, commitment=None, seeds=(("a", "client"), ("b", "server")))
    assert read_back(deal) == deal
    status = RoomStatus(phase="playing", totals=(0, 0), seats=({"kind": "empty", "x": [1]},))
    again = read_back(status)
    assert again == status
    assert isinstance(again, RoomStatus) and type(again.seats[0]["x"]) is list


def test_empty_lists_read_back_as_empty_tuples() -> None:
    status = RoomStatus(phase="waiting", totals=(), seats=())
    again = read_back(status)
    assert again == status and isinstance(again, RoomStatus) and again.totals == ()


def test_a_body_holds_the_fields_of_its_record_and_nothing_else() -> None:
    record = ActionRecord(0, 3, 1, "play 5", "player", 9)
    assert record_body(record) == {"hand": 0, "seq": 3, "seat": 1, "action": "play 5",
                                   "source": "player", "version": 9}
    body = record_body(record)
    body["seq"] = 4  # a copy: the record is unchanged
    assert record.seq == 3
    object.__setattr__(record, "cached", "kept by something else")  # not a field
    assert record_body(record) == {"hand": 0, "seq": 3, "seat": 1, "action": "play 5",
                                   "source": "player", "version": 9}


def test_records_are_made_as_their_dataclass_declares_them() -> None:
    """Each record's ``__init__`` sets its fields in one step: the same signature, defaults
    and fresh default containers as the dataclass declares, and the record stays frozen."""
    import dataclasses
    import inspect

    import pytest

    from paiju.table.records import KINDS, ActionRecord, Snapshot

    for cls in KINDS.values():
        declared = [(f.name, f.default is dataclasses.MISSING
                     and f.default_factory is dataclasses.MISSING)
                    for f in dataclasses.fields(cls)]
        made = [(p.name, p.default is inspect.Parameter.empty)
                for p in list(inspect.signature(cls.__init__).parameters.values())[1:]]
        assert made == declared, cls
    record = ActionRecord(1, 2, 3, "d W5", "player")
    assert record.version == 0 and vars(record) == {
        "hand": 1, "seq": 2, "seat": 3, "action": "d W5", "source": "player", "version": 0}
    assert record == ActionRecord(hand=1, seq=2, seat=3, action="d W5", source="player")
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.hand = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        ActionRecord(1, 2)  # type: ignore[call-arg]
    first = Snapshot(1, (0,), {}, (), 0, 0, ())
    second = Snapshot(1, (0,), {}, (), 0, 0, ())
    assert first.client_seeds == {} and first.client_seeds is not second.client_seeds
    assert first.phase == "waiting" and first.state is None and first.dealt == ()
