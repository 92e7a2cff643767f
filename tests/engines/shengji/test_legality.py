"""Legality is defined once: ``apply`` accepts exactly what ``check_action`` accepts, which is
the listed actions wherever ``legal_complete`` is true, and otherwise every play the rules
allow — so a client that lets a player select any cards and press Play has every legal play
accepted and every other refused with a code naming the rule (docs/rules/shengji.md,
"Choosing a play")."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest

from paiju.core.errors import GameError, IllegalAction, MalformedAction
from paiju.engines.shengji.actions import Action, make
from paiju.engines.shengji.bidding import legal_bids
from paiju.engines.shengji.cards import full_pack, sort_cards
from paiju.engines.shengji.follow import follow_error, legal_follows, multiset_combos
from paiju.engines.shengji.legal import FOLLOW_LIMIT, _pairs_of, lead_candidates
from paiju.engines.shengji.play import play_cards
from paiju.engines.shengji.shapes import parse_units
from paiju.engines.shengji.shapes import runs as shape_runs
from paiju.engines.shengji.state import Bid, ShengjiState
from tests.conformance.games import game
from tests.engines.shengji.test_engine import ENGINE, _new, _play_state
from tests.scale import runs

RULE_CODES = {"must_follow_suit", "must_follow_pair", "must_follow_tractor", "wrong_card_count"}


def refusal(state: ShengjiState, seat: int, action: object) -> str | None:
    """The code ``check_action`` refuses with (``None``: accepted); ``apply`` must agree."""
    try:
        ENGINE.check_action(state, seat, action)
    except GameError as error:
        with pytest.raises(GameError) as applied:
            ENGINE.apply(state, seat, action)  # type: ignore[arg-type]
        assert applied.value.code == error.code
        return error.code
    ENGINE.apply(state, seat, action)  # type: ignore[arg-type]
    return None


def _bury_state() -> ShengjiState:
    state = _new()
    while state.phase == "deal":
        seat = min(ENGINE.to_act(state))
        bids = [a for a in ENGINE.legal_actions(state, seat) if a.kind == "bid"]
        state = ENGINE.apply(state, seat, bids[0] if bids else Action("pass")).state
    assert state.phase == "bury"
    return state


# ---------------------------------------------------------------- outside the play phase


def test_bidding_refuses_cards_not_held_weak_bids_and_other_phases_actions() -> None:
    state = _new()
    seat = 0
    held = set(state.hands[seat])
    missing = next(c for c in ("H2", "S2", "C2", "D2") if c not in held)
    assert refusal(state, seat, make("bid", [missing])) == "card_not_in_hand"
    assert refusal(state, seat, make("bid", [missing, missing])) == "card_not_in_hand"
    assert refusal(state, seat, make("bury", [state.hands[seat][0]])) == "wrong_phase"
    assert refusal(state, seat, make("play", [state.hands[seat][0]])) == "wrong_phase"
    assert refusal(state, seat, Action("pass", (state.hands[seat][0],))) == "malformed_action"
    assert refusal(state, seat, Action("bid", (missing, "BJ"))) == "malformed_action"
    assert refusal(state, seat, Action("pass")) is None


def test_a_bid_that_does_not_beat_the_standing_bid_is_too_weak() -> None:
    state = replace(
        _new(), hands=(("H2",), ("S2", "S2"), (), ()), bids=(Bid(1, "S2", 2),), asked=(1,)
    )
    assert legal_bids(state, 0) == []
    assert refusal(state, 0, make("bid", ["H2"])) == "bid_too_weak"


def test_burying_refuses_cards_not_held_and_every_other_kind() -> None:
    state = _bury_state()
    seat = state.landlord
    assert seat is not None
    counts = Counter(state.hands[seat])
    missing = next(c for c in ("BJ", "LJ", "SA", "HA", "C3") if counts[c] == 0)
    assert refusal(state, seat, make("bury", [missing])) == "card_not_in_hand"
    assert refusal(state, seat, Action("bury", (state.hands[seat][0], missing))) == (
        "malformed_action"
    )
    assert refusal(state, seat, Action("pass")) == "wrong_phase"
    assert refusal(state, seat, make("bid", [state.hands[seat][0]])) == "wrong_phase"
    assert refusal(state, seat, make("play", [state.hands[seat][0]])) == "wrong_phase"
    assert refusal(state, seat, make("bury", [state.hands[seat][0]])) is None


def test_naming_a_friend_refuses_trumps_and_other_kinds() -> None:
    state = replace(_play_state(["SA", "S4", "S6", "S7"], game_mode="finding_friends"))
    state = replace(state, phase="friend", landlord=0)
    assert refusal(state, 0, make("friend", ["HA"])) == "bad_friend_card"  # hearts are trump
    assert refusal(state, 0, make("friend", ["BJ"])) == "bad_friend_card"
    assert refusal(state, 0, make("play", ["SA"])) == "wrong_phase"
    assert refusal(state, 0, make("friend", ["SA"])) is None


@pytest.mark.parametrize("obj", [None, "play S3", 3, Action("play"), Action("dance", ("S3",))])
def test_objects_that_are_no_action_are_malformed(obj: object) -> None:
    state = _play_state(["S3", "S4", "S6", "S7"])
    with pytest.raises(MalformedAction):
        ENGINE.apply(state, 0, obj)  # type: ignore[arg-type]


# ---------------------------------------------------------------- choosing a play


def every_selection(hand: tuple[str, ...], size: int) -> list[Action]:
    """Every distinct set of ``size`` cards a player can select from ``hand``."""
    return [make("play", c) for c in multiset_combos(sorted(hand), size)]


def follow_states(limit: int) -> list[tuple[ShengjiState, int]]:
    """Follow positions from random games whose selections can all be tried."""
    found = []
    for seed in range(6):
        for step in game("shengji", seed).steps:
            state, seat = step.state, step.seat
            follow = state.phase == "play" and state.trick and seat == state.turn()
            if follow and _count(len(state.hands[seat]), len(state.trick[0].cards)) <= limit:
                found.append((state, seat))
    return found


def _count(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


def test_where_the_list_is_complete_exactly_the_listed_follows_are_accepted() -> None:
    positions = follow_states(limit=400)
    assert len(positions) > 100
    for state, seat in random.Random(0).sample(positions, 60):
        assert ENGINE.legal_complete(state, seat)
        listed = ENGINE.legal_actions(state, seat)
        size = len(state.trick[0].cards)
        for action in every_selection(state.hands[seat], size):
            code = refusal(state, seat, action)
            assert (code is None) == (action in listed), (action, code)
            assert code is None or code in RULE_CODES


def _cut_follow() -> tuple[ShengjiState, tuple[str, ...]]:
    """Seat 1 must follow a six-card spade throw holding one spade and 22 other cards:
    C(22, 5) = 26334 legal follows, more than are listed."""
    others = "C2 C3 C4 C6 C7 C8 C9 CJ CQ D3 D4 D6 D7 D8 D9 DJ DQ H5 H6 H7 H8 HA"
    state = _play_state(
        ["S9 S9 S10 S10 SA SA", f"S3 {others}", "S4 S6 S7 D5 C5 CK", "SQ SK SJ DA DK D10"]
    )
    state = replace(state, trick=(), leader=0)
    throw = make("play", ["S9", "S9", "S10", "S10", "SA", "SA"])
    state = ENGINE.apply(state, 0, throw).state
    assert len(state.trick[0].cards) == 6, "the throw stands (nobody can beat it)"
    return state, tuple(others.split())


def test_a_cut_follow_list_is_marked_and_every_legal_follow_is_still_accepted() -> None:
    state, others = _cut_follow()
    assert ENGINE.legal_complete(state, 1) is False
    assert ENGINE.view(state, 1)["legal_complete"] is False
    listed = ENGINE.legal_actions(state, 1)
    ctx, units = state.ctx, state.lead_units
    every = legal_follows(units, "S", state.hands[1], ctx, limit=10**6)
    assert len(every) == _count(22, 5) > FOLLOW_LIMIT and len(listed) < len(every)
    for play in random.Random(1).sample(sorted(every), 400):
        assert refusal(state, 1, make("play", play)) is None
    for cards in random.Random(2).sample(list(combinations(others, 6)), 200):
        assert refusal(state, 1, make("play", cards)) == "must_follow_suit"
    assert refusal(state, 1, make("play", ["S3", *others[:4]])) == "wrong_card_count"
    assert refusal(state, 1, make("play", ["S3", "S5", *others[:4]])) == "card_not_in_hand"


def test_any_selection_of_one_suit_leads_and_a_mixed_one_is_refused() -> None:
    state = _play_state(["S3 S5 S9 SJ SK C2 C4", "S4 C3", "S6 C5", "S7 C6"])
    assert ENGINE.legal_complete(state, 0) is False
    hand = state.hands[0]
    for size in range(1, len(hand) + 1):
        for action in every_selection(hand, size):
            suits = {state.ctx.suit_of(c) for c in action.cards}
            code = refusal(state, 0, action)
            assert code == (None if len(suits) == 1 else "lead_mixed_suits"), action


def test_the_view_offers_enough_to_build_any_play() -> None:
    """What the client needs: its hand, the lead's cards (so the size of a follow) and
    whether ``legal`` is all there is."""
    state, _ = _cut_follow()
    view: dict[str, Any] = dict(ENGINE.view(state, 1))
    assert sorted(view["hand"]) == sorted(state.hands[1])
    size = len(view["trick"][0]["cards"])
    assert size == 6 and view["legal_complete"] is False
    spades = [c for c in view["hand"] if c.startswith("S")]
    rest = [c for c in view["hand"] if not c.startswith("S")]
    chosen = f"play {' '.join(spades + rest[-(size - len(spades)) :])}"
    assert chosen not in view["legal"]
    ENGINE.apply(state, 1, ENGINE.parse_action(chosen))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, ENGINE.parse_action(f"play {' '.join(rest[:size])}"))


# ------------------------------------------------- the listed follows, legal by construction

#: Option sets the played hands below are dealt under: the follow rules read the tractor
#: length and the draw policy, the trump context the ordering options.
_FOLLOW_OPTIONS: list[dict[str, Any]] = [
    {},
    {"tractor_min_length": 3},
    {"draw_policy": "no_format_draw"},
    {"level_gap_adjacent": False, "offsuit_level_tractors": False, "joker_tractors": False},
    {"nt_trumps": "jokers_only", "throw_evaluation": "highest"},
]


def _dealt_play_state(seed: int) -> ShengjiState:
    """A play-phase state of a shuffled pack: a random level, trump suit (or no trump) and
    option set, 25 cards a seat, eight buried."""
    chooser = random.Random(seed)
    pack = full_pack()
    chooser.shuffle(pack)
    options = _FOLLOW_OPTIONS[seed % len(_FOLLOW_OPTIONS)]
    base = _new(f"follows/{seed}", **options)
    landlord = chooser.randrange(4)
    return replace(
        base,
        phase="play",
        level=chooser.randint(2, 14),
        trump_suit=chooser.choice(["S", "H", "C", "D", None]),
        trump_set=True,
        landlord=landlord,
        leader=landlord,
        hands=tuple(sort_cards(pack[25 * s : 25 * s + 25]) for s in range(4)),
        dealt=100,
        buried=sort_cards(pack[100:]),
        kitty=sort_cards(pack[100:]),
    )


def _a_lead(state: ShengjiState, seat: int, chooser: random.Random) -> tuple[str, ...]:
    """A listed lead, half the time one of the longest (whole-suit throws, tractors, throws
    of two components), so that followers meet big and shaped leads."""
    leads = sorted(ENGINE.legal_key(state, seat))  # type: ignore[arg-type]
    if chooser.random() < 0.5:
        longest = max(map(len, leads))
        leads = [lead for lead in leads if len(lead) >= max(2, longest - 2)] or leads
    return tuple(chooser.choice(leads))


def _follow_every_listed_play(state: ShengjiState, seed: int, met: Counter[str]) -> None:
    """Plays the hand out (leads from ``_a_lead``, follows picked from the list); at every
    follow, checks each listed play with ``follow_error`` afresh and, where the list is
    complete and the lead small, that every play it accepts is listed. ``met`` counts the
    awkward positions met."""
    chooser = random.Random(seed)
    while state.phase == "play":
        seat = state.turn()
        assert seat is not None
        if not state.trick:
            lead = _a_lead(state, seat, chooser)
            step = ENGINE.apply(state, seat, make("play", lead))
            met["failed throw"] += any(e.kind == "throw_failed" for e in step.events)
            state = step.state
            units = state.lead_units
            met["throw"] += len(units) > 1
            met["tractor"] += any(u.length > 1 for u in units)
            continue
        listed, complete = ENGINE.legal_key(state, seat), ENGINE.legal_complete(state, seat)
        assert listed, "a follower always has a legal play"
        hand, ctx, units = state.hands[seat], state.ctx, state.lead_units
        suit = ctx.suit_of(units[0].cards[0])
        size = len(state.trick[0].cards)
        rules = {
            "min_length": state.opts["tractor_min_length"],
            "format_draw": state.opts["draw_policy"] != "no_format_draw",
        }
        for play in listed:  # type: ignore[attr-defined]
            assert follow_error(units, suit, hand, play, ctx, **rules) is None, play
        held = sum(ctx.suit_of(c) == suit for c in hand)
        met["void"] += held == 0
        met["short of the suit"] += 0 < held < size
        met["trump led"] += suit == "T"
        met["ruff offered"] += held == 0 and suit != "T" and any(
            all(ctx.is_trump(c) for c in p) for p in listed  # type: ignore[attr-defined]
        )
        met["shape to follow"] += held > size and any(u.width == 2 for u in units)
        met["cut list"] += not complete
        if complete and size <= 4:  # and nothing legal is left out of a complete list
            for play in multiset_combos(sort_cards(hand), size):
                legal = follow_error(units, suit, hand, play, ctx, **rules) is None
                assert legal == (sort_cards(play) in listed), play  # type: ignore[operator]
        pick = chooser.choice(sorted(listed))  # type: ignore[arg-type]
        state = ENGINE.apply(state, seat, make("play", pick)).state
    assert state.phase == "over"


def test_every_listed_follow_of_played_hands_passes_the_full_follow_check() -> None:
    """The listed follows are not judged again when listed (``legal.listed_plays``): over
    whole hands (leads of every shape, throws that stand and that fail, suits running out,
    trumps led and ruffed), every listed follow is one that ``follow_error``, judged afresh,
    accepts; and a complete list holds every play of a small lead's size that it accepts."""
    met: Counter[str] = Counter()
    for seed in range(runs(30, 300)):
        _follow_every_listed_play(_dealt_play_state(seed), seed, met)
    awkward = ["failed throw", "throw", "tractor", "void", "short of the suit", "trump led",
               "ruff offered", "shape to follow", "cut list"]
    assert all(met[case] for case in awkward), met


