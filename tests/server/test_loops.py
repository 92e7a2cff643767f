"""The event loop a server runs on (``event_loop``): uvloop where installed, asyncio's own
on request, and a start refused when uvloop is asked for and missing."""

from __future__ import annotations

import asyncio
import importlib
from types import ModuleType

import pytest
import uvloop

from paiju.server import loops
from paiju.server.config import ServerConfig
from paiju.server.loops import loop_factory


def without_uvloop(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def refuse(name: str, package: str | None = None) -> ModuleType:
        if name == "uvloop":
            raise ImportError("No module named 'uvloop'")
        return real(name, package)

    monkeypatch.setattr(loops.importlib, "import_module", refuse)


@pytest.mark.parametrize("choice", ["auto", "uvloop"])
def test_uvloop_is_chosen_where_it_is_installed(choice: loops.EventLoopChoice) -> None:
    name, factory = loop_factory(choice)
    loop = factory()
    try:
        assert name == "uvloop" and isinstance(loop, uvloop.Loop)
    finally:
        loop.close()


def test_asyncio_s_own_loop_on_request() -> None:
    name, factory = loop_factory("asyncio")
    loop = factory()
    try:
        assert name == "asyncio" and not isinstance(loop, uvloop.Loop)
        assert isinstance(loop, asyncio.BaseEventLoop)
    finally:
        loop.close()


def test_auto_without_uvloop_is_asyncio(monkeypatch: pytest.MonkeyPatch) -> None:
    without_uvloop(monkeypatch)
    assert loop_factory("auto") == ("asyncio", asyncio.new_event_loop)


def test_uvloop_asked_for_and_missing_refuses_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    without_uvloop(monkeypatch)
    with pytest.raises(ValueError, match='event_loop = "uvloop" but the uvloop package'):
        loop_factory("uvloop")


def test_the_setting_takes_only_the_known_loops() -> None:
    assert ServerConfig().event_loop == "auto"
    assert ServerConfig(event_loop="asyncio").event_loop == "asyncio"
    with pytest.raises(ValueError, match="event_loop"):
        ServerConfig(event_loop="trio")  # type: ignore[arg-type]


async def test_the_tests_run_on_the_server_s_default_loop() -> None:
    """(tests/conftest.py: async tests run on uvloop, as servers do by default)"""
    assert isinstance(asyncio.get_running_loop(), uvloop.Loop)
