"""Values handed from one state to the next or kept for a state: the option mapping and
trump context that ``changed`` carries, the bidding lists a pass carries, the follow position
a state keeps. Each must be what the new state would work out for itself."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from functools import cached_property, partial
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.errors import GameError
from paiju.core.rng import SeededRng
from paiju.engines.base import EngineDefaults, MatchInfo
from paiju.engines.shengji import actions as notation
from paiju.engines.shengji.actions import Action
from paiju.engines.shengji.bidding import _candidates, _joker_bid_ok, legal_bids
from paiju.engines.shengji.cards import NT_LEVEL, RANK_NUMBER, full_pack, is_joker, sort_cards
from paiju.engines.shengji.engine import ShengjiEngine, _work_out_listed
from paiju.engines.shengji.follow import follow_error
from paiju.engines.shengji.options import context
from paiju.engines.shengji.play import follow_position
from paiju.engines.shengji.state import (
    _FIELD_NAMES,
    _KEPT_UNLESS,
    Bid,
    ShengjiState,
    changed,
)
from paiju.engines.shengji.view import PUBLIC_FIELDS, _tricks, public_parts

ENGINE = ShengjiEngine()


def _state(options: dict[str, Any] | None = None) -> ShengjiState:
    opts = ENGINE.normalize_options(options or {})
    return ENGINE.initial_state(opts, SeededRng("carried"), MatchInfo(hand=0, totals=(0,) * 4))


def _fresh(state: ShengjiState) -> ShengjiState:
    """The same state without any cached value."""
    copy: ShengjiState = pickle.loads(pickle.dumps(state))
    assert "derived" not in copy.__dict__ and "ctx" not in copy.__dict__
    return copy


def test_a_copy_keeps_the_option_values_and_the_context_of_unchanged_fields() -> None:
    state = _state()
    opts, ctx, mode = state.opts, state.ctx, state.friends_mode
    state.derived["to_act"] = frozenset({0})
    copy = changed(state, phase="play", asked=(1,))
    assert copy.__dict__["opts"] is opts and copy.__dict__["ctx"] is ctx
    assert copy.__dict__["friends_mode"] is mode
    assert "derived" not in copy.__dict__  # the memo is never handed on
    assert copy.bump().__dict__["ctx"] is ctx


def test_a_copy_holds_the_fields_and_only_the_values_it_may_keep() -> None:
    state = _state()
    _ = state.opts, state.ctx, state.friends_mode, state.derived
    cached = {n for n, v in vars(ShengjiState).items() if isinstance(v, cached_property)}
    assert cached == {"opts", "ctx", "friends_mode", "derived"}
    for changes in ({}, {"level": 4}, {"options": state.options}):
        copy = changed(state, **changes)
        kept = {name for name, source in _KEPT_UNLESS.items() if source.isdisjoint(changes)}
        assert copy.__dict__.keys() == set(_FIELD_NAMES) | kept
        assert copy == _fresh(copy)


@pytest.mark.parametrize(
    "changes", [{"trump_suit": "S"}, {"level": 5}, {"level": 9, "trump_suit": None}]
)
def test_a_new_trump_or_level_gets_its_own_context(changes: dict[str, Any]) -> None:
    state = _state({"joker_tractors": False})
    old = state.ctx
    copy = changed(state, **changes)
    assert "ctx" not in copy.__dict__
    assert copy.ctx == context(copy.level, copy.trump_suit, copy.opts) != old
    assert copy.opts is state.opts  # the options did not change


def test_new_options_get_their_own_mapping_and_context() -> None:
    state = _state()
    _ = state.ctx, state.opts, state.friends_mode
    options = dict(state.options) | {"game_mode": "finding_friends", "joker_tractors": False}
    copy = changed(state, options=tuple(sorted(options.items())))
    assert copy.opts == options and copy.friends_mode
    assert copy.ctx == context(copy.level, copy.trump_suit, options) != state.ctx


def _window(state: ShengjiState) -> ShengjiState:
    """The first state of the deal that asks all four seats."""
    assert ENGINE.to_act(state) == frozenset(range(4))
    return state


def _warm(state: ShengjiState) -> None:
    for seat in (0, 1, 2, 3, None):
        ENGINE.view(state, seat)
    for seat in range(4):
        ENGINE.legal_actions(state, seat)


def test_a_pass_hands_the_other_seats_lists_on() -> None:
    state = _window(_state())
    _warm(state)
    new = ENGINE.apply(state, 0, Action("pass")).state
    assert ENGINE.to_act(new) == frozenset({1, 2, 3})
    for seat in (1, 2, 3):
        assert new.derived["listed", seat] is state.derived["listed", seat]
        assert new.derived["shown", seat] is state.derived["shown", seat]
    assert ("listed", 0) not in new.derived  # no longer asked: worked out anew (nothing)
    assert ENGINE.legal_actions(new, 0) == frozenset()


def test_a_bid_hands_no_list_on() -> None:
    state = _window(_state())
    state = changed(state, hands=(("H2", "H2", "S3"), *state.hands[1:]))
    _warm(state)
    new = ENGINE.apply(state, 0, notation.parse_action("bid H2")).state
    assert new.bids == (Bid(0, "H2", 1),)
    assert not any(key[0] in ("listed", "shown") for key in new.derived if isinstance(key, tuple))
    assert ENGINE.to_act(new) == frozenset({1, 2, 3})  # the bidder is not asked again
    for seat in (1, 2, 3):
        assert ENGINE.legal_actions(new, seat) == _work_out_listed(_fresh(new), seat)[0]


OPTIONS = [{}, {"kitty_theft": True}, {"bid_reinforcement": "while_equivalent"},
           {"game_mode": "finding_friends", "kitty_theft": True}]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), options=st.sampled_from(OPTIONS))
def test_every_list_is_the_list_the_state_works_out_alone(
    seed: int, options: dict[str, Any]
) -> None:
    """A random hand (bids are made whenever a seat can) with every seat's lists and views
    asked before each action, as a table does, so that every carry happens."""
    chooser = random.Random(seed)
    state = ENGINE.initial_state(
        ENGINE.normalize_options(options), SeededRng(f"carried/{seed}"), MatchInfo(0, (0,) * 4)
    )
    while not ENGINE.is_terminal(state):
        _warm(state)
        fresh = _fresh(state)
        for seat in range(4):
            assert ENGINE.legal_actions(state, seat) == _work_out_listed(fresh, seat)[0]
            assert ENGINE.legal_complete(state, seat) == _work_out_listed(fresh, seat)[1]
            assert ENGINE.view(state, seat) == ShengjiEngine().view(fresh, seat)
        seat = chooser.choice(sorted(ENGINE.to_act(state)))
        listed = sorted(ENGINE.legal_actions(state, seat), key=notation.format_action)
        bids = [a for a in listed if a.kind == "bid"]
        state = ENGINE.apply(state, seat, chooser.choice(bids or listed)).state


class _Reads:
    """A state that records the fields read from it, by ``public_parts`` and through the
    state's own methods and cached values."""

    def __init__(self, state: ShengjiState, read: set[str]) -> None:
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "_read", read)

    def __getattr__(self, name: str) -> Any:
        state = object.__getattribute__(self, "_state")
        if name in _FIELD_NAMES:
            object.__getattribute__(self, "_read").add(name)
            return getattr(state, name)
        found = getattr(type(state), name)
        if isinstance(found, property | cached_property):
            return found.func(self) if isinstance(found, cached_property) else found.fget(self)
        return found.__get__(self)  # a method, run on the recorder


