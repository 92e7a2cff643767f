"""A digest of everything the shengji engine shows over many replayed hands: every state's
fields, every seat's and the spectator's view (the bytes orjson writes), who is to act, the
legal keys, lists and completeness, the timeout action, the events, and the verdicts of
``check_action`` on listed, random and malformed actions, across option sets and carried
levels. A change that must not change the rules' output keeps the digest:

    .venv/bin/python benchmarks/shengji_digest.py --hands 90 --against /path/to/old/src

``--against SRC`` works the same digest out with another checkout's ``src`` (in a
subprocess) and says whether the two are equal. The hands are played by level-0 and level-1
bots, with random one-suit leads (throws) and timeouts mixed in; one engine plays each hand,
as one room's engine does, and views are asked in the table's order, some twice.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson

from paiju.core.errors import GameError
from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.bot import Bot, RandomBot
from paiju.engines.registry import get_engine
from paiju.engines.shengji.bot import SensibleBot

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"game_mode": "finding_friends"},
    {"kitty_theft": True, "bid_policy": "joker_or_higher_suit"},
    {"tractor_min_length": 3, "draw_policy": "no_format_draw"},
    {"throw_penalty": "10_per_card", "reveal_throw_blocker": True,
     "throw_evaluation": "largest_component", "throw_fail_forced": "lowest_rank"},
    {"level_gap_adjacent": False, "offsuit_level_tractors": False, "joker_tractors": False,
     "throw_evaluation": "highest", "throw_fail_forced": "first_challenger"},
    {"nt_trumps": "jokers_only", "max_rank": "NT", "jack_variation": True,
     "throw_penalty": "10_per_attempt"},
    {"bid_reinforcement": "while_equivalent", "joker_bid": "lj_two_bj_one",
     "kitty_bid_policy": "first_level_or_highest", "bid_policy": "greater_length",
     "next_landlord_on_win": "same", "kitty_multiplier": "power"},
    {"game_mode": "finding_friends", "friend_selection": "trumps_included", "kitty_theft": True,
     "tractor_min_length": 4, "bid_reinforcement": "overturn_or_while_winning"},
]
CARRIES: list[dict[str, Any]] = [
    {},
    {"levels": ["J", "5"], "landlord": 1},
    {"levels": ["NT", "A"], "landlord": 0},
    {"levels": ["A", "K"], "landlord": 3},
]


def verdict(engine: Any, state: Any, seat: int, text: str) -> str:
    """What ``check_action`` makes of ``text`` (parsed) from ``seat``."""
    try:
        action = engine.parse_action(text)
        return "ok " + engine.format_action(engine.check_action(state, seat, action))
    except GameError as error:
        return f"err {type(error).__name__} {getattr(error, 'code', None)} {error}"


def probes(state: Any, seat: int, chooser: random.Random) -> list[str]:
    """Actions to judge: fixed wrong ones, random card sets, each suit's first cards."""
    hand = list(state.hands[seat])
    out = ["pass", "play BJ BJ BJ", "bury S2", "bid HA"]
    if not hand:
        return out
    for _ in range(4):
        out.append("play " + " ".join(chooser.sample(hand, chooser.randint(1, min(len(hand), 8)))))
    if state.trick:
        size = len(state.trick[0].cards)
        out += ["play " + " ".join(chooser.sample(hand, min(size, len(hand)))) for _ in range(6)]
    suits: dict[str, list[str]] = {}
    for card in hand:
        suits.setdefault(state.ctx.suit_of(card) if state.trump_set else card[0], []).append(card)
    out += ["play " + " ".join(cs[: chooser.randint(1, len(cs))]) for cs in suits.values()]
    return out


