"""The shengji level-2 bot in set situations: what it reads of voids, and where it plays
differently from level 1."""

from __future__ import annotations

from paiju.core.rng import SeededRng
from paiju.engines.shengji.actions import make
from paiju.engines.shengji.bot import SensibleBot
from paiju.engines.shengji.bot_level2 import CountingBot, voids
from paiju.engines.shengji.options import context
from paiju.engines.shengji.state import ShengjiState
from tests.engines.shengji.test_bot import ENGINE, _play_state


def play(state: ShengjiState, moves: list[tuple[int, str]]) -> ShengjiState:
    for seat, cards in moves:
        state = ENGINE.apply(state, seat, make("play", cards.split())).state
    return state


def choices(state: ShengjiState, seat: int) -> tuple[str, str]:
    view = ENGINE.view(state, seat)
    return (
        SensibleBot(SeededRng("c")).choose(view),
        CountingBot(SeededRng("c")).choose(view),
    )


def test_it_reads_who_has_shown_out() -> None:
    state = _play_state(["CA C3 D9", "C5 D3 D4", "D5 D6 D8", "C6 D7 DK"])
    state = play(state, [(0, "CA"), (1, "C5"), (2, "D5"), (3, "C6")])
    view = ENGINE.view(state, 0)
    ctx = context(2, "H", view["options"])
    assert voids(view, ctx) == {2: {"C"}}


def test_it_gives_points_to_a_partner_trick_no_one_can_beat() -> None:
    # Partner (seat 0) wins with SK; both aces are in seat 2's hand, so SK cannot be beaten
    # in spades and seat 3 has not shown out: level 2 adds its ten, level 1 plays an ace.
    state = _play_state(["SK C4", "S3 C5", "SA SA S10 C6", "S4 C7"])
    state = play(state, [(0, "SK"), (1, "S3")])
    level1, level2 = choices(state, 2)
    assert (level1, level2) == ("play SA", "play S10")


def test_it_spends_no_trump_on_an_empty_trick() -> None:
    # Last to play, void in clubs, the opponents win a trick without points.
    state = _play_state(["C9 D4", "C3 D5", "CQ D6", "H2 S3 D7"])
    state = play(state, [(0, "C9"), (1, "C3"), (2, "CQ")])
    level1, level2 = choices(state, 3)
    assert level2 in ("play S3", "play D7") and level1 == "play H2"


def test_it_leads_into_its_partners_void() -> None:
    # Seat 2 showed out of clubs in trick 1; seat 0 leads again and has no sure winner:
    # level 1 leads low from its longest suit (diamonds), level 2 a club for its partner.
    hands = ["CA C3 D9 D8 D6 S4", "C5 D3 S5 SJ DJ DQ", "D5 D4 S6 SQ S9 DA", "C6 D7 S7 S8 SK DK"]
    state = _play_state(hands)
    state = play(state, [(0, "CA"), (1, "C5"), (2, "D5"), (3, "C6")])
    level1, level2 = choices(state, 0)
    assert (level1, level2) == ("play D6", "play C3")
