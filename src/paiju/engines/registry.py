"""The registry of variants, read from the ``paiju.variants`` entry-point group.

Every variant, the four built-in ones included, is an entry point ``name = "module:attr"``
naming a ``paiju.engines.variant.Variant``; a package installed with pip adds one with no
change to paiju (docs/variants.md). Names are listed without importing anything; a variant is
imported when first used, and one that fails to import is reported as ``VariantUnavailable``
naming its entry point and the exception, while the others keep working.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any

from paiju.core.errors import UnknownVariant, VariantUnavailable
from paiju.core.rng import Rng
from paiju.engines.bot import Bot
from paiju.engines.variant import Variant

if TYPE_CHECKING:
    from paiju.engines.base import Engine

GROUP = "paiju.variants"


@cache
def _entry_points() -> dict[str, tuple[EntryPoint, ...]]:
    """Name -> the distinct entry points registered under it (more than one: a conflict)."""
    found: dict[str, tuple[EntryPoint, ...]] = {}
    for point in entry_points(group=GROUP):
        known = found.get(point.name, ())
        if all(p.value != point.value for p in known):
            found[point.name] = (*known, point)
    return found


def variants() -> tuple[str, ...]:
    """The registered variant names, sorted (none is imported)."""
    return tuple(sorted(_entry_points()))


@cache
def get_variant(name: str) -> Variant[Any, Any]:
    """The ``Variant`` registered as ``name``.

    Raises ``UnknownVariant`` when no entry point has that name, ``VariantUnavailable`` when
    two packages claim it, its module fails to import, or it names no ``Variant`` called
    ``name``.
    """
    points = _entry_points().get(name)
    if not points:
        known = ", ".join(variants()) or "none"
        raise UnknownVariant(f"no variant named {name!r}; known variants: {known}")
    if len(points) > 1:
        claims = " and ".join(f"{p.value!r}" for p in points)
        raise VariantUnavailable(f"variant {name!r} is registered twice: {claims}")
    point = points[0]
    where = f"entry point {point.name} = {point.value!r} of group {GROUP}"
    try:
        loaded = point.load()
    except Exception as exc:
        raise VariantUnavailable(
            f"variant {name!r} cannot be loaded ({where}): {type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(loaded, Variant):
        raise VariantUnavailable(
            f"variant {name!r} ({where}) names a {type(loaded).__name__}, not a Variant"
        )
    if loaded.name != name:
        raise VariantUnavailable(f"variant {name!r} ({where}) calls itself {loaded.name!r}")
    return loaded


def get_engine(name: str) -> Engine[Any, Any]:
    """A fresh engine of variant ``name`` (errors as ``get_variant``)."""
    return get_variant(name).engine()


def make_bot(variant: str, level: int, rng: Rng) -> Bot:
    """The bot of ``variant`` at ``level`` (0 is random-legal), drawing from its own ``rng``;
    ``InvalidOptions`` for a level the variant lacks."""
    return get_variant(variant).make_bot(level, rng)
