"""The event loop a server runs on (the ``event_loop`` setting).

uvloop (libuv under asyncio's interface) is the default where it is installed: the server's
sockets, timers and callbacks then cost less of the one core a server has, and the loop
lags less behind at load (``benchmarks/load.py``, docs/operations.md "Capacity"). asyncio's
own loop stays available, for a platform without uvloop (Windows) or to compare.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from typing import Literal

EventLoopChoice = Literal["auto", "uvloop", "asyncio"]
LoopFactory = Callable[[], asyncio.AbstractEventLoop]


def loop_factory(choice: EventLoopChoice) -> tuple[str, LoopFactory]:
    """The name and factory of the loop ``choice`` asks for: ``auto`` is uvloop when it can
    be imported and asyncio's otherwise; ``uvloop`` without the package is a ``ValueError``
    (a setting that cannot be honoured stops the start, never falls back in silence)."""
    if choice == "asyncio":
        return "asyncio", asyncio.new_event_loop
    try:
        uvloop = importlib.import_module("uvloop")
    except ImportError:
        if choice == "uvloop":
            raise ValueError(
                'event_loop = "uvloop" but the uvloop package is not installed '
                '(pip install uvloop, or set event_loop = "auto" or "asyncio")'
            ) from None
        return "asyncio", asyncio.new_event_loop
    factory: LoopFactory = uvloop.new_event_loop
    return "uvloop", factory