def test_public_parts_read_only_the_public_fields() -> None:
    """Two states equal in ``PUBLIC_FIELDS`` share their spectator view: a field read but
    not listed would let a changed view be kept."""
    read: set[str] = set()
    for options in OPTIONS:
        for state in _hand(options, 7):
            public_parts(_Reads(state, read), ENGINE.to_act(state))  # type: ignore[arg-type]
    assert read == set(PUBLIC_FIELDS)


def _hand(options: dict[str, Any], seed: int) -> list[ShengjiState]:
    chooser = random.Random(seed)
    state = ENGINE.initial_state(
        ENGINE.normalize_options(options), SeededRng(f"hand/{seed}"), MatchInfo(0, (0,) * 4)
    )
    states = [state]
    while not ENGINE.is_terminal(state):
        seat = chooser.choice(sorted(ENGINE.to_act(state)))
        listed = sorted(ENGINE.legal_actions(state, seat), key=notation.format_action)
        bids = [a for a in listed if a.kind == "bid"]
        state = ENGINE.apply(state, seat, chooser.choice(bids or listed)).state
        states.append(state)
    return states


def test_a_pass_keeps_the_spectator_view_but_who_is_to_act() -> None:
    engine = ShengjiEngine()
    state = _window(_state())
    before = engine.view(state, None)
    new = engine.apply(state, 0, Action("pass")).state
    after = engine.view(new, None)
    assert after == {**before, "to_act": [1, 2, 3]} and before["to_act"] == [0, 1, 2, 3]
    assert after["options"] is before["options"]  # kept, not built again
    assert engine.view(new, 2) == ShengjiEngine().view(_fresh(new), 2)
    dealt = engine.apply(engine.apply(engine.apply(new, 1, Action("pass")).state, 2,
                                      Action("pass")).state, 3, Action("pass")).state
    shown = engine.view(dealt, None)
    assert shown["dealt"] == before["dealt"] + 4
    assert shown["hand_counts"] is not before["hand_counts"]
    assert shown["options"] is before["options"]  # the same options: their view is kept
    assert shown == ShengjiEngine().view(_fresh(dealt), None)


