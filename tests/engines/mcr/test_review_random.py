"""Random play checked against an independent reading of the claim and hu rules.

At every claim window the asked seats and their options are recomputed from the hands alone
(pung/kong from held copies, chow only for the seat after the discarder, nothing but hu on the
last discard or an added kong, hu only at >= 8 fans without flowers with the flags of
rules/mcr.md); at every turn the offered self-drawn hu is recomputed the same way. Views are
checked for the pending claims and the undrawn wall.
"""

from __future__ import annotations

import random

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.mcr.fans import WinContext, evaluate
from paiju.engines.mcr.hand import Pack
from paiju.engines.mcr.state import (
    ANGANG_MELD,
    CHI_MELD,
    PENG_MELD,
    ROB,
    TURN,
    McrState,
)
from paiju.engines.mcr.tiles import Tile, tile_code
from tests.engines.mcr.test_procedures import ENGINE


def _packs(state: McrState, seat: int) -> tuple[Pack, ...]:
    out = []
    for m in state.melds[seat]:
        kind = {CHI_MELD: "CHI", PENG_MELD: "PENG"}.get(m.kind, "GANG")
        out.append(Pack(kind, m.tile, 0 if m.kind == ANGANG_MELD else m.offer))
    return tuple(out)


def _visible(state: McrState, tile: Tile) -> int:
    seen = sum(r.count(tile) for r in state.discards)
    for melds in state.melds:
        for m in melds:
            if m.kind == CHI_MELD:
                seen += tile in (m.tile - 1, m.tile, m.tile + 1)
            elif m.kind != ANGANG_MELD:
                seen += 3 + (m.kind != PENG_MELD) if m.tile == tile else 0
    return seen


def _can_hu(
    state: McrState,
    seat: int,
    hand: list[Tile],
    tile: Tile,
    *,
    self_drawn: bool,
    robbed: bool = False,
) -> bool:
    ctx = WinContext(
        packs=_packs(state, seat),
        hand=tuple(hand),
        win_tile=tile,
        flowers=len(state.flowers[seat]),
        self_drawn=self_drawn,
        fourth_tile=_visible(state, tile) == 3,
        about_kong=robbed or (self_drawn and state.after_kong),
        wall_last=not state.wall and not robbed,
        seat_wind=state.order.index(seat),
        prevalent_wind=state.prevalent,
    )
    result = evaluate(ctx)
    return result is not None and result.total_without_flowers >= 8


def _expected_window(state: McrState) -> dict[int, set[str]]:
    window = state.window
    assert window is not None
    tile, source = window.tile, window.source
    left_of = state.order[(state.order.index(source) + 1) % 4]
    out: dict[int, set[str]] = {}
    for seat in range(4):
        if seat == source:
            continue
        hand = list(state.hands[seat])
        acts: set[str] = set()
        if state.phase != ROB and state.wall:
            if hand.count(tile) >= 2:
                acts.add("peng")
            if hand.count(tile) == 3:
                acts.add("gang")
            if seat == left_of and tile < 27:
                for low in (tile - 2, tile - 1, tile):
                    run = [low, low + 1, low + 2]
                    same_suit = low >= 0 and low // 9 == (low + 2) // 9 == tile // 9
                    if same_suit and all(t in hand for t in run if t != tile):
                        acts.add(f"chi {tile_code(low + 1)}")
        if _can_hu(state, seat, hand, tile, self_drawn=False, robbed=state.phase == ROB):
            acts.add("hu")
        if acts:
            out[seat] = acts | {"pass"}
    return out


