"""Playing by clicking in the page: one step of each variant, chosen from what the page
offers (enabled tiles, cards and buttons), never from the protocol."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def click_first(page: Any, selectors: list[str]) -> bool:
    """Click the first enabled element matching one of ``selectors``."""
    for selector in selectors:
        found = page.locator(f"{selector}:not([disabled])")
        if found.count():
            try:
                found.first.click(timeout=1500)
            except Exception:
                return False  # the page moved on meanwhile: look again
            return True
    return False


def mcr_step(page: Any, keyboard: bool = False) -> bool:
    """Win when offered, pass claims, else discard the drawn tile (or the first one).
    With ``keyboard``: Space passes a claim and "1" discards the first tile."""
    if keyboard and not page.locator("[data-action=hu]").count():
        if page.locator("[data-prompt=claim] [data-action=pass]:not([disabled])").count():
            page.keyboard.press(" ")
            return True
        if page.locator("[data-prompt=discard]").count():
            page.keyboard.press("1")
            return True
    return click_first(
        page,
        [
            "[data-action=hu]",
            "[data-prompt=claim] [data-action=pass]",
            ".mcr-hand button.drawn",
            ".mcr-hand button.tile",
        ],
    )


def shengji_step(page: Any, lead: bool = True) -> bool:
    """Make the first bid offered (else pass), bury the first eight buryable cards, call the
    first friend, play the first legal play the page lists."""
    try:
        return _shengji_step(page, lead)
    except Exception:
        return False  # the page moved on meanwhile: look again


def _shengji_step(page: Any, lead: bool) -> bool:
    if page.locator("[data-prompt=bid]").count():
        bid = "[data-prompt=bid] button.choice"
        return click_first(page, [f"{bid}:not(.pass)", f"{bid}.pass"])
    if page.locator("[data-prompt=bury]").count():
        free = page.locator(".hand-cards button.card:not([disabled]):not(.selected)")
        need = int(page.locator("[data-bury]").inner_text().split("/")[1])
        for _ in range(need - page.locator(".hand-cards button.card.selected").count()):
            free.first.click(timeout=1500)
        return click_first(page, ["[data-bury]"])
    if page.locator("[data-prompt=friend]").count():
        return click_first(page, ["[data-prompt=friend] button.choice"])
    if page.locator("[data-prompt=play]").count():
        if not lead and page.locator("[data-prompt=play][data-lead=true]").count():
            return False  # leave the lead to the test
        if not page.locator("[data-suggest]").count():
            page.locator("[data-legal-list]").click(timeout=1500)
        page.locator("[data-suggest]").first.click(timeout=1500)
        return click_first(page, ["[data-play]"])
    return False


def diu_step(page: Any) -> bool:
    """丢 when offered, take a won card, pass other calls, discard the last card."""
    return click_first(
        page,
        [
            "[data-action='call diu']",
            "[data-prompt=diu_pick] button.choice:not(.pass)",
            "[data-prompt=take] button.choice:not(.pass)",
            "[data-prompt=call] [data-action=pass]",
            "[data-prompt=reask] [data-action=pass]",
            ".diu-hand button:not([disabled])",
        ],
    )


def dragon_step(page: Any) -> bool:
    """Choose the arrangement the page marks best, and submit it."""
    if not page.locator("[data-prompt=arrange]").count():
        return False
    try:
        page.locator("li.best [data-arrangement]").click(timeout=1500)
    except Exception:
        return False  # the page moved on meanwhile: look again
    return click_first(page, ["[data-submit]"])


#: A step gets the page and how many actions it took so far.
STEPS: dict[str, Callable[[Any, int], bool]] = {
    "mcr": lambda page, n: mcr_step(page),
    "mcr-keys": lambda page, n: mcr_step(page, keyboard=n % 2 == 1),  # keys, clicks in turn
    "shengji": lambda page, n: shengji_step(page),
    "shengji-no-lead": lambda page, n: shengji_step(page, lead=False),
    "diu": lambda page, n: diu_step(page),
    "dragon": lambda page, n: dragon_step(page),
}


def play_until(page: Any, variant: str, done: str, limit: float = 150.0,
               during: Callable[[int], None] | None = None) -> int:
    """Click through the game until ``done`` (a selector) is on the page; returns the
    number of clicks that acted. ``during(n)`` runs after each action (screenshots,
    spectator checks)."""
    step = STEPS[variant]
    acted = 0
    variant = variant.split("-")[0]
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if page.locator(done).count():
            return acted
        if page.locator(".room[data-pending]").count():
            page.wait_for_timeout(20)  # our last action is on its way: wait for its answer
            continue
        if step(page, acted):
            acted += 1
            if during is not None:
                during(acted)
        else:
            page.wait_for_timeout(50)
    raise AssertionError(f"{variant}: {done} did not appear within {limit} s ({acted} actions)")