@settings(max_examples=60, deadline=None)
@given(
    hand=st.lists(st.sampled_from(sorted(set(full_pack()))), max_size=33),
    level=st.integers(2, NT_LEVEL),
    policy=st.sampled_from(["both_two_or_more", "both_num_decks", "lj_two_bj_one", "disabled"]),
)
def test_a_hand_bids_what_its_level_cards_and_jokers_make(
    hand: list[str], level: int, policy: str
) -> None:
    """The bids read from only the level cards and jokers (``_candidates``, by the bid cards
    alone; the memo of ``_hand_bids`` is keyed by them) are the bids of every card."""
    held = tuple(sort_cards(hand))
    state = changed(_state({"joker_bid": policy}), level=level, hands=(held, held, held, held))
    expected = []
    for card, count in sorted(Counter(held).items()):
        if is_joker(card) or RANK_NUMBER[card[1:]] == level:
            expected += [
                Bid(1, card, n)
                for n in range(1, count + 1)
                if not is_joker(card) or _joker_bid_ok(card, n, policy, level == NT_LEVEL)
            ]
    assert _candidates(state, 1) == tuple(expected)


def test_the_tricks_shown_are_kept_only_while_they_begin_the_hands_tricks() -> None:
    over = next(s for s in reversed(_hand({}, 3)) if s.tricks)
    tricks = over.tricks
    fresh = public_parts(over, ())["tricks"]
    half = _tricks(tricks[:10], ((), []))
    assert half == fresh[:10]
    assert _tricks(tricks, (tricks[:10], half)) == fresh  # extended
    assert _tricks(tricks, (tricks[:10], half))[:10] == half
    assert _tricks(tricks[:10], (tricks, fresh)) == half  # not a beginning: built anew
    other = tuple(reversed(tricks))
    assert _tricks(other, (tricks[:10], half)) == _tricks(other, ((), []))
    assert _tricks((), (tricks, fresh)) == []


def test_one_engine_shows_hand_after_hand_as_fresh_engines_do() -> None:
    engine = ShengjiEngine()
    for seed in (1, 2):
        for state in _hand({"game_mode": "finding_friends"}, seed):
            for seat in (None, 0, 3):
                assert engine.view(state, seat) == ShengjiEngine().view(_fresh(state), seat)


@pytest.mark.parametrize(
    "options", [{}, {"tractor_min_length": 3}, {"draw_policy": "no_format_draw"}]
)
def test_a_kept_follow_position_judges_as_a_fresh_check_does(options: dict[str, Any]) -> None:
    """The follow position a state keeps (``play.follow_position``: worked out for the legal
    list, used again by the check and the application of the answer) judges every seat's
    plays, listed or not, as ``follow_error`` does on a fresh copy of the state."""
    chooser = random.Random(5)
    judged = 0
    for state in _hand(options, 11):
        if state.phase != "play" or not state.trick:
            continue
        _warm(state)
        fresh = _fresh(state)
        lead = fresh.lead_units
        suit = fresh.ctx.suit_of(lead[0].cards[0])
        size = sum(u.size for u in lead)
        for seat in range(4):
            hand = list(fresh.hands[seat])
            plays = [a.cards for a in ENGINE.legal_actions(state, seat)]
            plays += [tuple(chooser.sample(hand, min(size, len(hand)))) for _ in range(8)]
            kept = follow_position(state, seat)
            assert follow_position(state, seat) is kept
            for play in plays:
                alone = follow_error(
                    lead, suit, hand, play, fresh.ctx,
                    min_length=fresh.opts["tractor_min_length"],
                    format_draw=fresh.opts["draw_policy"] != "no_format_draw",
                )
                verdict = kept.error(play)
                assert (verdict and verdict.code) == (alone and alone.code), (seat, play)
                judged += 1
    assert judged > 500


