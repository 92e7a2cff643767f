"""Plain HTTP on the WebSocket port: the browser client's static files (the probes,
``/healthz``, ``/readyz`` and ``/metrics``, are answered by ``paiju.server.operations``).

``GET /`` is the client's ``index.html``; ``GET /assets/<path>`` is any other file of the
client. The files are package data (``paiju/web``), read with ``importlib.resources`` so an
installed wheel serves them too; an operator may point ``web_root`` at a folder of their own.
Everything else is 404. Only files that exist below the root are served: a path with ``..``,
a backslash, a hidden part or a NUL never reaches the file system.
"""

from __future__ import annotations

import email.utils
from collections.abc import Sequence
from http import HTTPStatus
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

#: Content types by file suffix; anything else is not served.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".wav": "audio/wav",
}

#: The page may talk to its own origin only: no CDN, no font service, no other server.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
        "style-src 'self' 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}

ASSETS = "/assets/"


def is_upgrade(request: Request) -> bool:
    """Whether the request asks for a WebSocket (anything else is plain HTTP)."""
    return "websocket" in request.headers.get("Upgrade", "").lower()


def web_root(configured: str) -> Traversable:
    """The folder the client is served from: ``configured``, or the packaged client."""
    if configured:
        return Path(configured)
    return resources.files("paiju").joinpath("web")


def serve_file(root: Traversable, request_path: str, connect: Sequence[str] = ()) -> Response:
    """The response to a plain HTTP GET of ``request_path`` (query string included);
    ``connect``: more sources the page may connect to (cluster mode: the other nodes)."""
    path = request_path.split("?", 1)[0].split("#", 1)[0]
    if path == "/":
        relative = "index.html"
    elif path.startswith(ASSETS):
        relative = path[len(ASSETS) :]
    else:
        return text_response(HTTPStatus.NOT_FOUND, "no such page\n")
    found = _lookup(root, relative)
    if found is None:
        return text_response(HTTPStatus.NOT_FOUND, "no such file\n")
    file, content_type = found
    reply = response(HTTPStatus.OK, file.read_bytes(), content_type)
    if connect:
        policy = SECURITY_HEADERS["Content-Security-Policy"]
        del reply.headers["Content-Security-Policy"]
        reply.headers["Content-Security-Policy"] = policy.replace(
            "connect-src 'self'", "connect-src 'self' " + " ".join(connect)
        )
    return reply


def _lookup(root: Traversable, relative: str) -> tuple[Traversable, str] | None:
    parts = relative.split("/")
    if not relative or any(_unsafe(part) for part in parts):
        return None
    content_type = CONTENT_TYPES.get(Path(parts[-1]).suffix.lower())
    if content_type is None:
        return None
    node = root
    for part in parts:
        node = node.joinpath(part)
    return (node, content_type) if node.is_file() else None


def _unsafe(part: str) -> bool:
    return not part or part.startswith(".") or any(ch in part for ch in "\\\0:")


def json_response(body: bytes) -> Response:
    """A 200 JSON response (histories, keys)."""
    return response(HTTPStatus.OK, body, CONTENT_TYPES[".json"])


def text_response(status: HTTPStatus, text: str) -> Response:
    """A plain-text response (errors, health answers)."""
    return response(status, text.encode("utf-8"), "text/plain; charset=utf-8")


def response(status: HTTPStatus, body: bytes, content_type: str) -> Response:
    """A complete response with ``body`` and the security headers."""
    headers = Headers()
    headers["Date"] = email.utils.formatdate(usegmt=True)
    headers["Connection"] = "close"
    headers["Content-Length"] = str(len(body))
    headers["Content-Type"] = content_type
    for name, value in SECURITY_HEADERS.items():
        headers[name] = value
    return Response(status.value, status.phrase, headers, body)
