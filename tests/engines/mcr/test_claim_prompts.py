"""The ``claim_prompts`` option: who a claim window asks.

Under ``"eligible"`` (the default) only seats with a legal claim are asked, so a window
nobody can use closes at once and the timing tells everyone that somebody can use the tile.
Under ``"all"`` every seat but the discarder (or the kong-maker) is asked, a seat without a
claim with ``pass`` as its only action. These tests check that under ``"all"``:

* every window asks exactly the three other seats, whatever the hands hold, and each seat's
  options are the independent reading of the rules (``{pass}`` alone without a claim);
* re-dealing every hidden tile never changes who is asked (it does under ``"eligible"``);
* a game whose extra seats pass plays out exactly like the same game under ``"eligible"``;
* rob-the-kong and last-tile windows, timeouts and bots behave;
* the conformance suite's random play holds with the option on.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.base import Event, MatchInfo
from paiju.engines.mcr.actions import PASS, Action
from paiju.engines.mcr.bot import make_bot
from paiju.engines.mcr.state import (
    BUGANG_MELD,
    CLAIM,
    OVER,
    PENG_MELD,
    ROB,
    TURN,
    McrState,
    Meld,
    Rules,
    Window,
    evolve,
)
from paiju.engines.mcr.tiles import parse_tile
from paiju.engines.mcr.wall import set_hand
from tests.engines.mcr.test_procedures import ENGINE, legal, play, table
from tests.engines.mcr.test_review_random import _expected_window

ALL = ENGINE.normalize_options({"claim_prompts": "all"})
ELIGIBLE = ENGINE.normalize_options({})
ALL_RULES = Rules(claim_prompts="all")
PASS_ONLY = frozenset({Action(PASS)})

# Hands borrowed from test_claims: a pure straight waiting on B5, and filler that claims nothing.
STRAIGHT_W = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5"
FILLER = "T2 T3 T5 T6 T8 T9 F1 F2 F3 F4 J2 J3 J3"
ROBBER = "W4 W6 T1 T2 T3 B6 B7 B8 F2 F2 F2 J1 J1"  # wins on W5
NOT_ROBBER = "W7 W8 T1 T2 T3 B6 B7 B8 F2 F2 F2 J1 J1"


def _deal(options: dict[str, Any], seed: int, key: str = "prompts") -> McrState:
    """Hand ``seed % 16`` of a match, dealt from a seed that ignores the options."""
    return ENGINE.initial_state(options, SeededRng(f"{key}/{seed}"), MatchInfo(seed % 16, (0,) * 4))


def _pick(state: McrState, chooser: random.Random) -> tuple[int, Action]:
    """A random legal move that prefers claims and kongs, so windows and melds are common."""
    seat = chooser.choice(sorted(ENGINE.to_act(state)))
    acts = sorted(ENGINE.legal_actions(state, seat))
    claims = [a for a in acts if a.kind not in ("discard", "pass")]
    if claims and chooser.random() < 0.7:
        return seat, chooser.choice(claims)
    return seat, chooser.choice(acts)


def _random_game(options: dict[str, Any], seed: int, check: Callable[[McrState], None]) -> McrState:
    """Play one random hand, calling ``check`` on every state before it is acted on."""
    state = _deal(options, seed)
    chooser = random.Random(seed)
    while not ENGINE.is_terminal(state):
        check(state)
        seat, action = _pick(state, chooser)
        state = ENGINE.apply(state, seat, action).state
    return state


# ------------------------------------------------------------------ who is asked


def test_every_window_asks_the_three_other_seats_with_their_own_options() -> None:
    counts = {"windows": 0, "rob": 0, "last": 0, "pass_only": 0, "claims": 0}

    def check(state: McrState) -> None:
        window = state.window
        if window is None:
            return
        others = frozenset(range(4)) - {window.source}
        answered = {s for s, _ in window.responses}
        assert ENGINE.to_act(state) == others - answered
        expected = _expected_window(state)  # the independent reading, eligible seats only
        for seat in others:
            got = {ENGINE.format_action(a) for a in window.options_of(seat)}
            assert got == expected.get(seat, {"pass"}), (seat, got)
        if not answered:
            counts["windows"] += 1
            counts["rob"] += state.phase == ROB
            counts["last"] += not state.wall
            counts["pass_only"] += sum(window.options_of(s) == PASS_ONLY for s in others)
            counts["claims"] += len(expected)
        for viewer in (None, 0, 1, 2, 3):
            assert ENGINE.view(state, viewer)["to_act"] in ([], [viewer])
        assert ENGINE.public_to_act(state) == frozenset()

    for seed in range(60):
        _random_game(ALL, seed, check)
    assert counts["windows"] > 2000 and counts["pass_only"] > counts["windows"]
    assert counts["claims"] > 100 and counts["rob"] > 0 and counts["last"] > 0


def _redeal_hidden(state: McrState, keep: int, r: random.Random) -> McrState:
    """``state`` with the wall and every hand but ``keep``'s dealt anew (same sizes); the
    re-dealt seats' waits are recomputed."""
    others = [s for s in range(4) if s != keep]
    pool = list(state.wall) + [t for s in others for t in state.hands[s]]
    r.shuffle(pool)
    for s in others:
        n = len(state.hands[s])
        state, pool = set_hand(state, s, tuple(sorted(pool[:n]))), pool[n:]
    return evolve(state, wall=tuple(pool))


