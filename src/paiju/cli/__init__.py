"""The ``paiju`` command line."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The garbage collector off while the block runs, as it was after: loading modules
    (some 700 for ``paiju serve``) and reading the settings make no garbage, but every
    collection meanwhile walks all that was loaded so far (60 ms of a restart's 0.6 s
    before its port opens)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
