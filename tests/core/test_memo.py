"""``LastOf``: the last key's value, by identity, worked out again for any other key."""

from __future__ import annotations

from paiju.core.memo import LastOf


def test_the_same_key_is_worked_out_once_and_another_replaces_it() -> None:
    calls: list[tuple[int, ...]] = []

    def work(key: tuple[int, ...]) -> list[int]:
        calls.append(key)
        return list(key)

    memo: LastOf[tuple[int, ...], list[int]] = LastOf(work)
    first, second = (1, 2), (3,)
    assert memo(first) is memo(first)
    assert memo(second) == [3]
    assert memo(first) == [1, 2]
    assert calls == [first, second, first]


def test_an_equal_but_different_key_is_worked_out_again() -> None:
    calls: list[list[int]] = []

    def work(key: list[int]) -> int:
        calls.append(key)
        return len(calls)

    memo: LastOf[list[int], int] = LastOf(work)
    assert memo([1]) == 1
    assert memo([1]) == 2  # equal, not the same object: a state is known by identity
