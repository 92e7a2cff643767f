"""What the engine keeps from one state or view to the next (a seat's public part and its
lists, a seat's hand codes, winning tiles and legal texts, who a window waits for, parsed
action texts, the listed-action shortcut of ``check_action``) gives exactly what a fresh
computation gives: every view the same JSON bytes as one built with nothing kept, for every
viewer, while one engine views the states of several hands in turn (as a busy engine meets
unrelated states between two of one hand). A deliberately broken memo is caught."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.errors import IllegalAction, MalformedAction
from paiju.core.frozen import changed
from paiju.core.rng import SeededRng
from paiju.engines.base import EngineDefaults, MatchInfo
from paiju.engines.mcr import claims
from paiju.engines.mcr import view as view_module
from paiju.engines.mcr.actions import Action, format_action, parse_action
from paiju.engines.mcr.engine import McrEngine
from paiju.engines.mcr.rules import turn_actions
from paiju.engines.mcr.state import ANGANG_MELD, CLAIM, OVER, ROB, TURN, McrState
from paiju.engines.mcr.view import PublicParts, build_view
from tests.scale import examples

PROMPTS = ("eligible", "all")


def random_hand(seed: int, chooser: random.Random, prompts: str) -> Iterator[McrState]:
    """Every state of a hand of random legal play that takes every kong and claim it can
    (so melds, face-down kongs and claim windows come often)."""
    engine = McrEngine()
    opts = engine.normalize_options({"claim_prompts": prompts})
    state = engine.initial_state(opts, SeededRng(f"memos/{seed}"), MatchInfo(seed % 16, (0,) * 4))
    yield state
    for _ in range(1000):  # (a hand takes a few hundred actions at most)
        if engine.is_terminal(state):
            return
        seat = chooser.choice(sorted(engine.to_act(state)))
        texts = sorted(format_action(a) for a in engine.legal_actions(state, seat))
        eager = [t for t in texts if t.split()[0] in ("angang", "bugang", "gang", "peng", "chi")]
        text = chooser.choice(eager or texts)
        state = engine.apply(state, seat, parse_action(text)).state
        yield state
    raise AssertionError("the hand does not end")


def fresh_to_act(state: McrState) -> frozenset[int]:
    if state.phase == TURN:
        return frozenset({state.current})
    if state.phase in (CLAIM, ROB) and state.window is not None:
        answered = {s for s, _ in state.window.responses}
        return frozenset(s for s, _ in state.window.options if s not in answered)
    return frozenset()


def fresh_view(state: McrState, viewer: int | None) -> bytes:
    """The view built with nothing kept: legal actions and who acts worked out afresh, the
    shared parts built for this view alone."""
    to_act = fresh_to_act(state)
    legal: frozenset[Action] = frozenset()
    if viewer is not None and viewer in to_act:
        if state.phase == TURN:
            legal = turn_actions(state)
        else:
            assert state.window is not None
            legal = dict(state.window.options)[viewer]
    return orjson.dumps(build_view(state, viewer, to_act, legal, PublicParts()))


def check_interleaved(hands: list[list[McrState]], order: random.Random) -> int:
    """View the hands' states with one engine, a state of each hand in turn, every viewer in
    a random order, against fresh views; the number of views checked."""
    engine = McrEngine()
    checked = 0
    for step in range(max(len(h) for h in hands)):
        for states in hands:
            if step >= len(states):
                continue
            state = states[step]
            assert engine.to_act(state) == fresh_to_act(state)
            viewers: list[int | None] = [None, 0, 1, 2, 3]
            order.shuffle(viewers)
            for viewer in viewers:
                shown = orjson.dumps(engine.view(state, viewer))
                assert shown == fresh_view(state, viewer), (state.phase, viewer, step)
                checked += 1
    return checked


def some_hands(seed: int, order: random.Random, count: int = 3) -> list[list[McrState]]:
    return [
        list(random_hand(seed + n, order, PROMPTS[(seed + n) % 2])) for n in range(count)
    ]


@settings(max_examples=examples(8), deadline=None)
@given(seed=st.integers(0, 2**32), chooser=st.integers(0, 2**32))
def test_kept_views_equal_fresh_views_across_interleaved_hands(seed: int, chooser: int) -> None:
    order = random.Random(chooser)  # the play and the order of viewers
    assert check_interleaved(some_hands(seed, order), order) > 0


def test_recorded_hands_with_face_down_kongs_and_ends_view_as_fresh() -> None:
    """Seeds whose hands hold a concealed kong for a while; each hand's end (everything
    revealed) is followed by the next hand's states, whose concealed kongs are face down
    again: the parts kept from a finished hand must not be reused for them."""
    order = random.Random(5)
    hands = some_hands(8, order, count=6)
    face_down = [
        s for h in hands for s in h
        if s.phase != OVER and any(m.kind == ANGANG_MELD for ms in s.melds for m in ms)
    ]
    assert len(face_down) > 10, "the seeds no longer make concealed kongs"
    assert check_interleaved(hands, order) > 1000
    # and the same hands one after another (an end, then the next hand's deal)
    assert check_interleaved([[s for h in hands for s in h]], order) > 1000


@pytest.mark.parametrize(
    "breakage",
    [
        "parts",  # a changed seat's part keeps its old river
        "hand",  # a seat's hand codes kept whatever its hand
        "waits",  # a seat's winning tiles kept whatever its waits
        "legal",  # a seat's legal texts kept whatever its actions
        "waiting",  # an answered window still waiting for whom it waited for before
    ],
)
def test_a_broken_memo_is_caught(breakage: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above fails when a memo ignores what it was built from."""
    if breakage == "parts":
        renewed = view_module._renewed

        def stale_river(seat, inputs, was, part):  # type: ignore[no-untyped-def]
            new = renewed(seat, inputs, was, part)
            new["discards"] = part["discards"]
            return new

        monkeypatch.setattr(view_module, "_renewed", stale_river)
    elif breakage == "waiting":

        def keeping(window, **changes):  # type: ignore[no-untyped-def]
            new = changed(window, **changes)
            new.__dict__["_waiting"] = window.waiting()
            return new

        monkeypatch.setattr(claims, "changed", keeping)
    else:
        slot = {"hand": "_hand", "waits": "_waits", "legal": "_legal"}[breakage]
        method = {"hand": "hand_codes", "waits": "winning_tiles", "legal": "legal_texts"}[
            breakage
        ]
        real = getattr(PublicParts, method)

        def stale(self, *args):  # type: ignore[no-untyped-def]
            seat = args[0] if breakage == "legal" else args[1]
            kept = getattr(self, slot)[seat]
            return kept[1] if kept is not None else real(self, *args)

        monkeypatch.setattr(PublicParts, method, stale)
    order = random.Random(11)
    with pytest.raises(AssertionError):
        check_interleaved(some_hands(11, order), order)


