"""Engine states as JSON data, for the snapshots a table takes during a hand.

A restore that starts from a snapshot of the state skips replaying the hand's actions before
it (replaying an action means checking its legality, which for some variants means solving
the hand). Engine states are frozen dataclasses of tuples, frozensets, strings and numbers
(docs/architecture), which this codec writes as:

* ``None``, booleans, integers, floats and strings as themselves; a tuple as a JSON array;
* a list as ``{"L": [...]}``, a frozenset as ``{"S": [...]}`` (sorted by their JSON text),
  a dict as ``{"M": [[key, value], ...]}``;
* a dataclass as ``{"D": "module:QualName", "F": [each init field's value, in order]}``.

Reading back builds only dataclasses defined in the engine's own package or in
``paiju.engines.base`` / ``paiju.core``: a stored snapshot can never name another class.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
from collections.abc import Callable
from operator import attrgetter
from typing import Any

#: Modules whose dataclasses any engine's state may hold besides its own package's.
SHARED = ("paiju.engines.base", "paiju.core.")


class StateCodecError(ValueError):
    """A state that this codec cannot write, or data it will not read."""


#: Values read as themselves (exact types: a subclass goes the long way).
SCALARS = frozenset({type(None), bool, int, float, str})
#: Values written as themselves: the scalars but floats, which are checked (an enum, or any
#: other subclass, goes the long way too).
PLAIN = frozenset({type(None), bool, int, str})


def encode_state(value: Any) -> Any:
    """``value`` as JSON data. Raises ``StateCodecError`` for a type it does not know, and for
    a float that is not finite: JSON has no NaN or infinity, and data known to hold none
    spares the chain's canonical JSON its search for them (``canonical``'s ``finite``)."""
    kind = type(value)
    if kind in PLAIN:
        return value
    if kind is tuple:
        # The common case (walls, hands, rivers): a tuple of scalars is copied, not walked
        # (its items' types are checked at C speed).
        if PLAIN.issuperset(map(type, value)):
            return list(value)
        return [v if type(v) in PLAIN else encode_state(v) for v in value]
    if kind is frozenset and _INTS.issuperset(map(type, value)):
        # A set of integers (MCR's waits, a hand's tiles): sorted by their text as they are,
        # without a call per item (``_order``'s order, which ``str`` is for an integer).
        return {"S": sorted(value, key=str)}
    plan = _PLANS.get(kind, _UNKNOWN)  # (a class met before: one lookup)
    if plan is _UNKNOWN:
        plan = _dataclass_plan(kind)
    if plan is not None:
        tag, fields = plan
        # The fields read at C speed (``attrgetter``); when they are all scalars (a meld,
        # the rules) they are copied, else a field that is a scalar is copied without a call.
        found = fields(value)
        if PLAIN.issuperset(map(type, found)):
            return {"D": tag, "F": list(found)}
        return {"D": tag, "F": [v if type(v) in PLAIN else encode_state(v) for v in found]}
    if isinstance(value, float):
        if not math.isfinite(value):
            raise StateCodecError(f"cannot store {value} in a state snapshot (JSON has none)")
        return value
    if isinstance(value, bool | int | str):
        return value
    if isinstance(value, tuple):
        return [encode_state(v) for v in value]
    if isinstance(value, frozenset | set):
        items = [encode_state(v) for v in value]
        return {"S": sorted(items, key=_order)}
    if isinstance(value, list):
        return {"L": [encode_state(v) for v in value]}
    if isinstance(value, dict):
        return {"M": [[encode_state(k), encode_state(v)] for k, v in value.items()]}
    raise StateCodecError(f"cannot store a {type(value).__name__} in a state snapshot")


def _order(item: Any) -> str:
    """A set's items are stored in the order of their JSON text (``str`` of an integer is
    that text, at a fraction of the cost)."""
    if type(item) is int:
        return str(item)
    if type(item) is dict and len(item) == 2:
        # A dataclass of scalars (an MCR action in a claim window's options): its text is
        # kept, by its tag, values and their types (``True == 1``, their texts differ).
        fields = item.get("F")
        if type(fields) is list and PLAIN.issuperset(kinds := tuple(map(type, fields))):
            key = (item.get("D"), kinds, *fields)
            text = _TEXTS.get(key)
            if text is None:
                if len(_TEXTS) >= _TEXTS_KEPT:
                    _TEXTS.clear()
                text = _TEXTS[key] = _SORTED_TEXT(item)
            return text
    return _SORTED_TEXT(item)


#: ``json.dumps(item, sort_keys=True)``, the same text, without the encoder that call makes
#: anew each time (any argument but the defaults does): 5 of the 7 us an MCR claim window's
#: set of two actions cost to order.
_SORTED_TEXT = json.JSONEncoder(sort_keys=True).encode
#: The text of each dataclass of scalars met in a set (``_order``), up to ``_TEXTS_KEPT``
#: of them (MCR's actions: a few hundred; a bound for a variant that would make more).
_TEXTS: dict[tuple[Any, ...], str] = {}
_TEXTS_KEPT = 4096
#: The exact type of an integer (a set of them is sorted as it is).
_INTS = frozenset({int})
#: What ``_PLANS`` gives for a class not met yet.
_UNKNOWN: Any = object()


#: How a dataclass is written: its ``D`` tag and what reads its ``__init__`` fields' values,
#: in order, as a tuple.
Plan = tuple[str, Callable[[Any], tuple[Any, ...]]]
#: The plan of each class met so far, ``None`` for a class that is no dataclass (a handful
#: of classes per engine).
_PLANS: dict[type[Any], Plan | None] = {}


def _dataclass_plan(cls: type[Any]) -> Plan | None:
    """How ``cls`` is written (worked out once per class); ``None`` for a class that is no
    dataclass."""
    if cls in _PLANS:
        return _PLANS[cls]
    plan = None
    if dataclasses.is_dataclass(cls):
        names = tuple(f.name for f in dataclasses.fields(cls) if f.init)
        plan = f"{cls.__module__}:{cls.__qualname__}", _reader(names)
    _PLANS[cls] = plan
    return plan


def _reader(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """What reads the attributes ``names`` of an object as a tuple (``attrgetter`` gives a
    lone value, not a tuple, for one name, and raises for none)."""
    if len(names) >= 2:
        return attrgetter(*names)
    return lambda value: tuple(getattr(value, name) for name in names)


class StateReader:
    """Reads states of one engine (its package's dataclasses and the shared ones)."""

    def __init__(self, engine: Any) -> None:
        self.package = type(engine).__module__.rsplit(".", 1)[0] + "."
        self._classes: dict[str, type[Any]] = {}
        # Per ``D`` tag: the class and its ``__init__`` field names, worked out once (asking
        # ``dataclasses.fields`` for every object read was a fifth of a restore's decoding).
        self._plans: dict[str, tuple[type[Any], tuple[str, ...]]] = {}

    def decode(self, data: Any) -> Any:
        """The value ``data`` holds. Raises ``StateCodecError`` for anything else."""
        kind = type(data)
        if kind in SCALARS:
            return data
        if kind is list:
            # Most arrays are of scalars (tiles, cards, seats): those are copied, not walked.
            if SCALARS.issuperset(map(type, data)):
                return tuple(data)
            return tuple([v if type(v) in SCALARS else self.decode(v) for v in data])
        if kind is dict and "D" in data and "F" in data and len(data) == 2:
            return self._dataclass(data)
        return self._other(data)

    def _dataclass(self, data: dict[str, Any]) -> Any:
        tag = str(data["D"])
        plan = self._plans.get(tag)
        if plan is None:
            cls = self._class(tag)
            plan = self._plans[tag] = cls, tuple(f.name for f in dataclasses.fields(cls) if f.init)
        cls, names = plan
        values = data["F"]
        if type(values) is not list or len(names) != len(values):
            raise StateCodecError(f"{tag} has {len(names)} fields")
        decode = self.decode
        return cls(**{
            name: v if type(v) in SCALARS else decode(v)
            for name, v in zip(names, values, strict=True)
        })

    def _other(self, data: Any) -> Any:
        """The rarer forms (and subclasses of the JSON types, read as their base)."""
        if data is None or isinstance(data, bool | int | float | str):
            return data
        if isinstance(data, list):
            return tuple(self.decode(v) for v in data)
        if not isinstance(data, dict) or len(data) not in (1, 2):
            raise StateCodecError("not state data")
        if "S" in data:
            return frozenset(self.decode(v) for v in data["S"])
        if "L" in data:
            return [self.decode(v) for v in data["L"]]
        if "M" in data:
            return {self.decode(k): self.decode(v) for k, v in data["M"]}
        if "D" in data and "F" in data:
            return self._dataclass(data)
        raise StateCodecError("not state data")

    def _class(self, name: str) -> type[Any]:
        found = self._classes.get(name)
        if found is not None:
            return found
        module, _, qualname = name.partition(":")
        allowed = module.startswith(self.package) or module.startswith(SHARED)
        if not allowed or not qualname:
            raise StateCodecError(f"a state may not hold a {name}")
        try:
            value: Any = importlib.import_module(module)
            for part in qualname.split("."):
                value = getattr(value, part)
        except (ImportError, AttributeError) as exc:
            raise StateCodecError(f"no class {name}") from exc
        if not (isinstance(value, type) and dataclasses.is_dataclass(value)):
            raise StateCodecError(f"{name} is not a dataclass")
        self._classes[name] = value
        return value


_READERS: dict[type[Any], StateReader] = {}


def reader_for(engine: Any) -> StateReader:
    """The one reader of ``engine``'s kind: what a reader keeps is the classes its tags name
    and their fields, the same for every room of the variant, so a restart works them out
    once rather than once per room (3 of a room's 4 dataclass reads looked a class up)."""
    kind = type(engine)
    reader = _READERS.get(kind)
    if reader is None:
        reader = _READERS[kind] = StateReader(engine)
    return reader
