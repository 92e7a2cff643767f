"""The match (一场): 4 wind rounds (圈) of 4 hands, the deal passing after every hand.

Table seats 0..3 are the players, who start at the East, South, West and North places.
Within a round the players stay put and the winds rotate: the dealer (East) moves one place
on after every hand, draws and dealer wins included (no 连庄). Between rounds the players
change places as the competition rules prescribe: before the South and the North rounds the
East/South and the West/North players swap; before the West round East->West, West->South,
South->North, North->East. So over 16 hands everyone deals four times and sits at every place.
"""

from __future__ import annotations

from paiju.core.seats import Seat

HANDS_PER_ROUND = 4

#: For each wind round, the seat at the East, South, West and North places (turn order).
ROUND_PLACES: tuple[tuple[Seat, ...], ...] = (
    (0, 1, 2, 3),
    (1, 0, 3, 2),
    (2, 3, 1, 0),
    (3, 2, 0, 1),
)


def prevalent_wind(hand_index: int) -> int:
    """The prevalent wind (圈风) of the 0-based ``hand_index``: 0 East .. 3 North."""
    return (hand_index // HANDS_PER_ROUND) % 4


def wind_order(hand_index: int) -> tuple[Seat, ...]:
    """The seats in wind order (dealer first) for the 0-based ``hand_index``."""
    places = ROUND_PLACES[prevalent_wind(hand_index)]
    k = hand_index % HANDS_PER_ROUND
    return tuple(places[(k + j) % 4] for j in range(4))


def hands_in_match(rounds: int) -> int:
    """Number of hands in a match of ``rounds`` wind rounds."""
    return rounds * HANDS_PER_ROUND
