"""The fair-deal stream: the documented test vectors, no modulo bias, and every input
changing the deal. The vectors were checked once against `openssl dgst -sha256 -mac HMAC`
(docs/fairness.md shows the commands)."""

from __future__ import annotations

import hashlib
from collections import Counter
from itertools import permutations

import pytest

from paiju.core.fairness import (
    FairRng,
    commitment,
    deal_key,
    hand_seed_for,
    permutation,
)

SEED = bytes(range(32))
CLIENTS = ["alice", "", "bob", "carol"]


def raw_hmac(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA256 written out (RFC 2104), independent of the ``hmac`` module."""
    block = key.ljust(64, b"\x00")
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in block) + message).digest()
    return hashlib.sha256(bytes(b ^ 0x5C for b in block) + inner).digest()


def test_the_documented_vectors() -> None:
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    key = deal_key(SEED, 0, CLIENTS)
    assert key.hex() == "02f94bbf533849dab968568005762dda239ff19e86712bf5c5b8ffaccd47fa77"
    assert FairRng(key).take(32).hex() == (
        "6ffc4565d164fbb55394d027adf5979b3c67b7dc38c3ec6e2315013e6eb40d39"
    )
    rng = FairRng(key)
    assert [rng.randbelow(6) for _ in range(10)] == [4, 5, 5, 1, 4, 3, 5, 3, 4, 0]
    rng = FairRng(key)
    assert [rng.randbelow(1000) for _ in range(5)] == [357, 356, 949, 916, 39]
    assert permutation(FairRng.for_hand(SEED, 0, CLIENTS), 10) == [2, 7, 6, 0, 8, 3, 4, 1, 9, 5]
    first = permutation(FairRng.for_hand(SEED, 3, ["x"]), 144)[:12]
    assert first == [51, 141, 41, 105, 71, 75, 43, 87, 110, 101, 10, 59]
    assert FairRng(key).derive("bot/1").take(8).hex() == "3dfe7b89522c8c11"
    assert hand_seed_for("room-seed", 0).hex() == (
        "2f4a888fcd439e7fecbf29ec1c11998e305798482bb36911b8e04f0b2f8f0537"
    )


def test_the_key_and_stream_follow_the_written_construction() -> None:
    material = b"paiju-deal-v1\x00" + (7).to_bytes(4, "big") + (2).to_bytes(2, "big")
    material += (2).to_bytes(2, "big") + b"ab" + (3).to_bytes(2, "big") + "天地".encode()[:3]
    key = raw_hmac(SEED, material)
    assert deal_key(SEED, 7, ["ab", "天"]) == key
    stream = raw_hmac(key, b"block" + (0).to_bytes(8, "big"))
    stream += raw_hmac(key, b"block" + (1).to_bytes(8, "big"))
    assert FairRng(key).take(40) == stream[:40]


def test_rejection_sampling_reads_whole_bytes_and_rejects_out_of_range() -> None:
    key = deal_key(SEED, 1, ["q"])
    stream = FairRng(key).take(64)
    rng = FairRng(key)
    # 257 needs 9 bits: two bytes per try, low 9 bits kept, values >= 257 rejected.
    expected, pos = [], 0
    while len(expected) < 5:
        value = int.from_bytes(stream[pos : pos + 2], "big") & 0x1FF
        pos += 2
        if value < 257:
            expected.append(value)
    assert [rng.randbelow(257) for _ in range(5)] == expected
    assert FairRng(key).randbelow(1) == 0  # takes nothing
    with pytest.raises(ValueError):
        FairRng(key).randbelow(0)


def test_no_modulo_bias_over_many_draws() -> None:
    rng = FairRng(deal_key(SEED, 2, ["chi"]))
    counts = Counter(rng.randbelow(6) for _ in range(60_000))
    expected = 10_000
    chi2 = sum((counts[v] - expected) ** 2 / expected for v in range(6))
    assert set(counts) == set(range(6))
    assert chi2 < 20.5  # 5 degrees of freedom, p = 0.001


def test_every_order_of_three_is_equally_likely() -> None:
    orders: Counter[tuple[int, ...]] = Counter()
    for trial in range(6_000):
        orders[tuple(permutation(FairRng.for_hand(SEED, trial, []), 3))] += 1
    assert set(orders) == set(permutations(range(3)))
    chi2 = sum((n - 1000) ** 2 / 1000 for n in orders.values())
    assert chi2 < 20.5


@pytest.mark.parametrize(
    "changed",
    [
        (bytes(31) + b"\x01", 0, CLIENTS),
        (SEED, 1, CLIENTS),
        (SEED, 0, ["alice", "", "bob", "carol!"]),
        (SEED, 0, ["alice", "", "bob"]),
        (SEED, 0, ["alic", "e", "bob", "carol"]),  # the length prefix keeps seeds apart
    ],
)
def test_every_input_changes_the_deal(changed: tuple[bytes, int, list[str]]) -> None:
    base = permutation(FairRng.for_hand(SEED, 0, CLIENTS), 52)
    assert permutation(FairRng.for_hand(*changed), 52) != base


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(ValueError):
        deal_key(b"short", 0, [])
    with pytest.raises(ValueError):
        deal_key(SEED, 0, ["x" * 129])
