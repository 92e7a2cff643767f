"""Plain HTTP on the WebSocket port: the client's files, and nothing else."""

from __future__ import annotations

import asyncio
import http.client
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from paiju.persistence.memory import MemoryStore
from paiju.server.app import PaijuServer
from tests.server.client import Client
from tests.server.conftest import ADMIN_TOKEN, make_config


@pytest.fixture
def web(tmp_path: Path) -> Path:
    root = tmp_path / "web"
    (root / "vendor").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>paiju</title>", encoding="utf-8")
    (root / "app.js").write_text("export const x = 1;\n", encoding="utf-8")
    (root / "vendor" / "lib.js").write_text("export default 2;\n", encoding="utf-8")
    (root / "style.css").write_text("body{}\n", encoding="utf-8")
    (root / "notes.exe").write_bytes(b"MZ")
    (root / ".secret.js").write_text("hidden", encoding="utf-8")
    (tmp_path / "outside.js").write_text("outside", encoding="utf-8")
    return root


@pytest.fixture
async def served(web: Path) -> AsyncIterator[PaijuServer]:
    srv = PaijuServer(make_config(web_root=str(web)), MemoryStore(), ADMIN_TOKEN)
    await srv.start()
    yield srv
    await srv.stop()


def fetch(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    """A raw GET: the path goes out exactly as written (no client-side normalising)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.putrequest("GET", path, skip_accept_encoding=True)
        conn.endheaders()
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


async def get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    return await asyncio.to_thread(fetch, port, path)


async def test_the_page_is_served_at_the_root(served: PaijuServer) -> None:
    status, headers, body = await get(served.port, "/")
    assert status == 200 and body == b"<!doctype html><title>paiju</title>"
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    ("path", "content_type", "body"),
    [
        ("/assets/app.js", "text/javascript; charset=utf-8", b"export const x = 1;\n"),
        ("/assets/vendor/lib.js", "text/javascript; charset=utf-8", b"export default 2;\n"),
        ("/assets/style.css?v=3", "text/css; charset=utf-8", b"body{}\n"),
        ("/?room=abc", "text/html; charset=utf-8", b"<!doctype html><title>paiju</title>"),
    ],
)
async def test_assets_are_served_with_their_type(
    served: PaijuServer, path: str, content_type: str, body: bytes
) -> None:
    status, headers, got = await get(served.port, path)
    assert (status, headers["Content-Type"], got) == (200, content_type, body)


@pytest.mark.parametrize(
    "path",
    [
        "/nothing",
        "/index.html",  # only at / or under /assets/
        "/assets/",
        "/assets/missing.js",
        "/assets/notes.exe",  # a type the client never uses
        "/assets/.secret.js",
        "/assets/../outside.js",
        "/assets/vendor/../../outside.js",
        "/assets/%2e%2e/outside.js",
        "/assets/vendor//lib.js",
        "/assets/vendor\\lib.js",
        "/assets/C:/x.js",
    ],
)
async def test_nothing_else_is_served(served: PaijuServer, path: str) -> None:
    status, _, body = await get(served.port, path)
    assert status == 404
    assert b"outside" not in body and b"hidden" not in body


async def test_websockets_still_upgrade_on_the_same_port(served: PaijuServer) -> None:
    client = await Client.open(served.port)  # hello + welcome over the upgraded connection
    await client.send({"type": "ping", "nonce": 1})
    assert (await client.expect("pong"))["nonce"] == 1
    await client.close()


async def test_the_server_names_the_url_to_open(served: PaijuServer) -> None:
    assert served.url == f"http://127.0.0.1:{served.port}/"
