"""The arena: players, duplicate seating and deals, external programs, the statistics."""

from __future__ import annotations

import io
import math
import subprocess
import sys
from pathlib import Path

import pytest

from paiju.bots.arena import Arena, ArenaResult, PlayerSpec, PlayerStats, parse_players
from paiju.bots.arena_report import contrast, contrasts, plain
from paiju.bots.external import Reporter
from tests.bots.conftest import EXAMPLES, REPO, report_text

BOTZONE = Path(__file__).resolve().parent / "botzone"


def quiet() -> Reporter:
    return Reporter(io.StringIO(), label="arena")


def test_players_are_levels_and_programs() -> None:
    specs = parse_players("2, cmd:python my bot.py,botzone:./bz --fast,botzone-simple:./bz2")
    assert specs[0] == PlayerSpec("2", 2)
    assert specs[1].argv == ("python", "my", "bot.py") and specs[1].protocol == "json"
    assert (specs[2].argv, specs[2].protocol) == (("./bz", "--fast"), "botzone")
    assert specs[2].io == "json"
    assert (specs[3].protocol, specs[3].io) == ("botzone", "simple")


@pytest.mark.parametrize("text", ["two", "cmd:", "2,,3", "-1"])
def test_bad_players_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_players(text)


def test_one_player_per_seat() -> None:
    with pytest.raises(ValueError, match="dragon has 4 seats"):
        Arena("dragon", parse_players("1,0"))


def test_duplicate_rotates_the_players_over_the_same_deal() -> None:
    arena = Arena("mcr", parse_players("3,2,1,0"))
    assert [arena.seating(r) for r in range(4)] == [
        ["3", "2", "1", "0"], ["0", "3", "2", "1"], ["1", "0", "3", "2"], ["2", "1", "0", "3"],
    ]
    assert arena.deal(5) == arena.deal(5) and arena.deal(5) != arena.deal(6)


def test_every_player_sits_every_seat_of_every_board() -> None:
    arena = Arena("dragon", parse_players("1,0,1,0"))
    result = arena.run(3, duplicate=True)
    assert result.hands == 12
    for stats in result.players.values():
        assert sorted(stats.score) == [0, 1, 2]
        assert all(sample.n == 8 for sample in stats.score.values())  # 2 seats x 4 rotations
    # Zero-sum, and each board is dealt the same in every rotation: the two players' board
    # means are exact opposites.
    one, zero = result.players["1"], result.players["0"]
    for board in range(3):
        assert math.isclose(one.score[board].mean, -zero.score[board].mean, abs_tol=1e-9)


def test_without_duplicate_each_board_is_played_once() -> None:
    result = Arena("dragon", parse_players("1,0,1,0")).run(4, duplicate=False)
    assert result.hands == 4 and all(s.n == 2 for s in result.players["1"].score.values())


def test_the_same_seed_gives_the_same_result() -> None:
    def run() -> str:
        return plain(Arena("mcr", parse_players("2,1,2,1"), seed="s").run(2, True))

    first, second = run(), run()
    assert first.split("ms/decision")[0] == second.split("ms/decision")[0]
    assert [r.split("|")[:6] for r in first.splitlines()] == [
        r.split("|")[:6] for r in second.splitlines()
    ]


def test_external_programs_play_and_failures_fall_back(tmp_path: Path) -> None:
    script = tmp_path / "bad.py"
    script.write_text("import time\nprint('{}', flush=True)\ntime.sleep(9)\n")
    garbage = f"cmd:{sys.executable} {script}"
    specs = parse_players(f"1,cmd:{sys.executable} {EXAMPLES / 'dragon_bot.py'},1,{garbage}")
    rep = quiet()
    arena = Arena("dragon", specs, reporter=rep, think_time=0.5)
    try:
        result = arena.run(2, duplicate=True)
    finally:
        arena.close()
    assert result.hands == 8
    good, bad = specs[1].label, specs[3].label
    assert result.players[good].failures == 0 and result.players[good].decisions == 8
    assert result.players[bad].failures == 8  # one unreadable answer, then silence
    assert "unreadable answer" in report_text(rep) and "missed deadline" in report_text(rep)


def test_a_botzone_bot_plays_in_the_arena() -> None:
    bot = f"botzone-simple:{sys.executable} {BOTZONE / 'longrun_bot.py'}"
    rep = quiet()
    arena = Arena(
        "mcr", parse_players(f"1,{bot},1,1"), {"concealed_and_melded_kong_5": True}, reporter=rep
    )
    try:
        result = arena.run(1, duplicate=True)
    finally:
        arena.close()
    stats = result.players[bot]
    assert result.hands == 4 and stats.decisions > 20
    assert stats.failures == 0, report_text(rep)


def test_a_room_a_botzone_bot_cannot_play_is_refused() -> None:
    with pytest.raises(Exception, match="multiple_win"):
        Arena("mcr", parse_players("1,botzone:x,1,1"), {"multiple_win": True})


# ---------------------------------------------------------------- statistics


def stats_with(scores: dict[int, list[float]]) -> PlayerStats:
    st = PlayerStats()
    for board, values in scores.items():
        for v in values:
            st.add(board, v, {})
    return st


def test_pairwise_differences_are_paired_by_board() -> None:
    # B trails A by exactly 1 on every board, whatever the board's luck: the pairing sees a
    # certain difference although each player's own scores vary a lot.
    a = stats_with({0: [10, 12], 1: [-30, -28], 2: [5, 5]})
    b = stats_with({0: [10, 10], 1: [-30, -30], 2: [4, 4]})
    c = contrast("A", "B", a, b)
    assert (c.diff, c.boards) == (1.0, 3) and c.half == 0.0 and c.p == 0.0


def test_p_values_follow_the_normal_approximation() -> None:
    a = stats_with({0: [2.0], 1: [0.0], 2: [1.0], 3: [1.0]})
    b = stats_with({0: [0.0], 1: [0.0], 2: [0.0], 3: [0.0]})
    c = contrast("A", "B", a, b)
    se = math.sqrt(((1**2 + 1**2 + 0 + 0) / 3) / 4)
    assert math.isclose(c.z, 1.0 / se)
    assert math.isclose(c.p, math.erfc(c.z / math.sqrt(2)))


def test_contrasts_put_the_better_player_first() -> None:
    result = ArenaResult("x", 2, True)
    result.players = {
        "weak": stats_with({0: [-1], 1: [-2]}),
        "strong": stats_with({0: [1], 1: [2]}),
    }
    (only,) = contrasts(result)
    assert (only.a, only.b, only.diff) == ("strong", "weak", 3.0)


def test_the_cli_prints_tables() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "paiju.cli", "arena", "--variant", "dragon", "--players",
         "1,0,1,0", "--hands", "3", "--duplicate", "--markdown", "--quiet"],
        cwd=REPO, capture_output=True, text=True, timeout=60, check=True,
    ).stdout
    assert "dragon: 3 duplicate boards, 12 hands" in out
    assert "| 1 - 0 |" in out and "score/hand (95% CI)" in out