def test_a_cut_follow_list_holds_only_plays_the_full_follow_check_accepts() -> None:
    state, _ = _cut_follow()
    listed = ENGINE.legal_key(state, 1)
    assert ENGINE.legal_complete(state, 1) is False
    for play in listed:  # type: ignore[attr-defined]
        assert follow_error(state.lead_units, "S", state.hands[1], play, state.ctx) is None


def test_a_play_checked_by_apply_is_not_judged_again_and_play_cards_alone_still_judges() -> None:
    """``apply`` judges a play once (``check_action``) and hands it to ``play_cards`` as
    checked; ``play_cards`` called alone still refuses what the rules refuse."""
    state = _play_state(["S3 S3 S5", "S4 S6 C2", "C3 C4 C5", "C6 C7 C8"])
    state = ENGINE.apply(state, 0, make("play", ["S3", "S3"])).state
    for cards, code in [(("S4", "C2"), "must_follow_suit"), (("S4", "S7"), "card_not_in_hand")]:
        assert refusal(state, 1, make("play", cards)) == code
        with pytest.raises(IllegalAction) as info:
            play_cards(state, 1, cards)
        assert info.value.code == code
    after, _ = play_cards(state, 1, ("S4", "S6"), checked=True)
    assert after.hands[1] == ("C2",) and after.trick[-1].cards == ("S4", "S6")


