"""The views' legal lists, written as the chains are walked (``listing``), against the path
they replace: the solver's arrangements (held to a brute force in ``test_solver``), each
written out as the action's notation."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.engines.dragon.actions import arrangement_text
from paiju.engines.dragon.engine import legal_texts
from paiju.engines.dragon.listing import _LAYS, _TOUCHING, legal_notation, listed_leftovers
from paiju.engines.dragon.solver import arrangements
from paiju.engines.dragon.tiles import BY_CODE, FULL_SET, TILES, Kind
from tests.scale import examples

hands = st.permutations(FULL_SET).map(lambda deck: tuple(sorted(deck[:8])))
CIVIL = [t.kind for t in TILES if t.civil]
# Four civil pairs: both copies of every kind, the hands richest in closed chains and in
# chains that read the same both ways.
pairs_hands = st.sets(st.sampled_from(CIVIL), min_size=4, max_size=4).map(
    lambda kinds: tuple(sorted(2 * tuple(kinds)))
)


def listed_by_the_solver(hand: tuple[Kind, ...]) -> list[str]:
    """The list as views wrote it before: every arrangement of ``solver.arrangements``
    (canonical chain, sorted leftover) in notation, sorted; ``bust`` when there is none."""
    found = arrangements.__wrapped__(hand)
    if not found:
        return ["bust"]
    return sorted(arrangement_text(chain, leftover) for chain, leftover in found)


def hand_of(codes: str) -> tuple[Kind, ...]:
    return tuple(sorted(BY_CODE[c] for c in codes.split()))


@settings(max_examples=examples(300), deadline=None)
@given(hand=hands)
def test_the_walk_lists_what_the_solver_lists(hand: tuple[Kind, ...]) -> None:
    assert legal_notation(hand) == listed_by_the_solver(hand)


@settings(max_examples=examples(100), deadline=None)
@given(hand=pairs_hands)
def test_hands_of_pairs_list_each_closed_chain_once(hand: tuple[Kind, ...]) -> None:
    listed = legal_notation(hand)
    assert listed == listed_by_the_solver(hand)
    assert len(set(listed)) == len(listed)


@settings(max_examples=examples(50), deadline=None)
@given(hand=hands)
def test_the_order_of_the_hand_does_not_matter(hand: tuple[Kind, ...]) -> None:
    assert legal_notation(tuple(reversed(hand))) == legal_notation(hand)


def test_a_closed_chain_that_reads_the_same_both_ways_is_listed_once() -> None:
    hand = hand_of("15 15 56 56 16 16 46 46")
    listed = legal_notation(hand)
    assert "chain 15 56 61 16 65 51 | 46 46" in listed  # the chain reversed is itself
    assert listed == listed_by_the_solver(hand) == list(legal_texts.__wrapped__(hand))
    assert len(set(listed)) == len(listed)


def test_a_bust_hand_lists_bust_alone() -> None:
    assert legal_notation(hand_of("66 66 44 55 55 33 33 46")) == ["bust"]


def test_a_hand_lists_what_its_actions_format_to() -> None:
    """The engine's other path: the actions themselves, each formatted."""
    hand = hand_of("55 33 33 56 45 26 14 23")
    assert legal_notation(hand) == list(legal_texts.__wrapped__(hand))


@settings(max_examples=examples(100), deadline=None)
@given(hand=hands)
def test_the_leftovers_a_list_names_are_the_arrangements_leftovers(
    hand: tuple[Kind, ...],
) -> None:
    """What the view's best arrangement is picked from: each leftover that lays a chain."""
    named = listed_leftovers(legal_notation(hand))
    assert len(set(named)) == len(named)
    assert set(named) == {leftover for _, leftover in arrangements.__wrapped__(hand)}


def test_a_bust_list_names_no_leftover() -> None:
    assert listed_leftovers(["bust"]) == []


def fresh_lays(pip: int, counts: list[int]) -> list[tuple[int, str, int]]:
    """The tiles that may be laid from ``pip`` (1-6) with these counts left, written from the
    tiles' codes: each kind once (its unit in a multiset, its text laid from ``pip``, the
    pip it leads to)."""
    found = []
    for tile in TILES:
        a, b = int(tile.code[0]), int(tile.code[1])
        if counts[tile.kind] and pip in (a, b):
            other = b if a == pip else a
            found.append((1 << 2 * tile.kind, f" {pip}{other}", other))
    return found


def test_every_table_of_what_a_pip_may_lay_is_worked_out_afresh() -> None:
    """Every set of counts of the kinds that touch a pip (``_LAYS``, written at import, is
    shared by every hand; counts of other kinds are masked off): each table lists the tiles
    that may be laid, with the pip they lead to and that pip's own table."""
    for pip in range(6):
        touching = [t.kind for t in TILES if pip + 1 in (t.low, t.high)]
        sets = list(itertools.product(*[range(TILES[k].copies + 1) for k in touching]))
        assert len(_LAYS[pip]) == len(sets)
        for held in sets:
            counts = [0] * len(TILES)
            for k, n in zip(touching, held, strict=True):
                counts[k] = n
            free = sum(n << 2 * k for k, n in enumerate(counts))
            assert free & _TOUCHING[pip] == free
            lays = _LAYS[pip][free]
            assert [(unit, text, to + 1) for unit, _, _, text, to in lays] == fresh_lays(
                pip + 1, counts
            )
            for _, table, touches, _, to in lays:
                assert table is _LAYS[to] and touches == _TOUCHING[to]
