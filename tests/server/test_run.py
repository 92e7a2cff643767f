"""What ``paiju serve`` does once it has started: the objects it holds then (modules,
restored rooms) are frozen out of the garbage collector's full collections."""

from __future__ import annotations

import gc
import weakref

from paiju.server.run import settle_memory


def test_settling_freezes_what_is_alive_and_collects_garbage_first() -> None:
    class Cycle:
        def __init__(self) -> None:
            self.me = self

    gc.unfreeze()
    garbage = Cycle()
    gone = weakref.ref(garbage)
    del garbage
    kept = {"rooms": [object() for _ in range(3)]}
    try:
        settle_memory()
        assert gc.get_freeze_count() > 0
        assert gone() is None  # collected, not frozen with the rest
        assert all(o is not kept for o in gc.get_objects())  # frozen: out of sight
    finally:
        gc.unfreeze()
    assert any(o is kept for o in gc.get_objects())
