"""The sealed stock prefetch (S22, A-D2): keys derive from one hidden hand secret by HMAC.

Drawing per-card keys straight from the hand's ``Rng`` (a Mersenne Twister) would let a
client that collects enough released keys rebuild the generator and predict the keys of cards
not yet drawn. These tests pin the fix: one 256-bit secret per hand, never in a view, and
every key and nonce = HMAC-SHA256(secret, a distinct label).
"""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.diu.sealed import (
    card_key,
    card_nonce,
    key_label,
    new_secret,
    nonce_label,
    seal_stock,
    unseal,
)
from tests.engines.diu.helpers import ENGINE, random_hand

ENC = {"prefetch_mode": "encrypted"}


def _hmac16(secret: str, label: bytes) -> str:
    return hmac.new(bytes.fromhex(secret), label, hashlib.sha256).digest()[:16].hex()


def test_secret_is_256_bits_from_the_rng_and_deterministic() -> None:
    a, b = new_secret(SeededRng("x")), new_secret(SeededRng("x"))
    assert a == b and len(bytes.fromhex(a)) == 32
    assert new_secret(SeededRng("y")) != a
    state = ENGINE.initial_state(ENC, SeededRng("h"), MatchInfo(0, (0, 0, 0)))
    assert len(bytes.fromhex(state.prefetch_secret)) == 32
    plain = ENGINE.initial_state({}, SeededRng("h"), MatchInfo(0, (0, 0, 0)))
    assert plain.prefetch_secret == "" and plain.sealed == ()


def test_labels_are_distinct() -> None:
    labels = [key_label(i) for i in range(200)] + [nonce_label(i) for i in range(200)]
    assert len(set(labels)) == len(labels)


def test_released_keys_are_hmac_outputs_of_their_labels() -> None:
    states = random_hand(11, ENC)
    later = next(s for s in states if s.drawn >= 3)
    secret = later.prefetch_secret
    pre = ENGINE.view(later, 0)["prefetch"]
    assert pre["keys"], "some keys must have been released"
    for index, key in pre["keys"].items():
        i = int(index)
        assert key == _hmac16(secret, key_label(i)) == card_key(secret, i)
    for entry in pre["sealed"]:
        assert entry["nonce"] == _hmac16(secret, nonce_label(entry["i"]))
    assert len(set(pre["keys"].values())) == len(pre["keys"])


def test_no_view_contains_the_secret_or_an_undrawn_key() -> None:
    for seed in range(4):
        for state in random_hand(seed, ENC):
            secret = state.prefetch_secret
            undrawn = {card_key(secret, i) for i in range(state.drawn, len(state.stock))}
            for seat in (None, 0, 1, 2):
                text = json.dumps(ENGINE.view(state, seat))
                assert secret not in text
                assert not any(k in text for k in undrawn)


def test_equal_cards_give_different_blobs_and_the_wrong_key_fails() -> None:
    stock = ("s3", "s3", "s3", "W", "W")
    secret = new_secret(SeededRng("blobs"))
    sealed = seal_stock(stock, secret)
    assert len({blob for _, blob, _ in sealed}) == len(stock)
    for i, (nonce, blob, mac) in enumerate(sealed):
        assert unseal(blob, mac, i, card_key(secret, i), nonce) == stock[i]
        assert nonce == card_nonce(secret, i)
        other = card_key(secret, (i + 1) % len(stock))  # a released key of another card
        with pytest.raises(ValueError):
            unseal(blob, mac, i, other, nonce)
        with pytest.raises(ValueError):
            unseal(blob, mac, i, "00" * 16, nonce)


def test_keys_depend_only_on_the_secret_and_the_index() -> None:
    # The same stock under two secrets shares no key, nonce or blob.
    stock = tuple(f"s{n}" for n in range(1, 11))
    s1, s2 = new_secret(SeededRng("a")), new_secret(SeededRng("b"))
    one, two = seal_stock(stock, s1), seal_stock(stock, s2)
    assert all(x[0] != y[0] and x[1] != y[1] for x, y in zip(one, two, strict=True))
    assert {card_key(s1, i) for i in range(10)}.isdisjoint(card_key(s2, i) for i in range(10))
