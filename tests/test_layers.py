"""The package's import graph: no cycles, and every arrow points down the layers
core <- engines (with each variant's bots) <- table <- persistence <- server <- cli, with
the bot tools (self-play, arena, the bridge) beside the CLI."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
RANK = {"core": 0, "engines": 1, "table": 2, "persistence": 3, "server": 4, "bots": 5, "cli": 5}


def modules() -> dict[str, Path]:
    found = {}
    for path in (SRC / "paiju").rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """Every paiju module ``path`` imports, TYPE_CHECKING imports included."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {n for n in names if n in known and n.startswith("paiju")}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(path, known) - {name} for name, path in known.items()}


def layer(module: str) -> int | None:
    parts = module.split(".")
    return RANK.get(parts[1]) if len(parts) > 1 else None


def test_no_module_imports_a_higher_layer() -> None:
    wrong = [
        f"{module} -> {dep}"
        for module, deps in graph().items()
        for dep in deps
        if layer(module) is not None and (layer(dep) or 0) > (layer(module) or 0)
    ]
    assert wrong == []


def test_the_import_graph_has_no_cycle() -> None:
    edges = graph()
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for dep in sorted(edges[module]):
            if state.get(dep) == 1:
                cycles.append([*path[path.index(dep) :], dep])
            elif dep not in state:
                visit(dep, [*path, dep])
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    assert cycles == []


def test_the_checks_see_real_imports() -> None:
    edges = graph()
    assert "paiju.server.rooms" in edges["paiju.server.sessions"]
    assert "paiju.server.sessions" not in edges["paiju.server.rooms"]
    assert "paiju.core.errors" in edges["paiju.table.table"]
