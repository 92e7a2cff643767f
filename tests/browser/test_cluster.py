"""The browser client in cluster mode: its room moves to another node mid-match (a drain's
hand-over), the page follows the redirect to that node, resumes its seat with its token and
plays on there."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from paiju.persistence.redisstore import RedisStore
from tests.browser.conftest import DESKTOP, Page
from tests.browser.harness import LiveServer, write_presets
from tests.browser.play import dragon_step
from tests.redisd import free_port


def node(rooms: Path, redis_url: str, name: str, port: int, other: int) -> LiveServer:
    return LiveServer(
        rooms, RedisStore(redis_url, node=name), port=port, lease_ttl=2.0,
        # the page of one node may open a WebSocket to the other (a redirect)
        allowed_origins=[f"http://127.0.0.1:{other}"],
    ).start()


def test_the_page_follows_its_room_to_another_node_and_plays_on(
    browser: Any, redis_url: str, tmp_path: Path, shots: Path
) -> None:
    rooms = write_presets(tmp_path)
    port_a, port_b = free_port(), free_port()
    a = node(rooms, redis_url, "a", port_a, port_b)
    b = node(rooms, redis_url, "b", port_b, port_a)
    page = Page(browser, b, "Mei", DESKTOP, shots)
    try:
        page.open()
        page.page.click("[data-play-now=dragon]")  # a player's room stays on b
        page.page.wait_for_selector(".room[data-variant=dragon] [data-prompt=arrange]")
        room = page.room()
        assert room in b.server.rooms.rooms
        cluster = b.server.cluster
        assert cluster is not None
        b.call(cluster.drop(room, "drain", to="a"))  # handed over mid-hand
        a.call(_until_seated(a, room))  # the page resumed there with its token
        assert page.room() == room
        page.page.wait_for_selector(".room[data-variant=dragon] [data-prompt=arrange]")
        while not dragon_step(page.page):  # the page acts: on a now
            page.page.wait_for_timeout(50)
        a.call(_until_acted(a, room))
        assert f"ws://127.0.0.1:{port_a}/" in page.watch.requests
        page.watch.requests = [u for u in page.watch.requests
                               if not u.startswith(f"ws://127.0.0.1:{port_a}/")]
    finally:
        try:
            page.close()
            b.stop()
        finally:
            a.stop()  # whatever became of b: a left running would beat into later tests


async def _until_seated(live: LiveServer, room: str) -> None:
    for _ in range(400):
        found = live.server.rooms.rooms.get(room)
        if found is not None and found.table.seats[0].connected:
            return
        await asyncio.sleep(0.025)
    pytest.fail("the page did not resume its seat on the new node")


async def _until_acted(live: LiveServer, room: str) -> None:
    for _ in range(400):
        if "player" in live.sources(room, 0):
            return
        await asyncio.sleep(0.025)
    pytest.fail("the page's action did not reach the new node")
