"""Botzone-format bots (written for the tests from Botzone's protocol) play MCR hands on a
real server through the bridge: a long-running one a whole match, a one-shot one a hand."""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from pathlib import Path

import pytest

from paiju.bots.bridge import BridgeFailed
from paiju.bots.drivers import DriverFactory
from paiju.bots.external import Reporter
from paiju.persistence.store import actions
from paiju.server.app import PaijuServer
from tests.bots.conftest import report_text, reporter, run_bridge

BOTS = Path(__file__).resolve().parent / "botzone"


def factory(argv: list[str], io: str) -> tuple[DriverFactory, Reporter]:
    rep = reporter()
    return DriverFactory(argv, "botzone", rep, 20.0, "fallback", io=io), rep


async def test_a_long_running_bot_plays_a_whole_match(
    server: PaijuServer, tmp_path: Path
) -> None:
    log = tmp_path / "responses.txt"
    options = {"rounds": 1, "concealed_and_melded_kong_5": True}  # as Botzone's calculator
    room = server.rooms.create("mcr", bots=3, options=options, seed="botzone")
    make, rep = factory([sys.executable, str(BOTS / "longrun_bot.py"), str(log)], "simple")
    bridge = run_bridge(server, room.room_id, make, rep, check_room=make.check)
    code = await asyncio.wait_for(bridge, 120)
    assert code == 0 and room.table.phase == "finished"
    assert len(room.table.hand_scores) == 4
    assert rep.failures == 0, report_text(rep)
    said = Counter(line.split()[0] for line in log.read_text().splitlines())
    assert said["PASS"] > 100 and said["PLAY"] > 20
    assert said["PENG"] + said["CHI"] > 0  # claims went through, with their discards
    played = [a.action for a in actions(server.store, room.room_id) if a.seat == 0]
    claims = [a for a in played if a.startswith(("peng", "chi"))]
    assert len(claims) == said["PENG"] + said["CHI"]  # every claim answer went through
    assert any(a.startswith("discard") for a in played)


async def test_a_one_shot_bot_plays_a_hand(server: PaijuServer) -> None:
    room = server.rooms.create("mcr", bots=3, options={"rounds": 1}, seed="oneshot")
    argv = [sys.executable, "-I", "-S", str(BOTS / "oneshot_bot.py")]  # quick to start
    make, rep = factory(argv, "json")
    bridge = run_bridge(server, room.room_id, make, rep, check_room=make.check, hands=1)
    code = await asyncio.wait_for(bridge, 120)
    assert code == 0 and "leaving room" in report_text(rep)
    assert rep.failures == 0, report_text(rep)
    played = [a for a in actions(server.store, room.room_id) if a.seat == 0 and a.hand == 0]
    assert sum(a.action.startswith("discard") for a in played) > 5
    assert all(a.source == "player" for a in played)


@pytest.mark.parametrize("options", [{"multiple_win": True}, {"min_fan": 6}])
async def test_a_room_botzone_rules_cannot_play_is_refused(
    server: PaijuServer, options: dict
) -> None:
    room = server.rooms.create("mcr", bots=3, options={"rounds": 1, **options}, seed="x")
    make, rep = factory([sys.executable, str(BOTS / "oneshot_bot.py")], "json")
    with pytest.raises(BridgeFailed, match="refusing the room"):
        await run_bridge(server, room.room_id, make, rep, check_room=make.check)
    await asyncio.sleep(0.1)
    seat = room.table.seats[0]
    assert seat.kind == "human" and seat.trustee  # the bridge left; the trustee plays its seat


async def test_a_new_room_is_checked_before_it_is_opened(server: PaijuServer) -> None:
    make, rep = factory([sys.executable, str(BOTS / "oneshot_bot.py")], "json")
    with pytest.raises(BridgeFailed, match="MCR mahjong only"):
        await run_bridge(server, "new:dragon", make, rep, check_room=make.check)
    assert not server.rooms.rooms
