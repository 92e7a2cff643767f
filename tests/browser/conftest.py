"""Fixtures of the browser suite: a live server, the Debian chromium through Playwright, and
pages watched for foreign requests and console errors.

Without chromium (or the playwright package) the suite skips with the reason; under
``CI=true`` that is a failure instead, never a silent skip. Run it alone with
``pytest tests/browser`` (or ``-m browser``)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.harness import CHROMIUM_ARGS, LiveServer, Watch, find_chromium, write_presets

#: Where screenshots go: docs/screenshots with PAIJU_SCREENSHOTS=1 (make screenshots), else a
#: temporary folder, so that an ordinary test run leaves the committed pictures alone.
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
            # One xdist worker runs the whole browser suite (make test: --dist loadgroup), so
            # one chromium at a time shares the machine with the other workers.
            item.add_marker(pytest.mark.xdist_group("browser"))


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"browser tests cannot run in CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module. Not for the session: Playwright's sync API keeps an event
    loop marked running in this thread while it is open, which the asyncio tests that run
    after the browser suite cannot share."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (make test installs it)")
    executable = find_chromium()
    if executable is None:
        _unavailable(
            "no chromium found: install the Debian package (apt-get install chromium) "
            "or set PAIJU_CHROMIUM to a Chromium binary"
        )
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(write_presets(tmp_path_factory.mktemp("rooms"))).start()
    yield server
    server.stop()


class Page:
    """A page in its own browser context (its own localStorage: its own player)."""

    def __init__(
        self,
        browser: Any,
        live: LiveServer,
        name: str | None,
        viewport: dict[str, int],
        shots: Path,
    ):
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.watch = Watch(live.url.rstrip("/"))
        self.watch.attach(self.page)
        if name is not None:
            stored = json.dumps(json.dumps(name))  # a JS string literal of the JSON text
            self.page.add_init_script(f"localStorage.setItem('paiju.name', {stored})")
        self.live = live
        self.shots = shots

    def open(self, path: str = "") -> Page:
        # What the page's sockets sent and received, named when it never connects (seen once
        # in a loaded CI run: the server logged the connection, the page never said
        # "connected"; this tells whether its hello left and whether a welcome came back).
        frames: list[str] = []

        def socket_opened(ws: Any) -> None:
            frames.append(f"open {ws.url}")
            ws.on("framesent", lambda data: frames.append(f"sent {str(data)[:80]}"))
            ws.on("framereceived", lambda data: frames.append(f"got {str(data)[:80]}"))
            ws.on("close", lambda _: frames.append("closed"))

        self.page.on("websocket", socket_opened)
        self.page.goto(self.live.url + path)
        try:
            self.page.wait_for_selector("[data-status=connected]")
        except Exception as exc:
            raise AssertionError(f"the page never connected; its sockets: {frames}") from exc
        finally:
            self.page.remove_listener("websocket", socket_opened)
        return self

    def room(self) -> str:
        """The room the page is in, once it is in one (a click that creates or joins a
        room moves the address a moment later; on a busy machine, after this is asked)."""
        for _ in range(200):
            if self.page.evaluate("location.hash.startsWith('#/room/')"):
                break
            self.page.wait_for_timeout(50)
        return self.address_room()

    def address_room(self) -> str:
        """The room in the page's address now (``"undefined"`` in the lobby)."""
        return str(self.page.evaluate("location.hash.split('/')[2]"))

    def shot(self, name: str) -> None:
        self.shots.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(self.shots / f"{name}.png"), full_page=True)

    def close(self) -> None:
        self.watch.assert_clean()
        self.context.close()


Pages = Callable[..., Page]


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if os.environ.get("PAIJU_SCREENSHOTS") == "1":
        return DOCS_SCREENSHOTS
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture
def pages(browser: Any, live: LiveServer, shots: Path) -> Iterator[Pages]:
    made: list[Page] = []

    def make(name: str | None = "Mei", viewport: dict[str, int] | None = None) -> Page:
        page = Page(browser, live, name, viewport or DESKTOP, shots)
        made.append(page)
        return page

    yield make
    for page in made:
        page.close()
