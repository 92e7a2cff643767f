"""The conformance suite: every registered variant keeps the Engine contract
(``paiju.engines.base``). OpenSpiel's random-simulation test is the model: random legal games
(``games.py``), played once per seed and read by every check here.

* every state: views of the declared type, ``legal`` = the formatted ``legal_actions``, the
  bots' view (``bot_view``) read in full equal to the seat's view,
  ``legal_complete`` as the engine says, listed and timeout actions accepted, idle seats with
  nothing to do, no hidden card in a view (the variant's ``hidden_leaks``), events declared;
* refusals: other seats' actions, actions of other states, garbage and mutated notation,
  objects that are no action and seats that do not exist are refused by ``check_action`` and
  ``apply`` alike, with a declared code of the ``GameError`` family, the state unchanged;
* hidden information: dealing the cards a viewer cannot see again does not change its view;
* determinism and replay, multi-hand matches, every room preset and the adapters' option sets.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from paiju.core import errors
from paiju.core.errors import GameError, MalformedAction
from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.registry import get_variant, variants
from tests.conformance.games import SEEDS, Game, Step, first_hand, game, play_hand, sample
from tests.conformance.shapes import shape_errors

PRESETS = Path(__file__).resolve().parents[2] / "src" / "paiju" / "presets"

#: Codes of the core error family, which every variant may raise.
CORE_CODES = frozenset(
    cls.code
    for cls in vars(errors).values()
    if isinstance(cls, type) and issubclass(cls, GameError)
)

GARBAGE = ("", "   ", "zzz", "pass pass", "play", "discard", "hu hu", "\x00", "é" * 50, "1 2 3")
NOT_ACTIONS: tuple[object, ...] = (None, 0, -1, "pass", (), [], {}, object(), 3.5)


def variant_cases() -> list[tuple[str, str, int]]:
    """(variant, raw options as JSON, seed): the defaults with every seed, and each of the
    adapter's option sets with a few."""
    cases = []
    for name in variants():
        conformance = get_variant(name).conformance
        sets = conformance.option_sets if conformance is not None else ()
        cases += [(name, "{}", seed) for seed in SEEDS]
        cases += [(name, json.dumps(o, sort_keys=True), s) for o in sets for s in SEEDS[:3]]
    return cases


# ---------------------------------------------------------------- every state of a game


def check_state(g: Game, state: Any) -> None:
    """The per-state contract (see the module docstring)."""
    engine, variant = g.engine, g.variant
    to_act = engine.to_act(state)
    assert engine.public_to_act(state) <= to_act
    for viewer in [None, *g.seats]:
        view = engine.view(state, viewer)
        json.dumps(view)
        assert shape_errors(view, variant.view) == [], f"view of {viewer}"
        listed = engine.legal_actions(state, viewer) if viewer is not None else frozenset()
        assert view["legal"] == sorted(engine.format_action(a) for a in listed)
        complete = engine.legal_complete(state, viewer) if viewer is not None else True
        assert view["legal_complete"] is complete
        if viewer is None:
            continue
        # what a bot is handed, read in full, is the seat's view
        assert dict(engine.bot_view(state, viewer)) == view, f"bot view of {viewer}"
        if viewer not in to_act:
            assert listed == frozenset(), f"seat {viewer} is not to act but has actions"
            continue
        for action in listed:
            assert engine.check_action(state, viewer, action) == action
        timeout = engine.timeout_action(state, viewer)
        engine.check_action(state, viewer, timeout)
        assert isinstance(engine.timer_kind(state, viewer), str)
    if variant.conformance is not None:
        assert variant.conformance.hidden_leaks(engine, state) == []


def check_step(g: Game, step: Step) -> None:
    """The notation round-trips and the events are declared, typed and addressed to seats."""
    text = g.engine.format_action(step.action)
    assert g.engine.parse_action(text) == step.action, f"{text} does not round-trip"
    for event in step.events:
        declared = g.variant.events.get(event.kind)
        assert declared is not None, f"undeclared event kind {event.kind!r}"
        assert shape_errors(dict(event.data), declared) == [], event
        assert event.audience is None or event.audience <= set(g.seats)
        json.dumps(dict(event.data))


@pytest.mark.parametrize(("variant", "options", "seed"), variant_cases())
def test_every_state_keeps_the_contract(variant: str, options: str, seed: int) -> None:
    g = game(variant, seed, options)
    for step in g.steps:
        check_state(g, step.state)
        check_step(g, step)
    check_state(g, g.final)
    engine = g.engine
    assert engine.is_terminal(g.final) and engine.to_act(g.final) == frozenset()
    assert len(engine.scores(g.final)) == len(g.seats)
    assert sorted(engine.hand_stats(g.final)[0]) == sorted(engine.hand_stats(g.final)[-1])
    json.dumps(engine.carry(g.final))


