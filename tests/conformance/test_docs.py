"""Each built-in variant documents its view, its events and its error codes in
``docs/rules/<variant>.md``: every field (at any depth), every event kind and its data fields,
and every declared error code appears there in backticks, so the page cannot fall behind the
types the engine is checked against."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any, get_args, is_typeddict

import pytest

from paiju.engines.registry import get_variant

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
BUILT_IN = ("diu", "dragon", "mcr", "shengji")


def field_names(declared: Any, seen: set[Any] | None = None) -> set[str]:
    """Every key of ``declared`` and of the ``TypedDict``s inside it."""
    seen = set() if seen is None else seen
    if declared in seen:
        return set()
    seen.add(declared)
    if is_typeddict(declared):
        hints = typing.get_type_hints(declared)
        return set(hints) | {n for h in hints.values() for n in field_names(h, seen)}
    return {n for arg in get_args(declared) for n in field_names(arg, seen)}


@pytest.mark.parametrize("variant", BUILT_IN)
def test_the_rules_page_documents_views_events_and_error_codes(variant: str) -> None:
    page = (DOCS / f"{variant}.md").read_text(encoding="utf-8")
    registered = get_variant(variant)
    names = field_names(registered.view)
    for kind, data in registered.events.items():
        names |= {kind, *field_names(data)}
    names |= set(registered.error_codes)
    missing = sorted(n for n in names if f"`{n}`" not in page)
    assert missing == [], f"docs/rules/{variant}.md does not mention {missing}"


def test_the_check_itself_finds_nested_fields() -> None:
    names = field_names(get_variant("mcr").view)
    assert {"players", "melds", "offer", "robbed_kong", "answered"} <= names
