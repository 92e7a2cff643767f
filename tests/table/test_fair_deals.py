"""Fair deals at the table: commitments before the deal, client seeds, the reveal after it."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from paiju.core.fairness import FairRng, hand_seed_for, server_client_seed
from paiju.engines.base import MatchInfo
from paiju.engines.registry import get_engine
from paiju.table.commands import Act, Join, Ready, SendSeed, Start
from paiju.table.effects import DealRecord, Effect, Persist, SeedRecord, Send
from paiju.table.errors import SeedRefused
from paiju.table.table import HAND_OVER, PLAYING, Table, TableSettings
from tests.table.fake_engine import FirstLegalBot, RaceEngine

SETTINGS = TableSettings(timers={}, bot_delay=0.0, between_hands=5.0)


def race(scheme: str = "fair-v1", hands: int = 2) -> Table:
    engine = RaceEngine()
    options = engine.normalize_options({"hands": hands})
    return Table("r", engine, options, "room-seed", SETTINGS, lambda s, lv: FirstLegalBot(),
                 scheme)


def two_seated(table: Table) -> Table:
    table.handle(None, Join("ann"), 0.0)
    table.handle(None, Join("bob"), 0.0)
    return table


def events(effects: list[Effect], kind: str, to: int = 0) -> list[dict[str, Any]]:
    return [
        e.message["event"]["data"]
        for e in effects
        if isinstance(e, Send) and e.to == to and e.message["type"] == "event"
        and e.message["event"]["kind"] == kind
    ]


def play_hand(table: Table, now: float) -> list[Effect]:
    effects: list[Effect] = []
    while table.phase == PLAYING:
        for seat in sorted(table.decisions.waiting):
            legal = sorted(table.engine.legal_actions(table.state, seat))
            effects += table.handle(seat, Act(table.shown_version(seat), legal[0]), now)
    return effects


def test_the_commitment_of_hand_0_is_public_while_the_room_waits() -> None:
    table = two_seated(race())
    deal = table.snapshot(None, 0.0)["deal"]
    expected = hashlib.sha256(hand_seed_for("room-seed", 0)).hexdigest()
    assert deal == {"scheme": "fair-v1", "hand": 0, "commitment": expected, "seed_hand": 0,
                    "seed": None}


def test_the_deal_is_the_documented_function_of_the_seeds() -> None:
    table = two_seated(race())
    table.handle(0, SendSeed(0, "ann's dice"), 0.0)
    assert table.snapshot(0, 0.0)["deal"]["seed"] == "ann's dice"
    assert table.snapshot(1, 0.0)["deal"]["seed"] is None  # bob sees only his own
    table.handle(0, Ready(), 0.0)
    effects = table.handle(1, Ready(), 0.0)
    hand_seed = hand_seed_for("room-seed", 0)
    bob_seed = server_client_seed(hand_seed, 1)
    dealt = [e.record for e in effects if isinstance(e, Persist)
             and isinstance(e.record, DealRecord)]
    assert dealt[0].seeds == (("ann's dice", "client"), (bob_seed, "server"))
    rng = FairRng.for_hand(hand_seed, 0, ["ann's dice", bob_seed])
    engine = table.engine
    expected = engine.initial_state(table.options, rng, MatchInfo(0, (0, 0)))
    assert table.state == expected


def test_a_client_seed_changes_the_deal() -> None:
    engine = get_engine("dragon")
    options = engine.normalize_options({"seats": 2, "hands": 1})

    def dealt(seed: str | None) -> Any:
        table = Table("r", engine, options, "s", SETTINGS, lambda s, lv: FirstLegalBot())
        table.handle(None, Join("ann"), 0.0)
        if seed is not None:
            table.handle(0, SendSeed(0, seed), 0.0)
        table.handle(None, Start(), 0.0)
        return table.state.hands

    assert dealt("a") != dealt("b") != dealt(None)
    assert dealt("a") == dealt("a")


def test_the_seed_is_revealed_with_the_result_and_the_next_commitment_announced() -> None:
    table = two_seated(race())
    table.handle(0, Ready(), 0.0)
    table.handle(1, Ready(), 0.0)
    effects = play_hand(table, 1.0)
    scored = events(effects, "hand_scored")[0]
    assert bytes.fromhex(scored["seed"]) == hand_seed_for("room-seed", 0)
    assert scored["commitment"] == hashlib.sha256(bytes.fromhex(scored["seed"])).hexdigest()
    assert scored["next_commitment"] == table.match.commitment(1)
    assert scored["chain"] == table.ledger.head
    assert table.phase == HAND_OVER
    assert table.snapshot(0, 1.0)["deal"]["hand"] == 1
    # the last hand announces no next one
    table.tick(10.0)
    last = events(play_hand(table, 11.0), "hand_scored")[0]
    assert last["next_commitment"] is None


def test_a_seed_for_the_next_hand_is_taken_during_a_hand_and_used() -> None:
    table = two_seated(race())
    table.handle(0, Ready(), 0.0)
    table.handle(1, Ready(), 0.0)
    assert table.snapshot(1, 0.0)["deal"]["seed_hand"] == 1
    effects = table.handle(1, SendSeed(1, "bob's"), 0.5)
    assert [e.record for e in effects if isinstance(e, Persist)] == [
        SeedRecord(1, 1, "bob's", table.version)
    ]
    play_hand(table, 1.0)
    effects = table.tick(10.0)
    dealt = next(e.record for e in effects if isinstance(e, Persist)
             and isinstance(e.record, DealRecord))
    assert dealt.hand == 1 and dealt.seeds[1] == ("bob's", "client")
    assert dealt.seeds[0][1] == "server"


@pytest.mark.parametrize(
    ("hand", "seed", "why"),
    [
        (1, "x", "seeds are taken for hand 0"),
        (0, "x" * 129, "1 to 128 bytes"),
        (0, "天" * 43, "1 to 128 bytes"),  # 129 bytes of UTF-8
    ],
)
def test_bad_seeds_are_refused_and_change_nothing(hand: int, seed: str, why: str) -> None:
    table = two_seated(race())
    version = table.version
    with pytest.raises(SeedRefused, match=why):
        table.handle(0, SendSeed(hand, seed), 0.0)
    assert table.version == version and table.match.client_seeds == {}


def test_a_second_seed_and_a_seed_to_an_old_room_are_refused() -> None:
    table = two_seated(race())
    table.handle(0, SendSeed(0, "one"), 0.0)
    with pytest.raises(SeedRefused, match="already sent"):
        table.handle(0, SendSeed(0, "two"), 0.0)
    old = two_seated(race("seeded-v0"))
    with pytest.raises(SeedRefused, match="without client seeds"):
        old.handle(0, SendSeed(0, "x"), 0.0)
    assert old.snapshot(0, 0.0)["deal"]["commitment"] is None


def test_an_old_room_deals_as_it_always_did() -> None:
    from paiju.core.rng import SeededRng

    table = two_seated(race("seeded-v0"))
    table.handle(0, Ready(), 0.0)
    table.handle(1, Ready(), 0.0)
    engine = table.engine
    expected = engine.initial_state(
        table.options, SeededRng("room-seed").derive("0"), MatchInfo(0, (0, 0))
    )
    assert table.state == expected
