"""Does a JSON value have the shape of a declared type? (views and event data)

A strict reading of the ``TypedDict``s variants declare: every required key present, no key
that is not declared (at any depth), and every value of its declared type (``bool`` is not an
``int``, ``int`` is a ``float``). Written here rather than with pydantic because pydantic
ignores undeclared keys of a ``TypedDict`` and coerces values by default. Each type is
compiled once into a checking function (views are checked thousands of times).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, Union, get_args, get_origin, is_typeddict

Check = Callable[[Any, str], list[str]]


def shape_errors(value: Any, declared: Any, path: str = "$") -> list[str]:
    """Where ``value`` departs from ``declared`` (empty when it conforms)."""
    return checker(declared)(value, path)


@cache
def checker(declared: Any) -> Check:
    """The checking function of ``declared``."""
    if declared is Any or declared is object:
        return lambda value, path: []
    if is_typeddict(declared):
        return _typeddict(declared)
    origin = get_origin(declared)
    if origin in (Union, types.UnionType):
        return _union([checker(option) for option in get_args(declared)])
    if origin is list:
        return _list(checker(get_args(declared)[0]))
    if origin is dict:
        return _dict(checker(get_args(declared)[1]))
    return _scalar(declared)


def _union(options: list[Check]) -> Check:
    def check(value: Any, path: str) -> list[str]:
        found = [option(value, path) for option in options]
        return [] if any(not f for f in found) else min(found, key=len)

    return check


def _list(item: Check) -> Check:
    def check(value: Any, path: str) -> list[str]:
        if not isinstance(value, list):
            return [f"{path}: {type(value).__name__}, not a list"]
        return [e for i, v in enumerate(value) for e in item(v, f"{path}[{i}]")]

    return check


def _dict(item: Check) -> Check:
    def check(value: Any, path: str) -> list[str]:
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__}, not an object"]
        errors = [f"{path}: key {k!r} is not text" for k in value if not isinstance(k, str)]
        return errors + [e for k, v in value.items() for e in item(v, f"{path}.{k}")]

    return check


_SCALARS: dict[Any, Callable[[Any], bool]] = {
    type(None): lambda v: v is None,
    bool: lambda v: isinstance(v, bool),
    int: lambda v: isinstance(v, int) and not isinstance(v, bool),
    float: lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    str: lambda v: isinstance(v, str),
}


def _scalar(declared: Any) -> Check:
    if declared not in _SCALARS:
        raise TypeError(f"the shape checker does not know the type {declared!r}")
    accepts, name = _SCALARS[declared], getattr(declared, "__name__", str(declared))

    def check(value: Any, path: str) -> list[str]:
        return [] if accepts(value) else [f"{path}: {value!r} is not a {name}"]

    return check


def _typeddict(declared: Any) -> Check:
    hints = typing.get_type_hints(declared)  # strips NotRequired / Required
    required = declared.__required_keys__
    fields: dict[str, Check] = {}

    def check(value: Any, path: str) -> list[str]:
        if not fields:  # compiled on first use: the type may refer to itself
            fields.update({key: checker(hint) for key, hint in hints.items()})
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__}, not a {declared.__name__}"]
        errors = [f"{path}: undeclared key {k!r}" for k in value if k not in hints]
        errors += [f"{path}: missing key {k!r}" for k in required if k not in value]
        for key, item in value.items():
            if key in fields:
                errors += fields[key](item, f"{path}.{key}")
        return errors

    return check
