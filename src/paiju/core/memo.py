"""A one-entry memo keyed by identity, owned by whoever makes it (an engine instance): no
module-level state.

A table builds every viewer's view of one state in a row, so what all of them share is worked
out once if the last state's parts are remembered. Remembering them on each state instead
kept them alive as long as the state (seconds, under load, for every table), and a memo
shared by every table would be global state. Engines hold one ``LastOf`` each: a table has
its own engine, so the entry lives as long as the table's latest state view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LastOf(Generic[K, V]):
    """``work(key)`` for the last ``key`` asked (by identity: for immutable keys that is the
    very same key); any other key works it out again and replaces the entry."""

    __slots__ = ("_key", "_value", "_work")

    def __init__(self, work: Callable[[K], V]) -> None:
        self._work = work
        self._key: K | None = None
        self._value: V | None = None

    def __call__(self, key: K) -> V:
        if self._key is key and self._value is not None:
            return self._value
        value = self._work(key)
        self._key, self._value = key, value
        return value