def _check(state: McrState) -> None:
    if state.phase == TURN:
        seat = state.current
        if state.drawn is None:
            assert all(a.kind == "discard" for a in ENGINE.legal_actions(state, seat))
        else:
            hand = list(state.hands[seat])
            hand.remove(state.drawn)
            offered = any(a.kind == "hu" for a in ENGINE.legal_actions(state, seat))
            assert offered == _can_hu(state, seat, hand, state.drawn, self_drawn=True)
    elif state.window is not None:
        expected = _expected_window(state)
        answered = {s for s, _ in state.window.responses}
        assert ENGINE.to_act(state) == frozenset(expected) - answered
        for seat, acts in expected.items():
            got = {ENGINE.format_action(a) for a in state.window.options_of(seat)}
            assert got == acts, (seat, got, acts)
        for viewer in (None, 0, 1, 2, 3):
            view = ENGINE.view(state, viewer)
            assert view["to_act"] in ([], [viewer])
            if viewer not in answered:
                assert view["claim"]["answered"] is None


@pytest.mark.parametrize("chunk", range(4))
def test_random_play_matches_an_independent_reading_of_the_rules(chunk: int) -> None:
    options = ENGINE.normalize_options({})
    for seed in range(chunk * 30, chunk * 30 + 30):
        state = ENGINE.initial_state(
            options, SeededRng(f"review/{seed}"), MatchInfo(seed % 16, (0,) * 4)
        )
        chooser = random.Random(seed)
        while not ENGINE.is_terminal(state):
            _check(state)
            seat = chooser.choice(sorted(ENGINE.to_act(state)))
            acts = sorted(ENGINE.legal_actions(state, seat))
            # Prefer claims and kongs so that windows, melds and replacements happen often.
            claims = [a for a in acts if a.kind not in ("discard", "pass")]
            pick = chooser.choice(claims) if claims and chooser.random() < 0.7 else None
            state = ENGINE.apply(state, seat, pick or chooser.choice(acts)).state


def test_bot_play_matches_an_independent_reading_of_the_rules() -> None:
    # Bots reach ready hands, so hu windows and self-drawn hu are checked often (about 50
    # wins in these 60 hands), unlike random play.
    from paiju.engines.mcr.bot import make_bot

    options = ENGINE.normalize_options({})
    wins = 0
    for seed in range(60):
        root = SeededRng(f"review-bots/{seed}")
        state = ENGINE.initial_state(options, root.derive("deal"), MatchInfo(seed % 16, (0,) * 4))
        bots = [make_bot(1 + seat % 2, root.derive(f"bot/{seat}")) for seat in range(4)]
        while not ENGINE.is_terminal(state):
            _check(state)
            seat = min(ENGINE.to_act(state))
            text = bots[seat].choose(ENGINE.view(state, seat))
            state = ENGINE.apply(state, seat, ENGINE.parse_action(text)).state
        wins += len(state.wins)
    assert wins >= 20


def test_private_events_go_to_their_seat_only() -> None:
    # A drawn tile, a concealed kong's tile and a pending claim are told to one seat; every
    # other event is public and names no tile that is still hidden.
    private = {"drawn", "angang_tile", "claim"}
    options = ENGINE.normalize_options({})
    kinds: set[str] = set()
    for seed in range(30):
        state = ENGINE.initial_state(
            options, SeededRng(f"events/{seed}"), MatchInfo(seed, (0,) * 4)
        )
        chooser = random.Random(seed)
        while not ENGINE.is_terminal(state):
            seat = chooser.choice(sorted(ENGINE.to_act(state)))
            acts = sorted(ENGINE.legal_actions(state, seat))
            claims = [a for a in acts if a.kind not in ("discard", "pass")]
            action = chooser.choice(claims or acts)
            step = ENGINE.apply(state, seat, action)
            for event in step.events:
                kinds.add(event.kind)
                if event.kind in private:
                    owner = seat if event.kind != "drawn" else event.data["seat"]
                    assert event.audience == frozenset({owner}), event
                else:
                    assert event.audience is None, event
                if event.kind == "angang":
                    assert "tile" not in event.data
            state = step.state
    assert {"drawn", "claim", "angang", "angang_tile"} <= kinds
