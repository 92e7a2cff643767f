"""The browser client as package data: every file the page loads is in the package, nothing
points at another origin, and the vendored library keeps its licences."""

from __future__ import annotations

import re
from importlib import resources

import pytest

WEB = resources.files("paiju").joinpath("web")
IMPORT = re.compile(r"""(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']""")


def text(name: str) -> str:
    return WEB.joinpath(name).read_text(encoding="utf-8")


def modules() -> list[str]:
    return sorted(f.name for f in WEB.iterdir() if f.name.endswith(".js"))


def test_the_page_loads_its_files_from_assets() -> None:
    page = text("index.html")
    assert '<script type="module" src="/assets/app.js">' in page
    assert 'href="/assets/style.css"' in page
    assert 'rel="icon" href="data:,"' in page  # no /favicon.ico request (a 404 in the console)


@pytest.mark.parametrize("module", modules())
def test_every_import_is_a_file_of_the_package(module: str) -> None:
    for target in IMPORT.findall(text(module)):
        assert target.startswith("./"), f"{module} imports {target!r} from outside the package"
        assert WEB.joinpath(target[2:]).is_file(), f"{module}: {target} is missing"


def test_the_app_module_reaches_every_module() -> None:
    seen: set[str] = set()
    todo = ["app.js"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += [t[2:] for t in IMPORT.findall(text(name))]
    assert set(modules()) <= seen, f"modules nobody imports: {set(modules()) - seen}"


@pytest.mark.parametrize("name", [*modules(), "style.css", "index.html"])
def test_no_other_origin_is_named(name: str) -> None:
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text(name), re.I), name
    assert "@import" not in text(name) and "@font-face" not in text(name)


def test_the_vendored_library_keeps_its_licences() -> None:
    vendor = WEB.joinpath("vendor")
    assert "MIT License" in vendor.joinpath("LICENSE-preact.txt").read_text(encoding="utf-8")
    assert "Apache License" in vendor.joinpath("LICENSE-htm.txt").read_text(encoding="utf-8")
    readme = vendor.joinpath("README.txt").read_text(encoding="utf-8")
    assert "htm 3.1.1" in readme and "preact" in readme


def test_names_are_never_markup() -> None:
    """Names reach the page only as text nodes: no raw HTML sinks anywhere in the client."""
    for module in modules():
        source = text(module)
        for sink in ("innerHTML", "outerHTML", "dangerouslySetInnerHTML", "insertAdjacentHTML"):
            assert sink not in source, f"{module} uses {sink}"
