"""Bidding windows (亮主 / 反主) leak nothing: who is asked never depends on hidden cards."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.shengji.actions import Action, parse_action
from paiju.engines.shengji.cards import sort_cards
from paiju.engines.shengji.engine import ShengjiEngine
from paiju.engines.shengji.state import Bid, ShengjiState

ENGINE = ShengjiEngine()


def _new(seed: str) -> ShengjiState:
    options = ENGINE.normalize_options({})
    return ENGINE.initial_state(options, SeededRng(seed), MatchInfo(0, (0,) * 4))


def _asked_while_passing(seed: str) -> list[tuple[int, frozenset[int]]]:
    """(cards dealt, seats asked) at every decision of a deal where every seat passes."""
    state = _new(seed)
    trace = []
    while state.phase == "deal" and state.redeals == 0:
        asked = ENGINE.to_act(state)
        trace.append((state.dealt, asked))
        state = ENGINE.apply(state, min(asked), Action("pass")).state
    return trace


def test_every_seat_is_asked_after_every_round_whatever_it_holds() -> None:
    traces = [_asked_while_passing(f"leak{i}") for i in range(6)]
    assert all(t == traces[0] for t in traces)  # the same for every deal
    rounds = sorted({dealt for dealt, _ in traces[0]})
    assert rounds == list(range(4, 101, 4))
    assert traces[0][0] == (4, frozenset({0, 1, 2, 3}))


def test_a_seat_that_cannot_bid_is_asked_too_and_may_only_pass() -> None:
    base = _new("x")
    hands = tuple(sort_cards(h.split()) for h in ["H2 S5", "S9 C9", "D7 C4", "SA SK"])
    state = replace(base, hands=hands, dealt=8, asked=())
    assert ENGINE.to_act(state) == frozenset({0, 1, 2, 3})
    assert ENGINE.legal_actions(state, 1) == frozenset({Action("pass")})
    assert parse_action("bid H2") in ENGINE.legal_actions(state, 0)
    views = [ENGINE.view(state, s)["to_act"] for s in (None, 0, 1, 2, 3)]
    assert all(v == [0, 1, 2, 3] for v in views)


def test_a_bid_reopens_the_window_for_the_three_others() -> None:
    base = _new("y")
    hands = tuple(sort_cards(h.split()) for h in ["H2 S5", "S2 S2", "D7 C4", "SA SK"])
    state = replace(base, hands=hands, dealt=8, asked=(2, 3))
    state = ENGINE.apply(state, 0, parse_action("bid H2")).state
    assert state.bids == (Bid(0, "H2", 1),)
    assert ENGINE.to_act(state) == frozenset({1, 2, 3})  # 2 and 3 had passed: asked again
    state = ENGINE.apply(state, 1, parse_action("bid S2 S2")).state
    assert ENGINE.to_act(state) == frozenset({0, 2, 3})


def test_random_bidding_always_terminates_with_a_trump() -> None:
    for seed in range(20):
        chooser = random.Random(seed)
        state = _new(f"r{seed}")
        while state.phase == "deal":
            seat = chooser.choice(sorted(ENGINE.to_act(state)))
            state = ENGINE.apply(
                state, seat, chooser.choice(sorted(ENGINE.legal_actions(state, seat)))
            ).state
        assert state.phase == "bury" and state.trump_set


def _deal_state(hands: list[str], bids: tuple[Bid, ...] = (), **opts: object) -> ShengjiState:
    options = ENGINE.normalize_options(opts)
    base = ENGINE.initial_state(options, SeededRng("b"), MatchInfo(0, (0,) * 4))
    return replace(base, hands=tuple(sort_cards(h.split()) for h in hands), bids=bids, dealt=8)


def _bids(hand: str, bids: tuple[Bid, ...], **opts: object) -> list[str]:
    from paiju.engines.shengji.bidding import legal_bids

    state = _deal_state([hand, "C3", "C4", "C5"], bids, **opts)
    return [" ".join([b.card] * b.count) for b in legal_bids(state, 0)]


@pytest.mark.parametrize(
    ("hand", "bids", "opts", "expected"),
    [
        # bid_policy
        ("S2 S2 LJ LJ", (Bid(1, "H2", 2),), {}, ["LJ LJ"]),
        (
            "S2 S2 LJ LJ",
            (Bid(1, "C2", 2),),
            {"bid_policy": "joker_or_higher_suit"},
            ["S2 S2", "LJ LJ"],
        ),
        ("S2 S2", (Bid(1, "H2", 2),), {"bid_policy": "joker_or_higher_suit"}, []),  # H > S
        ("H2", (Bid(1, "C2", 1),), {"bid_policy": "joker_or_higher_suit"}, []),  # singles never
        ("LJ LJ BJ BJ", (Bid(1, "H2", 2),), {"bid_policy": "greater_length"}, []),
        ("BJ BJ", (Bid(1, "LJ", 2),), {"bid_policy": "greater_length"}, []),
        ("S2 S2", (Bid(1, "H2", 1),), {"bid_policy": "greater_length"}, ["S2 S2"]),
        # joker_bid
        ("BJ LJ LJ", (), {}, ["LJ LJ"]),
        ("BJ LJ LJ", (), {"joker_bid": "both_num_decks"}, ["LJ LJ"]),
        ("BJ LJ", (), {"joker_bid": "lj_two_bj_one"}, ["BJ"]),
        ("BJ LJ LJ", (Bid(1, "H2", 1),), {"joker_bid": "lj_two_bj_one"}, ["BJ", "LJ LJ"]),
        ("BJ BJ LJ LJ", (), {"joker_bid": "disabled"}, []),
        # bid_reinforcement
        ("H2 H2 S2 S2 BJ BJ", (Bid(0, "H2", 1),), {}, ["H2 H2"]),
        (
            "H2 H2 S2 S2 BJ BJ",
            (Bid(0, "H2", 1),),
            {"bid_reinforcement": "overturn_or_while_winning"},
            ["H2 H2", "S2 S2", "BJ BJ"],
        ),
        ("H2 H2 D2", (Bid(0, "H2", 1), Bid(1, "S2", 2)), {}, []),
        (
            "H2 H2 D2",
            (Bid(0, "H2", 1), Bid(1, "S2", 2)),
            {"bid_reinforcement": "while_equivalent"},
            ["H2 H2"],
        ),
        (
            "H2 H2",
            (Bid(0, "H2", 1), Bid(1, "LJ", 2)),
            {"bid_reinforcement": "while_equivalent"},
            [],  # never level with a joker bid
        ),
        (
            "H2 H2",
            (Bid(0, "H2", 2), Bid(1, "LJ", 2)),
            {"bid_reinforcement": "while_equivalent"},
            [],
        ),
    ],
)
def test_bid_options(
    hand: str, bids: tuple[Bid, ...], opts: dict[str, object], expected: list[str]
) -> None:
    assert _bids(hand, bids, **opts) == expected


def test_an_equivalent_reinforcement_takes_the_bid_back() -> None:
    state = _deal_state(
        ["H2 H2", "S2 S2", "C3", "C4"],
        (Bid(0, "H2", 1), Bid(1, "S2", 2)),
        bid_reinforcement="while_equivalent",
    )
    state = replace(state, asked=(1,))
    state = ENGINE.apply(state, 0, parse_action("bid H2 H2")).state
    assert state.bids[-1] == Bid(0, "H2", 2)
    assert ENGINE.legal_actions(state, 1) == frozenset({Action("pass")})


def _theft_state(hands: list[str], **opts: object) -> ShengjiState:
    """Seat 0 won the deal with a single H2 and holds the kitty (33 cards) to bury."""
    options = ENGINE.normalize_options({"kitty_theft": True, **opts})
    base = ENGINE.initial_state(options, SeededRng("t"), MatchInfo(0, (0,) * 4))
    kitty = tuple(sort_cards(["C6", "C7", "C8", "C9", "CJ", "CQ", "D5", "DK"]))
    return replace(
        base,
        phase="bury",
        dealt=100,
        hands=tuple(sort_cards(h.split()) for h in hands),
        bids=(Bid(0, "H2", 1),),
        landlord=0,
        exchanger=0,
        leader=0,
        trump_suit="H",
        trump_set=True,
        kitty=kitty,
    )


def _bury_all(state: ShengjiState, seat: int, cards: str) -> ShengjiState:
    for card in cards.split():
        state = ENGINE.apply(state, seat, parse_action(f"bury {card}")).state
    return state


THEFT_HANDS = [
    "H2 S3 S4 C6 C7 C8 C9 CJ CQ D5 DK",
    "S2 S2 H9",
    "D9 D8 S9",
    "C2 LJ LJ",
]


def test_kitty_theft_window_asks_every_seat_then_the_thief_reburies() -> None:
    state = _bury_all(_theft_state(THEFT_HANDS), 0, "C6 C7 C8 C9 CJ CQ D5 DK")
    assert state.phase == "theft" and ENGINE.to_act(state) == frozenset({0, 1, 2, 3})
    assert ENGINE.legal_actions(state, 2) == frozenset({Action("pass")})  # asked anyway
    for seat in (0, 2, 3):
        state = ENGINE.apply(state, seat, Action("pass")).state
    step = ENGINE.apply(state, 1, parse_action("bid S2 S2"))
    state = step.state
    assert ENGINE.to_act(state) == frozenset({0, 2, 3})  # the others may overcall
    state = ENGINE.apply(state, 3, parse_action("bid LJ LJ")).state
    for seat in (0, 1, 2):
        state = ENGINE.apply(state, seat, Action("pass")).state
    assert state.phase == "bury" and state.exchanger == 3 and state.landlord == 0
    assert state.trump_suit is None and len(state.hands[3]) == 11 and state.buried == ()
    assert ENGINE.to_act(state) == frozenset({3})
    assert "buried" not in ENGINE.view(state, 0) and "kitty" in ENGINE.view(state, 0)
    state = _bury_all(state, 3, "C2 C6 C7 C8 C9 CJ CQ D5")
    assert ENGINE.view(state, 3)["buried"] == list(state.buried)
    assert "buried" not in ENGINE.view(state, 0)
    assert state.phase == "theft"  # another window after each burial
    for seat in range(4):
        state = ENGINE.apply(state, seat, Action("pass")).state
    assert state.phase == "play" and ENGINE.to_act(state) == frozenset({0})  # landlord leads
    assert state.declarers == 0 and sorted(state.buried) == sorted(
        ["C2", "C6", "C7", "C8", "C9", "CJ", "CQ", "D5"]
    )


def test_no_theft_without_the_option_or_after_a_kitty_flip() -> None:
    state = _bury_all(_theft_state(THEFT_HANDS, kitty_theft=False), 0, "C6 C7 C8 C9 CJ CQ D5 DK")
    assert state.phase == "play" and state.leader == 0
    flipped = replace(_theft_state(THEFT_HANDS), bids=(), flipped=("HK",))
    assert _bury_all(flipped, 0, "C6 C7 C8 C9 CJ CQ D5 DK").phase == "play"


def test_random_hands_with_kitty_theft_conserve_cards() -> None:
    from collections import Counter

    from paiju.engines.shengji.cards import full_pack

    thefts = 0
    for seed in range(15):
        chooser = random.Random(seed)
        options = ENGINE.normalize_options({"kitty_theft": True})
        state = ENGINE.initial_state(options, SeededRng(f"th{seed}"), MatchInfo(0, (0,) * 4))
        while not ENGINE.is_terminal(state):
            seat = chooser.choice(sorted(ENGINE.to_act(state)))
            legal = sorted(ENGINE.legal_actions(state, seat))
            bids = [a for a in legal if a.kind == "bid"]
            eager = state.phase == "theft" or (state.phase == "deal" and not state.bids)
            if state.phase in ("deal", "theft"):
                action = bids[0] if eager and bids else Action("pass")
            else:
                action = chooser.choice(legal)
            state = ENGINE.apply(state, seat, action).state
        thefts += state.exchanger != state.landlord
        played = [c for t in state.tricks for p in t.plays for c in p.cards]
        assert Counter(played + list(state.buried)) == Counter(full_pack())
    assert thefts > 0


def test_a_seat_that_answered_the_window_is_not_asked_again() -> None:
    from paiju.core.errors import NotYourTurn

    state = _new("answered")
    state = ENGINE.apply(state, 2, Action("pass")).state
    assert ENGINE.to_act(state) == frozenset({0, 1, 3})
    assert ENGINE.legal_actions(state, 2) == frozenset()
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 2, Action("pass"))


@pytest.mark.parametrize("seed", ["dealt1", "dealt2", "dealt3"])
def test_every_dealt_hand_is_its_cards_in_canonical_order(seed: str) -> None:
    """A round's card is put in its place in the hand (``advance_deal``): each hand is
    always the cards dealt to it from the deck, sorted as ``sort_cards`` sorts them."""
    state = _new(seed)
    rounds = 0
    while state.phase == "deal" and state.redeals == 0:
        for seat in range(4):
            start = (seat - state.deal_start) % 4  # the deal's first card to this seat
            dealt = state.deck[start : state.dealt : 4]
            assert state.hands[seat] == sort_cards(dealt)
            assert all(type(card) is str for card in state.hands[seat])
        rounds += 1
        state = ENGINE.apply(state, min(ENGINE.to_act(state)), Action("pass")).state
    assert rounds > 25 * 4 - 4  # every round of the deal was looked at
