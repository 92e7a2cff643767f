"""Tile ints, Botzone codes and helpers."""

from __future__ import annotations

import pytest

from paiju.core.errors import MalformedAction
from paiju.engines.mcr.tiles import (
    ALL_TILES,
    FLOWERS,
    counts,
    full_set,
    is_flower,
    is_honor,
    is_terminal,
    is_terminal_or_honor,
    make_tile,
    parse_tile,
    rank_of,
    suit_of,
    tile_code,
)


@pytest.mark.parametrize(
    ("code", "tile"),
    [
        ("W1", 0),
        ("W9", 8),
        ("T1", 9),
        ("T9", 17),
        ("B1", 18),
        ("B9", 26),
        ("F1", 27),
        ("F4", 30),
        ("J1", 31),
        ("J2", 32),
        ("J3", 33),
        ("H1", 34),
        ("H8", 41),
    ],
)
def test_codes(code: str, tile: int) -> None:
    assert parse_tile(code) == tile
    assert tile_code(tile) == code


def test_round_trip_every_tile() -> None:
    for t in (*ALL_TILES, *FLOWERS):
        assert parse_tile(tile_code(t)) == t


@pytest.mark.parametrize("bad", ["", "W0", "W10", "F5", "J4", "H9", "w1", "X1", "1W", None, 3])
def test_bad_codes(bad: object) -> None:
    with pytest.raises(MalformedAction) as err:
        parse_tile(bad)  # type: ignore[arg-type]
    assert err.value.code == "bad_tile"


def test_tile_code_rejects_out_of_range() -> None:
    with pytest.raises(ValueError):
        tile_code(42)


def test_full_set() -> None:
    tiles = full_set()
    assert len(tiles) == 144
    c = counts(tiles)
    assert c == [4] * 34
    assert sorted(t for t in tiles if is_flower(t)) == list(range(34, 42))


def test_helpers() -> None:
    assert [suit_of(t) for t in (0, 9, 18, 27, 31, 34)] == [0, 1, 2, 3, 4, 5]
    assert [rank_of(t) for t in (4, 17, 27, 30, 33, 41)] == [5, 9, 1, 4, 3, 8]
    assert make_tile(1, 5) == 13
    assert is_terminal(0) and is_terminal(26) and not is_terminal(27) and not is_terminal(4)
    assert is_honor(27) and is_honor(33) and not is_honor(26) and not is_honor(34)
    assert is_terminal_or_honor(30) and not is_terminal_or_honor(13)
    assert counts([0, 0, 34, 33]) == [2] + [0] * 32 + [1]