def test_listed_actions_are_taken_as_they_are_and_others_as_the_protocol_says() -> None:
    """``check_action``'s shortcut for a listed action gives what the protocol's checks give;
    what is not listed (or not a plain action) still meets them."""
    engine = McrEngine()
    protocol = EngineDefaults.check_action
    for state in random_hand(3, random.Random(3), "all"):
        for seat in fresh_to_act(state):
            for action in engine.legal_actions(state, seat):
                assert engine.check_action(state, seat, action) is action
                assert protocol(engine, state, seat, action) == action
            with pytest.raises(MalformedAction):
                engine.check_action(state, seat, Action("discard", 99))
            # a True tile equals the tile 1: the protocol's answer, with a plain int tile
            odd = Action("discard", True)
            try:
                expected: object = protocol(engine, state, seat, odd)
            except IllegalAction as refused:
                expected = type(refused)
            try:
                got: object = engine.check_action(state, seat, odd)
                assert isinstance(got, Action) and type(got.tile) is int
            except IllegalAction as refused:
                got = type(refused)
            assert got == expected
            with pytest.raises(IllegalAction):
                engine.check_action(state, seat, Action("chi", 0))


def test_parsed_texts_are_the_parse_of_the_text() -> None:
    """The kept parses equal a parse of the text, and a malformed text fails every time."""
    for text in ("discard W5", "hu", "chi T2", "peng", "pass", "angang J1"):
        assert parse_action(text) == parse_action(text) == Action(*_tokens(text))
    for _ in range(2):
        with pytest.raises(MalformedAction):
            parse_action("discard H1")
        with pytest.raises(MalformedAction):
            parse_action("dance")


def _tokens(text: str) -> tuple[str, int | None]:
    from paiju.engines.mcr.tiles import parse_tile

    kind, *rest = text.split()
    return kind, parse_tile(rest[0]) if rest else None


def test_an_idle_seat_keeps_no_hand_codes_in_the_shared_cache_nor_a_memo_of_no_waits() -> None:
    """A seat's hand codes are kept by its own memo alone (not also by the cache all tables
    share, which would keep thousands of tables' hands); a seat without waits keeps no
    memo of them (a fresh empty list is cheaper than the memo's test), one with waits
    keeps its codes."""
    chooser = random.Random(21)
    states = [s for seed in range(21, 29) for s in random_hand(seed, chooser, "eligible")]
    parts = PublicParts()
    view_module._codes_of.cache_clear()
    for seat in range(4):
        assert parts.hand_codes(states[0], seat) == [
            view_module._CODES[t] for t in states[0].hands[seat]
        ]
    assert view_module._codes_of.cache_info().currsize == 0
    ready = [
        (s, seat) for s in states if s.phase != OVER for seat in range(4)
        if len(s.hands[seat]) % 3 == 1 and s.waits[seat]
    ]
    assert ready, "the seed no longer makes a ready hand"
    state, seat = ready[0]
    codes = parts.winning_tiles(state, seat)
    assert codes == sorted(view_module._CODES[t] for t in state.waits[seat])
    assert parts.winning_tiles(state, seat) is codes  # kept
    idle = [
        (s, n) for s in states if s.phase != OVER for n in range(4)
        if len(s.hands[n]) % 3 == 1 and not s.waits[n]
    ]
    state, seat = idle[0]
    parts._waits[seat] = (frozenset({1}), ["W2"])  # (an earlier memo is let go)
    assert parts.winning_tiles(state, seat) == []
    assert parts._waits[seat] is None


