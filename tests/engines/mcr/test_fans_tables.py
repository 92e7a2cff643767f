"""The look-up tables and memos of fan counting equal the direct computations they replace."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

from paiju.engines.mcr import fans_table as F
from paiju.engines.mcr.fans_adjust import (
    FLAGS,
    _big_fan_adjust,
    add_range_fans,
    add_suit_fans,
    add_trait_fans,
    add_win_flags,
    final_adjust,
)
from paiju.engines.mcr.fans_regular import base_table
from paiju.engines.mcr.fans_sets import (
    CHOWS2,
    CHOWS3,
    PUNGS2,
    PUNGS3,
    _limit,
    _limit_pair_fans,
    three_chows_fan,
    three_pungs_fan,
    two_chows_fan,
    two_pungs_fan,
)


def _direct_base(melded: int, hog: int, mask: int, code: int) -> tuple[int, ...]:
    flags = FLAGS[code]
    table = [0] * F.NUM_FANS
    add_win_flags(flags, table)
    if melded == 0:
        table[F.FULLY_CONCEALED_HAND if flags.self_drawn else F.CONCEALED_HAND] = 1
    elif melded == 4:
        table[F.SELF_DRAWN if flags.self_drawn else F.MELDED_HAND] = 1
    elif flags.self_drawn:
        table[F.SELF_DRAWN] = 1
    add_suit_fans(mask, table)
    add_trait_fans(mask, table)
    add_range_fans(mask, table)
    table[F.TILE_HOG] = hog
    return tuple(table)


def test_base_table_equals_direct_computation() -> None:
    rng = random.Random(21)
    pools = [range(34), range(27), range(9), range(27, 34), [0, 8, 9, 17, 18, 26, 27, 31]]
    for _ in range(4000):
        pool = list(rng.choice(pools))
        mask = sum(1 << t for t in rng.sample(pool, rng.randint(1, min(9, len(pool)))))
        args = (rng.randrange(5), rng.randrange(-1, 4), mask, rng.randrange(16))
        assert base_table(*args) == _direct_base(*args), args


def test_final_adjust_skip_is_exact() -> None:
    rng = random.Random(22)
    for _ in range(4000):
        table = [0] * F.NUM_FANS
        for fan in rng.sample(range(1, F.NUM_FANS), rng.randint(1, 12)):
            table[fan] = rng.choice([1, 1, 1, 2, 3])
        fast = list(table)
        final_adjust(fast)
        slow = list(table)
        _big_fan_adjust(slow)  # the skipped block, always run (it is idempotent)
        final_adjust(slow)
        assert fast == slow, table


def test_combination_tables_equal_the_functions() -> None:
    chows = [t for t in range(27) if 0 < t % 9 < 8]
    for a in range(34):
        for b in range(34):
            assert PUNGS2[a * 34 + b] == two_pungs_fan(a, b)
            if a in chows and b in chows:
                assert CHOWS2[a * 34 + b] == two_chows_fan(a, b)
    for a, b, c in combinations_with_replacement(range(34), 3):
        assert PUNGS3[a * 1156 + b * 34 + c] == three_pungs_fan(a, b, c)
    for a, b, c in combinations_with_replacement(chows, 3):
        assert CHOWS3[a * 1156 + b * 34 + c] == three_chows_fan(a, b, c)


def test_limit_pair_fans_memo() -> None:
    rng = random.Random(23)
    choices = [0, F.PURE_DOUBLE_CHOW, F.MIXED_DOUBLE_CHOW, F.SHORT_STRAIGHT, F.TWO_TERMINAL_CHOWS]
    for _ in range(2000):
        fans = [rng.choice(choices) for _ in range(rng.choice([3, 6]))]
        max_cnt = rng.randint(1, 3)
        table = [0] * F.NUM_FANS
        _limit_pair_fans(fans, max_cnt, table)
        order = (F.PURE_DOUBLE_CHOW, F.MIXED_DOUBLE_CHOW, F.SHORT_STRAIGHT, F.TWO_TERMINAL_CHOWS)
        assert tuple(table[o] for o in order) == _limit(fans, max_cnt)
