"""What a dragon action no longer works out afresh, held to the path it replaced: the
normalized options, ``to_act`` per state, an action known well formed without its notation
read back, the texts a hand's views share (``DragonState.shown``), the best arrangement
picked from the listed leftovers, the next state made without ``dataclasses.replace`` and a
``bust`` judged from the seat's view."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.errors import IllegalAction, InvalidOptions, MalformedAction
from paiju.core.rng import SeededRng
from paiju.engines.base import EngineDefaults, MatchInfo
from paiju.engines.dragon import listing, rules
from paiju.engines.dragon.actions import (
    Arrange,
    DeclareBust,
    format_action,
    optimal_action,
    optimal_text,
    parse_action,
)
from paiju.engines.dragon.engine import DragonEngine, check_arrangement
from paiju.engines.dragon.rules import ScoringOptions
from paiju.engines.dragon.solver import (
    PAIRS,
    arrangements,
    best_leftover,
    listed_best,
    solve,
)
from paiju.engines.dragon.state import DragonState, evolve
from tests.engines.dragon.strategies import all_options, hands

ENGINE = DragonEngine()


def deal(options: dict[str, Any], seed: int) -> DragonState:
    opts = ENGINE.normalize_options(options)
    match = MatchInfo(0, (0,) * opts["seats"])
    return ENGINE.initial_state(opts, SeededRng(f"memos/{seed}"), match)


# --- normalized options --------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw", [{}, {"seats": 2}, {"seats": 3, "hands": 9, "scoring": "best"}, {"specials": True}]
)
def test_normalized_options_are_the_normalized_options_and_remembered(raw: dict[str, Any]) -> None:
    found = rules.normalized(raw)
    assert dict(found) == rules.normalize_options(raw)
    assert rules.normalized(dict(raw)) is found  # equal options: the same answer
    with pytest.raises(TypeError):
        found["seats"] = 1  # type: ignore[index]  # shared, so read-only


def test_normalized_options_tell_values_apart_by_type() -> None:
    """``True == 1`` and ``4.0 == 4``: a memo keyed on values alone would answer one with the
    other's normalization; each answers as ``normalize_options`` does."""
    for raw in ({"specials": 1}, {"specials": True}, {"seats": 4.0}, {"seats": 4},
                {"seats": True}, {"hands": [4]}, {"nonsense": 1}):
        try:
            expected: Any = rules.normalize_options(raw)
        except InvalidOptions as error:
            expected = type(error)
        try:
            got: Any = dict(rules.normalized(raw))
        except InvalidOptions as error:
            got = type(error)
        assert got == expected, raw


def test_the_engine_reads_seats_and_the_match_end_from_the_options() -> None:
    options = {"seats": 3, "hands": 2}
    assert ENGINE.seat_count(options) == 3
    assert not ENGINE.match_over(options, MatchInfo(1, (0,) * 3))
    assert ENGINE.match_over(options, MatchInfo(2, (0,) * 3))
    assert ENGINE.seat_count({"seats": 2}) == 2  # another table's options, another answer
    with pytest.raises(InvalidOptions):
        ENGINE.seat_count({"seats": 9})


# --- to_act per state ----------------------------------------------------------------------


def test_to_act_is_worked_out_once_per_state_and_follows_each_submission() -> None:
    state = deal({}, 1)
    first = ENGINE.to_act(state)
    assert first == frozenset(range(4)) and ENGINE.to_act(state) is first
    for seat in (2, 0, 3, 1):
        state = ENGINE.apply(state, seat, ENGINE.timeout_action(state, seat)).state
        expected = frozenset(s for s, a in enumerate(state.submissions) if a is None)
        assert ENGINE.to_act(state) == (frozenset() if state.over else expected)
        assert ENGINE.view(state, None)["to_act"] == sorted(ENGINE.to_act(state))
    assert state.over and ENGINE.to_act(state) == frozenset()


# --- well formed without the notation read back --------------------------------------------


def generic(action: object) -> object:
    """The judgement of every variant: write the action, read it back, compare."""
    try:
        return EngineDefaults.well_formed(ENGINE, action)
    except MalformedAction:
        return MalformedAction


def judged(action: object) -> object:
    try:
        return ENGINE.well_formed(action)
    except MalformedAction:
        return MalformedAction