def digest(hands: int) -> tuple[str, int]:
    """The digest of ``hands`` hands and the number of states they passed through."""
    from paiju.engines.shengji.state import _FIELD_NAMES

    out = hashlib.sha256()
    states = 0
    for i in range(hands):
        raw = OPTION_SETS[i % len(OPTION_SETS)]
        carry = dict(CARRIES[(i // len(OPTION_SETS)) % len(CARRIES)])
        if raw.get("game_mode") == "finding_friends" and "levels" in carry:
            carry["levels"] = carry["levels"] * 2
        engine: Any = get_engine("shengji")
        match = MatchInfo(1 + i % 3, (0,) * 4, carry)
        state = engine.initial_state(engine.normalize_options(raw), SeededRng(f"dg/{i}"), match)
        chooser = random.Random(i)
        bots: list[Bot] = [
            (SensibleBot if (s + i) % 2 else RandomBot)(SeededRng(f"b/{i}/{s}")) for s in range(4)
        ]
        while True:
            states += 1
            out.update(repr(tuple(getattr(state, f) for f in _FIELD_NAMES)).encode())
            acting = sorted(engine.to_act(state))
            out.update(repr(acting).encode())
            for s in acting:
                out.update(repr(sorted(map(repr, engine.legal_key(state, s)))).encode())
            views = {s: engine.view(state, s) for s in (0, 1, 2, 3, None)}
            for view in views.values():
                out.update(orjson.dumps(view))
            if engine.is_terminal(state):
                ends = (engine.scores(state), engine.hand_stats(state), engine.carry(state))
                out.update(repr(ends).encode())
                break
            if chooser.random() < 0.2:  # a second look at the same state
                out.update(orjson.dumps(engine.view(state, chooser.choice([0, 1, 2, 3, None]))))
            seat = acting[chooser.randrange(len(acting))]
            listed = sorted(engine.format_action(a) for a in engine.legal_actions(state, seat))
            out.update(repr((listed, engine.legal_complete(state, seat))).encode())
            out.update(engine.format_action(engine.timeout_action(state, seat)).encode())
            for other in range(4):
                if other != seat:
                    out.update(verdict(engine, state, other, "pass").encode())
            for text in probes(state, seat, chooser):
                out.update(verdict(engine, state, seat, text).encode())
            text = choose(engine, state, seat, views[seat], bots[seat], chooser)
            out.update(verdict(engine, state, seat, text).encode())
            step = engine.apply(state, seat, engine.parse_action(text))
            for event in step.events:
                out.update(repr((event.kind, event.data, event.audience)).encode())
            state = step.state
    return out.hexdigest(), states


def choose(engine: Any, state: Any, seat: int, view: Any, bot: Bot, chooser: random.Random) -> str:
    """The bot's action, now and then a one-suit lead of several cards or the timeout's."""
    if chooser.random() < 0.15 and state.phase == "play" and not state.trick:
        suits: dict[str, list[str]] = {}
        for card in state.hands[seat]:
            suits.setdefault(state.ctx.suit_of(card), []).append(card)
        cards = max(suits.values(), key=len)
        if len(cards) > 1:
            return "play " + " ".join(cards[: chooser.randint(2, len(cards))])
    elif chooser.random() < 0.1:
        return str(engine.format_action(engine.timeout_action(state, seat)))
    return bot.choose(view)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=90)
    parser.add_argument("--against", help="another checkout's src, digested in a subprocess")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(digest(args.hands)))
        return
    mine, states = digest(args.hands)
    print(f"this     {mine}  ({args.hands} hands, {states} states)")
    if args.against:
        cmd = [sys.executable, __file__, "--hands", str(args.hands), "--json"]
        env = {**os.environ, "PYTHONPATH": str(Path(args.against).resolve())}
        run = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
        theirs, their_states = json.loads(run.stdout.splitlines()[-1])
        print(f"against  {theirs}  ({their_states} states)")
        print("equal" if (theirs, their_states) == (mine, states) else "DIFFERENT")
        if theirs != mine:
            sys.exit(1)


if __name__ == "__main__":
    main()
