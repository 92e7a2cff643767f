"""Every effect a table emits in seeded games of every variant, as bytes, against digests
recorded before the table layer's speed-ups (main feb17e0): a change made for speed must
leave every frame sent and every entry stored byte for byte as it was.

Each game seats people (one seat a bot) who play the level-1 bot's choice from the last view
they were sent, with the version they were last shown, through ``Table.handle`` and
``Table.tick``; a watched spectator comes and goes, seats drop and come back (trustees play
them), decisions time out, seeds are sent, stale versions are refused. The digest covers,
in order: every ``Send`` (its target, its frame, its message with sorted keys and as the
host writes it without a frame), every ``Persist`` (its record's kind, the entry's number,
body, links and its deadlines), every ``Incident``'s kind and seat, every refusal's error
type, and the operator's summary at the end.
Regenerate the fixture only when a frame or record is meant to change:
``PYTHONPATH=src python -m tests.table.test_recorded_frames``.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import orjson
import pytest

from paiju.core.errors import GameError
from paiju.core.rng import SeededRng
from paiju.engines.registry import get_engine, get_variant
from paiju.table.commands import Act, AddBot, Close, Connected, Join, Ready, SendSeed
from paiju.table.effects import Effect, Incident, Persist, Send
from paiju.table.table import FINISHED, HAND_OVER, PLAYING, Table, TableSettings

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "recorded_frames.json"

GAMES: dict[str, list[dict[str, Any]]] = {
    "mcr": [{}],
    "dragon": [{}, {"seats": 2}],
    "shengji": [{}],
    "diu": [{}, {"players": 4, "poll_mode": "parallel"}],
}
SEEDS = 2
#: Steps of one game (an action, a timeout, a seat dropping or coming back, ...).
MOST_STEPS = 260
SETTINGS = TableSettings(timers={"default": 20.0}, bot_delay=0.5, between_hands=2.0,
                         trustee_after=2, trustee_delay=1.0)
#: Every dict's keys sorted, any key type: the same bytes for the same message.
SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


class Game:
    """One table and what its people were last sent."""

    def __init__(self, variant: str, options: dict[str, Any], seed: int) -> None:
        engine = get_engine(variant)
        self.options = engine.normalize_options(options)
        self.count = engine.seat_count(self.options)
        bots = get_variant(variant)
        self.table = Table(f"room-{variant}", engine, self.options, f"seed/{seed}", SETTINGS,
                           lambda s, lv: bots.make_bot(lv, SeededRng(f"{seed}/bot/{s}")))
        self.people = [bots.make_bot(1, SeededRng(f"{seed}/person/{s}"))
                       for s in range(self.count)]
        self.chooser = random.Random(seed)
        self.watching = True
        self.table.watched = lambda: self.watching
        self.views: dict[int, Any] = {}
        self.versions: dict[int, int] = {}
        self.away: set[int] = set()
        self.digest = hashlib.sha256()
        self.now = 0.0

    def take(self, effects: list[Effect]) -> None:
        """Every effect into the digest; each person's last view and version kept."""
        update = self.digest.update
        for effect in effects:
            if isinstance(effect, Send):
                update(b"S%d|" % effect.to)
                update(effect.frame if effect.frame is not None else b"-")
                update(orjson.dumps(effect.message, option=SORTED))
                update(_as_written(effect.message))
                message = effect.message
                if message["type"] == "state" and effect.to >= 0:
                    self.views[effect.to] = message["view"]
                    self.versions[effect.to] = message["version"]
            elif isinstance(effect, Persist):
                entry = effect.entry
                update(f"P{effect.record.kind}|{entry.n}|{entry.kind}|{entry.prev}|"
                       f"{entry.hash}|".encode())
                update(entry.body.encode())
                update(orjson.dumps(sorted(effect.deadlines.items())))
            else:
                assert isinstance(effect, Incident)
                update(f"I{effect.kind}|{effect.seat}".encode())

    def command(self, seat: int | None, command: Any) -> None:
        try:
            self.take(self.table.handle(seat, command, self.now))
        except GameError as exc:
            self.digest.update(f"E{type(exc).__name__}".encode())

    def tick(self) -> None:
        self.take(self.table.tick(self.now))

    def open(self) -> None:
        for seat in range(self.count - 1):
            self.command(None, Join(f"p{seat}"))
        self.command(None, AddBot(self.count - 1))
        for seat in range(self.count - 1):
            self.command(seat, SendSeed(0, f"s{seat}"))
            self.command(seat, Ready())

    def step(self) -> None:
        """One thing happens: mostly a person acts, at times something else."""
        table, roll = self.table, self.chooser.random()
        people = [s for s in range(self.count - 1) if s not in self.away]
        asked = [s for s in sorted(table.decisions.waiting) if s in people
                 and not table.seats[s].trustee]
        if roll < 0.03 and people:
            seat = self.chooser.choice(people)
            self.away.add(seat)
            self.command(seat, Connected(False))
        elif roll < 0.08 and self.away:
            seat = self.chooser.choice(sorted(self.away))
            self.away.discard(seat)
            self.command(seat, Connected(True))
        elif roll < 0.11:
            self.watching = not self.watching
            self.command(None, AddBot(0))  # refused: the match is on (the room is unchanged)
        elif roll < 0.13 and people:
            seat = self.chooser.choice(people)
            self.command(seat, SendSeed(table.seed_hand(), f"x{seat}/{self.now}"))
        elif roll < 0.17 and asked:
            seat = asked[0]
            self.command(seat, Act(self.versions.get(seat, 0) + 1, "nothing"))
        elif roll < 0.22 and asked:
            self.now += 25.0  # the person's time runs out
            self.tick()
        elif asked:
            seat = asked[0]
            text = self.people[seat].choose(self.views[seat])
            self.command(seat, Act(self.versions[seat], text))
        else:
            deadline = table.next_deadline()
            self.now = max(self.now, deadline if deadline is not None else self.now) + 0.25
            self.tick()
        self.now += 0.5


