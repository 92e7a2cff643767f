"""docs/fairness.md and the code agree: its test vectors, its openssl results, and each
variant's deal written out from the page (a second implementation of the layouts) against
what the engines deal."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from paiju.core.fairness import FairRng, commitment, deal_key, server_client_seed
from paiju.engines.base import MatchInfo
from paiju.engines.diu.cards import profile
from paiju.engines.diu.deck import seed_riffle
from paiju.engines.dragon.tiles import FULL_SET
from paiju.engines.dragon.tiles import tile_code as dragon_code
from paiju.engines.mcr.tiles import full_set
from paiju.engines.mcr.tiles import tile_code as mcr_code
from paiju.engines.registry import get_engine
from paiju.engines.shengji.bidding import new_deck
from paiju.engines.shengji.cards import full_pack
from paiju.table.ledger import GENESIS_PREV, link

DOC = (Path(__file__).resolve().parents[2] / "docs" / "fairness.md").read_text(encoding="utf-8")
VECTORS: dict[str, Any] = json.loads(
    DOC.split("## Test vectors", 1)[1].split("```json", 1)[1].split("```", 1)[0]
)
SEED = bytes.fromhex(VECTORS["hand_seed"])


def rng(clients: list[str]) -> FairRng:
    return FairRng.for_hand(SEED, VECTORS["hand"], clients)


def listed(name: str, key: str = "deck") -> list[str]:
    return str(VECTORS[name][key]).split()


def test_the_openssl_results_on_the_page_are_the_codes() -> None:
    clients = ["alice", "", "bob", "carol"]
    key = deal_key(SEED, 0, clients)
    for value in (
        commitment(SEED),
        key.hex(),
        FairRng(key).take(32).hex(),
        server_client_seed(SEED, 1),
        link(GENESIS_PREV, 0, "room", '{"room":"r1"}'),
    ):
        assert value in DOC


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("mcr", lambda: [mcr_code(t) for t in full_set()]),
        ("dragon", lambda: [dragon_code(k) for k in FULL_SET]),
        ("shengji", full_pack),
        ("diu", lambda: list(profile("zipai80").deck(4))),
    ],
)
def test_each_variants_shuffled_deck_is_the_listed_one(name: str, canonical: Any) -> None:
    deck = list(canonical())
    rng(VECTORS[name]["client_seeds"]).shuffle(deck)
    assert deck == listed(name, "wall" if name == "mcr" else "deck")


def test_the_canonical_orders_are_the_ones_the_page_writes_out() -> None:
    assert " ".join(dragon_code(k) for k in FULL_SET) in " ".join(DOC.split())
    mcr = [mcr_code(t) for t in full_set()]
    assert mcr[:5] == ["W1", "W1", "W1", "W1", "W2"] and mcr[-8:] == [f"H{i}" for i in range(1, 9)]
    pack = full_pack()
    assert pack[:4] == ["S2", "S2", "S3", "S3"] and pack[-4:] == ["LJ", "LJ", "BJ", "BJ"]


def test_the_seed_riffle_vector() -> None:
    item = VECTORS["diu_seed_riffle"]
    stream = rng(item["client_seeds"])
    deck = seed_riffle(profile("zipai80").deck(4), stream, item["passes"], item["max_offset"])
    assert deck == listed("diu_seed_riffle")
    assert stream.randbelow(1 << 32) == item["salt"]


def test_dragon_deals_as_the_page_says() -> None:
    engine = get_engine("dragon")
    state = engine.initial_state(engine.normalize_options({}), rng(VECTORS["dragon"][
        "client_seeds"]), MatchInfo(0, (0, 0, 0, 0)))
    deck = listed("dragon")
    for seat in range(4):
        assert sorted(dragon_code(k) for k in state.hands[seat]) == sorted(deck[8 * seat:
                                                                               8 * seat + 8])


def test_mcr_deals_as_the_page_says() -> None:
    """The page's layout, written again here: 13 each in wind order, the dealer a 14th, then
    flowers replaced from the back, dealer first, until nobody holds one."""
    engine = get_engine("mcr")
    state = engine.initial_state(engine.normalize_options({}), rng(VECTORS["mcr"][
        "client_seeds"]), MatchInfo(0, (0, 0, 0, 0)))
    wall = listed("mcr", "wall")
    order = [0, 1, 2, 3]  # hand 0: round 0, places (0, 1, 2, 3)
    hands = {seat: wall[13 * i: 13 * i + 13] for i, seat in enumerate(order)}
    hands[order[0]].append(wall[52])
    rest = wall[53:]
    while any(t.startswith("H") for h in hands.values() for t in h):
        for seat in order:
            for tile in [t for t in hands[seat] if t.startswith("H")]:
                hands[seat].remove(tile)
                hands[seat].append(rest.pop())
    for seat in order:
        assert Counter(mcr_code(t) for t in state.hands[seat]) == Counter(hands[seat])
    assert [mcr_code(t) for t in state.wall] == rest


def test_shengji_deals_as_the_page_says() -> None:
    engine = get_engine("shengji")
    state = engine.initial_state(engine.normalize_options({}), rng(VECTORS["shengji"][
        "client_seeds"]), MatchInfo(0, (0, 0, 0, 0)))
    deck = listed("shengji")
    assert list(state.deck) == deck
    rounds = state.dealt // 4
    for seat in range(4):  # deal_start 0 in the first hand
        expected = [deck[4 * r + seat] for r in range(rounds)]
        assert Counter(state.hands[seat]) == Counter(expected)


def test_a_shengji_redeal_is_the_documented_function_of_the_first_deck() -> None:
    first = tuple(listed("shengji"))
    key = hashlib.sha256(b"paiju-shengji-redeal-v1\x00" + "|".join(first).encode()).digest()
    expected = full_pack()
    FairRng(key).shuffle(expected)
    assert list(new_deck(first, "fair-v1")) == expected
    assert new_deck(first, "seeded-v0") != tuple(expected)  # old rooms keep their redeal


def test_diu_deals_as_the_page_says() -> None:
    engine = get_engine("diu")
    state = engine.initial_state(engine.normalize_options({}), rng(VECTORS["diu"][
        "client_seeds"]), MatchInfo(0, (0, 0, 0)))
    deck = listed("diu")
    sizes = [21, 20, 20]
    by_role: list[list[str]] = [[], [], []]
    pos = 0
    for rnd in range(max(sizes)):
        for role, size in enumerate(sizes):
            if rnd < size:
                by_role[role].append(deck[pos])
                pos += 1
    for role, seat in enumerate((0, 1, 2)):  # head 0 in the first hand
        assert Counter(state.hands[seat]) == Counter(by_role[role])
    assert list(state.stock) == deck[pos:]
    assert re.search(r"default 21/20/20 for 84 cards", DOC)