def _asked_after(state: McrState, action: Action) -> tuple[str, frozenset[int]]:
    """The phase after the seat in turn plays ``action``, and the seats then asked."""
    after = ENGINE.apply(state, state.current, action).state
    return after.phase, ENGINE.to_act(after)


def _hidden_dependence(options: dict[str, Any], seeds: range) -> tuple[int, int, set[int]]:
    """Over random play, discards and added kongs tried on the state as dealt and on the same
    state with every tile the actor cannot see re-dealt: (how many were tried, after how many
    the phase or the seats asked differed, the numbers of seats asked that occurred)."""
    r = random.Random(11)
    tried = changed = 0
    sizes: set[int] = set()

    def check(state: McrState) -> None:
        nonlocal tried, changed
        if state.phase != TURN:
            return
        acts = sorted(ENGINE.legal_actions(state, state.current))
        moves = [a for a in acts if a.kind == "bugang"] + r.sample(acts, min(2, len(acts)))
        for action in moves:
            if action.kind not in ("discard", "bugang"):
                continue
            seen = _asked_after(state, action)
            tried += 1
            changed += seen != _asked_after(_redeal_hidden(state, state.current, r), action)
            sizes.add(len(seen[1]) if seen[0] in (CLAIM, ROB) else 0)

    for seed in seeds:
        _random_game(options, seed, check)
    return tried, changed, sizes


def test_who_is_asked_does_not_depend_on_hidden_tiles() -> None:
    tried, changed, sizes = _hidden_dependence(ALL, range(25))
    assert tried > 1000 and changed == 0
    assert sizes == {3}  # every discard and added kong asks the three other seats


def test_under_eligible_who_is_asked_does_depend_on_hidden_tiles() -> None:
    # The leak the option closes; this also shows the test above can fail.
    tried, changed, sizes = _hidden_dependence(ELIGIBLE, range(10))
    assert tried > 300 and changed > 0 and 0 in sizes


# ------------------------------------------------------------------ same outcomes


def _strip(window: Window | None) -> Window | None:
    """``window`` without its pass-only seats (those ``"all"`` adds to ``"eligible"``)."""
    if window is None:
        return None
    options = tuple((s, a) for s, a in window.options if a != PASS_ONLY)
    asked = {s for s, _ in options}
    responses = tuple((s, a) for s, a in window.responses if s in asked)
    return Window(window.tile, window.source, options, responses, window.wins)


def _comparable(state: McrState) -> McrState:
    """Everything of ``state`` but its version, its rules and the pass-only seats."""
    return evolve(state, version=0, rules=Rules(), window=_strip(state.window))


def _pass_extra_seats(state: McrState, events: list[Event]) -> McrState:
    """Every waiting seat whose only action is ``pass`` passes; ``events`` gets what follows
    (a draw when the last answer closes the window), not the passing seats' own answers."""
    while True:
        idle = sorted(
            s for s in ENGINE.to_act(state) if ENGINE.legal_actions(state, s) == PASS_ONLY
        )
        if not idle:
            return state
        step = ENGINE.apply(state, idle[0], Action(PASS))
        answer, *rest = step.events
        assert answer.kind == "claim" and answer.audience == frozenset({idle[0]})
        events.extend(rest)
        state = step.state


