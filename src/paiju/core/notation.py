"""Small helpers shared by the variants' notations (tile and card names)."""

from __future__ import annotations

from collections.abc import Iterable

from paiju.core.errors import MalformedAction


def split_tokens(text: str, sep: str | None = None) -> list[str]:
    """Split action text into non-empty tokens; raise ``MalformedAction`` if there are none."""
    tokens = [t for t in text.strip().split(sep) if t]
    if not tokens:
        raise MalformedAction("the action is empty")
    return tokens


def join_tokens(tokens: Iterable[str], sep: str = " ") -> str:
    """The inverse of ``split_tokens``."""
    return sep.join(tokens)


def expect_prefix(text: str, prefix: str) -> str:
    """The rest of ``text`` after ``prefix``; ``MalformedAction`` if it does not start so."""
    if not text.startswith(prefix):
        raise MalformedAction(f"expected the action to start with {prefix!r}: {text!r}")
    return text[len(prefix) :]
