"""Sealed stock prefetch (S22, A-D2 ``prefetch_mode = "encrypted"``).

The seed pushes the stock to clients 10 cards at a time so a draw shows instantly. Sending
them in clear would let a modified client read the next draws, so each future card goes out
as a sealed blob: ``blob = card XOR HMAC-SHA256(key, "stream" | nonce | index)`` and
``mac = HMAC-SHA256(key, "mac" | nonce | index | blob)`` with a random 16-byte key and nonce
per card (drawn from the hand's injected ``Rng``). The key is released in the view when the
card is drawn (to everyone for an open draw, to the drawer only for a private supplement
draw). Without the key a blob is a uniformly masked 4-byte string: equal cards give
unrelated blobs.
"""

from __future__ import annotations

import hashlib
import hmac

from paiju.core.rng import Rng

_WIDTH = 4  # every card token fits in 4 bytes (e.g. "s10", "p66", "S13", "W")


def new_secret(rng: Rng) -> str:
    """16 random bytes from ``rng``, as hex."""
    return rng.randbelow(1 << 128).to_bytes(16, "big").hex()


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
