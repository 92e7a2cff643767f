"""Each variant played by one browser seat against bots, by clicking in the page only, from
the lobby's "Play now" to the result screen; screenshots of every table at 1280 and 390 px."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.conftest import PHONE, DESKTOP, Page
from tests.browser.harness import LiveServer
from tests.browser.play import play_until


def play_now(pages: Callable[..., Page], variant: str) -> Page:
    p = pages("Mei").open()
    p.page.click(f"[data-play-now={variant}]")
    p.page.wait_for_selector(f".room[data-variant={variant}]")
    return p


def screenshots(p: Page, variant: str) -> None:
    p.shot(f"{variant}-1280")
    p.page.set_viewport_size(PHONE)
    p.page.wait_for_timeout(150)
    width = p.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{variant}: the page scrolls sideways at 390 px ({width})"
    p.shot(f"{variant}-390")
    p.page.set_viewport_size(DESKTOP)


def no_timeouts(live: LiveServer, room: str, seat: int = 0) -> None:
    sources = live.sources(room, seat)
    assert "player" in sources, "the browser seat never acted"
    assert "timeout" not in sources, "the server played for the browser seat"


#: When the table is worth a screenshot: a few moves into the hand.
SHOT_WHEN = {
    "mcr": "body:has(.mcr-hand .tile:nth-child(4)) .river .tile:nth-child(3)",
    "shengji": "body:has([data-prompt=play]) .hand-cards:not(:has(.card:nth-child(22)))",
    "diu": "body:has(.diu-hand) .seat .meld",
}


@pytest.mark.parametrize("variant", ["mcr", "shengji", "diu"])
def test_a_whole_hand_against_bots(pages: Callable[..., Page], live: LiveServer, variant: str) -> None:
    p = play_now(pages, variant)
    room = p.room()
    if variant == "shengji":
        p.page.uncheck("[data-setting=autopass]")  # click every pass ourselves
    taken = []

    def during(n: int) -> None:
        if not taken and p.page.locator(SHOT_WHEN[variant]).count():
            screenshots(p, variant)
            taken.append(n)

    played = play_until(p.page, variant, "[data-result]", during=during)
    if not taken:  # the hand ended early: the result screen then
        screenshots(p, variant)
    result = p.page.locator("[data-result]")
    assert result.locator(".totals").count() == 1
    assert result.locator("[data-fair-deal]").count() == 1
    assert played > 0
    no_timeouts(live, room)


def test_a_dragon_match_against_bots(pages: Callable[..., Page], live: LiveServer) -> None:
    p = play_now(pages, "dragon")
    room = p.room()
    p.page.wait_for_selector("[data-prompt=arrange] li.best")
    screenshots(p, "dragon")
    played = play_until(p.page, "dragon", "[data-result=finished]")
    assert played == 4  # one arrangement per hand, four hands
    final = p.page.locator("[data-result=finished]")
    assert "Match over" in final.inner_text()
    assert final.locator(".showdowns tr").count() == 4  # every seat's chain and leftover
    p.shot("dragon-result-1280")
    no_timeouts(live, room)
