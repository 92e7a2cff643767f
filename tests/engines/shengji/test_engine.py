"""The engine: deal and bidding, burying, throws and follows in play, the end of a hand,
the match, views, and invariants over many random hands."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from paiju.core.errors import GameError, IllegalAction, NotYourTurn
from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.shengji.actions import Action, make, parse_action
from paiju.engines.shengji.bidding import legal_bids
from paiju.engines.shengji.cards import full_pack, points, sort_cards
from paiju.engines.shengji.engine import ShengjiEngine
from paiju.engines.shengji.state import Bid, ShengjiState
from tests.scale import runs

ENGINE = ShengjiEngine()
FIRST = MatchInfo(hand=0, totals=(0, 0, 0, 0))


def _new(seed: str = "t", carry: dict[str, object] | None = None, **opts: Any) -> ShengjiState:
    options = ENGINE.normalize_options(opts)
    match = MatchInfo(hand=1 if carry else 0, totals=(0,) * 4, carry=carry or {})
    return ENGINE.initial_state(options, SeededRng(seed), match)


def _act(state: ShengjiState, seat: int, text: str) -> ShengjiState:
    return ENGINE.apply(state, seat, parse_action(text)).state


def _play_state(hands: list[str], leader: int = 0, landlord: int = 0, **opts: Any) -> ShengjiState:
    """A play-phase state at level 2 with hearts trump and the given hands."""
    base = _new(**opts)
    return replace(
        base,
        phase="play",
        landlord=landlord,
        leader=leader,
        trump_suit="H",
        trump_set=True,
        hands=tuple(sort_cards(h.split()) for h in hands),
        dealt=100,
        kitty=("S2",) * 0,
        buried=tuple(sort_cards(["C2", "C3", "C4", "C6", "C7", "C8", "C9", "CJ"])),
    )


def test_options_are_validated() -> None:
    opts = ENGINE.normalize_options({})
    assert opts["throw_evaluation"] == "all" and opts["kitty_multiplier"] == "times"
    for bad in ({"nope": 1}, {"throw_evaluation": "most"}, {"jack_variation": 1}):
        with pytest.raises(GameError) as info:
            ENGINE.normalize_options(bad)
        assert info.value.code == "invalid_options"


def test_notation_round_trips() -> None:
    for text in ["pass", "bid H2", "bid BJ BJ", "bury H5", "play S10 S10 SJ SJ"]:
        assert ENGINE.format_action(ENGINE.parse_action(text)) == text
    for bad in ["", "bid", "bid H2 H3", "bury", "bury H2 H3", "play", "pass S2", "jump", "play X9"]:
        with pytest.raises(GameError):
            ENGINE.parse_action(bad)


def test_the_deal_stops_at_a_bidding_window() -> None:
    state = _new()
    assert state.phase == "deal" and state.dealt == 4
    assert ENGINE.to_act(state) == frozenset({0, 1, 2, 3})
    for seat in range(4):
        legal = {ENGINE.format_action(a) for a in ENGINE.legal_actions(state, seat)}
        assert "pass" in legal
        assert {a for a in legal if a.startswith("bid ")} == {
            f"bid {c}" for c in state.hands[seat] if c[1:] == "2"
        }
    for other in range(4):
        view = ENGINE.view(state, other)
        assert sorted(view["hand"]) == sorted(state.hands[other])
        assert view["hand_counts"] == [len(h) for h in state.hands]


def _deal_state(hands: list[str], bids: tuple[Bid, ...] = ()) -> ShengjiState:
    return replace(_new(), hands=tuple(sort_cards(h.split()) for h in hands), bids=bids, dealt=8)


@pytest.mark.parametrize(
    ("hand", "bids", "expected"),
    [
        ("H2 S5", (), ["H2"]),
        ("H2 H2 BJ", (), ["H2", "H2 H2"]),
        ("BJ S5", (), []),  # a single joker is not a bid
        ("LJ LJ", (), ["LJ LJ"]),
        ("S2 D2", (Bid(1, "H2", 1),), []),  # equal count cannot overcall
        ("S2 S2", (Bid(1, "H2", 1),), ["S2 S2"]),
        ("S2 S2", (Bid(1, "H2", 2),), []),
        ("LJ LJ S2 S2", (Bid(1, "H2", 2),), ["LJ LJ"]),
        ("LJ LJ BJ BJ", (Bid(1, "LJ", 2),), ["BJ BJ"]),
        ("H2 H2 S2 S2", (Bid(0, "H2", 1),), ["H2 H2"]),  # reinforce only the same card
    ],
)
def test_legal_bids(hand: str, bids: tuple[Bid, ...], expected: list[str]) -> None:
    state = _deal_state([hand, "C3", "C4", "C5"], bids)
    got = [" ".join([b.card] * b.count) for b in legal_bids(state, 0)]
    assert got == expected


def _pass_all(state: ShengjiState) -> ShengjiState:
    while state.phase == "deal":
        seat = min(ENGINE.to_act(state))
        state = _act(state, seat, "pass")
    return state


def test_nobody_bids_in_the_first_hand_means_a_redeal() -> None:
    state = _new()
    while state.redeals == 0:
        seat = min(ENGINE.to_act(state))
        state = _act(state, seat, "pass")
    assert state.phase == "deal" and state.dealt < 100
    assert Counter(state.deck) == Counter(full_pack())


def test_nobody_bids_in_a_later_hand_flips_the_kitty() -> None:
    state = _pass_all(_new(carry={"levels": ["5", "3"], "landlord": 1}))
    assert state.phase == "bury" and state.landlord == 1 and state.level == 3
    assert state.flipped == state.kitty[:1]
    first = state.kitty[0]
    assert state.trump_suit == (None if first in ("BJ", "LJ") else first[0])
    assert len(state.hands[1]) == 33


def test_first_level_or_highest_flip() -> None:
    from paiju.engines.shengji.bidding import flip_kitty

    kitty = ("S5", "HK", "D3", "C9", "S4", "S6", "S7", "S8")
    assert flip_kitty(kitty, 3, "first_level_or_highest") == ("D", kitty[:3])
    assert flip_kitty(kitty, 2, "first_level_or_highest") == ("H", kitty)
    assert flip_kitty(("LJ", *kitty[1:]), 2, "first_card") == (None, ("LJ",))


def _bid_and_bury(state: ShengjiState) -> ShengjiState:
    """Bid at the first chance, pass otherwise, then bury the first 8 cards listed."""
    while state.phase == "deal":
        seat = min(ENGINE.to_act(state))
        bids = sorted(ENGINE.legal_actions(state, seat) - {Action("pass")})
        state = ENGINE.apply(
            state, seat, bids[0] if bids and not state.bids else Action("pass")
        ).state
    return state


def test_winning_bidder_takes_the_kitty_and_buries_it_card_by_card() -> None:
    state = _bid_and_bury(_new("bury"))
    landlord = state.landlord
    assert landlord == state.bids[-1].seat and state.phase == "bury"
    assert ENGINE.to_act(state) == frozenset({landlord})
    for seat in range(4):
        view = ENGINE.view(state, seat)
        assert ("kitty" in view) == (seat == landlord)
    assert "kitty" not in ENGINE.view(state, None)
    for _ in range(8):
        card = state.hands[landlord][0]
        state = _act(state, landlord, f"bury {card}")
    assert state.phase == "play" and ENGINE.to_act(state) == frozenset({landlord})
    assert all(len(h) == 25 for h in state.hands) and len(state.buried) == 8


def test_first_bidder_option() -> None:
    state = _new("fb", first_landlord="first_bidder")
    while state.phase == "deal":
        seat = min(ENGINE.to_act(state))
        bids = sorted(ENGINE.legal_actions(state, seat) - {Action("pass")})
        state = ENGINE.apply(state, seat, bids[-1] if bids else Action("pass")).state
    assert state.landlord == state.bids[0].seat


HANDS = [
    "SA SQ S3 C5",  # seat 0 leads
    "S4 S5 C6 C7",
    "SK D4 D5 D6",  # partner holds SK: blocks the throw
    "S6 S7 C8 C9",
]


def test_failed_throw_plays_the_forced_card_and_shows_the_attempt() -> None:
    state = _play_state(HANDS, throw_penalty="10_per_attempt")
    step = ENGINE.apply(state, 0, make("play", ["SA", "SQ"]))
    new = step.state
    assert new.trick[0].cards == ("SQ",)
    assert "SA" in new.hands[0]
    assert new.penalty == 10  # a declarer failed: 10 to the attackers
    kinds = [e.kind for e in step.events]
    assert "throw_failed" in kinds
    failed = next(e for e in step.events if e.kind == "throw_failed")
    assert failed.audience is None and failed.data["code"] == "throw_blocked"
    assert failed.data["forced"] == ["SQ"] and "blocker" not in failed.data
    for seat in [None, 1, 2, 3]:
        failure = ENGINE.view(new, seat)["throw_failures"][0]
        assert sorted(failure["attempted"]) == ["SA", "SQ"] and "blocker" not in failure
    shown = _play_state(HANDS, reveal_throw_blocker=True)
    shown = ENGINE.apply(shown, 0, make("play", ["SA", "SQ"])).state
    assert ENGINE.view(shown, 1)["throw_failures"][0]["blocker"] == 2


def test_follow_errors_name_the_rule() -> None:
    state = _play_state(["SK SK C3", "S7 S7 S5", "H4 H5 C9", "D3 D4 D5"], leader=0)
    state = ENGINE.apply(state, 0, make("play", ["SK", "SK"])).state
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 2, make("play", ["H4", "H5"]))
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, 1, make("play", ["S7", "S5"]))
    assert info.value.code == "must_follow_pair"
    legal = ENGINE.legal_actions(state, 1)
    assert legal == frozenset({make("play", ["S7", "S7"])})


def test_last_trick_to_the_attackers_doubles_the_kitty() -> None:
    # Seat 0 (declarer) leads S3; attacker seat 1 wins with a trump; kitty has 5+10 points.
    state = _play_state(["S3", "H9", "S4", "S6"], leader=0)
    state = replace(
        state,
        buried=sort_cards(["S5", "S10", "C2", "C3", "C4", "C6", "C7", "C8"]),
        attacker_points=60,
    )
    for seat, card in [(0, "S3"), (1, "H9"), (2, "S4"), (3, "S6")]:
        state = ENGINE.apply(state, seat, make("play", [card])).state
    assert ENGINE.is_terminal(state)
    assert state.kitty_bonus == 30  # 15 points x 2 (single lead)
    assert ENGINE.scores(state) == (-1, 1, -1, 1)  # 90: attackers take over, +0
    carry = ENGINE.carry(state)
    assert carry == {"levels": ["2", "2"], "landlord": 1, "winner": None}
    view = ENGINE.view(state, 3)
    assert view["buried"] == list(state.buried) and view["result"]["attacker_points"] == 90
    stats = ENGINE.hand_stats(state)
    assert [s["win"] for s in stats] == [0.0, 1.0, 0.0, 1.0]


def test_defending_ace_ends_the_match() -> None:
    state = _play_state(["S3", "S9", "S4", "S6"], leader=0)
    state = replace(state, levels=(14, 5), level=14, attacker_points=80)
    for seat, card in [(0, "S3"), (1, "S9"), (2, "S4"), (3, "S6")]:
        state = ENGINE.apply(state, seat, make("play", [card])).state
    assert ENGINE.is_terminal(state) and state.match_winner is None  # attackers took over
    state = _play_state(["SA", "S9", "S4", "S6"], leader=0)
    state = replace(state, levels=(14, 5), level=14)
    for seat, card in [(0, "SA"), (1, "S9"), (2, "S4"), (3, "S6")]:
        state = ENGINE.apply(state, seat, make("play", [card])).state
    carry = ENGINE.carry(state)
    assert carry["winner"] == 0
    assert ENGINE.match_over(ENGINE.normalize_options({}), MatchInfo(1, (0,) * 4, carry))


def test_jack_variation_drops_the_declarers_to_two() -> None:
    state = _play_state(["S3", "SJ", "S4", "S6"], leader=0, jack_variation=True)
    state = replace(state, levels=(11, 5), level=11)
    for seat, card in [(0, "S3"), (1, "SJ"), (2, "S4"), (3, "S6")]:
        state = ENGINE.apply(state, seat, make("play", [card])).state
    assert state.new_levels is not None and state.new_levels[0] == 2


def _random_hand(seed: int) -> ShengjiState:
    chooser = random.Random(seed)
    state = _new(f"p{seed}")
    start = state
    while not ENGINE.is_terminal(state):
        seat = min(ENGINE.to_act(state))
        actions = sorted(ENGINE.legal_actions(state, seat))
        action = chooser.choice(actions)
        if chooser.random() < 0.05:
            action = ENGINE.timeout_action(state, seat)
            assert action in actions
        state = ENGINE.apply(state, seat, action).state
    dealt = [c for h in start.hands for c in h]
    assert len(dealt) + len(start.deck) - start.dealt == 108
    return state


def test_cards_are_conserved_and_points_sum_to_200_over_many_hands() -> None:
    for seed in range(runs(60, 1000)):
        state = _random_hand(seed)
        played = [c for t in state.tricks for p in t.plays for c in p.cards]
        assert Counter(played + list(state.buried)) == Counter(full_pack())
        assert sum(t.points for t in state.tricks) + points(state.buried) == 200
        attackers = sum(t.points for t in state.tricks if state.is_attacker(t.winner))
        assert attackers == state.attacker_points


def test_room_preset_lists_every_option_at_its_default() -> None:
    import tomllib
    from pathlib import Path

    path = Path(__file__).parents[3] / "src" / "paiju" / "presets" / "shengji.toml"
    preset = tomllib.loads(path.read_text(encoding="utf-8"))
    assert preset["variant"] == "shengji"
    assert preset["options"] == ENGINE.normalize_options({})
    assert set(preset["timers"]) == {"bid", "turn"}


def test_no_action_after_the_hand_is_over() -> None:
    from paiju.core.errors import GameOver

    state = _play_state(["S3", "S9", "S4", "S6"], leader=0)
    for seat, card in [(0, "S3"), (1, "S9"), (2, "S4"), (3, "S6")]:
        state = ENGINE.apply(state, seat, make("play", [card])).state
    assert ENGINE.to_act(state) == frozenset() and ENGINE.legal_actions(state, 0) == frozenset()
    with pytest.raises(GameOver):
        ENGINE.apply(state, 0, make("play", ["S3"]))


def test_any_one_suit_lead_is_accepted_even_if_not_listed() -> None:
    state = _play_state(["S3 S5 S9 SJ SK C2", "S4 C3", "S6 C4", "S7 C5"])
    listed = ENGINE.legal_actions(state, 0)
    throw = make("play", ["S5", "S9", "SK"])
    assert throw not in listed  # three singles: not a listed candidate
    new = ENGINE.apply(state, 0, throw).state
    assert new.trick[0].cards == ("S5",)  # S6/S7 beat S5: the smallest failing single
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, 0, make("play", ["S5", "C2"]))
    assert info.value.code == "lead_mixed_suits"


def test_timer_kinds_and_spectator_view() -> None:
    state = _new()
    seat = min(ENGINE.to_act(state))
    assert ENGINE.timer_kind(state, seat) == "bid"
    view = ENGINE.view(state, None)
    assert view["hand"] == [] and view["legal"] == []
    play = _play_state(["S3", "S4", "S6", "S7"])
    assert ENGINE.timer_kind(play, 0) == "turn"


@pytest.mark.parametrize(
    "opts",
    [
        {"kitty_multiplier": "power", "throw_penalty": "10_per_card"},
        {"throw_fail_forced": "lowest_rank", "throw_penalty": "10_per_attempt"},
        {"throw_fail_forced": "first_challenger", "reveal_throw_blocker": True},
        {"throw_evaluation": "largest_component", "level_gap_adjacent": False},
        {"throw_evaluation": "highest", "offsuit_level_tractors": False, "joker_tractors": False},
        {"nt_trumps": "jokers_only", "tractor_min_length": 3, "draw_policy": "no_format_draw"},
        {"first_landlord": "first_bidder", "kitty_bid_policy": "first_level_or_highest"},
        {"must_defend": "A_5_10_K", "jack_variation": True, "result_cap": 3},
        {
            "bid_policy": "joker_or_higher_suit",
            "bid_reinforcement": "while_equivalent",
            "joker_bid": "lj_two_bj_one",
            "kitty_theft": True,
        },
        {
            "bid_policy": "greater_length",
            "bid_reinforcement": "overturn_or_while_winning",
            "joker_bid": "disabled",
            "max_rank": "NT",
        },
        {"joker_bid": "both_num_decks", "kitty_theft": True, "max_rank": "NT"},
        {"game_mode": "finding_friends", "throw_penalty": "10_per_card", "jack_variation": True},
    ],
)
def test_random_hands_under_each_option(opts: dict[str, Any]) -> None:
    for seed in range(12):
        chooser = random.Random(seed)
        top = "NT" if opts.get("max_rank") == "NT" and seed % 4 == 1 else "J"
        levels = [top, "Q" if top == "J" else top]
        if opts.get("game_mode") == "finding_friends":
            levels += ["K", "A"]
        carry = {"levels": levels, "landlord": seed % 4} if seed % 2 else None
        state = _new(f"o{seed}", carry, **opts)
        while not ENGINE.is_terminal(state):
            seat = min(ENGINE.to_act(state))
            action = chooser.choice(sorted(ENGINE.legal_actions(state, seat)))
            state = ENGINE.apply(state, seat, action).state
        played = [c for t in state.tricks for p in t.plays for c in p.cards]
        assert Counter(played + list(state.buried)) == Counter(full_pack())
        assert sum(ENGINE.scores(state)) == 0


def test_the_view_says_when_the_legal_list_is_only_a_subset() -> None:
    state = _play_state(["S3 S5 S9 SJ SK C2", "S4 C3", "S6 C4", "S7 C5"])
    lead = ENGINE.view(state, 0)
    assert lead["legal_complete"] is False  # any one-suit lead may be proposed
    assert ENGINE.view(state, 1)["legal_complete"] is True  # nothing to do: nothing missing
    state = ENGINE.apply(state, 0, make("play", ["S3"])).state
    follow = ENGINE.view(state, 1)
    assert follow["legal_complete"] is True and follow["legal"] == ["play S4"]
    assert ENGINE.view(_new(), 0)["legal_complete"] is True


def test_a_void_hand_with_huge_discard_choice_gets_a_cut_list_and_is_told() -> None:
    many = "C2 C3 C4 C6 C7 C8 C9 CJ CQ D3 D4 D6 D7 D8 D9 DJ DQ H5 H5 H6 H6 HA"
    state = _play_state(["S9 S9 S10 S10 C5", many, "S3 S4 S6 S7 D5", "SQ SK SA SJ DA"])
    state = ENGINE.apply(state, 0, make("play", ["S9", "S9", "S10", "S10"])).state
    view = ENGINE.view(state, 1)
    assert view["legal_complete"] is False
    assert "play H5 H5 H6 H6" in view["legal"]  # the trump tractor that can win is kept
    unlisted = make("play", ["C2", "CQ", "DQ", "HA"])
    assert ENGINE.format_action(unlisted) not in view["legal"]
    ENGINE.apply(state, 1, unlisted)  # a void hand may discard anything: accepted


def test_nt_level_hand_has_no_bidding_and_only_jokers_are_trumps() -> None:
    state = _new("nt", carry={"levels": ["NT", "5"], "landlord": 2}, max_rank="NT")
    assert state.phase == "bury" and state.landlord == 2 and state.level == 15
    assert state.trump_suit is None and state.bids == () and state.flipped == ()
    assert ENGINE.to_act(state) == frozenset({2})
    ctx = state.ctx
    assert {c for c in full_pack() if ctx.is_trump(c)} == {"LJ", "BJ"}
    assert ctx.value("S3") == ctx.value("S2") + 1 and ctx.value("BJ") == ctx.value("LJ") + 1
    view = ENGINE.view(state, 0)
    assert view["level"] == "NT" and view["levels"] == ["NT", "5"]


def test_defending_ace_with_nt_after_ace_goes_on_to_nt() -> None:
    state = _play_state(["SA", "S9", "S4", "S6"], leader=0, max_rank="NT")
    state = replace(state, levels=(14, 5), level=14)
    for seat, card in [(0, "SA"), (1, "S9"), (2, "S4"), (3, "S6")]:
        state = ENGINE.apply(state, seat, make("play", [card])).state
    carry = ENGINE.carry(state)
    assert carry == {"levels": ["NT", "5"], "landlord": 2, "winner": None}
    assert not ENGINE.match_over(ENGINE.normalize_options({}), MatchInfo(1, (0,) * 4, carry))
    state = _play_state(["SA", "S9", "S4", "S6"], leader=0, max_rank="NT")
    state = replace(state, levels=(15, 5), level=15, trump_suit=None)
    for seat, card in [(0, "SA"), (1, "S9"), (2, "S4"), (3, "S6")]:
        state = ENGINE.apply(state, seat, make("play", [card])).state
    assert ENGINE.carry(state)["winner"] == 0


@pytest.mark.parametrize(
    "options", [{}, {"kitty_theft": True}, {"game_mode": "finding_friends"}]
)
def test_every_action_bumps_the_version_by_one(options: dict[str, Any]) -> None:
    """In every phase an applied action makes the version one more (a pass in a bidding
    window bumps it with its own copy of the state, not with ``bump``)."""
    engine = ShengjiEngine()
    chooser = random.Random(4)
    state = engine.initial_state(
        engine.normalize_options(options), SeededRng("bump"), MatchInfo(0, (0,) * 4)
    )
    phases = set()
    while not engine.is_terminal(state):
        seat = chooser.choice(sorted(engine.to_act(state)))
        action = chooser.choice(sorted(engine.legal_actions(state, seat)))
        new = engine.apply(state, seat, action).state
        assert engine.version(new) == engine.version(state) + 1, (state.phase, action)
        phases.add(state.phase)
        state = new
    assert {"deal", "bury", "play"} <= phases


def _read(parse: Any, text: Any) -> object:
    try:
        action = parse(text)
    except Exception as error:  # (every reader must fail alike, whatever the error)
        return type(error), str(error)
    return action, type(action.kind), [type(c) for c in action.cards]


def test_a_text_is_read_as_the_notation_reads_it_and_only_short_ones_are_kept() -> None:
    """``parse_action`` keeps the actions of short texts (``_parsed``): each text, well
    formed or not, reads as ``actions.parse_action`` reads it, again and again; a text
    that does not parse is not kept, nor a long one (whatever is sent, the memo holds
    at most its size of short texts)."""
    from paiju.engines.shengji import actions as notation
    from paiju.engines.shengji.engine import _PARSED_LENGTH, _parsed

    engine = ShengjiEngine()
    texts: list[Any] = ["pass", " PASS ", "bid h2 h2", "bid H2 S2", "bury s10", "play hk h5 h5",
                        "play", "friend HA HA", "nonsense", "", "play " + " " * 300 + "S2",
                        "play " + "S2 " * 40, "pass" + " " * 200, None, 7, ["pass"]]
    _parsed.cache_clear()
    for _ in range(3):
        for text in texts:
            assert _read(engine.parse_action, text) == _read(notation.parse_action, text), text
    kept = _parsed.cache_info().currsize
    assert kept == len([t for t in texts if type(t) is str and len(t) <= _PARSED_LENGTH
                        and not isinstance(_read(notation.parse_action, t)[0], type)])
    assert kept == 7  # (the six short ones and 40 S2: well formed, if never legal)
