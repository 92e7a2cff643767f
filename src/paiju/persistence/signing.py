"""The server's Ed25519 key, which signs every finished hand's history.

The key is made on first start and kept in a file (PKCS#8 PEM, mode 0600) next to the
database unless ``history_key_file`` names another; a server without a database file
(``--memory``) uses a key that lives as long as the process. The ``cryptography`` package
does the signing: Ed25519 must not be written by hand. Signatures and keys travel as
lowercase hex (the raw 32-byte public key, the 64-byte signature).
"""

from __future__ import annotations

import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

#: The key file's name beside the database.
KEY_FILE = "history-key.pem"


class HistoryKey:
    """A private Ed25519 key and its public half."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        raw = private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.public_hex = raw.hex()

    @classmethod
    def ephemeral(cls) -> HistoryKey:
        """A fresh key that is never written anywhere."""
        return cls(Ed25519PrivateKey.generate())

    def sign(self, data: bytes) -> str:
        """The signature of ``data``, as hex."""
        return self._private.sign(data).hex()


def key_path(database: str, configured: str = "") -> Path:
    """Where the key lives: ``configured``, or ``history-key.pem`` beside ``database``."""
    return Path(configured) if configured else Path(database).parent / KEY_FILE


def load_or_create(path: Path) -> HistoryKey:
    """The key in ``path``, made there first (mode 0600) if the file does not exist.

    Raises ``ValueError`` naming the file if it cannot be read, written or parsed; a file
    readable by others is tightened to 0600 (a symlink is refused)."""
    try:
        if not path.exists():
            return _create(path)
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as handle:
            os.fchmod(handle.fileno(), 0o600)
            data = handle.read()
        private = serialization.load_pem_private_key(data, password=None)
    except (OSError, ValueError, TypeError) as exc:
        raise ValueError(f"cannot use the history signing key {path}: {exc}") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise ValueError(f"the history signing key {path} is not an Ed25519 key")
    return HistoryKey(private)


def _create(path: Path) -> HistoryKey:
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as handle:
        os.fchmod(handle.fileno(), 0o600)
        handle.write(pem)
    return HistoryKey(private)


def signature_holds(public_hex: str, data: bytes, signature_hex: str) -> bool:
    """Whether ``signature_hex`` is the signature of ``data`` by the key ``public_hex``
    (``False`` for anything malformed)."""
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
        key.verify(bytes.fromhex(signature_hex), data)
    except (ValueError, InvalidSignature):
        return False
    return True