laid = st.tuples(st.integers(-1, 7), st.integers(-1, 7))
odd_objects = st.one_of(
    st.builds(Arrange.canonical, st.lists(laid, min_size=0, max_size=9).map(tuple),
              st.lists(st.integers(-1, 22), max_size=3).map(tuple)),
    st.builds(Arrange, st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=5,
                                max_size=8).map(tuple),
              st.lists(st.integers(0, 20), min_size=1, max_size=2).map(tuple)),
)


@settings(max_examples=400, deadline=None)
@given(action=odd_objects)
def test_well_formed_judges_as_the_notation_does(action: Arrange) -> None:
    assert judged(action) == generic(action)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_listed_arrangement_is_well_formed_as_it_is(seed: int) -> None:
    state = deal({}, seed)
    for seat in range(state.seat_count):
        for action in ENGINE.legal_actions(state, seat):
            parsed = parse_action(format_action(action))
            assert ENGINE.well_formed(parsed) is parsed  # not written and read back
            assert judged(action) == generic(action) == action


def test_look_alike_arrangements_are_judged_by_their_notation() -> None:
    """Objects equal to a parsed arrangement but not made as ``parse_action`` makes them
    (bools for pips, pairs of their own, a subclass) go the long way, and are answered as
    before."""
    text = "chain 16 66 64 44 45 55 | 11 22"
    parsed = parse_action(text)
    assert isinstance(parsed, Arrange)
    own_pairs = Arrange.canonical(tuple((a, b) for a, b in parsed.chain), parsed.leftover)
    bools = Arrange.canonical(((True, 6), *parsed.chain[1:]), parsed.leftover)
    unsorted = Arrange.canonical(parsed.chain, tuple(reversed(parsed.leftover)))

    class Sub(Arrange):
        __slots__ = ()

    sub = Sub(parsed.chain, parsed.leftover)
    for action in (own_pairs, bools, unsorted, sub, DeclareBust(), "bust", None):
        assert judged(action) == generic(action), action
    assert ENGINE.well_formed(own_pairs) == parsed
    assert judged(unsorted) is MalformedAction and judged(sub) is MalformedAction


def test_parsed_tiles_are_the_shared_pairs_and_non_tiles_are_refused() -> None:
    action = parse_action("chain 64 44 45 55 56 66 | 11 22")
    assert isinstance(action, Arrange)
    assert all(t is PAIRS[t[0]][t[1]] for t in action.chain)
    for bad in ("chain 77 44 45 55 56 66 | 11 22", "chain 4 44 45 55 56 66 | 11",
                "chain 4x 44 45 55 56 66 | 11", "chain 64 44 45 55 56 66 | 70"):
        with pytest.raises(MalformedAction):
            parse_action(bad)


# --- texts a hand's views share ------------------------------------------------------------


def test_a_seat_s_submission_text_is_its_own_in_each_branch_of_the_hand() -> None:
    """Two states after the same one, with different submissions of one seat, share the
    hand's ``shown`` memo: each view still shows its own state's submission."""
    state = deal({}, 5)
    ENGINE.view(state, 0)
    choices = sorted(ENGINE.legal_actions(state, 0), key=format_action)
    assert len(choices) >= 2
    one = ENGINE.apply(state, 0, choices[0]).state
    two = ENGINE.apply(state, 0, choices[-1]).state
    assert one.shown is two.shown is state.shown
    for _ in range(2):  # in turn, each read after the other wrote
        assert ENGINE.view(one, 0)["my_submission"] == format_action(choices[0])
        assert ENGINE.view(two, 0)["my_submission"] == format_action(choices[-1])
    assert ENGINE.view(state, 0)["my_submission"] is None
    assert ENGINE.view(one, 0)["hand"] == ENGINE.view(two, 0)["hand"]


def test_the_next_hand_shares_nothing_with_the_last() -> None:
    state = deal({}, 6)
    view = ENGINE.view(state, 1)
    after = deal({}, 7)
    assert after.shown is not state.shown
    assert ENGINE.view(after, 1)["hand"] != view["hand"] or after.hands[1] == state.hands[1]


# --- the best arrangement from the listed leftovers ----------------------------------------


@settings(max_examples=300, deadline=None)
@given(hand=hands, opts=all_options)
def test_the_best_of_the_listed_leftovers_is_the_solver_s(
    hand: tuple[int, ...], opts: ScoringOptions
) -> None:
    leftovers = {leftover for _, leftover in arrangements.__wrapped__(hand)}
    assert listed_best(leftovers, opts) == best_leftover(hand, opts)
    assert solve(hand, opts, leftovers) == solve(hand, opts)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), scoring=st.sampled_from(["submitted", "best"]))
