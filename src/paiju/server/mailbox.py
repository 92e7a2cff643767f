"""A first-in first-out queue with one consumer, small while empty.

A room's inbox is empty nearly all the time, and there is one per room: ``asyncio.Queue``
holds four deques (its items, its getters, its putters, its ``join`` event's waiters), some
2.4 KiB before anything is put in it. A list and, only while the consumer waits, one future
do the same work for a single consumer.
"""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    """Items in the order put; ``get`` waits for one (one waiting consumer at a time)."""

    __slots__ = ("_items", "_wake")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._wake: asyncio.Future[None] | None = None

    def put(self, item: T) -> None:
        """Add ``item`` (never waits: the box is unbounded) and wake the consumer."""
        self._items.append(item)
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    def empty(self) -> bool:
        return not self._items

    def get_nowait(self) -> T:
        """The first item; ``IndexError`` if there is none."""
        return self._items.pop(0)

    async def get(self, timeout: float | None = None) -> T:
        """The first item, once there is one; ``TimeoutError`` after ``timeout`` seconds
        (``None``: no limit) without one, and at once for a timeout of zero or less even
        with items waiting (as ``asyncio.wait_for`` gave: a room's deadline that is due goes
        before the messages queued behind it)."""
        if timeout is not None and timeout <= 0:
            raise TimeoutError
        if not self._items:  # (an item waiting is taken with no timer and no future)
            await self._arrival(timeout)
        return self._items.pop(0)

    async def _arrival(self, timeout: float | None) -> None:
        """Wait for an item to be put; ``TimeoutError`` after ``timeout`` seconds. A plain
        timer that fails the waiting future: ``asyncio.timeout`` costs several times more
        (a context manager, and a cancellation of the task turned into the error), once per
        message a room takes."""
        loop = asyncio.get_running_loop()
        timer = None if timeout is None else loop.call_later(timeout, self._time_out)
        try:
            while not self._items:
                self._wake = loop.create_future()
                try:
                    await self._wake
                finally:
                    self._wake = None
        finally:
            if timer is not None:
                timer.cancel()

    def _time_out(self) -> None:
        if self._wake is not None and not self._wake.done():
            self._wake.set_exception(TimeoutError())
