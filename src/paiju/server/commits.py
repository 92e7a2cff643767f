"""Group commit: the records many rooms write in one turn of the event loop, in one
transaction of an embedded store.

A SQLite commit costs more than the inserts it ends (the write-ahead log's frames, the
checkpoint now and then), and under load most loop turns run several rooms' changes. Each
room hands its records to ``GroupCommit.write`` and awaits the result; the first write of a
turn schedules the flush for the end of the turn, which writes every room's records in one
transaction (each room's all or none) and only then answers each room. A room sends what its
records describe only once that commit holds them, so "acknowledged means stored" still
holds, and a room whose records failed is told so alone (its change is undone, as before).

A shared store (Redis, cluster mode) is not grouped: its rooms await their own writes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

from paiju.persistence.store import Appended, GroupWriter, Store

#: One room's records waiting for the flush, and the room's answer.
Pending = tuple[str, Sequence[Appended], "asyncio.Future[float]"]


class GroupCommit:
    """Writes the records handed over in one loop turn together (see the module)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pending: list[Pending] = []
        self._scheduled = False

    def write(self, room_id: str, items: Sequence[Appended]) -> asyncio.Future[float]:
        """A future of the write of ``items`` (one room's consecutive records, all or none):
        the seconds of the transaction per record once it is committed, or the exception
        that kept this room's records out of it."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[float] = loop.create_future()
        self._pending.append((room_id, items, future))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self.flush)
        return future

    def flush(self) -> None:
        """Write what is pending in one transaction and answer every room."""
        pending, self._pending = self._pending, []
        self._scheduled = False
        if not pending:
            return
        groups = [(room_id, items) for room_id, items, _ in pending]
        start = time.perf_counter()
        try:
            errors = self._append(groups)
        except Exception as exc:  # the transaction itself failed: nothing of it is stored
            for _, _, future in pending:
                if not future.done():
                    future.set_exception(exc)
            return
        spent = (time.perf_counter() - start) / max(1, sum(len(g[1]) for g in groups))
        for (_, _, future), error in zip(pending, errors, strict=True):
            if future.done():
                continue
            if error is None:
                future.set_result(spent)
            else:
                future.set_exception(error)

    def _append(self, groups: list[tuple[str, Sequence[Appended]]]) -> list[Exception | None]:
        store = self.store
        if isinstance(store, GroupWriter):
            return store.append_groups(groups)
        errors: list[Exception | None] = []
        for room_id, items in groups:  # a store without transactions: room by room
            try:
                store.append_many(room_id, items)
            except Exception as exc:
                errors.append(exc)
            else:
                errors.append(None)
        return errors
