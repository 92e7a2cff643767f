"""The memoised per-suit shape analysis equals the direct recursive search."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.engines.mcr.fans import WinContext, _hand_info
from paiju.engines.mcr.fans_adjust import is_unique_wait
from paiju.engines.mcr.fans_regular import divisions
from paiju.engines.mcr.fans_shape import fast_divisions, fast_unique_wait
from tests.engines.mcr.test_oracle import random_case
from tests.scale import examples


def _check(case: dict[str, object], rng: random.Random) -> None:
    if rng.random() < 0.5:  # also look at hands that no longer win
        hand = list(case["hand"])  # type: ignore[call-overload]
        hand[rng.randrange(len(hand))] = rng.randrange(34)
        case = {**case, "hand": tuple(hand)}
    info = _hand_info(WinContext(**case))  # type: ignore[arg-type]
    if max(info.standing) > 4:
        return
    slow = divisions(info.standing, info.fixed)
    assert fast_divisions(info.standing, info.fixed) == slow
    if slow:
        n = len(case["hand"])  # type: ignore[arg-type]
        assert fast_unique_wait(info.standing, n, info.win) == is_unique_wait(
            info.standing, n, info.win
        )


def test_fast_shape_matches_search() -> None:
    rng = random.Random(5)
    for _ in range(4000):
        _check(random_case(rng), rng)


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_fast_shape_matches_search_property(seed: int) -> None:
    rng = random.Random(seed)
    _check(random_case(rng), rng)
