"""What a dealt dragon hand keeps while its seats decide: every seated idle connection holds
it, so the floor of #13 (KiB per idle connection within 1.2x of bare websockets) rests on it.
A seat's memo lives only while it decides, and building views leaves the solver's shared
caches as they were (they would keep every dealt hand of every idle table)."""

from __future__ import annotations

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.dragon import solver
from paiju.engines.dragon.engine import DragonEngine
from paiju.engines.dragon.state import DragonState

ENGINE = DragonEngine()


def dealt(seed: int) -> DragonState:
    """A 4-seat hand whose every viewer has been shown its view (as at a table's deal)."""
    options = ENGINE.normalize_options({"seats": 4})
    state = ENGINE.initial_state(options, SeededRng(f"memory/{seed}"), MatchInfo(0, (0,) * 4))
    for seat in [None, *range(state.seat_count)]:
        ENGINE.view(state, seat)
    return state


def remembered_seats(state: DragonState) -> set[int]:
    return {seat for _, seat in state.__dict__.get("of_hands", {})}


def test_a_seat_s_memo_is_let_go_once_it_has_submitted() -> None:
    state = dealt(1)
    assert remembered_seats(state) == {0, 1, 2, 3}
    kept = {key: value for key, value in state.of_hands.items() if key[1] != 2}
    state = ENGINE.apply(state, 2, ENGINE.timeout_action(state, 2)).state
    assert remembered_seats(state) == {0, 1, 3}
    assert all(state.of_hands[key] is value for key, value in kept.items())  # not redone
    for seat in (0, 1, 3):
        state = ENGINE.apply(state, seat, ENGINE.timeout_action(state, seat)).state
    assert ENGINE.is_terminal(state) and remembered_seats(state) == set()


def test_views_of_dealt_hands_leave_the_solver_s_shared_caches_alone() -> None:
    caches = (solver.solve_cached, solver.arrangements)
    before = [cache.cache_info().currsize for cache in caches]
    for seed in range(20):
        dealt(100 + seed)
    assert [cache.cache_info().currsize for cache in caches] == before
