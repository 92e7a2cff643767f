"""Every view, legal list and event of seeded games of dragon, shengji, diu and MCR, as bytes,
against digests recorded from the engines before their speed-ups (main 3a1c85d; MCR at
feb17e0): a change made for speed must leave what every viewer is sent byte for byte as it was.

Each game plays random legal actions (a seeded chooser over the sorted notation of the
listed actions) through each seat's views, several option sets per variant (MCR hands are
played by level-1 bots in part, so that they claim, kong and win as real hands do); every state is
viewed by every seat and by a spectator, twice (the second view must not differ from the
first: a memo may not leak one viewer's view into another's). Regenerate the fixture only
when a view is meant to change: ``PYTHONPATH=src python -m tests.engines.test_recorded_views``.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import orjson
import pytest

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.registry import get_engine, make_bot

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "recorded_views.json"

GAMES: dict[str, list[dict[str, Any]]] = {
    "dragon": [{}, {"scoring": "best"}, {"seats": 2}],
    "shengji": [{}, {"draw_policy": "no_format_draw"}],
    "diu": [
        {},
        {"players": 4, "poll_mode": "parallel"},
        {"prefetch_mode": "encrypted", "dead_card_visible": False},
        {"silent_seats": "skip", "offer_calls": "above_standing"},
    ],
    "mcr": [
        {},
        {"claim_prompts": "all"},
        {"multiple_win": True, "min_fan": 0},
        {"min_fan": 0, "claim_prompts": "all", "concealed_and_melded_kong_5": True},
    ],
}
SEEDS = 3
MOST_ACTIONS = 400
#: Variants whose hands a bot of this level plays in part (each choice, with even odds, the
#: bot's of the chosen seat's view, else a random legal one): random play alone seldom
#: claims, kongs or wins an MCR hand.
BOT_LEVEL = {"mcr": 1}
#: Hand indexes dealt per variant (other winds and dealers; the first hand only elsewhere).
HANDS = {"mcr": (0, 5, 14)}


def record(variant: str, options: dict[str, Any], seed: int) -> str:
    """The digest of one hand (or several): every view of every state, each seat's legal
    list (and whether it is complete) and every step's events, in order."""
    digest = hashlib.sha256()
    for hand in HANDS.get(variant, (0,)):
        record_hand(digest, variant, options, seed, hand)
    return digest.hexdigest()


def record_hand(digest: Any, variant: str, options: dict[str, Any], seed: int, hand: int) -> None:
    """Feed ``digest`` with hand ``hand`` of the seeded game."""
    engine = get_engine(variant)
    opts = engine.normalize_options(options)
    seats = engine.seat_count(opts)
    name = f"rec/{seed}" if hand == 0 else f"rec/{seed}/{hand}"
    state = engine.initial_state(opts, SeededRng(name), MatchInfo(hand, (0,) * seats))
    chooser = random.Random(seed if hand == 0 else f"{seed}/{hand}")
    level = BOT_LEVEL.get(variant)
    bots = (
        [make_bot(variant, level, SeededRng(f"{name}/bot/{s}")) for s in range(seats)]
        if (level is not None)
        else []
    )
    for _ in range(MOST_ACTIONS):
        for viewer in (*range(seats), None, *range(seats), None):
            digest.update(orjson.dumps(dict(engine.view(state, viewer))))
        waiting = sorted(engine.to_act(state))
        for seat in waiting:
            texts = sorted(engine.format_action(a) for a in engine.legal_actions(state, seat))
            digest.update(orjson.dumps([seat, texts, engine.legal_complete(state, seat)]))
        if engine.is_terminal(state) or not waiting:
            break
        seat = chooser.choice(waiting)
        texts = sorted(engine.format_action(a) for a in engine.legal_actions(state, seat))
        if bots and chooser.random() < 0.5:
            text = bots[seat].choose(engine.view(state, seat))
        else:
            text = chooser.choice(texts)
        step = engine.apply(state, seat, engine.parse_action(text))
        for event in step.events:
            digest.update(
                orjson.dumps(
                    [
                        event.kind,
                        event.data,
                        sorted(event.audience) if event.audience is not None else None,
                    ]
                )
            )
        state = step.state
    digest.update(orjson.dumps([list(engine.scores(state)), engine.is_terminal(state)]))


def cases() -> list[tuple[str, int, int]]:
    return [
        (v, i, s) for v, games in GAMES.items() for i in range(len(games)) for s in range(SEEDS)
    ]


@pytest.mark.parametrize(("variant", "game", "seed"), cases())
def test_views_match_the_recording(variant: str, game: int, seed: int) -> None:
    recorded = json.loads(FIXTURE.read_text())
    assert record(variant, GAMES[variant][game], seed) == recorded[f"{variant}/{game}/{seed}"]


if __name__ == "__main__":
    FIXTURE.write_text(
        json.dumps({f"{v}/{g}/{s}": record(v, GAMES[v][g], s) for v, g, s in cases()}, indent=1)
        + "\n"
    )
