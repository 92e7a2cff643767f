"""Finding Friends (找朋友, option ``game_mode = "finding_friends"``)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from paiju.core.errors import IllegalAction, MalformedAction
from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.shengji.actions import Action, make, parse_action
from paiju.engines.shengji.cards import full_pack, sort_cards
from paiju.engines.shengji.engine import ShengjiEngine
from paiju.engines.shengji.state import ShengjiState

ENGINE = ShengjiEngine()
FF = {"game_mode": "finding_friends"}


def _new(seed: str, carry: dict[str, Any] | None = None, **opts: Any) -> ShengjiState:
    options = ENGINE.normalize_options({**FF, **opts})
    return ENGINE.initial_state(options, SeededRng(seed), MatchInfo(1, (0,) * 4, carry or {}))


def _play_state(hands: list[str], friend: tuple[str, int] | None, **opts: Any) -> ShengjiState:
    """Seat 0 is the landlord at level 2 (per-seat levels), hearts trump, seat 0 leads."""
    return replace(
        _new("ff", **opts),
        phase="play",
        landlord=0,
        leader=0,
        trump_suit="H",
        trump_set=True,
        hands=tuple(sort_cards(h.split()) for h in hands),
        dealt=100,
        buried=sort_cards(["S5", "S10", "C2", "C3", "C4", "C6", "C7", "C8"]),
        friend=friend,
    )


def _trick(state: ShengjiState, cards: list[str]) -> ShengjiState:
    for i, card in enumerate(cards):
        seat = (state.leader + i) % 4 if i else state.leader
        state = ENGINE.apply(state, seat, make("play", [card])).state
    return state


def test_the_landlord_names_a_friend_after_burying() -> None:
    state = _new("name")
    while state.phase == "deal":
        seat = min(ENGINE.to_act(state))
        bids = sorted(ENGINE.legal_actions(state, seat) - {Action("pass")})
        state = ENGINE.apply(
            state, seat, bids[0] if bids and not state.bids else Action("pass")
        ).state
    landlord = state.landlord
    assert landlord is not None and len(state.levels) == 4
    for _ in range(8):
        state = ENGINE.apply(state, landlord, make("bury", [state.hands[landlord][0]])).state
    assert state.phase == "friend" and ENGINE.to_act(state) == frozenset({landlord})
    legal = {ENGINE.format_action(a) for a in ENGINE.legal_actions(state, landlord)}
    trump = state.trump_suit
    assert all(
        a.split()[1][0] != trump and a.split()[1][1:] != "2" and a.split()[1] not in ("LJ", "BJ")
        for a in legal
    )
    assert len(legal) == 2 * (12 * (4 if trump is None else 3))
    bad = "friend LJ" if trump is None else f"friend {trump}A"
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, landlord, parse_action(bad))
    assert info.value.code == "bad_friend_card"
    card = "SA" if trump != "S" else "CA"
    step = ENGINE.apply(state, landlord, parse_action(f"friend {card} {card}"))
    assert step.state.friend == (card, 2) and step.state.phase == "play"
    assert [e.kind for e in step.events] == ["friend"] and step.events[0].audience is None
    view = ENGINE.view(step.state, (landlord + 1) % 4)
    assert view["friend"] == {"cards": [card, card], "seen": 0, "seat": None}
    assert view["landlord_team"] == [landlord] and view["declarers"] is None


def test_notation_of_a_friend() -> None:
    assert ENGINE.format_action(ENGINE.parse_action("friend ha ha")) == "friend HA HA"
    for bad in ["friend", "friend HA HK", "friend HA HA HA"]:
        with pytest.raises(MalformedAction):
            ENGINE.parse_action(bad)


def test_the_nth_copy_played_makes_the_friend_and_moves_its_points() -> None:
    hands = ["C3 S4", "CK SA", "C4 S8", "C6 SA"]
    state = _play_state(hands, ("SA", 2))
    # Seat 1 wins a 10-point trick with CK before anyone is known to be the friend.
    state = _trick(state, ["C3", "CK", "C4", "C6"])
    assert state.attacker_points == 10 and state.friend_seat is None
    state = _trick(state, ["SA", "S8", "SA", "S4"])  # seat 1 leads SA (1st), seat 3 SA (2nd)
    assert state.friend_seat == 3 and state.friend_seen == 2
    assert state.landlord_team() == frozenset({0, 3})
    assert state.attacker_points == 10  # seat 1's trick still counts; seat 3 won none


def test_a_friend_that_won_points_earlier_gives_them_to_the_landlord_side() -> None:
    hands = ["S3 C9", "S4 S6", "S7 S8", "SK SA"]
    state = _play_state(hands, ("SA", 1))
    state = _trick(state, ["S3", "S4", "S7", "SK"])  # seat 3 wins 10 as an unknown
    assert state.attacker_points == 10
    state = _trick(state, ["SA", "C9", "S6", "S8"])  # seat 3 leads SA: the friend
    assert state.friend_seat == 3 and state.attacker_points == 0


def test_a_landlord_alone_wins_a_bonus_level_and_scores_are_zero_sum() -> None:
    hands = ["SA", "S4", "S6", "S7"]
    state = _play_state(hands, ("DA", 1))  # nobody plays DA: the landlord is alone
    state = _trick(state, ["SA", "S4", "S6", "S7"])
    assert ENGINE.is_terminal(state) and state.landlord_team() == frozenset({0})
    # 0 points: declarers +3, +1 for the smaller side.
    assert state.new_levels == (6, 2, 2, 2)
    assert ENGINE.scores(state) == (12, -4, -4, -4)
    carry = ENGINE.carry(state)
    assert carry == {"levels": ["6", "2", "2", "2"], "landlord": 0, "winner": None}


def test_attackers_win_and_each_advances_from_its_own_level() -> None:
    hands = ["S3", "SA", "S4", "S6"]
    state = _play_state(hands, ("SA", 1))
    state = replace(state, levels=(2, 9, 4, 5), attacker_points=120)
    state = _trick(state, ["S3", "SA", "S4", "S6"])  # seat 1 is the friend and wins
    assert state.landlord_team() == frozenset({0, 1})
    # Attackers 2 and 3 got 120 (the friend's trick points move to the landlord side).
    assert state.new_levels == (2, 9, 5, 6)
    assert ENGINE.carry(state)["landlord"] == 2 and sum(ENGINE.scores(state)) == 0


def test_defending_ace_in_finding_friends_names_the_winning_seats() -> None:
    state = _play_state(["SA", "S9", "S4", "S6"], ("S9", 1))
    state = replace(state, levels=(14, 14, 3, 3), level=14)
    state = _trick(state, ["SA", "S9", "S4", "S6"])
    carry = ENGINE.carry(state)
    assert carry["winner"] == [0, 1]
    assert ENGINE.match_over(ENGINE.normalize_options(FF), MatchInfo(2, (0,) * 4, carry))


def test_random_finding_friends_hands_conserve_cards_and_are_zero_sum() -> None:
    for seed in range(12):
        chooser = random.Random(seed)
        carry = {"levels": ["3", "5", "K", "A"], "landlord": seed % 4} if seed % 2 else None
        state = _new(f"rf{seed}", carry)
        while not ENGINE.is_terminal(state):
            seat = chooser.choice(sorted(ENGINE.to_act(state)))
            action = chooser.choice(sorted(ENGINE.legal_actions(state, seat)))
            state = ENGINE.apply(state, seat, action).state
        played = [c for t in state.tricks for p in t.plays for c in p.cards]
        assert Counter(played + list(state.buried)) == Counter(full_pack())
        assert sum(ENGINE.scores(state)) == 0
        attackers = sum(t.points for t in state.tricks if state.is_attacker(t.winner))
        assert attackers == state.attacker_points
        assert state.friend is not None


@pytest.mark.parametrize(
    ("policy", "level", "trump", "allowed", "refused"),
    [
        ("non_trump", 2, "H", ["SA", "C5", "DK"], ["LJ", "BJ", "S2", "HA", "H5"]),
        ("trumps_included", 2, "H", ["LJ", "S2", "HA", "SA"], []),
        ("highest_not_allowed", 2, "H", ["SK", "C5"], ["SA", "CA", "S2", "H9"]),
        ("highest_not_allowed", 14, "H", ["SQ"], ["SK", "SA", "HQ"]),
        ("points_not_allowed", 2, "H", ["SA", "SQ", "C9"], ["S5", "D10", "CK", "H9"]),
        ("points_not_allowed", 14, None, ["SK", "HK", "SQ"], ["S5", "C10", "LJ", "HA"]),
    ],
)
def test_friend_selection_policies(
    policy: str, level: int, trump: str | None, allowed: list[str], refused: list[str]
) -> None:
    from paiju.engines.shengji.friends import friend_choices

    state = replace(
        _new("sel", friend_selection=policy), phase="friend", level=level, trump_suit=trump
    )
    named = {card for card, _ in friend_choices(state)}
    assert set(allowed) <= named and not set(refused) & named


@pytest.mark.parametrize(
    "opts",
    [
        {"game_mode": "finding_friends", "kitty_theft": True},
        {"game_mode": "tractor", "kitty_theft": True, "reveal_throw_blocker": True},
    ],
)
def test_no_view_leaks_under_theft_and_friends(opts: dict[str, Any]) -> None:
    from paiju.engines.shengji.conformance import hidden_leaks

    for seed in range(3):
        chooser = random.Random(seed)
        state = _new(f"lk{seed}", **opts)
        while not ENGINE.is_terminal(state):
            assert hidden_leaks(ENGINE, state) == []
            seat = chooser.choice(sorted(ENGINE.to_act(state)))
            legal = sorted(ENGINE.legal_actions(state, seat))
            bids = [a for a in legal if a.kind == "bid"]
            action = bids[0] if state.phase == "theft" and bids else chooser.choice(legal)
            state = ENGINE.apply(state, seat, action).state
        assert hidden_leaks(ENGINE, state) == []
