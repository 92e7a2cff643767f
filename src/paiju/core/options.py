"""Declarative table options. A variant lists each option once — its default and what it
accepts — and ``normalize_options`` fills defaults in and refuses the rest with one kind of
message, so an operator gets the same answer from every variant."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from paiju.core.errors import InvalidOptions


@dataclass(frozen=True)
class Option:
    """One table option. Build it with ``choice``, ``flag``, ``int_range`` or ``custom``."""

    default: Any
    choices: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None
    check: Callable[[Any], bool] | None = None
    expects: str = ""

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` is allowed (the type must match the default's; bool is not int)."""
        if self.check is not None:
            return self.check(value)
        if type(value) is not type(self.default):
            return False
        if self.choices:
            return value in self.choices
        if self.low is not None and self.high is not None:
            return bool(self.low <= value <= self.high)
        return True

    def describe(self) -> str:
        """What the option accepts, for error messages."""
        if self.expects:
            return self.expects
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.low is not None:
            return f"an integer from {self.low} to {self.high}"
        return "true or false" if isinstance(self.default, bool) else type(self.default).__name__


def choice(default: Any, *values: Any) -> Option:
    """One of ``values`` (which must include ``default``)."""
    if default not in values:
        raise ValueError(f"default {default!r} is not among {values!r}")
    return Option(default, choices=values)


def flag(default: bool) -> Option:
    """True or false."""
    return Option(default)


def int_range(default: int, low: int, high: int) -> Option:
    """An integer from ``low`` to ``high`` inclusive."""
    return Option(default, low=low, high=high)


def custom(default: Any, check: Callable[[Any], bool], expects: str) -> Option:
    """Anything ``check`` accepts; ``expects`` says what that is in words."""
    return Option(default, check=check, expects=expects)


def normalize_options(
    variant: str, raw: Mapping[str, Any], specs: Mapping[str, Option]
) -> dict[str, Any]:
    """Every option of ``specs`` with ``raw``'s values or the defaults.

    Raises ``InvalidOptions`` naming an unknown option (and the known ones) or a value the
    option does not accept (and what it accepts).
    """
    unknown = sorted(set(raw) - set(specs))
    if unknown:
        raise InvalidOptions(
            f"unknown {variant} option(s): {', '.join(unknown)}; known: {', '.join(specs)}"
        )
    out: dict[str, Any] = {}
    for name, spec in specs.items():
        value = raw[name] if name in raw else copy.deepcopy(spec.default)
        if not spec.accepts(value):
            raise InvalidOptions(
                f"{variant} option {name!r} must be {spec.describe()}, not {value!r}",
                details={"option": name},
            )
        out[name] = value
    return out
