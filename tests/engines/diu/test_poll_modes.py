"""A12: the parallel poll gives the same game as the sequential one when every seat means the
same thing, because no seat sees another's call before the poll ends."""

from __future__ import annotations

import random
import zlib

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.diu import arbitration as arb
from paiju.engines.diu.combos import available_calls
from paiju.engines.diu.flow import question
from paiju.engines.diu.state import Action, DiuState
from tests.engines.diu.helpers import ENGINE


def _h(*parts: object) -> int:
    return zlib.crc32(repr(parts).encode())


def _intent(state: DiuState, seat: int) -> Action:
    """What the seat means to do, from its hand and the card only (never the standing call)."""
    q = question(state, seat)
    legal = sorted(ENGINE.legal_actions(state, seat))
    key = (seat, state.card, state.drawn, len(state.dead), state.hands[seat])
    if q == "discard":
        return legal[_h(*key) % len(legal)]
    if q in ("diu_pick", "reask", "take"):
        non_pass = [a for a in legal if a.kind != "pass"]
        keep = q != "take" or _h("take", *key) % 4  # give a won card up one time in four
        return non_pass[0] if non_pass and keep else Action("pass")
    poll = state.poll
    assert poll is not None and state.card is not None
    calls = available_calls(
        state.config.combo,
        state.card,
        state.hands[seat],
        state.melds[seat],
        chi_right=arb.has_chi_right(state.config.poll, poll.source, poll.by, poll.active, seat),
        diu_ok=arb.diu_allowed(poll),
    )
    choices = ["pass", *calls]
    want = Action("call", call=choices[_h("call", *key) % len(choices)]) if calls else None
    # Sequential mode does not offer a call that cannot stand: the seat passes instead.
    return want if want is not None and want in legal else Action("pass")


def _play(seed: int, mode: str) -> DiuState:
    opts = ENGINE.normalize_options({"poll_mode": mode})
    state = ENGINE.initial_state(opts, SeededRng(f"modes/{seed}"), MatchInfo(0, (0, 0, 0)))
    order = random.Random(seed)
    while not ENGINE.is_terminal(state):
        seat = order.choice(sorted(ENGINE.to_act(state)))
        state = ENGINE.apply(state, seat, _intent(state, seat)).state
    return state


@pytest.mark.parametrize("seed", range(12))
def test_parallel_and_sequential_give_the_same_hand(seed: int) -> None:
    seq, par = _play(seed, "sequential"), _play(seed, "parallel")
    for field in ("hands", "melds", "dead", "drawn", "winner", "end_reason", "final_scores"):
        assert getattr(seq, field) == getattr(par, field), field
