"""The asyncio WebSocket server: sessions, one task per room, the admin channel.

structlog is first imported here, without rich. structlog imports rich, when it is installed,
for its console renderer's default exception formatter: some 0.13 s of CPU at every start of
the server (rich and, through rich's pretty-printer, attrs). The server never used it: its
processors write an exception as the standard library's traceback text (``format_exc_info``)
before any renderer sees it, in the console format as in JSON (``paiju.server.logs``)."""

import sys

if "structlog" not in sys.modules and "rich" not in sys.modules:
    sys.modules["rich"] = None  # type: ignore[assignment]  # ``import rich`` fails meanwhile
    try:
        import structlog  # noqa: F401
    finally:
        del sys.modules["rich"]
