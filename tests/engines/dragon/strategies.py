"""Hypothesis strategies the dragon tests share: a dealt hand and every scoring option."""

from __future__ import annotations

from hypothesis import strategies as st

from paiju.engines.dragon.rules import PAIR_SETS, SINGLE_POINTS, SINGLE_RANKS, ScoringOptions
from paiju.engines.dragon.tiles import FULL_SET

hands = st.permutations(FULL_SET).map(lambda deck: tuple(sorted(deck[:8])))
all_options = st.builds(
    ScoringOptions,
    specials=st.booleans(),
    pair_set=st.sampled_from(PAIR_SETS),
    single_points=st.sampled_from(SINGLE_POINTS),
    single_rank=st.sampled_from(SINGLE_RANKS),
    zero_tiebreak=st.booleans(),
    gee_joon_wild=st.booleans(),
)