def _as_written(message: dict[str, Any]) -> bytes:
    """The message as the host writes one the table sent without a frame (``encode_bytes``:
    in its keys' own order), as the spectators' delayed feed and a returning seat get it."""
    try:
        return orjson.dumps(message)
    except TypeError:  # (keys that are not strings: the host could not write it either)
        return b"!"


def record(variant: str, options: dict[str, Any], seed: int) -> str:
    """The digest of one game's effects (see the module docstring)."""
    game = Game(variant, options, seed)
    game.open()
    for _ in range(MOST_STEPS):
        if game.table.phase == FINISHED:
            break
        if game.table.phase == HAND_OVER:
            game.now += SETTINGS.between_hands
            game.tick()
            continue
        assert game.table.phase == PLAYING
        game.step()
    game.command(None, Close("over"))
    game.digest.update(orjson.dumps(game.table.summary(), option=SORTED))
    return game.digest.hexdigest()


def cases() -> list[tuple[str, int, int]]:
    return [
        (v, i, s) for v, games in GAMES.items() for i in range(len(games)) for s in range(SEEDS)
    ]


@pytest.mark.parametrize(("variant", "game", "seed"), cases())
def test_frames_and_records_match_the_recording(variant: str, game: int, seed: int) -> None:
    recorded = json.loads(FIXTURE.read_text())
    assert record(variant, GAMES[variant][game], seed) == recorded[f"{variant}/{game}/{seed}"]


def test_a_game_is_its_seed() -> None:
    """The recording is reproducible: the same game twice gives the same digest (what the
    table keeps in memory between rooms, its memos, changes no byte)."""
    assert record("mcr", {}, 5) == record("mcr", {}, 5)


if __name__ == "__main__":
    FIXTURE.write_text(
        json.dumps({f"{v}/{g}/{s}": record(v, GAMES[v][g], s) for v, g, s in cases()}, indent=1)
        + "\n"
    )
