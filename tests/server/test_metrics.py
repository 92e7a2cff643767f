"""The Prometheus metrics, scraped over HTTP from a real server while a game is played: every
series moves as the game says it should."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest

from paiju.persistence.memory import MemoryStore
from paiju.server.app import PaijuServer
from paiju.table.commands import SetTrustee
from tests.server.client import Client
from tests.server.conftest import ADMIN_TOKEN, make_config, running
from tests.server.http_get import get, samples, value


async def scrape(server: PaijuServer) -> dict[Any, float]:
    status, text = await get(f"{server.url}metrics", ADMIN_TOKEN)
    assert status == 200, text
    return samples(text)


@pytest.fixture
def served(server: PaijuServer) -> PaijuServer:
    return server


async def play_to_the_end(client: Client) -> int:
    """Answer every decision of the seat until the match is over; the actions sent."""
    sent = 0
    state = await client.until_state(lambda s: s["phase"] == "playing")
    while state["phase"] != "finished":
        if state["phase"] == "playing" and state["you"] in state["to_act"]:
            action = state["view"]["legal"][0]
            await client.send({"type": "act", "version": state["version"], "action": action})
            sent += 1
        state = await client.expect("state")
    return sent


async def test_a_game_moves_every_series_as_it_should(served: PaijuServer) -> None:
    before = await scrape(served)
    room = served.rooms.create("race", bots=1, bot_level=0, options={"hands": 2})
    client = await Client.open(served.port)
    await client.send({"type": "join", "room": room.room_id, "name": "ann"})
    await client.expect("joined")
    await client.send({"type": "ready"})
    state = await client.until_state(lambda s: s["phase"] == "playing" and s["you"] in s["to_act"])

    during = await scrape(served)
    assert value(during, "paiju_connections", kind="seated") == 1
    assert value(during, "paiju_rooms", variant="race", phase="playing") == 1
    assert value(during, "paiju_seats", kind="bot", connected="false") == 1

    await client.send({"type": "act", "version": state["version"] + 7, "action": "go"})
    assert (await client.expect("error"))["code"] == "stale_version"
    acts = await play_to_the_end(client)
    await client.send({"type": "ping", "nonce": 1})  # the writer has passed every action
    await client.expect("pong")
    after = await scrape(served)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    player = moved("paiju_actions_total", variant="race", source="player")
    bot = moved("paiju_actions_total", variant="race", source="bot")
    assert player == acts and bot > 0
    assert moved("paiju_messages_received_total", type="act") == acts + 1  # + the stale one
    assert moved("paiju_messages_received_total", type="join") == 1
    assert moved("paiju_errors_total", code="stale_version") == 1
    assert moved("paiju_messages_sent_total", type="state") >= acts
    assert moved("paiju_messages_sent_total", type="error") == 1
    assert moved("paiju_action_latency_seconds_count") == acts  # accepted ones only
    assert moved("paiju_action_latency_seconds_bucket", le="+Inf") == acts
    assert moved("paiju_store_write_seconds_count", record="action") == player + bot
    assert moved("paiju_store_write_seconds_count", record="hand") == 2
    assert moved("paiju_bot_decision_seconds_count", variant="race") == bot
    assert value(after, "paiju_rooms", variant="race", phase="finished") == 1
    assert value(after, "paiju_rooms", variant="race", phase="playing") == 0
    assert moved("paiju_connections_opened_total", kind="player") == 1
    assert value(after, "paiju_draining") == 0
    assert value(after, "process_cpu_seconds_total") > 0
    assert ("python_info", ()) in after or any(k[0] == "python_info" for k in after)
    await client.close()


async def test_the_event_loop_lag_is_sampled(served: PaijuServer) -> None:
    for _ in range(100):
        found = await scrape(served)
        if value(found, "paiju_event_loop_lag_seconds_count") >= 1:
            break
        await asyncio.sleep(0.05)
    assert value(found, "paiju_event_loop_lag_seconds_count") >= 1


async def seated_in_play(server: PaijuServer) -> Client:
    room = server.rooms.create("race", bots=1, bot_level=0, options={"hands": 1})
    client = await Client.open(server.port)
    await client.send({"type": "join", "room": room.room_id, "name": "ann"})
    await client.expect("joined")
    await client.send({"type": "ready"})
    await client.until_state(lambda s: s["phase"] == "playing")
    return client


async def test_a_disconnected_player_in_a_hand_is_a_trustee_seat(served: PaijuServer) -> None:
    client = await seated_in_play(served)  # no timers: the hand waits for the seat
    assert value(await scrape(served), "paiju_trustee_seats") == 0
    await client.close()
    for _ in range(200):
        found = await scrape(served)
        if value(found, "paiju_connections", kind="seated") == 0:
            break
        await asyncio.sleep(0.02)
    assert value(found, "paiju_trustee_seats") == 1  # away: the trustee plays the seat
    assert value(found, "paiju_seats", kind="human", connected="false") == 1
    room = next(iter(served.rooms.rooms.values()))
    await room.call(lambda table, now: (None, table.handle(None, SetTrustee(0, False), now)))
    assert value(await scrape(served), "paiju_trustee_seats") == 0  # an operator took it out


async def test_timeouts_are_counted() -> None:
    async with running(timers={"turn": 0.02, "claim": 0.02}) as server:
        client = await seated_in_play(server)  # and never acts: its timer does
        found: dict[Any, float] = {}
        for _ in range(200):
            found = await scrape(server)
            if value(found, "paiju_timeouts_total", variant="race") >= 1:
                break
            await asyncio.sleep(0.02)
        assert value(found, "paiju_timeouts_total", variant="race") >= 1
        timed_out = value(found, "paiju_actions_total", variant="race", source="timeout")
        assert timed_out == value(found, "paiju_timeouts_total", variant="race")
        await client.close()


async def test_metrics_on_the_main_port_need_the_admin_token(served: PaijuServer) -> None:
    assert (await get(f"{served.url}metrics"))[0] == 401
    assert (await get(f"{served.url}metrics", "x" * 40))[0] in (401, 429)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_a_metrics_listener_of_its_own_needs_no_token() -> None:
    port = free_port()
    async with running(metrics_port=port) as server:
        assert server.metrics_port == port
        status, text = await get(f"http://127.0.0.1:{port}/metrics")
        assert status == 200 and "paiju_rooms" in text and "paiju_connections" in text
        assert (await get(f"http://127.0.0.1:{port}/healthz")) == (200, "ok\n")
        assert (await get(f"http://127.0.0.1:{port}/readyz")) == (200, "ready\n")
        assert (await get(f"http://127.0.0.1:{port}/"))[0] == 404
    with pytest.raises(OSError):  # closed with the server
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


async def test_a_busy_metrics_port_is_one_sentence() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        server = PaijuServer(make_config(metrics_port=port), MemoryStore(), ADMIN_TOKEN)
        with pytest.raises(ValueError, match=f"metrics port {port} on 127.0.0.1 is already in use"):
            await server.start()


def test_counters_and_histograms_show_what_prometheus_clients_own_would() -> None:
    import re

    from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

    from paiju.server.metrics import LATENCY_BUCKETS, counter, histogram

    theirs, ours = CollectorRegistry(), CollectorRegistry()
    their_count = Counter("t_sent", "doc", ["type"], registry=theirs)
    our_count = counter("t_sent", "doc", ["type"], ours)
    their_plain = Histogram("t_lat", "doc", buckets=LATENCY_BUCKETS, registry=theirs)
    our_plain = histogram("t_lat", "doc", [], LATENCY_BUCKETS, ours)()
    their_hist = Histogram("t_write", "doc", ["record"], buckets=(0.001, 0.1), registry=theirs)
    our_hist = histogram("t_write", "doc", ["record"], (0.001, 0.1), ours)
    for amount in (0.0001, 0.0005, 0.001, 0.003, 0.7, 9.0):
        their_plain.observe(amount)
        our_plain.observe(amount)
        their_hist.labels("action").observe(amount)
        our_hist("action").observe(amount)
    their_count.labels("state").inc(3)
    our_count("state").inc(3)
    their_count.labels("event").inc()
    our_count("event").inc()

    def text(registry: CollectorRegistry) -> str:  # creation times differ
        exposed = generate_latest(registry).decode()
        return re.sub(r"^(\S+_created\S*) \S+$", r"\1 T", exposed, flags=re.MULTILINE)

    assert text(ours) == text(theirs)
    assert 'le="0.001"} 3.0' in text(ours)  # a bound counts what equals it
