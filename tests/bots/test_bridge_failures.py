"""What the bridge does when the program fails, and how it answers each decision once."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from paiju.persistence.store import actions
from paiju.server.app import PaijuServer
from tests.bots.conftest import EXAMPLES, json_driver, python, report_text, reporter, run_bridge

HEADER = "import json, sys, time\n"


def bot(tmp_path: Path, name: str, body: str) -> list[str]:
    """A bot program: ``body`` runs for each request (``req``) and sets ``action``."""
    lines = [
        HEADER,
        "n = 0\n",
        "for line in sys.stdin:\n",
        "    req = json.loads(line)\n",
        "    if req['type'] != 'request':\n",
        "        continue\n",
        "    n += 1\n",
        *("    " + x + "\n" for x in body.strip().splitlines()),
    ]
    path = tmp_path / f"{name}.py"
    path.write_text("".join(lines))
    return python(path)


def player_actions(server: PaijuServer, room: str, seat: int = 0) -> list[str]:
    return [a.source for a in actions(server.store, room) if a.seat == seat]


async def play(server: PaijuServer, variant: str, options: dict, argv: list[str], **kw: object):
    seats = {"mcr": 4, "dragon": 4, "diu": 3, "shengji": 4}[variant]
    room = server.rooms.create(variant, bots=seats - 1, options=options, seed="fail")
    rep = reporter()
    timeout = float(kw.pop("answer_timeout", 10.0))  # type: ignore[arg-type]
    code = await asyncio.wait_for(
        run_bridge(server, room.room_id, json_driver(argv, rep, timeout), rep, **kw), 120
    )
    return room, rep, code


async def test_refused_answers_are_reported_and_the_trustee_plays(
    server: PaijuServer, tmp_path: Path
) -> None:
    argv = bot(tmp_path, "garbage", "print(json.dumps({'action': 'discard X9'}), flush=True)")
    room, rep, code = await play(server, "mcr", {"rounds": 1}, argv)
    assert code == 0 and room.table.phase == "finished"
    text = report_text(rep)
    assert "invalid answer 'discard X9': refused by the server (bad_tile: not a tile code" in text
    assert '"type": "request"' in text and "trustee" in text
    sources = player_actions(server, room.room_id)
    assert rep.failures == len(sources) > 0  # every decision failed, and was played anyway
    assert set(sources) == {"player"}  # the trustee's acts are the seat's own acts


async def test_unreadable_answers_are_reported(server: PaijuServer, tmp_path: Path) -> None:
    argv = bot(tmp_path, "prose", "print('I would discard the west wind', flush=True)")
    room, rep, code = await play(server, "dragon", {"hands": 1}, argv)
    assert code == 0 and room.table.phase == "finished"
    assert "unreadable answer 'I would discard the west wind'" in report_text(rep)
    assert rep.failures == 1


async def test_a_crashing_program_is_reported_and_started_again(
    server: PaijuServer, tmp_path: Path
) -> None:
    # Each process answers two requests, then dies on its third.
    body = "if n == 3:\n    sys.exit(3)\nprint(json.dumps({'action': req['legal'][0]}), flush=True)"
    room, rep, code = await play(server, "dragon", {"hands": 6}, bot(tmp_path, "crash", body))
    assert code == 0 and room.table.phase == "finished"
    text = report_text(rep)
    assert text.count("the program crashed: the program exited with status 3") == 2
    assert rep.failures == 2  # hands 3 and 6: the restarted program answered hands 4 and 5


async def test_a_late_answer_is_dropped_and_the_next_decision_gets_its_own(
    server: PaijuServer, tmp_path: Path
) -> None:
    body = (
        "if n == 1:\n    time.sleep(1.5)\n"
        "print(json.dumps({'id': req['id'], 'action': req['legal'][-1]}), flush=True)"
    )
    argv = bot(tmp_path, "slow", body)
    # Request 2 goes out at about 1 s and is answered at about 1.5 s, after the late answer.
    room, rep, code = await play(server, "dragon", {"hands": 3}, argv, answer_timeout=1.0)
    assert code == 0 and room.table.phase == "finished"
    assert "no answer within 1.00 s (missed deadline)" in report_text(rep)
    assert rep.failures == 1, report_text(rep)
    assert len(player_actions(server, room.room_id)) == 3


async def test_with_a_deadline_the_server_plays_the_timeout_action(
    timed_server: PaijuServer, tmp_path: Path
) -> None:
    argv = bot(tmp_path, "mute", "time.sleep(5)")
    room, rep, code = await play(timed_server, "dragon", {"hands": 1}, argv, answer_timeout=9)
    assert code == 0 and room.table.phase == "finished"
    text = report_text(rep)
    assert "missed deadline" in text and "the server played 'chain" in text
    assert player_actions(timed_server, room.room_id) == ["timeout"]


async def test_with_a_deadline_a_refused_answer_waits_for_the_server(
    timed_server: PaijuServer, tmp_path: Path
) -> None:
    argv = bot(tmp_path, "bad", "print(json.dumps({'action': 'bust'}), flush=True)")
    room, rep, code = await play(timed_server, "dragon", {"hands": 1}, argv)
    assert code == 0
    text = report_text(rep)
    assert "refused by the server (not_bust" in text or "refused by the server" in text
    assert "the server plays the variant's timeout action at the deadline" in text
    assert player_actions(timed_server, room.room_id) == ["timeout"]


async def test_every_decision_is_asked_once(server: PaijuServer, tmp_path: Path) -> None:
    log = tmp_path / "ids.txt"
    body = (
        f"open({str(log)!r}, 'a').write(str(req['id']) + ' ' + str(req['hand']) + '\\n')\n"
        "print(json.dumps({'id': req['id'], 'action': req['legal'][0]}), flush=True)"
    )
    room, rep, code = await play(server, "mcr", {"rounds": 1}, bot(tmp_path, "once", body))
    assert code == 0 and rep.failures == 0
    ids = [int(line.split()[0]) for line in log.read_text().splitlines()]
    assert ids == list(range(1, len(ids) + 1))
    assert len(ids) == len(player_actions(server, room.room_id))


async def test_requests_carry_the_match_context(server: PaijuServer, tmp_path: Path) -> None:
    log = tmp_path / "requests.jsonl"
    body = (
        f"open({str(log)!r}, 'a').write(line)\n"
        "print(json.dumps({'action': req['legal'][0]}), flush=True)"
    )
    room, _rep, code = await play(server, "dragon", {"hands": 2}, bot(tmp_path, "ctx", body))
    assert code == 0
    first, second = (json.loads(x) for x in log.read_text().splitlines())
    assert first["variant"] == "dragon" and first["seat"] == 0 and first["room"] == room.room_id
    assert (first["hand"], second["hand"]) == (0, 1)
    assert second["totals"] == list(room.table.hand_scores[0]) and len(first["seats"]) == 4
    assert first["legal"] == first["view"]["legal"] and first["legal_complete"] is True
    assert first["deadline_ms"] == 10_000  # no server deadline: the answer timeout
    kinds = [e["kind"] for e in second["events"]]
    assert "hand_scored" in kinds and "hand_started" in kinds


async def test_loop_plays_rematches(server: PaijuServer) -> None:
    argv = python(EXAMPLES / "dragon_bot.py")
    _room, rep, code = await play(server, "dragon", {"hands": 1}, argv, loop=True, matches=3)
    assert code == 0
    finished = [r for r in server.rooms.rooms.values() if r.table.phase == "finished"]
    assert len(finished) == 3
    assert all(r.table.seats[0].name == "bridge bot" for r in finished)
    assert report_text(rep).count("over in room") == 3


async def test_new_preset_opens_a_room_with_bots(server: PaijuServer) -> None:
    rep = reporter()
    make = json_driver(python(EXAMPLES / "dragon_bot.py"), rep)
    code = await asyncio.wait_for(
        run_bridge(server, "new:dragon", make, rep, options={"hands": 1}), 60
    )
    assert code == 0
    (room,) = server.rooms.rooms.values()
    assert room.table.phase == "finished"
    assert [s.kind for s in room.table.seats] == ["human", "bot", "bot", "bot"]


async def test_an_unknown_room_fails_with_status_1(server: PaijuServer) -> None:
    rep = reporter()
    make = json_driver(python(EXAMPLES / "dragon_bot.py"), rep)
    from paiju.bots.bridge import BridgeFailed

    try:
        await run_bridge(server, "nosuchroom", make, rep)
    except BridgeFailed as exc:
        assert "unknown_room" in str(exc)
    else:
        raise AssertionError("joining an unknown room must fail")
