"""Sealed stock prefetch (S22, A-D2 ``prefetch_mode = "encrypted"``).

The seed pushes the stock to clients 10 cards at a time so a draw shows instantly. Sending
them in clear would let a modified client read the next draws, so each future card goes out
as a sealed blob: ``blob = card XOR HMAC-SHA256(key, "stream" | nonce | index)`` and
``mac = HMAC-SHA256(key, "mac" | nonce | index | blob)``.

Keys: when the hand is dealt, ONE 256-bit hand secret is drawn from the injected ``Rng`` and
kept in the state (never in a view). Every per-card key and nonce is
``HMAC-SHA256(secret, label)`` with a distinct label per card (``key_label``/``nonce_label``).
Released keys are therefore outputs of a PRF under an unreleased secret: knowing any number
of them says nothing about the keys of cards not yet drawn. (Drawing the keys straight from
the ``Rng`` would not do: ``random.Random`` is a Mersenne Twister, whose state — and so every
future key — can be rebuilt from enough released outputs.) The key is released in the view
when the card is drawn (to everyone for an open draw, to the drawer only for a private
supplement draw). Without the key a blob is a uniformly masked 4-byte string: equal cards
give unrelated blobs.
"""

from __future__ import annotations

import hashlib
import hmac

from paiju.core.rng import Rng

_WIDTH = 4  # every card token fits in 4 bytes (e.g. "s10", "p66", "S13", "W")
SECRET_BITS = 256


def new_secret(rng: Rng) -> str:
    """The hand secret: 256 random bits from ``rng``, as 64 hex digits."""
    return rng.randbelow(1 << SECRET_BITS).to_bytes(SECRET_BITS // 8, "big").hex()


def key_label(index: int) -> bytes:
    """The HMAC label of stock card ``index``'s key (distinct from every nonce label)."""
    return b"paiju/diu/prefetch/key/" + str(index).encode("ascii")


def nonce_label(index: int) -> bytes:
    """The HMAC label of stock card ``index``'s nonce."""
    return b"paiju/diu/prefetch/nonce/" + str(index).encode("ascii")


def _derive(secret_hex: str, label: bytes) -> str:
    return hmac.new(bytes.fromhex(secret_hex), label, hashlib.sha256).digest()[:16].hex()


def card_key(secret_hex: str, index: int) -> str:
    """The 16-byte key (hex) of stock card ``index``: ``HMAC-SHA256(secret, key_label)``."""
    return _derive(secret_hex, key_label(index))


def card_nonce(secret_hex: str, index: int) -> str:
    """The 16-byte public nonce (hex) of stock card ``index``."""
    return _derive(secret_hex, nonce_label(index))


def seal_stock(stock: tuple[str, ...], secret_hex: str) -> tuple[tuple[str, str, str], ...]:
    """``(nonce, blob, mac)`` for every stock card, keyed from the hand secret."""
    out = []
    for i, card in enumerate(stock):
        nonce = card_nonce(secret_hex, i)
        out.append((nonce, *seal(card, i, card_key(secret_hex, i), nonce)))
    return tuple(out)


def _stream(key: bytes, nonce: bytes, index: int) -> bytes:
    msg = b"stream" + nonce + index.to_bytes(4, "big")
    return hmac.new(key, msg, hashlib.sha256).digest()[:_WIDTH]


def _mac(key: bytes, nonce: bytes, index: int, blob: bytes) -> str:
    msg = b"mac" + nonce + index.to_bytes(4, "big") + blob
    return hmac.new(key, msg, hashlib.sha256).hexdigest()[:32]


def seal(card: str, index: int, key_hex: str, nonce_hex: str) -> tuple[str, str]:
    """The (blob, mac) hex strings for stock card ``index``."""
    key, nonce = bytes.fromhex(key_hex), bytes.fromhex(nonce_hex)
    plain = card.encode("ascii").ljust(_WIDTH, b"\0")
    blob = bytes(a ^ b for a, b in zip(plain, _stream(key, nonce, index), strict=True))
    return blob.hex(), _mac(key, nonce, index, blob)


def unseal(blob_hex: str, mac_hex: str, index: int, key_hex: str, nonce_hex: str) -> str:
    """The card inside a sealed blob; ``ValueError`` if the key or the blob is wrong."""
    key, nonce, blob = bytes.fromhex(key_hex), bytes.fromhex(nonce_hex), bytes.fromhex(blob_hex)
    if not hmac.compare_digest(_mac(key, nonce, index, blob), mac_hex):
        raise ValueError("sealed card does not authenticate with this key")
    plain = bytes(a ^ b for a, b in zip(blob, _stream(key, nonce, index), strict=True))
    return plain.rstrip(b"\0").decode("ascii")


def delivered(drawn: int, stock_size: int, batch: int, refill_at: int) -> int:
    """How many stock cards (from the top) clients hold after ``drawn`` draws.

    A batch of ``batch`` is pushed at the start, and another whenever ``refill_at`` or fewer
    undrawn cards remain buffered (A-D1), until the stock is exhausted.
    """
    sent = min(batch, stock_size)
    while sent - drawn <= refill_at and sent < stock_size:
        sent = min(sent + batch, stock_size)
    return sent