def test_the_parts_kept_from_an_earlier_view_are_those_of_equal_fields() -> None:
    """``public_parts`` keeps the options, bids, tricks and failed throws of an earlier view
    only where this state's fields are alike (or, for tricks and failures, begin alike)."""
    states = [s for seed in (1, 2, 4) for s in _hand({"reveal_throw_blocker": True}, seed)]
    failed = [s for s in states if s.failures]
    assert failed, "no failed throw in these hands"
    pairs = [*pairwise(states), (failed[-1], states[0])]
    pairs += [(states[0], failed[0]), (failed[0], failed[-1]), (failed[-1], failed[0])]
    plain = [s for seed in (1, 2, 4) for s in _hand({}, seed) if s.failures]
    assert plain, "no failed throw in these hands"
    pairs += [(plain[-1], failed[-1]), (failed[-1], plain[-1])]  # the blocker shown or not
    bid = next(s for s in states if s.bids)
    moved = tuple(Bid((b.seat + 1) % 4, b.card, b.count) for b in bid.bids)
    pairs.append((bid, changed(bid, bids=moved)))  # as many bids, by other seats
    for earlier, state in pairs:
        shown = public_parts(earlier, ENGINE.to_act(earlier))
        kept = public_parts(state, ENGINE.to_act(state), (earlier, shown))
        assert kept == public_parts(_fresh(state), ENGINE.to_act(state))
        for name, field in [("options", "options"), ("bids", "bids")]:
            same = getattr(earlier, field) == getattr(state, field)
            assert (kept[name] is shown[name]) == same
        begun = state.failures[: len(earlier.failures)] == earlier.failures
        if earlier.failures and begun and earlier.options == state.options:
            assert kept["throw_failures"][0] is shown["throw_failures"][0]


def test_one_engine_shows_failed_throws_as_fresh_engines_do() -> None:
    engine = ShengjiEngine()
    shown = 0
    for options in ({"reveal_throw_blocker": True}, {}):
        for seed in (1, 2, 4):
            for state in _hand(options, seed):
                for seat in (None, 1):
                    view = engine.view(state, seat)
                    assert view == ShengjiEngine().view(_fresh(state), seat)
                    shown += bool(view["throw_failures"])
    assert shown


def _outcome(check: Any, state: ShengjiState, seat: int, action: object) -> object:
    try:
        return check(state, seat, action)
    except GameError as error:
        return type(error), getattr(error, "code", None), str(error)


def test_the_play_checks_and_keys_stand_for_the_listed_actions() -> None:
    """In the play phase the listed plays are kept as their cards: ``legal_key`` is those
    cards, and ``check_action`` judges every object as ``EngineDefaults.check_action``
    does with the listed ``Action`` objects (those of a fresh state)."""
    chooser = random.Random(8)
    checked = 0
    for options in ({}, {"game_mode": "finding_friends"}):
        for state in _hand(options, 12):
            if state.phase != "play":
                continue
            turn = state.turn()
            fresh = _fresh(state)
            for seat in range(4):
                listed = _work_out_listed(fresh, seat)[0]
                assert ENGINE.legal_key(state, seat) == frozenset(a.cards for a in listed)
                assert all(a.kind == "play" for a in listed)
            listed = _work_out_listed(fresh, turn)[0]
            view = ENGINE.view(state, turn)
            assert view["legal"] == sorted(map(notation.format_action, listed))
            assert view["legal_complete"] == _work_out_listed(fresh, turn)[1]
            hand = list(state.hands[turn])
            tries: list[object] = sorted(listed, key=notation.format_action)[:6]
            tries += [Action(kind, a.cards) for a in tries[:2] for kind in ("bury", "friend")]
            tries += [notation.make("play", chooser.sample(hand, min(k, len(hand))))
                      for k in (1, 2, 2, 3, 4)]
            tries += [notation.make("play", ["BJ"] * 3), Action("pass"), Action("bury", ("S2",)),
                      "play S2", Action("play", ("S3", "S2")), Action("play")]
            for action in tries:
                for seat in (turn, (turn + 1) % 4):
                    base = _outcome(partial(EngineDefaults.check_action, ENGINE), fresh, seat,
                                    action)
                    assert _outcome(ENGINE.check_action, state, seat, action) == base, action
                    checked += 1
    assert checked > 1000


