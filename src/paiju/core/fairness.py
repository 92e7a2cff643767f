"""Provably fair deals: a committed hand seed, the players' own seeds, one keyed stream.

Before a hand is dealt the server publishes ``commitment(hand_seed)``; each seat may add a
client seed; the deal is then a pure function of the hand seed, the client seeds and the hand
number, so once the hand seed is revealed anyone can recompute the shuffle and check it
against the commitment. docs/fairness.md specifies every byte; this module is the reference.

* key = HMAC-SHA256(key=hand_seed, msg=DOMAIN || 0x00 || u32(hand) || u16(seats) ||
  for each seat in order: u16(len(seed)) || seed (UTF-8))
* block i = HMAC-SHA256(key, b"block" || u64(i)); the stream is block 0, block 1, ...
* ``randbelow(n)``: take ceil(b/8) bytes (b = bit length of n - 1) from the stream as a
  big-endian integer, keep its low b bits, and start again while it is n or more (rejection
  sampling: no modulo bias). ``randbelow(1)`` is 0 and takes nothing.
* ``shuffle``: Fisher–Yates from the back, j = randbelow(i + 1) for i = len - 1 down to 1.
* ``derive(name)``: a new stream keyed HMAC-SHA256(key, b"derive" || name (UTF-8)).

Integers are unsigned big-endian (u16, u32, u64). Pure: no clock, no global randomness.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

#: Domain separation for the deal key: a change of algorithm changes this label.
DOMAIN = b"paiju-deal-v1"
#: Bytes in a hand seed.
SEED_BYTES = 32
#: Longest client seed, in UTF-8 bytes.
MAX_CLIENT_SEED = 128


def commitment(hand_seed: bytes) -> str:
    """The public commitment to ``hand_seed``: its SHA-256, as lowercase hex."""
    return hashlib.sha256(hand_seed).hexdigest()


def hand_seed_for(room_seed: str, hand: int) -> bytes:
    """The secret seed of hand ``hand`` of a room: SHA-256 of ``"<room seed>/hand/<n>"``.

    Revealing it after the hand reveals nothing of the room seed, so later hands stay secret,
    and a whole match remains a function of its stored seeds."""
    return hashlib.sha256(f"{room_seed}/hand/{hand}".encode()).digest()


def deal_key(hand_seed: bytes, hand: int, client_seeds: Sequence[str]) -> bytes:
    """The key of the hand's stream. ``client_seeds`` has one entry per seat, in seat order.

    Raises ``ValueError`` for a seed of the wrong size or a client seed that is too long."""
    if len(hand_seed) != SEED_BYTES:
        raise ValueError(f"a hand seed has {SEED_BYTES} bytes, not {len(hand_seed)}")
    material = bytearray(DOMAIN + b"\x00")
    material += hand.to_bytes(4, "big") + len(client_seeds).to_bytes(2, "big")
    for seed in client_seeds:
        encoded = seed.encode("utf-8")
        if len(encoded) > MAX_CLIENT_SEED:
            raise ValueError(f"a client seed has at most {MAX_CLIENT_SEED} bytes")
        material += len(encoded).to_bytes(2, "big") + encoded
    return hmac.new(hand_seed, bytes(material), hashlib.sha256).digest()


class FairRng:
    """The ``Rng`` of a fair deal: a keyed HMAC-SHA256 stream (see the module docstring)."""

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._block = 0
        self._buffer = b""

    @classmethod
    def for_hand(cls, hand_seed: bytes, hand: int, client_seeds: Sequence[str]) -> FairRng:
        """The generator that deals hand ``hand``."""
        return cls(deal_key(hand_seed, hand, client_seeds))

    def take(self, count: int) -> bytes:
        """The next ``count`` bytes of the stream."""
        while len(self._buffer) < count:
            counter = b"block" + self._block.to_bytes(8, "big")
            self._buffer += hmac.new(self._key, counter, hashlib.sha256).digest()
            self._block += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        bits = (n - 1).bit_length()
        if bits == 0:
            return 0
        mask = (1 << bits) - 1
        size = (bits + 7) // 8
        while True:
            value = int.from_bytes(self.take(size), "big") & mask
            if value < n:
                return value

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def derive(self, key: str) -> FairRng:
        label = b"derive" + key.encode("utf-8")
        return FairRng(hmac.new(self._key, label, hashlib.sha256).digest())


def permutation(rng: FairRng, size: int) -> list[int]:
    """Where each position of a ``size``-item list comes from after ``rng.shuffle``: the
    shuffled list is ``[original[p] for p in permutation]``."""
    order = list(range(size))
    rng.shuffle(order)
    return order
