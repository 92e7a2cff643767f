from __future__ import annotations

import pytest

from paiju.core.errors import InvalidOptions
from paiju.core.options import choice, custom, flag, int_range, normalize_options

SPECS = {
    "mode": choice("a", "a", "b"),
    "fast": flag(False),
    "hands": int_range(4, 1, 10),
    "sizes": custom([], lambda v: isinstance(v, list), "a list"),
}


def test_defaults_fill_in_and_given_values_stay() -> None:
    assert normalize_options("v", {"hands": 7}, SPECS) == {
        "mode": "a",
        "fast": False,
        "hands": 7,
        "sizes": [],
    }


def test_defaults_are_copied_not_shared() -> None:
    first = normalize_options("v", {}, SPECS)
    first["sizes"].append(1)
    assert normalize_options("v", {}, SPECS)["sizes"] == []


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"colour": 1}, "unknown v option(s): colour; known: mode, fast, hands, sizes"),
        ({"mode": "c"}, "'mode' must be one of 'a', 'b', not 'c'"),
        ({"fast": 1}, "'fast' must be true or false, not 1"),
        ({"hands": True}, "'hands' must be an integer from 1 to 10, not True"),
        ({"hands": 11}, "from 1 to 10, not 11"),
        ({"sizes": "x"}, "'sizes' must be a list"),
    ],
)
def test_bad_options_are_refused_with_a_sentence(raw: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidOptions) as info:
        normalize_options("v", raw, SPECS)
    assert words in info.value.message and info.value.code == "invalid_options"


def test_a_choice_must_include_its_default() -> None:
    with pytest.raises(ValueError):
        choice("z", "a", "b")
