"""A viewer's version moves only when the content it is shown changes: the table keeps a
digest of what each viewer was last shown, not the content itself."""

from __future__ import annotations

from typing import Any

from paiju.table.viewers import Viewers, digest


def state(**view: Any) -> dict[str, Any]:
    """A state's content: all but its counters."""
    return {"type": "state", "view": dict(view)}


def test_the_digest_is_the_same_for_the_same_content_in_any_key_order() -> None:
    assert digest({"a": 1, "b": [1, 2]}) == digest({"b": [1, 2], "a": 1})
    assert digest({"a": 1, "b": [1, 2]}) != digest({"a": 1, "b": [2, 1]})
    assert digest({"a": None}) != digest({"a": "None"})
    assert digest({"a": 1}) != digest({"a": 1.0})  # 1 and 1.0 are written differently


def test_a_version_moves_once_per_change_and_never_for_counters() -> None:
    viewers = Viewers()
    first = viewers.show(0, state(hand=[1, 2]), None, 5)
    assert first is not None and first.message["version"] == 1
    assert viewers.show(0, state(hand=[1, 2]), None, 999) is None  # the countdown moved
    changed = viewers.show(0, state(hand=[1, 3]), None)
    assert changed is not None and changed.message["version"] == 2
    assert viewers.show(0, state(hand=[1, 3]), None) is None
    assert viewers.shown_version(0) == 2
    assert viewers.shown_version(1) == 0  # another viewer's counter is its own


def test_a_state_shown_carries_its_json_counters_and_content_alike() -> None:
    import json

    viewers = Viewers()
    sent = viewers.show(2, state(hand=[1, 2], odd="é\n"), None, 5)
    assert sent is not None and sent.frame is not None
    assert json.loads(sent.frame) == sent.message
    assert sent.message["version"] == 1 and sent.message["deadline_ms"] == 5
    assert sent.message["decision_version"] is None
    assert sent.frame.startswith(b'{"version":1,"deadline_ms":5,"decision_version":null,')


def test_a_state_whose_keys_are_not_all_strings_is_written_as_the_digest_writes_it() -> None:
    import json

    import orjson

    from paiju.table.viewers import SORTED

    viewers = Viewers()
    with_int_keys = state(scores={1: 5, 0: 2}, hand=[1])
    sent = viewers.show(0, with_int_keys, None)
    assert sent is not None and sent.frame is not None
    assert orjson.loads(sent.frame)["view"]["scores"] == {"0": 2, "1": 5}
    content = {k: v for k, v in with_int_keys.items()
               if k not in ("version", "deadline_ms", "decision_version")}
    assert sent.frame.endswith(orjson.dumps(content, option=SORTED)[1:])
    assert json.loads(sent.frame) == json.loads(orjson.dumps(sent.message, option=SORTED))
    # The same content with string keys is the same content: no new version.
    assert viewers.show(0, state(scores={"0": 2, "1": 5}, hand=[1]), None) is None


def test_string_keys_are_written_as_the_option_for_other_keys_writes_them() -> None:
    import orjson

    from paiju.table.viewers import SORTED

    viewers = Viewers()
    shown = state(b={"z": 1, "a": [2, {"y": None, "x": "é"}]}, a=1.5)
    sent = viewers.show(1, shown, None)
    assert sent is not None and sent.frame is not None
    content = {k: v for k, v in shown.items()
               if k not in ("version", "deadline_ms", "decision_version")}
    assert sent.frame.endswith(orjson.dumps(content, option=SORTED)[1:])


def test_a_waiting_seat_is_sent_the_version_it_was_first_asked_at() -> None:
    import json

    from paiju.table.decisions import Waiting

    viewers = Viewers()
    viewers.show(0, state(hand=[1]), None)
    waiting = Waiting(version=9, deadline=None, legal=("pass",))
    sent = viewers.show(0, state(hand=[1, 2]), waiting, 1500)
    assert sent is not None and sent.frame is not None
    assert waiting.shown_from == 2
    assert sent.frame.startswith(b'{"version":2,"deadline_ms":1500,"decision_version":2,')
    assert json.loads(sent.frame) == sent.message
    # An unchanged state sends nothing and keeps the decision's version.
    assert viewers.show(0, state(hand=[1, 2]), waiting, 900) is None
    assert waiting.shown_from == 2


def test_counters_of_an_empty_content_make_a_whole_object() -> None:
    import json

    from paiju.table.viewers import _with_counters

    assert json.loads(_with_counters(3, None, None, b"{}")) == {
        "version": 3, "deadline_ms": None, "decision_version": None}
    assert json.loads(_with_counters(0, 0, 12, b'{"a":1}')) == {
        "version": 0, "deadline_ms": 0, "decision_version": 12, "a": 1}
