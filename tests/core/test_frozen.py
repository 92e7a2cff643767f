"""``changed`` copies a dataclass instance as ``dataclasses.replace`` does."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import InitVar, dataclass, field
from functools import cached_property

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.core.frozen import changed


@dataclass(frozen=True)
class Hand:
    seat: int
    cards: tuple[str, ...]
    note: str | None = None
    tags: tuple[str, ...] = ()

    @cached_property
    def count(self) -> int:
        return len(self.cards)


@dataclass(frozen=True)
class Checked:
    low: int
    high: int

    def __post_init__(self) -> None:
        if self.low > self.high:
            raise ValueError("low above high")


@dataclass(frozen=True)
class Derived:
    base: int
    twice: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "twice", 2 * self.base)


@dataclass(frozen=True, slots=True)
class Slotted:
    a: int
    b: int = 0


@dataclass
class WithInitVar:
    a: int
    scale: InitVar[int] = 1


HANDS = st.builds(Hand, st.integers(0, 3), st.tuples(st.text(max_size=3)),
                  st.none() | st.text(max_size=3), st.tuples(st.text(max_size=2)))
CHANGES = st.fixed_dictionaries({}, optional={
    "seat": st.integers(), "cards": st.tuples(st.text(max_size=3)),
    "note": st.none() | st.text(), "tags": st.tuples(st.text(max_size=2)),
})


@given(HANDS, CHANGES)
def test_a_copy_is_the_copy_replace_makes(hand: Hand, changes: dict[str, object]) -> None:
    copy = changed(hand, **changes)  # type: ignore[arg-type]
    expected = dataclasses.replace(hand, **changes)  # type: ignore[arg-type]
    assert copy == expected and hash(copy) == hash(expected)
    assert type(copy) is Hand and copy is not hand
    assert pickle.loads(pickle.dumps(copy)) == copy


def test_cached_values_stay_with_the_old_object() -> None:
    hand = Hand(0, ("a", "b"))
    assert hand.count == 2
    copy = changed(hand, cards=("a",))
    assert copy.count == 1 and hand.count == 2
    assert "count" not in changed(hand, seat=1).__dict__


def test_a_copy_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed(Hand(0, ()), seat=1).seat = 2  # type: ignore[misc]


def test_an_unknown_field_is_refused() -> None:
    with pytest.raises(TypeError, match="nosuch"):
        changed(Hand(0, ()), nosuch=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="count"):
        changed(Hand(0, ()), count=1)  # type: ignore[call-arg]


def test_classes_the_dict_copy_would_get_wrong_are_copied_by_replace() -> None:
    with pytest.raises(ValueError, match="low above high"):  # __post_init__ still checks
        changed(Checked(1, 2), low=3)
    assert changed(Derived(2), base=5).twice == 10  # a field outside __init__ worked out
    assert changed(Slotted(1), b=2) == Slotted(1, 2)
    assert changed(WithInitVar(1), a=2) == WithInitVar(2)


def test_not_a_dataclass_is_refused() -> None:
    with pytest.raises(TypeError):
        changed(object())  # type: ignore[type-var]