def test_a_view_s_best_is_the_timeout_s_choice(seed: int, scoring: str) -> None:
    state = deal({"scoring": scoring, "pair_set": "civil"}, seed)
    for seat in range(state.seat_count):
        view = ENGINE.view(state, seat)
        assert view["best"] == format_action(ENGINE.timeout_action(state, seat))
        assert view["best"] in view["legal"]


@settings(max_examples=300, deadline=None)
@given(hand=hands, opts=all_options)
def test_the_best_text_from_the_listed_leftovers_is_the_optimal_action_s(
    hand: tuple[int, ...], opts: ScoringOptions
) -> None:
    """What a view shows as ``best``: picked from the leftovers its legal list names, and
    written without making the action, it is the timeout's action written out."""
    leftovers = listing.listed_leftovers(listing.legal_notation(hand))
    assert optimal_text(hand, opts, leftovers) == format_action(optimal_action(hand, opts))
    assert optimal_text(hand, opts) == format_action(optimal_action(hand, opts))


# --- a state's next state without dataclasses.replace ---------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 4), data=st.data())
def test_evolve_is_replace(seed: int, seats: int, data: st.DataObject) -> None:
    """The engine's next state (``evolve``) equals ``dataclasses.replace``'s, field by field
    and object by object, hash included, and carries none of the memos: what ``carry_memo``
    does not hand on is worked out again."""
    state = deal({"seats": seats}, seed)
    ENGINE.view(state, 0)  # the memos hold something
    assert state.__dict__["of_hands"] and state.__dict__["derived"]
    names = data.draw(st.sets(st.sampled_from(sorted(DragonState.__dataclass_fields__))))
    changes: dict[str, Any] = {name: (f"new {name}",) for name in names}
    got, expected = evolve(state, **changes), dataclasses.replace(state, **changes)
    assert type(got) is DragonState
    assert got == expected and hash(got) == hash(expected)
    assert got.__dict__.keys() == expected.__dict__.keys() == set(DragonState.__dataclass_fields__)
    for name in DragonState.__dataclass_fields__:
        assert getattr(got, name) is getattr(expected, name)
    assert got.of_hands == {} and got.derived == {} and got.shown == {}
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.version = 3  # type: ignore[misc]  # still frozen


def test_evolve_refuses_what_is_no_field() -> None:
    state = deal({}, 5)
    with pytest.raises(TypeError, match="of_hands"):
        evolve(state, of_hands={})
    with pytest.raises(TypeError, match="nonsense"):
        evolve(state, version=1, nonsense=2)


# --- a bust submission judged from the seat's view ------------------------------------------


def _bust_verdicts(state: DragonState, seats: range) -> list[tuple[str, str | None, str]]:
    """What ``check_action`` answers each of ``seats`` declaring ``bust``."""
    found: list[tuple[str, str | None, str]] = []
    for seat in seats:
        try:
            ENGINE.check_action(state, seat, DeclareBust())
        except IllegalAction as error:
            found.append(("illegal", error.code, str(error)))
        else:
            found.append(("legal", None, ""))
    return found


def _solver_verdict(hand: tuple[int, ...]) -> tuple[str, str | None, str]:
    try:
        check_arrangement(hand, DeclareBust())
    except IllegalAction as error:
        return ("illegal", error.code, str(error))
    return ("legal", None, "")


def test_a_bust_submission_is_judged_as_the_solver_judges_it() -> None:
    """Once a seat's view has worked out its best arrangement, ``bust`` is judged from it
    (bust exactly when the best is ``bust``), not by the solver again: the same verdict,
    code and message, seat by seat, before and after the views, and after a branch."""
    met = set()
    for seed in range(60):
        state = deal({}, seed)
        seats = range(state.seat_count)
        fresh = [_solver_verdict(hand) for hand in state.hands]
        cold = _bust_verdicts(state, seats)
        for seat in seats:
            ENGINE.view(state, seat)
            assert ("best", seat) in state.of_hands
        assert cold == _bust_verdicts(state, seats) == fresh
        met.update(verdict[0] for verdict in fresh)
        branch = ENGINE.apply(state, 0, ENGINE.timeout_action(state, 0)).state
        assert _bust_verdicts(branch, range(1, state.seat_count)) == fresh[1:]
    assert met == {"illegal", "legal"}  # bust hands and hands that lay a chain both met
