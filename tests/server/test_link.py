"""A player connection's reader and writer (``paiju.server.link``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from paiju.core.errors import GameError
from paiju.server.app import PaijuServer
from tests.server.client import Client


@pytest.fixture
def saving_garbage() -> Iterator[list[Any]]:
    """Collections off, and what the next one finds unreachable kept in ``gc.garbage``."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()


def refusals_in(garbage: list[Any]) -> list[Any]:
    """The refusals a collection had to reclaim (an error its traceback's frames hold)."""
    return [o for o in garbage if issubclass(type(o), GameError)]


@pytest.mark.parametrize(("frame", "code"), [
    ({"type": "act", "version": "seven", "action": "pass"}, "invalid_message"),
    ("{not json", "malformed_json"),
])
async def test_a_frame_refused_unread_leaves_no_garbage_to_collect(
    server: PaijuServer, saving_garbage: list[Any], frame: Any, code: str
) -> None:
    """Each refusal leaves nothing for a collection to reclaim (the error and its traceback
    are freed as soon as it is answered): the server's young collections need not walk
    them, and a flood of bad frames does not grow the heap."""
    client = await Client.open(server.port)
    for _ in range(5):
        await client.send(frame)
        assert (await client.expect("error"))["code"] == code
    gc.collect()
    assert refusals_in(saving_garbage) == []
    await client.close()


async def test_a_refusal_from_the_room_leaves_no_garbage_to_collect(
    server: PaijuServer, saving_garbage: list[Any]
) -> None:
    client = await Client.open(server.port)
    await client.send({"type": "create_room", "name": "mei", "preset": "dragon"})
    await client.expect("joined")
    for _ in range(5):
        await client.send({"type": "act", "version": 0, "action": "pass"})
        refused = await client.expect("error")
    gc.collect()
    assert refused["code"] not in ("invalid_message", "malformed_json")  # the room's answer
    assert refusals_in(saving_garbage) == []
    await client.close()
