"""The bridge against a real server: every variant's example bot plays a whole match."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from paiju.bots.bridge import Bridge, BridgeOptions
from paiju.server.app import PaijuServer
from tests.bots.conftest import (
    EXAMPLES,
    REPO,
    json_driver,
    python,
    report_text,
    reporter,
    run_bridge,
)

SHORT = {
    "mcr": {"rounds": 1},
    "shengji": {},
    "diu": {"match_hands": 3},
    "dragon": {"hands": 2},
}


@pytest.mark.parametrize("variant", sorted(SHORT))
async def test_example_bot_full_match(server: PaijuServer, variant: str) -> None:
    count = _seats(server, variant)
    room = server.rooms.create(variant, bots=count - 1, options=SHORT[variant], seed="ex")
    rep = reporter()
    make = json_driver(python(EXAMPLES / f"{variant}_bot.py"), rep)
    code = await asyncio.wait_for(run_bridge(server, room.room_id, make, rep), 120)
    assert code == 0
    table = room.table
    assert table.phase == "finished"
    assert table.seats[0].kind == "human" and table.seats[0].name == "bridge bot"
    assert table.seats[0].program  # its hello said a program plays it
    assert rep.failures == 0, report_text(rep)
    assert table.hand_scores  # hands were played and scored


def _seats(server: PaijuServer, variant: str) -> int:
    from paiju.engines.registry import get_engine

    engine = get_engine(variant)
    return engine.seat_count(engine.normalize_options(SHORT[variant]))


def test_example_bots_are_short() -> None:
    for path in sorted(EXAMPLES.glob("*_bot.py")):
        assert len(path.read_text().splitlines()) < 30, path.name


async def test_the_cli_plays_a_match_and_exits_0(server: PaijuServer) -> None:
    room = server.rooms.create("dragon", bots=3, options={"hands": 1}, seed="cli")
    argv = [
        sys.executable, "-m", "paiju.cli", "bot", "run",
        "--url", f"ws://127.0.0.1:{server.port}/", "--room", room.room_id,
        "--name", "cli bot", "--rate", "0",
        "--", *python(EXAMPLES / "dragon_bot.py"),
    ]
    proc = await asyncio.create_subprocess_exec(
        *argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    assert room.table.phase == "finished"
    assert "match 1 over" in err.decode()


def _client_seeds(server: PaijuServer, room: str) -> list[tuple[int, int, str]]:
    """(hand, seat, seed) of every client seed the room stored."""
    entries = server.store.entries(room)
    seeds = [e.entry.data() for e in entries if e.entry.kind == "seed"]
    return [(int(d["hand"]), int(d["seat"]), str(d["seed"])) for d in seeds]


async def test_the_bridge_sends_a_fresh_client_seed_for_every_hand(server: PaijuServer) -> None:
    room = server.rooms.create("dragon", bots=3, options={"hands": 3}, seed="seeds")
    rep = reporter()
    make = json_driver(python(EXAMPLES / "dragon_bot.py"), rep)
    drawn = iter(f"bridge-seed-{n}" for n in range(100))
    url = f"ws://127.0.0.1:{server.port}/"
    bridge = Bridge(BridgeOptions(url=url, room=room.room_id, rate=0), make, rep,
                    new_seed=lambda: next(drawn))
    assert await asyncio.wait_for(bridge.run(), 60) == 0
    seeds = _client_seeds(server, room.room_id)
    # One seed per hand, each taken before that hand's deal (the first one before "ready").
    hands = len(room.table.hand_scores)
    assert hands >= 3
    assert seeds[:hands] == [(h, 0, f"bridge-seed-{h}") for h in range(hands)]
    # While the last hand is played the next one takes seeds (a match may go on): one more.
    assert len(seeds) in (hands, hands + 1)
    assert "seed_refused" not in report_text(rep)


async def test_the_bridge_can_leave_its_seed_to_the_server(server: PaijuServer) -> None:
    room = server.rooms.create("dragon", bots=3, options={"hands": 1}, seed="noseed")
    rep = reporter()
    make = json_driver(python(EXAMPLES / "dragon_bot.py"), rep)
    code = await asyncio.wait_for(
        run_bridge(server, room.room_id, make, rep, client_seed=False), 60
    )
    assert code == 0
    assert _client_seeds(server, room.room_id) == []