@pytest.mark.parametrize("multiple_win", [False, True])
def test_all_seats_passing_gives_the_same_game_as_eligible(multiple_win: bool) -> None:
    # Lockstep: the "eligible" game chooses; the "all" game first lets its pass-only seats
    # pass, then takes the same move. States, events (private ones included) and results agree.
    eligible = ENGINE.normalize_options({"multiple_win": multiple_win})
    every = ENGINE.normalize_options({"multiple_win": multiple_win, "claim_prompts": "all"})
    extra_windows = 0
    for seed in range(50):
        e, a = _deal(eligible, seed), _deal(every, seed)
        e_events: list[Event] = []
        a_events: list[Event] = []
        chooser = random.Random(seed)
        while True:
            extra_windows += a.window is not None and e.window is None
            a = _pass_extra_seats(a, a_events)
            assert _comparable(a) == _comparable(e)
            assert ENGINE.to_act(a) == ENGINE.to_act(e)
            if ENGINE.is_terminal(e):
                break
            seat, action = _pick(e, chooser)
            assert ENGINE.legal_actions(a, seat) == ENGINE.legal_actions(e, seat)
            e_step, a_step = ENGINE.apply(e, seat, action), ENGINE.apply(a, seat, action)
            e, a = e_step.state, a_step.state
            e_events.extend(e_step.events)
            a_events.extend(a_step.events)
        assert ENGINE.is_terminal(a) and ENGINE.scores(a) == ENGINE.scores(e)
        assert a.wins == e.wins
        assert a_events == e_events
    assert extra_windows > 500


def test_bots_play_the_same_games_under_both_options() -> None:
    # Bots pass whenever they have nothing to claim, so a bot game is the same game.
    for seed in range(12):
        results = []
        for options in (ELIGIBLE, ALL):
            root = SeededRng(f"prompt-bots/{seed}")
            state = ENGINE.initial_state(options, root.derive("deal"), MatchInfo(seed, (0,) * 4))
            bots = [make_bot(1 + s % 3, root.derive(f"bot/{s}")) for s in range(4)]
            while not ENGINE.is_terminal(state):
                seat = min(ENGINE.to_act(state))
                text = bots[seat].choose(ENGINE.view(state, seat))
                state = ENGINE.apply(state, seat, ENGINE.parse_action(text)).state
            results.append((state.wins, ENGINE.scores(state), state.discards, state.melds))
        assert results[0] == results[1]


# ------------------------------------------------------------------ scripted windows


def test_a_discard_nobody_can_claim_still_asks_everyone() -> None:
    state = table({0: FILLER, 1: FILLER}, drawn="B5", wall="T7 J1", rules=ALL_RULES)
    after = play(state, (0, "discard B5"))
    assert after.phase == CLAIM and ENGINE.to_act(after) == frozenset({1, 2, 3})
    assert all(legal(after, s) == {"pass"} for s in (1, 2, 3))
    after = play(after, (3, "pass"), (1, "pass"))
    assert ENGINE.to_act(after) == frozenset({2}) and after.phase == CLAIM
    after = play(after, (2, "pass"))
    assert after.phase == TURN and after.current == 1 and after.drawn == parse_tile("T7")
    assert after.discards[0] == (parse_tile("B5"),)


def test_claimers_keep_their_options_beside_pass_only_seats() -> None:
    state = table(
        {
            0: FILLER,
            1: "W3 W4 W6 W7 T2 T3 T4 B1 B2 B3 F1 F1 J2",
            2: "W4 W5 W5 W6 T2 T3 T4 B1 B2 B3 F2 F2 J2",
            3: FILLER,
        },
        drawn="W5",
        rules=ALL_RULES,
    )
    after = play(state, (0, "discard W5"))
    assert ENGINE.to_act(after) == frozenset({1, 2, 3})
    assert legal(after, 1) == {"chi W4", "chi W5", "chi W6", "pass"}
    assert legal(after, 2) == {"peng", "pass"} and legal(after, 3) == {"pass"}
    after = play(after, (1, "chi W5"), (2, "peng"))
    assert after.phase == CLAIM  # seat 3 has not answered: the pung waits too
    after = play(after, (3, "pass"))
    assert after.phase == TURN and after.current == 2 and after.melds[2][0].kind == PENG_MELD


def test_head_bump_is_unchanged() -> None:
    state = table(
        {0: FILLER, 1: FILLER, 2: STRAIGHT_W, 3: "B1 B2 B3 B4 B5 B6 B7 B8 B9 J1 J1 J1 B5"},
        drawn="B5",
        rules=ALL_RULES,
    )
    after = play(state, (0, "discard B5"), (3, "hu"), (2, "hu"))
    assert after.phase == CLAIM  # seat 1 (pass only) is still asked
    after = play(after, (1, "pass"))
    assert after.phase == OVER and [w.seat for w in after.wins] == [2]


