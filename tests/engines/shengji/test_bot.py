"""The shengji level-1 bot: always legal from its view, and sensible in set situations."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.shengji.actions import make
from paiju.engines.shengji.bot import SensibleBot
from paiju.engines.shengji.bot_level2 import make_bot
from paiju.engines.shengji.cards import sort_cards
from paiju.engines.shengji.engine import ShengjiEngine
from paiju.engines.shengji.state import ShengjiState

ENGINE = ShengjiEngine()


def _new(seed: str, carry: dict[str, Any] | None = None) -> ShengjiState:
    options = ENGINE.normalize_options({})
    return ENGINE.initial_state(options, SeededRng(seed), MatchInfo(0, (0,) * 4, carry or {}))


def test_level_zero_is_not_ours() -> None:
    with pytest.raises(ValueError):
        make_bot(0, SeededRng("x"))


@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("seed", range(6))
def test_bots_play_legal_hands_to_the_end(seed: int, level: int) -> None:
    state = _new(f"bot{seed}")
    bots = [make_bot(level, SeededRng(f"b{seed}/{s}")) for s in range(4)]
    while not ENGINE.is_terminal(state):
        seat = min(ENGINE.to_act(state))
        view = ENGINE.view(state, seat)
        choice = bots[seat].choose(view)
        assert choice in view["legal"]
        state = ENGINE.apply(state, seat, ENGINE.parse_action(choice)).state


def _play_state(hands: list[str], **changes: Any) -> ShengjiState:
    fields: dict[str, Any] = {"phase": "play", "landlord": 0, "leader": 0, "trump_suit": "H"}
    fields.update(trump_set=True, hands=tuple(sort_cards(h.split()) for h in hands), **changes)
    return replace(_new("set"), **fields)


def _choose(state: ShengjiState, seat: int) -> str:
    return SensibleBot(SeededRng("c")).choose(ENGINE.view(state, seat))


def test_plays_cheap_when_it_cannot_win() -> None:
    state = _play_state(["S9 C3", "S3 C4", "SA C5", "SK S4 C6"])
    for seat, card in [(0, "S9"), (1, "S3"), (2, "SA")]:
        state = ENGINE.apply(state, seat, make("play", [card])).state
    assert _choose(state, 3) == "play S4"


def test_partner_winning_gets_the_ten() -> None:
    state = _play_state(["SA C3", "S3 C4", "S10 S4 C5", "S5 C6"])
    for seat, card in [(0, "SA"), (1, "S3")]:
        state = ENGINE.apply(state, seat, make("play", [card])).state
    assert _choose(state, 2) == "play S10"


def test_trumps_in_when_the_trick_has_points() -> None:
    state = _play_state(["SK C3", "H4 C4", "S5 C5", "D4 C6"])
    state = ENGINE.apply(state, 0, make("play", ["SK"])).state
    assert _choose(state, 1) == "play H4"


def test_leads_an_unbeatable_throw_and_not_a_beatable_one() -> None:
    # Seat 0 holds SA SA SK: every other spade above K is in its hand, so the throw is safe.
    state = _play_state(["SA SA SK C3", "S3 C4", "S4 C5", "S6 C6"])
    assert _choose(state, 0) == "play SK SA SA"
    # With SK unseen, SA SQ could be beaten: the bot leads the sure SA alone.
    state = _play_state(["SA SQ C3", "S3 C4", "S4 C5", "S6 C6"])
    assert _choose(state, 0) == "play SA"


@pytest.mark.parametrize("seed", range(4))
def test_buries_no_trumps_when_it_has_enough_plain_cards(seed: int) -> None:
    state = _new(f"bury{seed}")
    bots = [make_bot(1, SeededRng(f"bb{seed}/{s}")) for s in range(4)]
    while state.phase == "deal":
        seat = min(ENGINE.to_act(state))
        state = ENGINE.apply(
            state, seat, ENGINE.parse_action(bots[seat].choose(ENGINE.view(state, seat)))
        ).state
    landlord = state.landlord
    assert landlord is not None
    ctx = state.ctx
    plain = [c for c in state.hands[landlord] if not ctx.is_trump(c)]
    while state.phase == "bury":
        choice = bots[landlord].choose(ENGINE.view(state, landlord))
        state = ENGINE.apply(state, landlord, ENGINE.parse_action(choice)).state
    if len(plain) >= 8:
        assert not any(ctx.is_trump(c) for c in state.buried)
        assert not any(c[1:] == "A" for c in state.buried) or len(plain) < 16


def test_bids_with_a_long_trump_suit_and_not_over_its_partner() -> None:
    bot = SensibleBot(SeededRng("bid"))
    view: dict[str, Any] = {
        "phase": "deal",
        "seat": 0,
        "legal": ["bid H2", "pass"],
        "hand": ["H2", "H5", "H9", "HK", "HA", "BJ", "S3", "C4"],
        "level": "2",
        "bids": [],
        "dealt": 32,
    }
    assert bot.choose(view) == "bid H2"
    weak = dict(view, hand=["H2", "S5", "S9", "SK", "DA", "D3", "C3", "C4"])
    assert bot.choose(weak) == "pass"
    partner = dict(view, bids=[{"seat": 2, "cards": ["S2"]}], legal=["bid H2 H2", "pass"])
    assert bot.choose(partner) == "pass"


@pytest.mark.parametrize(
    ("opts", "carry"),
    [
        ({"kitty_theft": True}, None),
        (
            {"kitty_theft": True, "joker_bid": "lj_two_bj_one"},
            {"levels": ["5", "9"], "landlord": 1},
        ),
        ({"max_rank": "NT"}, {"levels": ["NT", "9"], "landlord": 2}),
        ({"game_mode": "finding_friends", "kitty_theft": True}, None),
        ({"game_mode": "finding_friends"}, {"levels": ["2", "5", "7", "9"], "landlord": 3}),
    ],
)
def test_bots_stay_legal_under_the_bidding_options(
    opts: dict[str, Any], carry: dict[str, Any] | None
) -> None:
    for seed in range(3):
        options = ENGINE.normalize_options(opts)
        match = MatchInfo(1 if carry else 0, (0,) * 4, carry or {})
        state = ENGINE.initial_state(options, SeededRng(f"o{seed}"), match)
        bots = [make_bot(1, SeededRng(f"ob{seed}/{s}")) for s in range(4)]
        phases = set()
        while not ENGINE.is_terminal(state):
            phases.add(state.phase)
            seat = max(ENGINE.to_act(state))
            view = ENGINE.view(state, seat)
            choice = bots[seat].choose(view)
            assert choice in view["legal"]
            state = ENGINE.apply(state, seat, ENGINE.parse_action(choice)).state
        assert ("theft" in phases) == bool(opts.get("kitty_theft"))
