"""Invariants over random legal play, for every option that changes the flow: the deck is
conserved, timeouts are legal, views never leak, hands end, scores are zero-sum."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import Any

import pytest

from paiju.engines.diu.cards import profile
from paiju.engines.diu.conformance import hidden_leaks
from paiju.engines.diu.flow import hand_counts
from paiju.engines.diu.sealed import delivered, unseal
from tests.engines.diu.helpers import ENGINE, random_hand

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"poll_mode": "parallel"},
    {"forfeit_fallback": "reopen_after_forfeiter", "chi_on_draw": "any"},
    {"diu_on_discard": True, "wild_in_chi": True, "chi_on_draw": "next_only"},
    {"players": 4, "head_rotation": "winner", "dead_card_visible": False},
    {"prefetch_mode": "encrypted", "shuffle": "seed_riffle", "riffle_passes": 7},
    {"deck_profile": "chuanpai84", "allow_upgrade_exposed_meld": False},
    {"deck_profile": "poker54", "wild_count": 2, "timeout_discard": "random"},
    {"wild_count": 10, "chi_shapes": ["run"]},
    {"silent_seats": "skip", "offer_calls": "above_standing", "prefetch_mode": "encrypted"},
    {"natural_four_level": 3, "diu_requires_complete_hand": False, "diu_min_points": 2},
    {"natural_four_level": 0, "wild_count": 8},
    {"silent_seats": "skip", "poll_mode": "parallel", "forfeit_fallback": "reopen_after_forfeiter"},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=[json.dumps(o) for o in OPTION_SETS])
@pytest.mark.parametrize("seed", range(4))
def test_random_play_invariants(options: dict[str, Any], seed: int) -> None:
    opts = ENGINE.normalize_options(options)
    deck = Counter(profile(opts["deck_profile"]).deck(opts["wild_count"]))
    states = random_hand(seed, options, carry={"head": seed % opts["players"]})
    for state in states[:: max(1, len(states) // 25)]:
        assert Counter(hand_counts(state)) == deck
        assert hidden_leaks(ENGINE, state) == []
        for seat in ENGINE.to_act(state):
            assert ENGINE.timeout_action(state, seat) in ENGINE.legal_actions(state, seat)
            assert ENGINE.timer_kind(state, seat) in ("claim", "turn")
        if state.idle is not None:
            assert state.idle not in ENGINE.to_act(state)
    final = states[-1]
    assert ENGINE.is_terminal(final) and sum(ENGINE.scores(final)) == 0
    assert Counter(hand_counts(final)) == deck
    assert hidden_leaks(ENGINE, final) == []
    json.dumps(ENGINE.view(final, 0))


def test_versions_increase() -> None:
    states = random_hand(11, {})
    assert all(a.version < b.version for a, b in itertools.pairwise(states))


def test_match_over_and_rotation() -> None:
    from paiju.engines.base import MatchInfo

    opts = ENGINE.normalize_options({})
    assert not ENGINE.match_over(opts, MatchInfo(2, (0, 0, 0)))
    assert ENGINE.match_over(opts, MatchInfo(3, (0, 0, 0)))
    assert ENGINE.match_over({"match_hands": 1}, MatchInfo(1, (0, 0, 0)))
    final = random_hand(3, {"players": 4}, carry={"head": 3})[-1]
    assert final.head == 3 and final.idle == 2 and final.active == (3, 0, 1)
    assert ENGINE.carry(final) == {"head": 0}


def test_sealed_prefetch_reveals_nothing_without_the_key() -> None:
    states = random_hand(5, {"prefetch_mode": "encrypted"})
    first = states[0]
    view = ENGINE.view(first, 1)["prefetch"]
    assert view["keys"] == {} and view["delivered"] == 10
    stock = first.stock
    blobs = {e["i"]: e for e in view["sealed"]}
    # Equal cards give unrelated blobs; no blob equals a plain encoding of its card.
    by_card: dict[str, set[str]] = {}
    for i, entry in blobs.items():
        by_card.setdefault(stock[i], set()).add(entry["blob"])
        assert entry["blob"] != stock[i].encode().ljust(4, b"\0").hex()
    assert all(len(b) == sum(1 for i in blobs if stock[i] == c) for c, b in by_card.items())
    # The nonce alone (or a wrong key) does not open a blob.
    e0 = blobs[0]
    with pytest.raises(ValueError):
        unseal(e0["blob"], e0["mac"], 0, e0["nonce"], e0["nonce"])
    # After draws, the released keys open exactly the drawn cards.
    later = next(s for s in states if s.drawn >= 2 and not s.private_draws)
    pre = ENGINE.view(later, 2)["prefetch"]
    sealed = {e["i"]: e for e in pre["sealed"]}
    for index, key in pre["keys"].items():
        i = int(index)
        entry = sealed[i]
        assert unseal(entry["blob"], entry["mac"], i, key, entry["nonce"]) == later.stock[i]
        assert i < later.drawn


def test_delivery_batches() -> None:
    assert delivered(0, 23, 10, 3) == 10
    assert delivered(6, 23, 10, 3) == 10
    assert delivered(7, 23, 10, 3) == 20  # 3 buffered: refill (3 to 13 buffered, S22)
    assert delivered(17, 23, 10, 3) == 23
    for drawn in range(23):
        assert 0 <= delivered(drawn, 23, 10, 3) - drawn <= 13