def _robbable(rob_hand: str) -> McrState:
    peng = Meld(PENG_MELD, parse_tile("W5"), 2)
    return table(
        {0: "W2 W3 W4 T2 T3 T4 B2 B3 B4 F1", 1: rob_hand},
        drawn="W5",
        melds={0: [peng]},
        wall="J2 J3 T9",
        rules=ALL_RULES,
    )


def test_rob_the_kong_window_asks_every_other_seat() -> None:
    after = play(_robbable(ROBBER), (0, "bugang W5"))
    assert after.phase == ROB and ENGINE.to_act(after) == frozenset({1, 2, 3})
    assert legal(after, 1) == {"hu", "pass"}
    assert legal(after, 2) == {"pass"} and legal(after, 3) == {"pass"}
    robbed = play(after, (1, "hu"), (2, "pass"), (3, "pass"))
    win = robbed.wins[0]
    assert win.seat == 1 and win.source == 0 and win.robbed
    assert robbed.melds[0] == (Meld(PENG_MELD, parse_tile("W5"), 2),)
    refused = play(after, (3, "pass"), (2, "pass"), (1, "pass"))
    assert refused.melds[0] == (Meld(BUGANG_MELD, parse_tile("W5"), 2),)
    assert refused.phase == TURN and refused.current == 0 and refused.after_kong


def test_added_kong_nobody_can_rob_still_opens_a_window() -> None:
    after = play(_robbable(NOT_ROBBER), (0, "bugang W5"))
    assert after.phase == ROB and ENGINE.to_act(after) == frozenset({1, 2, 3})
    assert all(legal(after, s) == {"pass"} for s in (1, 2, 3))
    after = play(after, (1, "pass"), (2, "pass"), (3, "pass"))
    assert after.phase == TURN and after.melds[0][0].kind == BUGANG_MELD
    assert after.drawn == parse_tile("T9")


def test_last_discard_asks_everyone_but_only_for_hu() -> None:
    # Seat 1 could pung or chow W5 on an open wall; on the last tile it may only pass.
    state = table(
        {0: "W5 T2 T3 T4 T5 T6 T7 B1 B2 B3 F1 F1 F1", 1: "W4 W5 W5 W6 T1 T2 T3 B4 B5 B6 J2 J2 J3"},
        drawn="J1",
        wall="",
        rules=ALL_RULES,
    )
    after = play(state, (0, "discard W5"))
    assert after.phase == CLAIM and ENGINE.to_act(after) == frozenset({1, 2, 3})
    assert all(legal(after, s) == {"pass"} for s in (1, 2, 3))
    after = play(after, (1, "pass"), (2, "pass"), (3, "pass"))
    assert after.phase == OVER and after.wins == () and after.result == (0, 0, 0, 0)


def test_last_discard_can_still_be_won() -> None:
    state = table({0: FILLER, 2: STRAIGHT_W}, drawn="B5", wall="", rules=ALL_RULES)
    after = play(state, (0, "discard B5"))
    assert legal(after, 2) == {"hu", "pass"}
    assert legal(after, 1) == {"pass"} and legal(after, 3) == {"pass"}
    after = play(after, (2, "hu"), (1, "pass"), (3, "pass"))
    assert [w.seat for w in after.wins] == [2]
    assert "Last Tile Claim" in [f[0] for f in after.wins[0].fans]


def test_a_pass_only_seat_times_out_and_bots_pass() -> None:
    after = play(table({0: FILLER}, drawn="B5", rules=ALL_RULES), (0, "discard B5"))
    for seat in (1, 2, 3):
        assert ENGINE.timeout_action(after, seat) == Action(PASS)
        assert ENGINE.timer_kind(after, seat) == "claim"
        view = ENGINE.view(after, seat)
        assert view["legal"] == ["pass"] and view["to_act"] == [seat]
        for level in (1, 2, 3):
            assert make_bot(level, SeededRng("b")).choose(view) == "pass"


def test_the_option_is_declared() -> None:
    assert ELIGIBLE["claim_prompts"] == "eligible" and ALL["claim_prompts"] == "all"
    assert _deal(ALL, 0).rules.claim_prompts == "all"
    assert _deal(ELIGIBLE, 0).rules.claim_prompts == "eligible"