class _Name(str):
    """A card or kind name that is no plain ``str``: equal to the plain name, but an action
    made of it is not a parsed one (``well_formed`` makes the plain one of it)."""

    __slots__ = ()


def _judged(check: Any, state: ShengjiState, seat: int, action: object) -> object:
    """The verdict with the checked action's exact types (an accepted action is applied as it
    is returned: its names go into the state)."""
    found = _outcome(check, state, seat, action)
    if isinstance(found, Action):
        return found, type(found.kind), type(found.cards), [type(c) for c in found.cards]
    return found


@pytest.mark.parametrize(
    "options", [{}, {"game_mode": "finding_friends", "kitty_theft": True}]
)
def test_a_listed_action_is_taken_as_the_check_of_a_fresh_state_takes_it(
    options: dict[str, Any],
) -> None:
    """``check_action`` takes a listed ``Action`` of plain strings without its round trip
    through the notation: in every phase it judges every object, listed or not, plain or
    not, as ``EngineDefaults.check_action`` does on a fresh copy of the state."""
    chooser = random.Random(3)
    checked = taken = 0
    for state in _hand(options, 21):
        if ENGINE.is_terminal(state):
            continue
        fresh = _fresh(state)
        acting = sorted(ENGINE.to_act(state))
        seat = acting[0]
        listed = sorted(ENGINE.legal_actions(state, seat), key=notation.format_action)
        tries: list[object] = [*chooser.sample(listed, min(4, len(listed)))]
        tries += [Action(_Name(a.kind), a.cards) for a in tries[:2]]
        tries += [Action(a.kind, tuple(map(_Name, a.cards))) for a in tries[:2] if a.cards]
        tries += [Action("pass"), Action("bid", ("H2",)), Action("bury", ("S2", "S3")),
                  Action("friend", ("HA",)), Action("play", ("BJ",)), "pass", None]
        for action in tries:
            for who in {seat, (seat + 1) % 4}:
                base = _judged(partial(EngineDefaults.check_action, ENGINE), fresh, who, action)
                assert _judged(ENGINE.check_action, state, who, action) == base, action
                checked += 1
                taken += isinstance(base, tuple) and isinstance(base[0], Action)
    assert checked > 1000 and taken > 300


def _bid_oracle(state: ShengjiState, seat: int) -> frozenset[Action]:
    """A bidding seat's actions made from its legal bids, for this state alone."""
    if seat not in ENGINE.to_act(state):
        return frozenset()
    bids = legal_bids(state, seat)
    return frozenset({Action("pass"), *(notation.make("bid", [b.card] * b.count) for b in bids)})


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), options=st.sampled_from(OPTIONS))
def test_the_bidding_lists_are_the_seats_own_bids(seed: int, options: dict[str, Any]) -> None:
    """The bidding lists made once for every seat with the same bids (``_bid_choices``,
    ``_bid_texts``) are, in every state, ``pass`` and the seat's own legal bids."""
    chooser = random.Random(seed)
    state = ENGINE.initial_state(
        ENGINE.normalize_options(options), SeededRng(f"bids/{seed}"), MatchInfo(0, (0,) * 4)
    )
    bidding = 0
    while state.phase in ("deal", "theft"):
        for seat in range(4):
            expected = _bid_oracle(_fresh(state), seat)
            assert ENGINE.legal_actions(state, seat) == expected
            shown = ENGINE.view(state, seat)["legal"]
            assert shown == sorted(map(notation.format_action, expected))
            bidding += len(expected) > 1
        seat = chooser.choice(sorted(ENGINE.to_act(state)))
        listed = sorted(ENGINE.legal_actions(state, seat), key=notation.format_action)
        bids = [a for a in listed if a.kind == "bid"]
        state = ENGINE.apply(state, seat, chooser.choice(bids or listed)).state
    assert bidding  # some seat could bid
