"""The 32-tile set."""

from __future__ import annotations

import pytest

from paiju.core.errors import MalformedAction
from paiju.engines.dragon.tiles import (
    BY_CODE,
    FULL_SET,
    KIND_COUNT,
    SINGLE_RANK,
    TILES,
    kind_of,
    over_copies,
    tile_code,
)


def test_the_set_has_32_tiles_in_21_kinds() -> None:
    assert len(FULL_SET) == 32
    assert KIND_COUNT == 21
    assert sum(t.civil for t in TILES) == 11
    assert sum(t.copies for t in TILES if t.civil) == 22
    assert {(t.low, t.high) for t in TILES} == {(a, b) for a in range(1, 7) for b in range(a, 7)}


def test_codes_are_low_half_first_and_ranked() -> None:
    assert [t.code for t in TILES][:4] == ["66", "11", "44", "13"]
    assert tile_code(BY_CODE["12"]) == "12"
    assert all(t.low <= t.high for t in TILES)
    assert SINGLE_RANK[BY_CODE["45"]] == SINGLE_RANK[BY_CODE["36"]] == 12
    assert SINGLE_RANK[BY_CODE["24"]] == 15 and SINGLE_RANK[BY_CODE["12"]] == 17


@pytest.mark.parametrize(
    ("code", "name", "pips", "civil"),
    [
        ("66", "天牌", 12, True),
        ("13", "鹅牌", 4, True),
        ("15", "零霖六", 6, True),
        ("45", "杂九", 9, False),
        ("24", "二四", 6, False),
        ("12", "丁三", 3, False),
    ],
)
def test_tile_facts(code: str, name: str, pips: int, civil: bool) -> None:
    tile = TILES[BY_CODE[code]]
    assert (tile.name, tile.pips, tile.civil) == (name, pips, civil)


@pytest.mark.parametrize(("text", "code"), [("46", "46"), ("64", "46"), ("11", "11")])
def test_kind_of_reads_either_orientation(text: str, code: str) -> None:
    assert tile_code(kind_of(text)) == code


@pytest.mark.parametrize("text", ["", "7", "70", "17", "0x", "666", "a1"])
def test_kind_of_refuses_non_tiles(text: str) -> None:
    with pytest.raises(MalformedAction):
        kind_of(text)


def test_over_copies() -> None:
    assert over_copies([BY_CODE["66"]] * 2) == []
    assert over_copies([BY_CODE["66"]] * 3) == [BY_CODE["66"]]
    assert over_copies([BY_CODE["45"]] * 2) == [BY_CODE["45"]]
