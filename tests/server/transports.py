"""A transport that records what is written through it, for tests that count writes.

The connection's transport is wrapped rather than its ``write`` replaced: uvloop's transports
(the server's loop, ``server/loops.py``) do not let a method be replaced on the instance."""

from __future__ import annotations

from typing import Any


class CountingTransport:
    """Hands every call to ``transport``; ``write`` first appends a copy of its bytes to
    ``writes`` (while ``counting``)."""

    def __init__(self, transport: Any) -> None:
        self.transport = transport
        self.writes: list[bytes] = []
        self.counting = True

    def write(self, data: Any) -> None:
        if self.counting:
            self.writes.append(bytes(data))
        self.transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


def count_writes(connection: Any) -> CountingTransport:
    """Route ``connection``'s writes through a ``CountingTransport`` and return it."""
    counting = CountingTransport(connection.transport)
    connection.transport = counting
    return counting
