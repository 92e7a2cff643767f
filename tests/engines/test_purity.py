"""Engines are pure: no module under paiju.engines imports I/O, clocks, or global randomness."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINES = Path(__file__).resolve().parents[2] / "src" / "paiju" / "engines"
FORBIDDEN = {
    "asyncio",
    "websockets",
    "pydantic",
    "structlog",
    "time",
    "random",
    "socket",
    "logging",
    "threading",
    "datetime",
    "os",
    "sqlite3",
    "secrets",
    "paiju.server",
    "paiju.table",
    "paiju.persistence",
    "paiju.bots",
    "paiju.cli",
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def forbidden(name: str) -> bool:
    return any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN)


@pytest.mark.parametrize(
    "path", sorted(ENGINES.rglob("*.py")), ids=lambda p: str(p.relative_to(ENGINES))
)
def test_engine_modules_import_nothing_impure(path: Path) -> None:
    bad = sorted(n for n in imported_modules(path) if forbidden(n))
    assert bad == [], f"{path.name} imports {bad}"


def test_the_check_itself_catches_an_impure_import(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("import asyncio\nfrom random import choice\nfrom paiju.core import rng\n")
    assert sorted(n for n in imported_modules(sample) if forbidden(n)) == ["asyncio", "random"]
