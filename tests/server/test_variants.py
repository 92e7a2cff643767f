"""Every registered variant is playable on the server: one human and bots in the other seats
play a whole match through the real protocol, with the variant's own timers configured."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from paiju.engines.registry import get_engine, variants
from paiju.persistence.memory import MemoryStore
from paiju.server.app import PaijuServer
from tests.server.client import Client
from tests.server.conftest import make_config

MAX_MESSAGES = 200_000


async def play(client: Client, until: tuple[str, ...]) -> dict[str, Any]:
    """Answer each of our decisions once with its first legal action until a phase in ``until``."""
    state: dict[str, Any] = await client.expect("state")
    answered: set[int] = set()  # decisions (by the version they began at) already answered
    for _ in range(MAX_MESSAGES):
        if state["phase"] in until:
            return state
        decision = state["decision_version"]
        if state["phase"] == "playing" and decision is not None and decision not in answered:
            answered.add(decision)
            action = state["view"]["legal"][0]
            await client.send({"type": "act", "version": state["version"], "action": action})
        message = await client.recv()
        if message["type"] == "state":
            state = message
        elif message["type"] == "error":
            # Bots answer at once, so the state we acted on may be gone already: the server
            # says so and the next state is the one to act on. No other error is acceptable.
            assert message["code"] == "stale_version", message
    raise AssertionError(f"no phase in {until} was reached")


@pytest.fixture
async def fast_server() -> AsyncIterator[PaijuServer]:
    """Bots answer instantly here, so a human's answers come faster than any person's would."""
    srv = PaijuServer(make_config(rate_per_second=10_000.0, rate_burst=10_000), MemoryStore(), "t")
    await srv.start()
    yield srv
    await srv.stop()


@pytest.mark.parametrize("variant", [v for v in variants() if v != "race"])
async def test_a_human_and_bots_play_a_whole_match(fast_server: PaijuServer, variant: str) -> None:
    server = fast_server
    engine = get_engine(variant)
    seats = engine.seat_count(engine.normalize_options({}))
    room = server.rooms.create(variant, bots=seats - 1, bot_level=1)
    client = await Client.open(server.port)
    await client.send({"type": "join", "room": room.room_id, "name": "Mei"})
    await client.expect("joined")
    await client.send({"type": "ready"})
    final = await play(client, until=("finished",))
    table = server.rooms.get(room.room_id).table
    scored = [
        m["event"]["data"]["scores"]
        for m in client.seen
        if m["type"] == "event" and m["event"]["kind"] == "hand_scored"
    ]
    assert scored == [list(s) for s in table.hand_scores] and len(scored) >= 1
    assert variant != "mcr" or len(scored) == 16  # 4 prevalent winds x 4 hands
    assert final["totals"] == [sum(column) for column in zip(*scored, strict=True)]
    await client.close()