@pytest.mark.parametrize("variant", variants())
@pytest.mark.parametrize("seed", SEEDS)
def test_the_legal_key_changes_exactly_when_the_options_do(variant: str, seed: int) -> None:
    """``legal_key`` stands for ``legal_actions`` while a decision is open (the table keeps
    the key): between any two states of a hand, a seat asked in both has equal keys exactly
    when it has equal option lists. Across two hands (where dragon's, fixed for a hand,
    differ) equal keys still mean equal lists; two bust hands may have different keys for
    the same list, which only matters within a decision, and decisions end with the hand."""
    games = [game(variant, seed), game(variant, seed + 1)]
    engine = games[0].engine
    for seat in games[0].seats:
        asked = [
            (hand, s) for hand, g in enumerate(games)
            for s in [*(step.state for step in g.steps), g.final] if seat in engine.to_act(s)
        ]
        keys = [engine.legal_key(s, seat) for _, s in asked]
        listed = [engine.legal_actions(s, seat) for _, s in asked]
        hash(tuple(keys))
        for i in range(len(asked)):
            for j in range(i + 1, len(asked), max(1, len(asked) // 60)):
                if keys[i] == keys[j]:
                    assert listed[i] == listed[j], (seat, i, j)
                elif asked[i][0] == asked[j][0]:
                    assert listed[i] != listed[j], (seat, i, j)


@pytest.mark.parametrize("variant", variants())
@pytest.mark.parametrize("seed", SEEDS)
def test_apply_never_mutates_and_versions_grow(variant: str, seed: int) -> None:
    g = game(variant, seed)
    for step in sample(g.steps, 5, seed):
        before = copy.deepcopy(step.state)
        after = g.engine.apply(step.state, step.seat, step.action).state
        assert step.state == before, "apply mutated its input state"
        assert g.engine.version(after) > g.engine.version(step.state)


# ---------------------------------------------------------------- refusals


def mutations(text: str, other: str, chooser: random.Random) -> list[str]:
    """Near misses of ``text``: a token dropped, doubled, swapped for one of ``other``, ..."""
    tokens = text.split()
    i = chooser.randrange(len(tokens))
    foreign = chooser.choice(other.split())
    return [
        " ".join(tokens[:-1]),
        " ".join([*tokens, tokens[i]]),
        " ".join([*tokens[:i], foreign, *tokens[i + 1 :]]),
        " ".join([*tokens, foreign]),
        " ".join(tokens[1:]),
        text.upper(),
        text + " x",
        "".join(tokens),
    ]


JUNK: tuple[object, ...] = (None, -1, 10**6, "", "x", (), ("x",), ("H2", "H3"))


def crossovers(pool: list[Any], chooser: random.Random) -> list[Any]:
    """Action objects no parser makes: one field of an action set to the same field of
    another action, or to junk (a ``pass`` with cards, a discard of tile 10**6, ...)."""
    out = []
    for action in chooser.sample(pool, min(4, len(pool))):
        if not dataclasses.is_dataclass(action):
            continue
        for field in dataclasses.fields(action):
            donor = chooser.choice(pool)
            values = [*JUNK, getattr(donor, field.name, None)]
            for value in values:
                try:
                    out.append(dataclasses.replace(action, **{field.name: value}))
                except Exception:  # the action type refuses to be built so: nothing to try
                    continue
    return out


def candidates(g: Game, step: Step, pool: list[Any], chooser: random.Random) -> list[Any]:
    """(seat, object) pairs to try in ``step.state``: mostly things that should be refused."""
    engine, state = g.engine, step.state
    seats = list(g.seats)
    listed = {s: sorted(engine.legal_actions(state, s), key=engine.format_action) for s in seats}
    out: list[tuple[int, Any]] = []
    for seat in seats:
        for other in seats:
            out += [(seat, a) for a in chooser.sample(listed[other], min(3, len(listed[other])))]
        out += [(seat, a) for a in chooser.sample(pool, min(6, len(pool)))]
        out += [(seat, obj) for obj in NOT_ACTIONS]
    texts = [engine.format_action(a) for a in pool]
    for text in chooser.sample(texts, min(4, len(texts))):
        for mutated in mutations(text, chooser.choice(texts), chooser):
            out += [(seat, parsed) for seat in seats for parsed in parsed_or_none(g, mutated)]
    for text in GARBAGE:
        out += [(step.seat, parsed) for parsed in parsed_or_none(g, text)]
    out += [(seat, obj) for seat in engine.to_act(state) for obj in crossovers(pool, chooser)]
    out += [(bad, step.action) for bad in (-1, len(seats), 99)]
    return out


def parsed_or_none(g: Game, text: str) -> list[Any]:
    """The action ``text`` names, if it names one; parsing raises nothing but GameErrors."""
    try:
        return [g.engine.parse_action(text)]
    except MalformedAction:
        return []


def outcome(call: Any) -> tuple[str, Any]:
    """("ok", result) or ("refused", code); any exception outside GameError fails the test."""
    try:
        return "ok", call()
    except GameError as error:
        return "refused", error.code


def check_refusals(g: Game, step: Step, pool: list[Any], chooser: random.Random) -> set[str]:
    """Every candidate is judged alike by ``check_action`` and ``apply``; codes are declared."""
    engine, state = g.engine, step.state
    before = copy.deepcopy(state)
    declared = CORE_CODES | set(g.variant.error_codes)
    codes: set[str] = set()
    for seat, obj in candidates(g, step, pool, chooser):
        checked = outcome(lambda s=seat, o=obj: engine.check_action(state, s, o))
        applied = outcome(lambda s=seat, o=obj: engine.apply(state, s, o))
        assert checked[0] == applied[0], (seat, obj, checked, applied)
        if checked[0] == "refused":
            assert checked == applied, (seat, obj, checked, applied)
            assert checked[1] in declared, f"undeclared error code {checked[1]!r}"
            codes.add(checked[1])
        elif engine.legal_complete(state, seat):
            assert checked[1] in engine.legal_actions(state, seat), (seat, obj)
    assert state == before, "a refused action changed the state"
    return codes


@pytest.mark.parametrize("variant", variants())
@pytest.mark.parametrize("seed", SEEDS)
def test_illegal_and_malformed_actions_are_refused(variant: str, seed: int) -> None:
    g = game(variant, seed)
    other = game(variant, seed + 1000)
    pool = [s.action for s in (*g.steps, *other.steps)]
    chooser = random.Random(seed)
    codes: set[str] = set()
    for step in sample(g.steps, 7, seed):
        codes |= check_refusals(g, step, pool, chooser)
    assert {"malformed_action", "not_your_turn"} <= codes, f"only {codes} were seen"


# ---------------------------------------------------------------- hidden information


@pytest.mark.parametrize("variant", variants())
@pytest.mark.parametrize("seed", SEEDS)
def test_views_do_not_depend_on_unseen_cards(variant: str, seed: int) -> None:
    g = game(variant, seed)
    conformance = g.variant.conformance
    redeal = conformance.redeal_unseen if conformance is not None else None
    if redeal is None:
        pytest.skip(f"{variant} declares no hidden information to redeal")
    rng = SeededRng(f"redeal/{seed}")
    redealt = 0
    for step in sample(g.steps, 3, seed):
        for viewer in [None, *g.seats]:
            other = redeal(step.state, viewer, rng)
            if other is None:
                continue
            assert g.engine.view(other, viewer) == g.engine.view(step.state, viewer), viewer
            assert g.engine.public_to_act(other) == g.engine.public_to_act(step.state)
            redealt += 1
    assert redealt, "the adapter redealt no state of the hand"


# ---------------------------------------------------------------- determinism and matches


@pytest.mark.parametrize("variant", variants())
@pytest.mark.parametrize("seed", SEEDS[:4])
def test_the_same_seed_and_log_give_the_same_game(variant: str, seed: int) -> None:
    g = game(variant, seed)
    again = first_hand(g.engine, g.options, seed)
    assert again == g.steps[0].state, "the same seed must deal the same hand"
    for step in g.steps:
        assert again == step.state
        for viewer in [None, *g.seats]:
            assert g.engine.view(again, viewer) == g.engine.view(step.state, viewer)
        text = g.engine.format_action(step.action)
        again = g.engine.apply(again, step.seat, g.engine.parse_action(text)).state
    assert again == g.final


@pytest.mark.parametrize("variant", variants())
def test_matches_carry_from_hand_to_hand(variant: str) -> None:
    """Three hands of a match: each dealt from the last one's ``carry`` (through JSON, as a
    store would keep it) with the running totals; the same carry deals the same hand."""
    variant_ = get_variant(variant)
    engine = variant_.engine()
    options = engine.normalize_options({})
    seats = engine.seat_count(options)
    totals, carry = (0,) * seats, {}
    chooser = random.Random(variant)
    for hand in range(3):
        info = MatchInfo(hand, totals, carry)
        if engine.match_over(options, info):
            break
        rng = SeededRng("match").derive(str(hand))
        state = engine.initial_state(options, rng, info)
        assert state == engine.initial_state(options, SeededRng("match").derive(str(hand)), info)
        _, final = play_hand(engine, state, chooser)
        scores = engine.scores(final)
        totals = tuple(t + s for t, s in zip(totals, scores, strict=True))
        carry = json.loads(json.dumps(engine.carry(final)))
    assert hand >= 1, "a match is more than one hand by default"


@pytest.mark.parametrize("path", sorted(PRESETS.glob("*.toml")), ids=lambda p: p.stem)
def test_every_preset_plays_a_hand(path: Path) -> None:
    preset = tomllib.loads(path.read_text())
    variant = preset.get("variant", path.stem)
    options = json.dumps(preset.get("options", {}), sort_keys=True)
    g = game(variant, 0, options)
    for step in sample(g.steps, 4, 0):
        check_state(g, step.state)


@pytest.mark.parametrize("variant", variants())
def test_unknown_options_are_refused(variant: str) -> None:
    engine = get_variant(variant).engine()
    with pytest.raises(GameError) as info:
        engine.normalize_options({"no_such_option": 1})
    assert info.value.code == "invalid_options"
