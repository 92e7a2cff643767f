"""The real thing for the browser tests: a ``PaijuServer`` on a free port in its own thread
(its own event loop, real sockets, the packaged client served over HTTP), room presets with
generous timers, and helpers to watch a page for foreign requests and console errors."""

from __future__ import annotations

import asyncio
import io
import os
import re
import shutil
import threading
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paiju.core.fairness import SEEDED_V0
from paiju.engines.registry import get_engine
from paiju.persistence.memory import MemoryStore
from paiju.persistence.replay import replay_hands, room_log
from paiju.persistence.store import Store, actions
from paiju.server.app import PaijuServer
from paiju.server.config import ServerConfig
from paiju.table.records import ActionRecord
from paiju.table.table import Table

ROOT = Path(__file__).resolve().parents[2]
PRESETS = ROOT / "src" / "paiju" / "presets"

#: Chromium flags for a quiet headless browser that talks to nobody but the page's server.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: The operator's token of the test server (the server wants 32 characters or more).
ADMIN_TOKEN = "browser-tests-admin-token-0123456789"

#: Seconds a human seat has for a decision in the test presets: long enough that the server
#: never plays for the browser seat (the tests check that no ``timeout`` was recorded).
GENEROUS = 600.0

#: Extra presets: short timers, for the countdown and timeout test.
QUICK_DRAGON = """variant = "dragon"
title = "Dragon, quick"
[options]
hands = 1
[timers]
arrange = 7.0
[choices]
"""


def find_chromium() -> str | None:
    """The Debian chromium (or ``PAIJU_CHROMIUM``); no browser is ever downloaded."""
    configured = os.environ.get("PAIJU_CHROMIUM")
    if configured:
        return configured if Path(configured).exists() else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def write_presets(folder: Path) -> Path:
    """The project's presets with every timer made generous, plus the quick test presets."""
    folder.mkdir(parents=True, exist_ok=True)
    for preset in PRESETS.glob("*.toml"):
        text = preset.read_text(encoding="utf-8")
        head, sep, rest = text.partition("[timers]")
        timers, sep2, tail = rest.partition("\n[")
        timers = re.sub(r"(?m)^(\w+)\s*=\s*[\d.]+", rf"\1 = {GENEROUS}", timers)
        (folder / preset.name).write_text(head + sep + timers + sep2 + tail, encoding="utf-8")
    (folder / "dragon-quick.toml").write_text(QUICK_DRAGON, encoding="utf-8")
    return folder


class LiveServer:
    """A ``PaijuServer`` running in a background thread with its own event loop."""

    def __init__(self, rooms_dir: Path, store: Store | None = None, **settings: Any) -> None:
        config = ServerConfig(
            host="127.0.0.1",
            port=0,
            rooms_dir=str(rooms_dir),
            bot_delay=0.0,
            between_hands=3.0,  # the result stays up long enough to be checked
            admin_token=ADMIN_TOKEN,
            # A page that reloads or loses its connection comes back before the trustee plays.
            trustee_delay=GENEROUS,
        ).with_overrides(settings)
        self.store = store if store is not None else MemoryStore()
        self.server = PaijuServer(config, self.store, ADMIN_TOKEN)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="paiju", daemon=True)

    def start(self) -> LiveServer:
        self.thread.start()
        self.call(self.server.start())
        return self

    def call(self, coroutine: Coroutine[Any, Any, Any], timeout: float = 30.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        """Stop the server; its loop ends even when the stop does not, so a node that hung
        cannot go on beating into the next test's Redis. A hung stop fails with the stacks of
        the tasks it waited on."""
        try:
            self.call(self.server.stop())
        except TimeoutError:
            stacks = self.call(_task_stacks(), timeout=5)
            raise AssertionError(f"the server did not stop in 30 s; its tasks:\n{stacks}") from None
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}/"

    def create_room(self, variant: str, seed: str, bots: int, **options: Any) -> str:
        """An operator's room (a fixed seed makes bots and deal reproducible). It deals by
        the scheme of rooms made before fair deals: in a fair room the page mixes a random
        seed of its own into every deal, and these tests script their deals by the seed."""

        async def make() -> str:
            room = self.server.rooms.create(
                variant, bots=bots, seed=seed, options=options, scheme=SEEDED_V0
            )
            return room.room_id

        return str(self.call(make()))

    def table(self, room: str) -> Table:
        """The room's table (read from the test thread: the tests only look)."""
        return self.server.rooms.get(room).table

    def actions(self, room: str) -> list[ActionRecord]:
        """The room's stored actions, in order."""
        return actions(self.store, room)

    def hand_states(self, room: str, hand: int) -> list[Any]:
        """Every state hand ``hand`` of the room has gone through so far, rebuilt from the
        stored log (what is stored is all that was ever shown)."""
        log = room_log(self.store, room)
        assert log is not None
        made = log.created
        played = replay_hands(get_engine(made.variant), made.options, made.seed,
                              [a for a in log.actions if a.hand <= hand], log.deals,
                              made.scheme, keep_states=True)
        found = next((p for p in played if p.hand == hand), None)
        return list(found.states) if found is not None else []  # nothing played yet

    def sources(self, room: str, seat: int) -> list[str]:
        """Who took each logged action of ``seat``: "player", "bot" or "timeout"."""
        return [a.source for a in self.actions(room) if a.seat == seat]

    def drop_connections(self) -> None:
        """Cut every player connection (as a network drop would) without stopping."""

        async def cut() -> None:
            assert self.server._server is not None
            for conn in list(self.server._server.connections):
                conn.transport.abort()

        self.call(cut())


@dataclass
class Watch:
    """What a page did that it must not: requests to other origins, console errors."""

    origin: str
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    transferred: int = 0

    def attach(self, page: Any) -> None:
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("websocket", lambda ws: self.requests.append(ws.url))

    def foreign(self) -> list[str]:
        ws_origin = self.origin.replace("http://", "ws://")
        return [
            u for u in self.requests
            if not (u.startswith(self.origin) or u.startswith(ws_origin) or u.startswith("data:"))
        ]

    def assert_clean(self) -> None:
        assert self.foreign() == [], f"requests outside {self.origin}: {self.foreign()}"
        assert self.errors == [], f"console errors: {self.errors}"


async def _task_stacks() -> str:
    """Where every other task of the running loop waits (for a stop that hung)."""
    out = io.StringIO()
    for task in asyncio.all_tasks():
        if task is not asyncio.current_task():
            task.print_stack(limit=8, file=out)
    return out.getvalue()
