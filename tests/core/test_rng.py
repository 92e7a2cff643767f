from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.core.rng import ScriptedRng, SeededRng


def test_same_seed_same_stream_and_derived_streams_differ() -> None:
    a, b = SeededRng("x"), SeededRng("x")
    assert [a.randbelow(100) for _ in range(20)] == [b.randbelow(100) for _ in range(20)]
    assert SeededRng("x").derive("1").seed == "x/1"
    one = [SeededRng("x").derive("1").randbelow(10**9) for _ in range(2)]
    two = SeededRng("x").derive("2").randbelow(10**9)
    assert one[0] == one[1] and one[0] != two


@given(st.lists(st.integers(), max_size=60), st.text(max_size=10))
def test_shuffle_is_a_permutation(items: list[int], seed: str) -> None:
    shuffled = list(items)
    SeededRng(seed).shuffle(shuffled)
    assert sorted(shuffled) == sorted(items)


def test_scripted_rng_replays_its_numbers_and_leaves_order_alone() -> None:
    rng = ScriptedRng([2, 0])
    assert rng.randbelow(3) == 2 and rng.randbelow(1) == 0
    with pytest.raises(IndexError):
        rng.randbelow(5)
    items = [3, 1, 2]
    rng.shuffle(items)
    assert items == [3, 1, 2]
    with pytest.raises(ValueError):
        ScriptedRng([7]).randbelow(5)