def _leads_by_shapes_runs(state: ShengjiState, seat: int) -> set[tuple[str, ...]]:
    """The lead list as first written: tractors found by ``shapes.runs`` of the suit's
    counts, length by length (``lead_candidates`` reads the suit's pair tokens once)."""
    ctx, min_length = state.ctx, state.opts["tractor_min_length"]
    hand = state.hands[seat]
    out: set[tuple[str, ...]] = {(c,) for c in hand}
    by_suit: dict[str, list[str]] = {}
    for card in hand:
        by_suit.setdefault(ctx.suit_of(card), []).append(card)
    for cards in by_suit.values():
        counts = Counter(cards)
        out.update((c, c) for c in counts if counts[c] >= 2)
        for length in range(max(2, min_length), len(cards) // 2 + 1):
            found = [
                sort_cards(c for m in ms for c in (m, m)) for ms in shape_runs(counts, length, ctx)
            ]
            if not found:
                break
            out.update(found)
        units = parse_units(cards, ctx, min_length)
        if len(units) > 1:
            out.add(sort_cards(cards))
            out.update(_pairs_of(units))
    return out


def test_the_lead_list_is_the_one_shapes_runs_finds_length_by_length() -> None:
    tractors = 0
    for seed in range(runs(60, 600)):
        state = _dealt_play_state(seed)
        for seat in range(4):
            listed = lead_candidates(state, seat)
            assert listed == _leads_by_shapes_runs(state, seat)
            tractors += any(len(p) >= 4 and len(parse_units(p, state.ctx)) == 1 for p in listed)
    assert tractors > 10
