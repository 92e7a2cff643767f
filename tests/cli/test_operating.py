"""The command line as an operator meets it: --version, an example in every --help, the
configuration shown, one server per data directory, a busy port in one line, room commands
that print what a script needs, the same refusal for a bad value in every command."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import structlog
from structlog.testing import LogCapture

from paiju import __version__
from paiju.cli.__main__ import build_parser, main
from paiju.persistence.memory import MemoryStore
from paiju.server.app import PaijuServer
from paiju.server.run import DataLock
from tests.server.client import Client
from tests.server.conftest import ADMIN_TOKEN, make_config


@pytest.fixture(autouse=True)
def race(race_variant: None) -> None:
    """The tests' tiny "race" variant next to the real ones."""


@pytest.fixture(autouse=True)
def no_paiju_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in os.environ if n.startswith("PAIJU_")]:
        monkeypatch.delenv(name)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"paiju {__version__}"


def every_command(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
                  ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield (*path, name), child
                yield from every_command(child, (*path, name))


def test_every_command_has_an_example_in_its_help() -> None:
    commands = dict(every_command(build_parser()))
    assert {("serve",), ("config", "show"), ("health",), ("room", "watch"), ("room", "invite"),
            ("connections",), ("kick",), ("notice",), ("drain",), ("selfplay",), ("replay",),
            ("judge",), ("schema",)} <= set(commands)
    for path, parser in commands.items():
        text = parser.format_help()
        assert "example:\n" in text and "paiju " in text.split("example:\n")[1], path


def test_config_show_says_where_each_value_came_from_and_masks_the_token(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAIJU_PORT", "9123")
    token = "k" * 40
    assert main(["config", "show", "--config", os.devnull, "--admin-token", token,
                 "--set", "rate_burst=80", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["port"] == {"value": 9123, "source": "PAIJU_PORT"}
    assert shown["rate_burst"] == {"value": 80, "source": "the command line"}
    assert shown["admin_token"]["value"] == "********"
    assert shown["bot_delay"] == {"value": 0.6, "source": "default"}
    assert main(["config", "show", "--config", os.devnull]) == 0
    assert "rate_per_second" in capsys.readouterr().out


def test_an_unknown_variable_stops_the_start_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAIJU_MAX_ROOM", "3")
    assert main(["serve", "--memory", "--config", os.devnull]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "PAIJU_MAX_ROOM; did you mean max_rooms" in err


# ---------------------------------------------------------------- one server per directory


def test_a_data_directory_is_held_by_one_server(tmp_path: Path) -> None:
    first = DataLock([tmp_path])
    try:
        held_by = f"in use by another paiju server \\(pid {os.getpid()}"
        with pytest.raises(ValueError, match=held_by):
            DataLock([tmp_path / "."])
    finally:
        first.release()
    DataLock([tmp_path]).release()  # free again


def test_a_second_server_neither_starts_nor_touches_the_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token_file = tmp_path / "admin.token"
    token_file.write_text("the running server's token\n")
    held = DataLock([tmp_path])  # as a running server holds it
    try:
        code = main(["serve", "--config", os.devnull, "--database", str(tmp_path / "p.db"),
                     "--set", f'admin_token_file="{token_file}"', "--port", "0"])
    finally:
        held.release()
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is in use by another paiju server" in err
    assert token_file.read_text() == "the running server's token\n"


def test_a_busy_port_is_one_line_and_leaves_the_token_file_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token_file = tmp_path / "admin.token"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = main(["serve", "--memory", "--config", os.devnull, "--port", str(port),
                     "--set", f'admin_token_file="{token_file}"'])
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"port {port} on 127.0.0.1 is already in use" in err and "--port" in err
    assert not token_file.exists()


# ---------------------------------------------------------------- against a running server


@pytest.fixture
async def running() -> AsyncIterator[tuple[PaijuServer, list[str]]]:
    structlog.configure(processors=[LogCapture()])  # the server's lines stay off stdout
    server = PaijuServer(make_config(), MemoryStore(), ADMIN_TOKEN)
    await server.start()
    flags = ["--config", os.devnull, "--port", str(server.port), "--admin-token", ADMIN_TOKEN]
    yield server, flags
    await server.stop()


async def paiju(*argv: str) -> int:
    """``main`` in a thread (it runs its own event loop), the server serving meanwhile."""
    return await asyncio.to_thread(main, list(argv))


async def test_room_create_prints_the_id_and_list_and_show_find_it(
    running: tuple[PaijuServer, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    server, flags = running
    assert await paiju("room", "create", *flags, "--variant", "dragon", "--bots", "3") == 0
    room_id = capsys.readouterr().out.strip()
    assert room_id in server.rooms.rooms and len(room_id) == 8
    assert await paiju("room", "list", *flags) == 0
    listed = capsys.readouterr().out
    assert room_id in listed and "dragon" in listed
    assert await paiju("room", "show", *flags, room_id) == 0
    assert f"room {room_id}" in capsys.readouterr().out
    assert await paiju("room", "close", *flags, room_id, "--json") == 0
    closed = json.loads(capsys.readouterr().out)
    assert await paiju("room", "show", *flags, room_id, "--json") == 0
    assert json.loads(capsys.readouterr().out) == closed and closed["phase"] == "closed"


async def test_pause_notice_invite_connections_kick_from_the_command_line(
    running: tuple[PaijuServer, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    server, flags = running
    room = server.rooms.create("race", bots=1, bot_level=0)
    ann = await Client.open(server.port)
    await ann.send({"type": "join", "room": room.room_id, "name": "ann"})
    await ann.expect("joined")
    assert await paiju("room", "pause", *flags, room.room_id, "--text", "tea") == 0
    assert (await ann.expect("room_paused"))["reason"] == "tea"
    assert await paiju("room", "resume", *flags, room.room_id) == 0
    assert await paiju("room", "notice", *flags, room.room_id, "hello") == 0
    assert (await ann.expect("notice"))["text"] == "hello"
    assert await paiju("notice", *flags, "to all") == 0
    assert (await ann.expect("notice"))["text"] == "to all"
    capsys.readouterr()
    assert await paiju("room", "invite", *flags, room.room_id, "--seat", "1") == 0
    token = capsys.readouterr().out.strip()
    assert len(token) >= 32
    assert await paiju("connections", *flags, "--json") == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["kind"] for r in rows] == ["seated"]
    assert await paiju("kick", *flags, rows[0]["connection"]) == 0
    assert await paiju("kick", *flags, "nobody") == 1
    assert "no open connection 'nobody'" in capsys.readouterr().err


async def test_room_commands_over_tls_with_a_ca_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import trustme

    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1")
    chain, key, ca_file = tmp_path / "chain.pem", tmp_path / "key.pem", tmp_path / "ca.pem"
    cert.private_key_pem.write_to_path(key)
    cert.cert_chain_pems[0].write_to_path(chain)
    ca.cert_pem.write_to_path(ca_file)
    structlog.configure(processors=[LogCapture()])
    config = make_config(tls_cert_file=str(chain), tls_key_file=str(key))
    server = PaijuServer(config, MemoryStore(), ADMIN_TOKEN)
    await server.start()
    try:
        url = f"wss://127.0.0.1:{server.port}/admin"
        flags = ["--config", os.devnull, "--admin-token", ADMIN_TOKEN, "--url", url]
        assert await paiju("room", "list", *flags, "--ca-file", str(ca_file), "--json") == 0
        assert json.loads(capsys.readouterr().out) == []
        assert await paiju("room", "list", *flags) == 2  # not trusted without the CA file
        assert "CERTIFICATE_VERIFY_FAILED" in capsys.readouterr().err
    finally:
        await server.stop()


async def test_health_says_ready_or_not(
    running: tuple[PaijuServer, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    server, _ = running
    assert await paiju("health", "--config", os.devnull, "--port", str(server.port)) == 0
    assert "readyz: ready" in capsys.readouterr().out
    assert await paiju("health", "--config", os.devnull, "--port", str(server.port),
                       "--live") == 0
    room = server.rooms.create("race", bots=1, bot_level=0)
    from paiju.table.commands import Join, Ready

    await room.call(lambda table, now: (None, table.handle(None, Join("ann"), now)))
    await room.call(lambda table, now: (None, table.handle(0, Ready(), now)))
    await server.drain()
    assert await paiju("health", "--config", os.devnull, "--port", str(server.port)) == 1
    assert "503 draining for a restart" in capsys.readouterr().out


# ---------------------------------------------------------------- one refusal per bad value


async def refusals_of_a_bad_value(
    server: PaijuServer, flags: list[str], capsys: pytest.CaptureFixture[str], level: int,
    variant: str,
) -> list[str]:
    """The sentence every way of asking gives for bot level ``level`` of ``variant``."""
    said = []
    levels = ",".join([str(level)] * 4)
    assert main(["selfplay", "--variant", variant, "--games", "1", "--quiet",
                 f"--bots={levels}"]) == 2
    said.append(capsys.readouterr().err.strip())
    assert await paiju("room", "create", *flags, "--variant", variant, "--bots", "3",
                       f"--bot-level={level}") == 2
    said.append(capsys.readouterr().err.strip())
    client = await Client.open(server.port)
    await client.send({"type": "create_room", "preset": variant, "bots": 1,
                       "bot_level": level})
    said.append("paiju: " + (await client.expect("error"))["message"])
    await client.send({"type": "create_room", "preset": variant})
    await client.expect("joined")
    await client.send({"type": "add_bot", "seat": 2, "level": level})
    said.append("paiju: " + (await client.expect("error"))["message"])
    await client.close()
    return said


@pytest.mark.parametrize("level", [7, -1])
async def test_a_bad_bot_level_is_refused_the_same_way_everywhere(
    running: tuple[PaijuServer, list[str]], capsys: pytest.CaptureFixture[str], level: int
) -> None:
    server, flags = running
    for variant in ("dragon", "mcr"):
        said = await refusals_of_a_bad_value(server, flags, capsys, level, variant)
        assert len(set(said)) == 1, said
        assert said[0].startswith(f"paiju: {variant} has no bot level {level} (levels: 0")


async def test_an_unknown_variant_is_refused_the_same_way_everywhere(
    running: tuple[PaijuServer, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    _, flags = running
    assert main(["selfplay", "--variant", "nosuch", "--games", "1"]) == 2
    said = [capsys.readouterr().err.strip()]
    assert main(["judge", "nosuch"]) == 2
    said.append(capsys.readouterr().err.strip())
    assert await paiju("room", "create", *flags, "--variant", "nosuch") == 2
    said.append(capsys.readouterr().err.strip())
    assert len(set(said)) == 1 and said[0].startswith("paiju: no variant named 'nosuch'")


# ---------------------------------------------------------------- long work


def test_judge_reads_files_and_replay_checks_every_room(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = tmp_path / "hands.jsonl"
    lines.write_text(
        '{"id": 1, "kind": "solve", "tiles": ["66","66","16","46","44","45","35","11"]}\n'
        "not json\n"
    )
    assert main(["judge", "dragon", str(lines), str(lines), "--quiet"]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [a["id"] for a in answers] == [1, None, 1, None]
    assert main(["judge", "dragon", str(tmp_path / "missing.jsonl")]) == 2
    assert "no file" in capsys.readouterr().err
    from paiju.persistence.sqlite import SqliteStore

    SqliteStore(tmp_path / "p.sqlite3").close()
    assert main(["replay", "--all", "--database", str(tmp_path / "p.sqlite3"),
                 "--config", os.devnull, "--quiet"]) == 0
    assert "rooms" in capsys.readouterr().out


async def test_room_watch_prints_a_line_per_public_message_until_the_room_goes(
    running: tuple[PaijuServer, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    server, flags = running
    room = server.rooms.create("race", bots=2, bot_level=0, options={"hands": 1})
    watching = asyncio.create_task(paiju("room", "watch", *flags, room.room_id))
    for _ in range(200):
        if room.watchers:
            break
        await asyncio.sleep(0.01)
    await server.rooms.close(room.room_id, "closed by the operator")
    assert await asyncio.wait_for(watching, 10) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].startswith("state ") and "closed" in lines[-2] and lines[-1].startswith("left")
    assert f"watching room {room.room_id}" in captured.err
