"""MCR level 3: the distance to 8 fans, the claims it makes, and defence."""

from __future__ import annotations

from typing import Any

import pytest

from paiju.core.rng import SeededRng
from paiju.engines.mcr.bot import make_bot
from paiju.engines.mcr.bot_plan import CHICKEN_PENALTY, FOLD_DISTANCE, fan_distance
from paiju.engines.mcr.bot_read import shanten
from paiju.engines.mcr.hand import Pack
from paiju.engines.mcr.tiles import parse_tile


def tiles(text: str) -> list[int]:
    return [parse_tile(t) for t in text.split()]


PUNG_E = Pack("PENG", parse_tile("F1"), 1)
PUNG_S = Pack("PENG", parse_tile("F2"), 1)


@pytest.mark.parametrize(
    ("hand", "packs", "distance", "why"),
    [
        ("W1 W2 W3 T4 T5 T6 B7 B8 B9 B1 B1 W5 W6", (), 0, "ready, and the win is a mixed straight"),
        ("W1 W2 W3 T4 T5 T6 B7 B8 B9 B1 B1 W5 W6 W4", (), -1, "a complete mixed straight"),
        ("W1 W2 W3 W5 W6 W7 T2 T3 T4 B5 B6 J1 J1", (), CHICKEN_PENALTY, "ready, no 8-fan target"),
        ("W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9 W5", (), 0, "ready for a full flush"),
        ("W1 W1 T3 T3 B5 B5 F1 F1 J2 J2 W9 W9 T7", (), 0, "ready for seven pairs"),
        ("W1 W2 W3 T4 T5 T6 B7 B8 B9 B1", (PUNG_E,), 0, "the straight and one exposed pung"),
        ("W1 W2 W3 T4 T5 T6 B1", (PUNG_E, PUNG_S), CHICKEN_PENALTY, "two pungs: no straight"),
        ("T4 T5 T6 B7 B8 B9 B1 B1 W5 W6", (Pack("CHI", parse_tile("W2"), 1),), 0,
         "an exposed chow is the straight's part"),
        ("W1 W2 T4 T5 T6 B7 B8 B9 B1 B1 W5 W6 J1", (), 1, "one tile from the straight"),
    ],
)
def test_distance_to_8_fans(hand: str, packs: tuple[Pack, ...], distance: int, why: str) -> None:
    assert fan_distance(tiles(hand), packs) == distance, why
    assert fan_distance(tiles(hand), packs) >= shanten(tiles(hand), len(packs))


def view(hand: str, legal: list[str], **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "seat": 1,
        "hand": hand.split(),
        "legal": legal,
        "wall_count": 80,
        "prevalent_wind": "F1",
        "players": [
            {"melds": [], "discards": [], "wind": w} for w in ("F1", "F2", "F3", "F4")
        ],
    }
    base.update(extra)
    return base


def test_level3_takes_the_chow_that_completes_a_straight_part() -> None:
    hand = "W1 W3 T4 T5 T6 B7 B8 B9 B1 B1 J1 J3 F4"
    claim = {"tile": "W2", "from": 0, "kind": "claim"}
    v = view(hand, ["chi W2", "pass"], claim=claim)
    assert make_bot(3, SeededRng("x")).choose(v) == "chi W2"


def test_level3_passes_a_chow_that_breaks_its_plan() -> None:
    # Ready for a mixed straight; chowing T7 would take T5 T6 out of its T4-T5-T6 part.
    hand = "W1 W2 W3 T4 T5 T6 B7 B8 B9 B1 B1 W5 W6"
    claim = {"tile": "T7", "from": 0, "kind": "claim"}
    v = view(hand, ["chi T6", "pass"], claim=claim)
    assert make_bot(3, SeededRng("x")).choose(v) == "pass"


def test_level3_keeps_the_straight_when_discarding() -> None:
    # Discarding F4 keeps everything; level 3 must not break the straight's chows.
    hand = "W1 W2 W3 T4 T5 T6 B7 B8 B9 B1 B1 W5 W6 F4"
    legal = [f"discard {t}" for t in sorted(set(hand.split()))]
    assert make_bot(3, SeededRng("x")).choose(view(hand, legal, drawn="F4")) == "discard F4"


def test_level3_folds_a_hopeless_hand_against_a_threat() -> None:
    # Far from 8 fans, an opponent with two melds: it discards the tile that is safest (the
    # threat discarded it), not its least useful one.
    hand = "W1 W2 W6 T1 T3 T9 B1 B5 B8 F1 F3 J1 J2 W9"
    players = [{"melds": [], "discards": [], "wind": w} for w in ("F1", "F2", "F3", "F4")]
    chow = {"kind": "chi", "tile": "T3", "offer": 1, "tiles": ["T2", "T3", "T4"]}
    players[2]["melds"] = [chow, dict(chow, tile="B7", tiles=["B6", "B7", "B8"])]
    players[2]["discards"] = ["W2"]
    players[0]["discards"] = ["W2", "W2"]  # every other W2 is in sight: nobody waits on it
    rests = [tiles(hand) for _ in range(14)]
    for i, rest in enumerate(rests):
        rest.pop(i)
    assert min(fan_distance(rest, ()) for rest in rests) >= FOLD_DISTANCE
    legal = [f"discard {t}" for t in sorted(set(hand.split()))]
    v = view(hand, legal, players=players, drawn="W9")
    assert make_bot(3, SeededRng("x")).choose(v) == "discard W2"
