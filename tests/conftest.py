"""Shared set-up: the hypothesis profiles, and extra variants registered for one test the way
an installed package registers them (an entry point of the ``paiju.variants`` group)."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from importlib.metadata import EntryPoint

import pytest
import structlog
from hypothesis import HealthCheck, settings

from paiju.engines import registry
from paiju.server import wire
from paiju.server.loops import LoopFactory, loop_factory
from tests.redisd import RedisServer
from tests.scale import NIGHTLY_FACTOR, PROFILE

# The everyday run is reproducible (the same examples on every machine, no flaky red); the
# nightly one draws new examples each time and tries many more (``tests.scale.examples``).
settings.register_profile("default", deadline=None, derandomize=True, max_examples=100)
settings.register_profile(
    "nightly",
    deadline=None,
    max_examples=100 * NIGHTLY_FACTOR,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(PROFILE)


def pytest_configure(config: pytest.Config) -> None:
    """Every table message is checked against the protocol's schema in the tests (servers
    they start in a subprocess inherit it); production encodes them unchecked (see
    ``paiju.server.wire``)."""
    os.environ["PAIJU_CHECK_WIRE"] = "1"
    wire.CHECKED = True

def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> Mapping[str, LoopFactory]:
    """Async tests run on the loop a server runs on by default: uvloop (a dependency wherever
    it is built, so its absence fails the run there rather than testing another loop)."""
    if sys.platform == "win32":
        return {"asyncio": asyncio.new_event_loop}
    name, factory = loop_factory("uvloop")
    return {name: factory}


RegisterVariant = Callable[[str, str], None]


@contextmanager
def extra_variants(monkeypatch: pytest.MonkeyPatch) -> Iterator[RegisterVariant]:
    """Within the block, ``register(name, "module:attr")`` adds an entry point."""
    installed = registry._entry_points()
    extra: dict[str, tuple[EntryPoint, ...]] = {}

    def register(name: str, target: str) -> None:
        extra[name] = (EntryPoint(name=name, value=target, group=registry.GROUP),)
        registry.get_variant.cache_clear()

    monkeypatch.setattr(registry, "_entry_points", lambda: {**installed, **extra})
    try:
        yield register
    finally:
        registry.get_variant.cache_clear()


@pytest.fixture
def register_variant(monkeypatch: pytest.MonkeyPatch) -> Iterator[RegisterVariant]:
    """``register_variant(name, "module:attr")`` adds an entry point for this test only."""
    with extra_variants(monkeypatch) as register:
        yield register


@pytest.fixture
def race_variant(register_variant: RegisterVariant) -> None:
    """The tests' tiny "race" variant (``tests.table.fake_engine``) next to the real ones."""
    register_variant("race", "tests.table.fake_engine:VARIANT")


@pytest.fixture(autouse=True)
def logging_as_it_was() -> Iterator[None]:
    """``paiju serve`` configures structlog and the root logger for the process (to the
    stderr of the moment); every test gets back the configuration it started with."""
    old = structlog.get_config()
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    library = logging.getLogger("websockets").level
    try:
        yield
    finally:
        structlog.configure(**old)
        root.handlers[:] = handlers
        root.setLevel(level)
        logging.getLogger("websockets").setLevel(library)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A real redis-server for the session (per xdist worker); tests flush it as they need."""
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The URL of an empty Redis."""
    redis_server.flush()
    return redis_server.url
