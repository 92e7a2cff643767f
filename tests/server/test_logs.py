"""One log stream: structlog renders every line, the standard library's too, as JSON (or
console text) at the configured level, with the connection, room and seat of each line."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
import structlog

from paiju.persistence.memory import MemoryStore
from paiju.server.app import PaijuServer
from paiju.server.logs import configure_logging
from tests.server.client import Client
from tests.server.conftest import ADMIN_TOKEN, make_config


def json_lines(text: str) -> list[dict[str, Any]]:
    lines = [line for line in text.splitlines() if line.strip()]
    parsed = [json.loads(line) for line in lines]  # every line is JSON
    assert len(parsed) == len(lines)
    return parsed


async def a_short_game(level: str) -> str:
    """A seat is taken, the player leaves; returns the room id."""
    server = PaijuServer(make_config(), MemoryStore(), ADMIN_TOKEN)
    await server.start()
    try:
        room = server.rooms.create("race", bots=1, bot_level=0)
        client = await Client.open(server.port)
        await client.send({"type": "join", "room": room.room_id, "name": "ann"})
        await client.expect("joined")
        await client.send({"type": "act", "version": 0, "action": "go"})
        await client.expect("error")
        await client.close()
        for _ in range(100):
            if not server.sessions:
                break
            await _pause()
        return room.room_id
    finally:
        await server.stop()


async def _pause() -> None:
    import asyncio

    await asyncio.sleep(0.01)


async def test_every_line_is_json_with_its_connection_room_and_seat(
    capfd: pytest.CaptureFixture[str]
) -> None:
    configure_logging("info", "json")
    logging.getLogger("asyncio").warning("a line from the standard library")
    room_id = await a_short_game("info")
    lines = json_lines(capfd.readouterr().err)
    by_event = {line["event"]: line for line in lines}
    stdlib = by_event["a line from the standard library"]
    assert stdlib["level"] == "warning" and "timestamp" in stdlib
    seated = by_event["seated"]
    refused = by_event["refused"]
    assert seated["room"] == refused["room"] == room_id and refused["seat"] == 0
    assert seated["connection"] == refused["connection"] == by_event["connected"]["connection"]
    assert by_event["room_opened"]["room"] == room_id
    assert not [line for line in lines if line["event"] == "connection open"]  # info: ours only


async def test_debug_shows_the_libraries_lines_with_their_address_but_no_frames(
    capfd: pytest.CaptureFixture[str]
) -> None:
    configure_logging("debug", "json")
    await a_short_game("debug")
    lines = json_lines(capfd.readouterr().err)
    opened = [line for line in lines if line["event"] == "connection open"]
    assert opened and opened[0]["address"] == "127.0.0.1"
    assert not [line for line in lines if "TEXT" in line["event"]]  # no frame, no token


async def test_warning_level_leaves_info_out_and_console_format_is_text(
    capfd: pytest.CaptureFixture[str]
) -> None:
    configure_logging("warning", "console")
    structlog.get_logger("t").info("not shown")
    structlog.get_logger("t").warning("shown", room="r1")
    err = capfd.readouterr().err
    assert "not shown" not in err
    assert "shown" in err and "room=r1" in err and not err.lstrip().startswith("{")


@pytest.mark.parametrize("fmt", ["json", "console"])
def test_an_exception_is_written_as_the_standard_librarys_traceback_text(
    fmt: str, capfd: pytest.CaptureFixture[str]
) -> None:
    # What lets the server start without rich (``paiju.server``): no renderer formats an
    # exception itself, rich or not.
    configure_logging("info", fmt)  # type: ignore[arg-type]
    try:
        raise ZeroDivisionError("nothing left")
    except ZeroDivisionError:
        structlog.get_logger("t").exception("failed")
        logging.getLogger("websockets.server").error("library", exc_info=True)
    err = capfd.readouterr().err
    assert err.count("Traceback (most recent call last):") == 2
    assert err.count("ZeroDivisionError: nothing left") == 2
    assert "─" not in err and "│" not in err  # no rich panel


def test_the_server_and_its_command_line_load_without_rich() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import paiju.cli.__main__ as cli\n"
        "from paiju.persistence.sqlite import SqliteStore\n"
        "from paiju.server.run import run_server\n"
        "from paiju.server.logs import configure_logging\n"
        "cli.build_parser().parse_args(['serve', '--memory'])\n"
        "configure_logging('info', 'console')\n"
        "assert 'structlog' in sys.modules\n"
        "print(sorted(m for m in sys.modules if m == 'rich' or m.startswith('rich.')))\n"
        "from paiju.cli.common import out\n"
        "out().print('still there')\n"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    assert found.stdout.splitlines() == ["[]", "still there"]
