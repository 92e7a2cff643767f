"""/healthz and /readyz over plain HTTP on the main port."""

from __future__ import annotations

from paiju.persistence.memory import MemoryStore
from paiju.persistence.store import RoomRecord
from paiju.table.commands import Join, Ready
from tests.server.conftest import running
from tests.server.http_get import get


class BrokenStore(MemoryStore):
    """A store whose disk fails once ``broken`` is set."""

    broken = False

    def get_room(self, room_id: str) -> RoomRecord | None:
        if self.broken:
            raise OSError("disk I/O error")
        return super().get_room(room_id)


async def test_alive_and_ready_then_not_ready_while_draining() -> None:
    async with running(drain_timeout=5.0) as server:
        assert await get(f"{server.url}healthz") == (200, "ok\n")
        assert await get(f"{server.url}readyz") == (200, "ready\n")
        assert await get(f"{server.url}readyz?verbose=1") == (200, "ready\n")
        room = server.rooms.create("race", bots=1, bot_level=0)
        await room.call(lambda table, now: (None, table.handle(None, Join("ann"), now)))
        await room.call(lambda table, now: (None, table.handle(0, Ready(), now)))
        await server.drain()  # the hand in play keeps the server up
        status, text = await get(f"{server.url}readyz")
        assert status == 503 and "draining" in text


async def test_not_ready_when_the_store_fails_or_no_room_can_be_made() -> None:
    store = BrokenStore()
    async with running(store, max_rooms=1) as server:
        server.rooms.create("race")
        store.broken = True
        status, text = await get(f"{server.url}readyz")
        assert status == 503
        assert "store unreachable: disk I/O error" in text
        assert "max_rooms (1) rooms are active" in text
        assert await get(f"{server.url}healthz") == (200, "ok\n")  # alive all the same
