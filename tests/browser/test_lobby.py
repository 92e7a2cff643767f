"""The lobby and the room around the game: first load, names, a private room with an invite
link, bots added and removed, two humans (one reloads mid-hand), the rematch, the countdown
and what the page says when the server plays for a seat whose time ran out."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PHONE, Page, Pages
from tests.browser.harness import LiveServer, write_presets

#: Issue 9: the first load of the page stays under 150 KB.
FIRST_LOAD_LIMIT = 150 * 1024


def test_first_load_is_small_and_stays_on_its_origin(pages: Pages) -> None:
    p = pages("Mei")
    sizes: list[tuple[str, int]] = []

    def finished(request: Any) -> None:
        s = request.sizes()
        sizes.append((request.url, s["responseBodySize"] + s["responseHeadersSize"]))

    p.page.on("requestfinished", finished)
    p.open()
    p.page.wait_for_selector("[data-play-now=dragon]")
    total = sum(size for _, size in sizes)
    print(f"first load: {total} bytes in {len(sizes)} requests")
    assert total < FIRST_LOAD_LIMIT, f"first load {total} bytes: {sizes}"
    assert all(url.startswith(p.live.url) for url, _ in sizes)
    for variant in ("mcr", "shengji", "diu", "dragon"):
        assert p.page.locator(f"[data-play-now={variant}]").is_enabled()
    p.shot("lobby-1280")


def test_keyboard_focus_is_visible(pages: Pages) -> None:
    p = pages("Mei").open()
    p.page.wait_for_selector("[data-play-now=mcr]")
    p.page.keyboard.press("Tab")
    p.page.keyboard.press("Tab")
    focused = p.page.evaluate(
        "(() => { const e = document.activeElement; const s = getComputedStyle(e);"
        " return [e.tagName, s.outlineStyle, s.outlineWidth]; })()"
    )
    assert focused[0] in ("A", "BUTTON", "INPUT", "SELECT") and focused[1] != "none", focused


def test_names_are_text_and_bad_names_are_refused_in_words(pages: Pages) -> None:
    p = pages("<b>Mei</b>").open()
    p.page.click("[data-play-now=dragon]")
    name = p.page.locator(".plate.you .name")
    name.wait_for()
    assert name.inner_text() == "<b>Mei</b>"
    assert name.locator("b").count() == 0  # rendered as text, never as markup

    q = pages("\u202eevil").open()
    q.page.click("[data-play-now=mcr]")
    notice = q.page.locator(".notice.error")
    notice.wait_for()
    assert "invalid_name" in notice.inner_text() and "U+202E" in notice.inner_text()
    assert q.page.locator("[data-play-now=mcr]").count() == 1  # still in the lobby


def test_two_players_invite_bots_reload_and_rematch(pages: Pages, live: LiveServer) -> None:
    mei = pages("Mei").open()
    mei.page.select_option("[data-preset]", "dragon")
    mei.page.select_option("[data-choice=seats]", "3")
    mei.page.select_option("[data-choice=hands]", "1")
    mei.page.click("[data-create]")
    link = mei.page.locator("[data-invite]").input_value()
    room = mei.room()
    assert link.endswith(f"/#/room/{room}")
    assert room not in [r["room"] for r in lobby_rooms(mei)]  # private: only the link finds it

    # Bots in empty seats while waiting: add, take out, add again.
    mei.page.click("[data-add-bot='2']")
    mei.page.wait_for_selector("li[data-seat='2'][data-kind=bot]")
    mei.page.click("[data-remove-bot='2']")
    mei.page.wait_for_selector("li[data-seat='2'][data-kind=empty]")
    mei.page.click("[data-add-bot='2']")

    lan = pages("Lan", viewport=PHONE)
    lan.page.goto(link)
    lan.page.click("[data-take-seat='1']")
    lan.page.wait_for_selector("li[data-seat='1'] .badge.me")
    mei.page.wait_for_selector("li[data-seat='1'][data-kind=human]")
    assert "Lan" in mei.page.locator("li[data-seat='1']").inner_text()
    lan.shot("waiting-390")
    mei.page.click("[data-ready=true]")
    lan.page.click("[data-ready=true]")

    # Mid-hand: Mei submits, Lan reloads and gets her seat and her choice back.
    for p in (mei, lan):
        p.page.wait_for_selector("[data-prompt=arrange] li.best")
    mei.page.click("li.best [data-arrangement]")
    mei.page.click("[data-submit]")
    mei.page.wait_for_selector(".submitted")
    lan.page.reload()
    lan.page.wait_for_selector("[data-prompt=arrange] li.best")
    lan.page.click("li.best [data-arrangement]")
    lan.page.click("[data-submit]")
    for p in (mei, lan):
        p.page.wait_for_selector("[data-result=finished]")
    for seat in (0, 1):
        assert live.sources(room, seat) == ["player"]

    # The rematch: Mei asks, Lan follows; both sit where they sat, the bot too.
    mei.page.click("[data-rematch]")
    again = wait_for_room(mei, lambda r: r != room)
    lan.page.click("[data-rematch]")  # "Join the rematch" once Mei asked
    wait_for_room(lan, lambda r: r == again)
    for p in (mei, lan):
        p.page.wait_for_selector("li[data-seat='1'][data-kind=human]")
    seats = live.table(again).seats
    assert [s.kind for s in seats] == ["human", "human", "bot"]
    assert [seats[0].name, seats[1].name] == ["Mei", "Lan"]


def test_a_listed_room_is_joined_or_watched_from_the_lobby(pages: Pages, live: LiveServer) -> None:
    mei = pages("Mei").open()
    mei.page.select_option("[data-preset]", "dragon")
    mei.page.select_option("[data-choice=seats]", "2")
    mei.page.check("text=list it in the lobby")
    mei.page.click("[data-create]")
    mei.page.wait_for_selector("li[data-seat='0'] .badge.me")
    room = mei.room()

    lan = pages("Lan").open()
    row = lan.page.locator(f"tr[data-room='{room}']")
    row.wait_for(timeout=10_000)  # the lobby refreshes itself
    assert "Mei" in row.inner_text()
    row.locator("[data-join]").click()
    lan.page.wait_for_selector("li[data-seat='1'] .badge.me")
    assert [s.name for s in live.table(room).seats] == ["Mei", "Lan"]

    kim = pages("Kim").open()
    kim.page.click(f"[data-watch='{room}']")
    kim.page.wait_for_selector("li[data-seat='1'][data-kind=human]")
    assert kim.page.locator("[data-take-seat]").count() == 0  # no free seat left: watching


def test_a_second_tab_takes_the_seat_and_the_first_asks_before_taking_it_back(
    pages: Pages,
) -> None:
    first = pages("Mei").open()
    first.page.click("[data-play-now=dragon]")
    first.page.wait_for_selector("[data-prompt=arrange]")
    second = first.context.new_page()  # the same browser profile: the same stored token
    first.watch.attach(second)
    second.goto(first.page.url)
    second.wait_for_selector("[data-prompt=arrange]")
    first.page.wait_for_selector("[data-taken-over]")  # and it does not grab the seat back
    first.page.wait_for_selector("[data-status=elsewhere]", timeout=5_000)
    second.wait_for_timeout(500)
    assert second.locator("[data-taken-over]").count() == 0
    first.page.click("[data-play-here]")  # the player asks: take it back here
    first.page.wait_for_selector("[data-prompt=arrange]")
    second.wait_for_selector("[data-taken-over]")


def wait_for_room(p: Page, ok: Callable[[str], bool]) -> str:
    """The room in the page's address once ``ok`` holds for it (the page's CSP allows no
    ``eval``, so no ``wait_for_function``)."""
    for _ in range(200):
        room = p.address_room()
        if ok(room):
            return room
        p.page.wait_for_timeout(50)
    raise AssertionError(f"the page stayed in room {p.address_room()}")


def lobby_rooms(p: Page) -> list[dict[str, Any]]:
    """The rooms the lobby lists, asked for on a connection of its own."""
    return list(
        p.page.evaluate(
            """() => new Promise((done) => {
              const ws = new WebSocket(location.origin.replace('http', 'ws') + '/');
              ws.onopen = () => { ws.send(JSON.stringify({type: 'hello', protocol_version: 1}));
                                  ws.send(JSON.stringify({type: 'lobby'})); };
              ws.onmessage = (e) => { const m = JSON.parse(e.data);
                if (m.type === 'lobby') { ws.close(); done(m.rooms); } };
            })"""
        )
    )


def test_countdown_turns_red_and_a_timeout_is_explained(pages: Pages, live: LiveServer) -> None:
    p = pages("Mei").open()
    p.page.select_option("[data-preset]", "dragon-quick")
    p.page.click("[data-create]")
    room_url = p.room()
    for seat in (1, 2, 3):
        p.page.click(f"[data-add-bot='{seat}']")
        p.page.wait_for_selector(f"li[data-seat='{seat}'][data-kind=bot]")
    p.page.click("[data-ready=true]")
    timer = p.page.locator(".plate.you .timer")
    timer.wait_for()
    assert int(timer.get_attribute("data-seconds") or 0) > 5
    assert "urgent" not in (timer.get_attribute("class") or "")
    p.page.wait_for_selector(".plate.you .timer.urgent")  # the last five seconds
    assert int(timer.get_attribute("data-seconds") or 99) <= 5
    notice = p.page.locator(".notice.info", has_text="Time ran out")
    notice.wait_for(timeout=15_000)
    assert live.sources(room_url, 0) == ["timeout"]
    played = next(a.action for a in live.actions(room_url) if a.seat == 0)
    said = "declared bust for you" if played == "bust" else "arranged for you"
    assert said in notice.inner_text()


@pytest.fixture(scope="module")
def closed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    rooms: Path = write_presets(tmp_path_factory.mktemp("closed"))
    server = LiveServer(rooms, player_rooms=False).start()
    yield server
    server.stop()


def test_rooms_made_by_players_can_be_turned_off(browser: Any, closed_server: LiveServer) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(closed_server.url)
    page.wait_for_selector("[data-play-now=mcr]")
    assert not page.locator("[data-play-now=mcr]").is_enabled()
    assert not page.locator("[data-create]").is_enabled()
    assert "turned off" in page.locator(".playnow").inner_text()
    context.close()
