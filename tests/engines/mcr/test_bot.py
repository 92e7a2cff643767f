"""MCR bots: the level-1 discard steps, claims, and legal play from views at every level."""

from __future__ import annotations

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.mcr.bot import make_bot
from paiju.engines.mcr.bot_read import best_discard_shanten, read
from paiju.engines.mcr.bot_steps import discard_level1
from paiju.engines.mcr.engine import McrEngine
from paiju.engines.mcr.hand import shanten
from paiju.engines.mcr.state import McrState
from paiju.engines.mcr.tiles import parse_tile, tile_code

ENGINE = McrEngine()


def _tiles(text: str) -> list[int]:
    return [parse_tile(t) for t in text.split()]


@pytest.mark.parametrize(
    ("hand", "expected", "step"),
    [
        ("W1 W2 W3 W4 W5 W6 W7 W8 W9 T2 T3 J1 J1 F2", "F2", "A: the discard that makes it ready"),
        ("W2 W3 W4 W4 T2 T3 T4 B5 B6 B7 J1 J1 F1 F1", "W4", "A: ready on two pairs"),
        ("W1 W2 W3 W5 W6 W7 T2 T3 T4 B1 B5 J1 J1 F2", "F2", "B: an isolated honor first"),
        ("W1 W2 W3 W5 W6 W7 T2 T3 T4 B1 B5 B6 J1 J1", "B1", "B: two gaps from any tile"),
        ("W1 W2 W3 W5 W6 W7 T2 T3 T4 B1 B3 B6 B7 J1", "J1", "B before C"),
        ("W1 W2 W3 W5 W6 W7 T2 T3 T4 B1 B3 B6 B7 J2", "J2", "B before C again"),
        ("W1 W2 W3 W5 W6 W7 T2 T3 T4 T9 B1 B3 B6 B7", "T9", "B: ends first"),
        ("W1 W2 W3 W5 W6 W7 T2 T3 T4 B1 B3 B6 B7 B8", "B1", "C: one gap, from the ends"),
        ("J1 J1 J2 J2 J3 J3 F1 F1 F2 F2 W1 W5 T3 T9", "W1", "five pairs: play for seven pairs"),
    ],
)
def test_level1_discard_steps(hand: str, expected: str, step: str) -> None:
    assert tile_code(discard_level1(_tiles(hand), 0)) == expected, step


def test_level1_never_breaks_a_finished_set_when_a_run_is_broken() -> None:
    # W2 W3 W4 W4 plus complete sets: the run of four drops its extra tile (step D).
    hand = _tiles("W2 W3 W4 W4 T2 T3 T4 B5 B6 B7 T7 T7 T7 F1")
    assert tile_code(discard_level1(hand, 0)) in ("F1", "W4")


def test_best_discard_shanten_is_the_3n2_shanten() -> None:
    hand = _tiles("W1 W2 W3 W5 W6 W7 T2 T3 T4 B1 B5 J1 J1 F2")
    assert best_discard_shanten(hand, 0) == shanten(hand, 0) == 1


def _play(levels: list[int], seed: int) -> tuple[McrState, int]:
    options = ENGINE.normalize_options({})
    rng = SeededRng(f"bots/{seed}")
    state = ENGINE.initial_state(options, rng.derive("deal"), MatchInfo(seed % 16, (0,) * 4))
    bots = [make_bot(level, rng.derive(f"bot{seat}")) for seat, level in enumerate(levels)]
    steps = 0
    while not ENGINE.is_terminal(state):
        for seat in sorted(ENGINE.to_act(state)):
            view = ENGINE.view(state, seat)
            text = bots[seat].choose(view)
            assert text in view["legal"]
            if "hu" in view["legal"]:
                assert text == "hu"
            state = ENGINE.apply(state, seat, ENGINE.parse_action(text)).state
            steps += 1
            break
    return state, steps


@pytest.mark.parametrize("levels", [[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3], [3, 2, 1, 1]])
def test_bots_play_legal_actions_to_the_end(levels: list[int]) -> None:
    wins = 0
    for seed in range(6):
        state, _ = _play(levels, seed)
        assert ENGINE.is_terminal(state)
        wins += any(s["win"] for s in ENGINE.hand_stats(state))
    assert wins >= 1


def test_bots_read_only_the_view() -> None:
    options = ENGINE.normalize_options({})
    state = ENGINE.initial_state(options, SeededRng("read"), MatchInfo(0, (0,) * 4))
    seen = read(ENGINE.view(state, 1))
    assert seen.hand == state.hands[1] and seen.packs == 0
    assert sum(seen.visible) == 13  # only its own tiles are visible at the start


def _codes(text: str) -> list[str]:
    return sorted(text.split(), key=parse_tile)


def test_claims_lower_the_shanten() -> None:
    view = {
        "seat": 1, "hand": _codes("W4 W6 T1 T2 T3 B5 B6 B7 J1 J1 F1 F2 F3"),
        "players": [{"melds": [], "discards": []} for _ in range(4)],
        "claim": {"tile": "W5", "from": 0, "kind": "claim"},
        "legal": ["chi W5", "pass"], "wall_count": 80,
    }
    # The chow turns two-from-ready into one-from-ready.
    assert make_bot(1, SeededRng("c")).choose(view) == "chi W5"
    view["hand"] = _codes("W4 W6 W1 W2 W3 T1 T2 T3 B1 B2 B3 J1 J1")
    # Already ready on W5 (no 8 fans, so no hu): a chow would not lower the shanten.
    assert make_bot(1, SeededRng("c")).choose(view) == "pass"


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError):
        make_bot(4, SeededRng("x"))


def test_step_a_matches_a_plain_search_over_all_discards() -> None:
    import random

    from paiju.engines.mcr.bot_read import without
    from paiju.engines.mcr.bot_steps import step_ready
    from paiju.engines.mcr.hand import waits
    from tests.engines.mcr.test_engine_ready import _regular, _specials

    def plain(hand: list[int]) -> int | None:
        best: tuple[int, int] | None = None
        for t in sorted(set(hand)):
            n = len(waits(without(hand, t)))
            if n and (best is None or n > best[0]):
                best = (n, t)
        return best[1] if best else None

    r = random.Random(4)
    for _ in range(150):
        hands = [_regular(r, sets) for sets in (4, 3, 2)] + _specials(r)
        for hand in hands:
            hand.remove(r.choice(hand))
            hand.append(r.randrange(34))
            if all(hand.count(t) <= 4 for t in hand):
                hand.sort()
                assert step_ready(hand, (14 - len(hand)) // 3) == plain(hand), hand
