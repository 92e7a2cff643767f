"""The command line: every command has --help; schema, selfplay, replay and judge work."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from paiju.cli.__main__ import build_parser, main, run_judge
from paiju.persistence.sqlite import SqliteStore
from paiju.server.protocol import schema
from paiju.table.commands import Start
from paiju.table.records import RoomCreated
from paiju.table.table import FINISHED, Table, TableSettings
from tests.persistence.writer import write_effects
from tests.table.fake_engine import FirstLegalBot, RaceEngine

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "protocol_schema.json"


@pytest.fixture
def race(race_variant: None) -> None:
    """The tests' tiny "race" variant, registered for one test."""


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["serve"],
        ["room"],
        ["room", "create"],
        ["room", "list"],
        ["room", "show"],
        ["room", "close"],
        ["room", "start"],
        ["schema"],
        ["selfplay"],
        ["replay"],
        ["judge"],
    ],
)
def test_every_command_has_help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        build_parser().parse_args([*argv, "--help"])
    assert info.value.code == 0
    assert "usage: paiju" in capsys.readouterr().out


def test_the_schema_matches_the_golden_file(capsys: pytest.CaptureFixture[str]) -> None:
    """On a deliberate change: paiju schema --output tests/golden/protocol_schema.json"""
    assert main(["schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(GOLDEN.read_text()) == json.loads(json.dumps(schema()))
    kinds = printed["client_to_server"]["discriminator"]["mapping"]
    assert set(kinds) == {
        "hello",
        "join",
        "resume",
        "ready",
        "act",
        "leave",
        "ping",
        "lobby",
        "create_room",
        "add_bot",
        "remove_bot",
        "rematch",
        "seed",
        "take_back",
    }


def test_selfplay_reports_each_level(race: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--variant", "race", "--games", "6", "--bots", "0,0", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "race: 6 games, 12 hands" in out and "level 0: n=24" in out


def test_selfplay_refuses_a_wrong_number_of_levels(
    race: None, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["selfplay", "--variant", "race", "--games", "1", "--bots", "0,0,0", "--quiet"]
    assert main(argv) == 2
    assert "2 bot levels" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["selfplay", "--variant", "nosuchgame", "--games", "1"], "no variant named"),
        (["selfplay", "--variant", "dragon", "--bots", "1,x,1,1"], "bot levels"),
        (["selfplay", "--variant", "dragon", "--option", "colour=1"], "unknown dragon option"),
        (["serve", "--memory", "--set", "nosuch=1"], "unknown setting 'nosuch'"),
        (["serve", "--memory", "--set", 'port="eighty"'], "port"),
        (["serve", "--memory", "--set", "rate_burst=true"], "rate_burst"),
        (["serve", "--memory", "--set", 'event_loop="trio"'], "event_loop"),
        (["serve", "--memory", "--set", "timers={turn='x'}"], "timers"),
        (["serve", "--memory", "--set", "novalue"], "key=value"),
        (["room", "list", "--set", "max_rooms=1.5"], "max_rooms"),
        (["room", "list", "--config", "/nonexistent/server.toml"], "no config file"),
        (["room", "create", "--variant", "dragon", "--option", "at=1979-05-27"], "--option"),
        (["room", "list", "--set", 'admin_token_file="/nonexistent/t"'], "no admin token"),
    ],
)
def test_bad_flags_and_settings_get_one_line_and_exit_code_2(
    race: None,
    argv: list[str],
    words: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("paiju.server.run.run_server", never_serve)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("paiju: ") and words in err and "Traceback" not in err


def never_serve(*args: object) -> None:
    raise AssertionError("a bad setting must be refused before the server starts")


def test_a_config_file_that_is_not_toml_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("paiju.server.run.run_server", never_serve)
    bad = tmp_path / "server.toml"
    bad.write_text("[server\nport = 1\n")
    assert main(["serve", "--memory", "--config", str(bad)]) == 2
    assert str(bad) in capsys.readouterr().err


def test_replay_prints_a_stored_game(
    race: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "p.sqlite3"
    store = SqliteStore(db)
    engine = RaceEngine()
    options = engine.normalize_options({"hands": 2})
    table = Table(
        "abc",
        engine,
        options,
        "s",
        TableSettings(timers={}, between_hands=1.0),
        lambda seat, level: FirstLegalBot(),
    )
    effects = table.open_room(RoomCreated("abc", "race", options, "s", {}, 0.0, "fair-v1"))
    effects += table.handle(None, Start(), 0.0)
    now = 0.0
    while table.phase != FINISHED:
        now = table.next_deadline() or now
        effects += table.tick(now)
    write_effects(store, "abc", effects)
    store.close()
    assert main(["replay", "abc", "--database", str(db)]) == 0
    out = capsys.readouterr().out
    assert "room abc  variant race  phase finished" in out
    assert out.count("result:") == 2
    assert main(["replay", "zzz", "--database", str(db)]) == 1


def test_judge_refuses_an_unknown_variant() -> None:
    assert run_judge("nosuchgame", io.StringIO(""), io.StringIO()) == 2


def test_judge_answers_every_line_and_reports_bad_ones() -> None:
    lines = io.StringIO(
        '{"id": 1, "kind": "solve", "tiles": ["66","66","16","46","44","45","35","11"]}\n'
        "not json\n"
        "[1, 2]\n"
        '{"id": 4, "kind": "solve", "tiles": ["66"]}\n'
        "\n"
        '{"id": 5, "kind": "showdown", "hands": [["66","66","16","46","44","45","35","11"],'
        ' ["11","22","33","55","13","56","15","12"]]}\n'
    )
    out = io.StringIO()
    assert run_judge("dragon", lines, out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, None, None, 4, 5]
    assert answers[0]["category"] == "pair" and answers[0]["leftover"] == ["66", "66"]
    assert "not valid JSON" in answers[1]["error"]
    assert "JSON object" in answers[2]["error"]
    assert "8 tiles" in answers[3]["error"]
    assert answers[4] == {"id": 5, "winner": 0}
