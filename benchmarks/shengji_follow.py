"""Legal-follow enumeration speed: random 25-card hands against a mix of leads (single,
pair, tractors, throws; plain and trump), the exact list as the engine builds it.

    .venv/bin/python benchmarks/shengji_follow.py --positions 3000
"""

from __future__ import annotations

import argparse
import random
import time

from paiju.engines.shengji.cards import full_pack
from paiju.engines.shengji.follow import legal_follows
from paiju.engines.shengji.legal import FOLLOW_LIMIT
from paiju.engines.shengji.order import trump_context
from paiju.engines.shengji.shapes import parse_units

LEADS = [
    "SK",
    "SK SK",
    "S5 S5 S6 S6",
    "S5 S5 S6 S6 S7 S7",
    "SA SK SK",
    "SQ SK SK SA SA",
    "H5 H5",
    "H5 H5 H6 H6",
    "LJ LJ BJ BJ",
    "SA SQ SJ S9",
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=3000)
    args = parser.parse_args()
    ctx = trump_context(2, "H")
    rng = random.Random(1)
    cases = []
    for i in range(args.positions):
        pack = full_pack()
        rng.shuffle(pack)
        lead = LEADS[i % len(LEADS)].split()
        hand = [c for c in pack if c not in lead][:25]
        units = parse_units(lead, ctx)
        cases.append((units, ctx.suit_of(lead[0]), hand))
    total = 0
    start = time.perf_counter()
    for units, suit, hand in cases:
        total += len(legal_follows(units, suit, hand, ctx, limit=FOLLOW_LIMIT))
    elapsed = time.perf_counter() - start
    n = len(cases)
    print(f"positions: {n}  time: {elapsed:.2f}s  enumerations/s: {n / elapsed:.0f}")
    print(f"mean legal follows per position: {total / n:.1f}")


if __name__ == "__main__":
    main()
