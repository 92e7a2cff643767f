"""The page checks every hand's deal at its result (docs/fairness.md): it sends a random seed
of its own, fetches the signed history, checks the revealed seed against the commitment it
was shown before the deal, deals again with WebCrypto and compares its starting hand. A
history the server altered is caught."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.conftest import Page, Pages
from tests.browser.harness import LiveServer
from tests.browser.play import play_until


def play_now(pages: Pages, variant: str) -> Page:
    p = pages("Mei").open()
    p.page.click(f"[data-play-now={variant}]")
    p.page.wait_for_selector(f".room[data-variant={variant}]")
    return p


def first_deal(live: LiveServer, room: str) -> dict[str, Any]:
    deals = [e.entry.data() for e in live.store.entries(room) if e.entry.kind == "deal"]
    return deals[0]


@pytest.mark.parametrize("variant", ["dragon", "mcr"])
def test_the_page_verifies_its_deal_with_its_own_seed(
    pages: Pages, live: LiveServer, variant: str
) -> None:
    p = play_now(pages, variant)
    room = p.room()
    play_until(p.page, variant, "[data-result]")
    check = p.page.locator("[data-fair-deal=verified]")
    check.wait_for()
    text = check.inner_text()
    assert "Deal verified" in text
    assert "commitment shown before the deal" in text
    assert "Your own seed was mixed into the deal" in text
    assert "Your starting hand is the one the seeds deal" in text
    seed, origin = first_deal(live, room)["seeds"][0]
    assert origin == "client" and len(seed) == 32  # 16 random bytes, hex
    bots = first_deal(live, room)["seeds"][1:]
    assert all(o == "server" for _, o in bots)


def altered_history(pages: Pages, edit: Callable[[dict[str, Any]], None]) -> str:
    """Play a dragon hand whose history the page receives changed by ``edit`` (as a server
    that lies would send it); returns what the page says of the deal."""
    p = play_now(pages, "dragon")

    def serve(route: Any) -> None:
        answer = route.fetch()
        signed = answer.json()
        edit(signed["history"])
        route.fulfill(response=answer, body=json.dumps(signed))

    p.page.route("**/history/**", serve)
    play_until(p.page, "dragon", "[data-result]")
    failed = p.page.locator("[data-fair-deal=failed]")
    failed.wait_for()
    return str(failed.inner_text())


def test_a_history_the_server_altered_is_caught(pages: Pages, live: LiveServer) -> None:
    def flip(history: dict[str, Any]) -> None:
        seed = history["deal"]["hand_seed"]
        history["deal"]["hand_seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]

    assert "does not match its commitment" in altered_history(pages, flip)


def test_a_deal_from_other_seeds_is_caught(pages: Pages, live: LiveServer) -> None:
    """A server that reveals other seeds than those it dealt with: the page's own seed (and
    its own hand) give it away."""

    def other(history: dict[str, Any]) -> None:
        history["deal"]["client_seeds"][0] = {
            "seat": 0, "seed": "not the seed the page sent", "origin": "client"
        }

    assert "Your seed is not the one this deal used" in altered_history(pages, other)
