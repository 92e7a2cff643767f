from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from paiju.persistence.memory import MemoryStore
from paiju.persistence.store import Store
from paiju.server.app import PaijuServer
from paiju.server.config import ServerConfig

ADMIN_TOKEN = "secret-admin-token-for-the-tests-0123456789"


@pytest.fixture(autouse=True)
def race(race_variant: None) -> None:
    """Every server test sees the tests' tiny "race" variant next to the real ones."""


def make_config(**overrides: object) -> ServerConfig:
    config = ServerConfig(
        host="127.0.0.1",
        port=0,
        bot_delay=0.0,
        between_hands=0.0,
        timers={"turn": 0.0, "claim": 0.0},
        admin_token=ADMIN_TOKEN,
        chain_check_delay=0.0,
    )
    return config.with_overrides(dict(overrides))


@pytest.fixture
async def server() -> AsyncIterator[PaijuServer]:
    srv = PaijuServer(make_config(), MemoryStore(), ADMIN_TOKEN)
    await srv.start()
    yield srv
    await srv.stop()


@contextlib.asynccontextmanager
async def running(store: Store | None = None, **overrides: Any) -> AsyncIterator[PaijuServer]:
    """A server with the test settings plus ``overrides``, stopped at the end."""
    server = PaijuServer(make_config(**overrides), store or MemoryStore(), ADMIN_TOKEN)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
