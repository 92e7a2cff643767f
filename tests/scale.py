"""How much random testing a run does: a fast default for ``make test``, much more under the
nightly profile (``HYPOTHESIS_PROFILE=nightly``, README "Tests"). Hypothesis tests scale with
``examples(n)``; loops over random games with ``runs(n, nightly)``."""

from __future__ import annotations

import os

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "default")
NIGHTLY = PROFILE == "nightly"

#: How many times more examples a nightly run tries.
NIGHTLY_FACTOR = 10


def examples(n: int) -> int:
    """``max_examples`` for a hypothesis test that tries ``n`` in the everyday run."""
    return n * NIGHTLY_FACTOR if NIGHTLY else n


def runs(everyday: int, nightly: int) -> int:
    """How many random games (seeds) a loop plays."""
    return nightly if NIGHTLY else everyday