def test_a_legal_action_is_listed_in_its_notation() -> None:
    """The view's texts of legal actions (read from a table by kind and tile) are
    ``format_action`` of each: every kind with every playing tile, and the bare kinds."""
    for kind in ("discard", "angang", "bugang", "chi"):
        for tile in range(34):
            action = Action(kind, tile)
            assert view_module._text(action) == format_action(action)
            assert parse_action(view_module._text(action)) == action
    for kind in ("hu", "peng", "gang", "pass"):
        assert view_module._text(Action(kind)) == kind


def test_whether_a_seat_sees_its_own_part_otherwise_is_kept_with_the_part() -> None:
    """``hides`` (kept with each seat's part) answers as ``_hides`` for every seat of every
    state, while one engine's parts meet the states of several hands in turn (face-down
    kongs made, a hand's end revealing them, the next hand's deal)."""
    chooser = random.Random(8)
    hands = [list(random_hand(8 + n, chooser, "all")) for n in range(6)]
    states = [s for h in hands for s in h]
    assert any(view_module._hides(s, seat) for s in states for seat in range(4))
    parts = PublicParts()
    for state in states:
        kept = parts.of(state)
        for seat in range(4):
            assert kept.hides(seat) == view_module._hides(state, seat), (state.version, seat)


def test_a_seat_no_longer_asked_keeps_no_texts_of_its_last_decision() -> None:
    """A seat's legal texts are kept while it is asked (the same set: the same list) and
    let go, with the set, once a view finds it not asked."""
    engine = McrEngine()
    states = list(random_hand(4, random.Random(4), "eligible"))
    asked = [(s, seat) for s in states for seat in fresh_to_act(s)]
    state, seat = asked[0]
    first = engine.view(state, seat)["legal"]
    assert first and engine.view(state, seat)["legal"] is first
    later = next(s for s in states[states.index(state) + 1 :] if seat not in fresh_to_act(s))
    assert engine.view(later, seat)["legal"] == []
    assert engine._public._legal[seat] is None


def test_the_parts_of_a_deal_share_one_empty_list_of_each_kind() -> None:
    """At a deal no seat has melds or a river (and some no flowers): the parts hold one
    empty list of melds and one of tiles between them, not one per seat and key; a list
    that is not empty is a seat's own, and the views stay those built with nothing kept."""
    engine = McrEngine()
    state = next(random_hand(31, random.Random(31), "eligible"))
    parts = PublicParts().of(state).players
    assert len({id(p["melds"]) for p in parts}) == 1 and parts[0]["melds"] == []
    assert len({id(p["discards"]) for p in parts}) == 1 and parts[0]["discards"] == []
    empty = [p["flowers"] for p in parts if not p["flowers"]]
    assert all(f is parts[0]["discards"] for f in empty)
    assert all(p["flowers"] is not parts[0]["discards"] for p in parts if p["flowers"])
    for viewer in (None, 0, 1, 2, 3):
        assert orjson.dumps(engine.view(state, viewer)) == fresh_view(state, viewer)


def test_a_river_that_grew_is_written_without_the_shared_cache() -> None:
    """Every discard makes a new river, seen once per table: its codes are written straight
    (a miss of the cache all tables share costs twice as much, and the river would stay
    there) and kept with its seat's part."""
    states = list(random_hand(31, random.Random(31), "eligible"))
    engine = McrEngine()
    grown = 0
    for before, after in itertools.pairwise(states):
        if OVER in (before.phase, after.phase):
            break
        engine.view(before, 0)
        if before.melds != after.melds or before.flowers != after.flowers:
            continue  # (a new meld's or flower's codes come through the cache)
        view_module._codes_of.cache_clear()
        view = engine.view(after, 0)
        for seat in range(4):
            river = after.discards[seat]
            assert view["players"][seat]["discards"] == [view_module._CODES[t] for t in river]
            grown += len(river) > len(before.discards[seat])
        assert view_module._codes_of.cache_info().currsize == 0
    assert grown > 10, "the seed no longer makes rivers grow"
