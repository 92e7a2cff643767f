"""One log stream: every line goes through structlog, the standard library's records too
(websockets, asyncio), as JSON (or, for a person at a terminal, as console text), at the
configured level, each with the ids of what it concerns.

A connection's lines carry ``connection`` (its id), and ``room`` and ``seat`` as they are
when the line is written; a room's task carries ``room``. The websockets library's own lines
carry the ``connection`` and ``address`` of the socket they are about.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, MutableMapping
from contextvars import ContextVar
from typing import Any, Literal

import structlog

Level = Literal["debug", "info", "warning", "error"]
Format = Literal["json", "console"]

#: What the current task's lines are about: a function giving ``connection``, ``room`` and
#: ``seat`` at the moment a line is written (set for each connection's task).
LOG_CONTEXT: ContextVar[Callable[[], dict[str, Any]] | None] = ContextVar(
    "paiju_log_context", default=None
)
#: The websockets library's own lines: its info lines ("connection open", "connection
#: rejected") repeat ours and, unlike ours, are not rate-limited (a flood of refused
#: handshakes would flood the log), so they show only at ``debug``; its debug lines print
#: every frame, seat tokens included, so they never show.
WEBSOCKETS_LEVELS = {logging.DEBUG: logging.INFO}


def _add_context(
    logger: Any, method: str, event_dict: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    context = LOG_CONTEXT.get()
    if context is not None:
        for key, value in context().items():
            if value is not None:
                event_dict.setdefault(key, value)
    return event_dict


def _add_socket(
    logger: Any, method: str, event_dict: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """A websockets record names its connection (the library passes it as ``websocket``)."""
    record = event_dict.get("_record")
    socket = getattr(record, "websocket", None) if record is not None else None
    if socket is not None:
        event_dict.setdefault("connection", getattr(socket, "log_id", None) or None)
        event_dict.setdefault("address", getattr(socket, "address", None) or None)
    return event_dict


def configure_logging(level: Level = "info", fmt: Format = "json") -> None:
    """Route every log line to stderr through structlog at ``level``, rendered as ``fmt``."""
    number = logging.getLevelNamesMapping()[level.upper()]
    shared: list[structlog.typing.Processor] = [
        structlog.contextvars.merge_contextvars,
        _add_context,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso"),
    ]
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer()
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())
    )
    structlog.configure(
        processors=[*shared, structlog.processors.format_exc_info, renderer],
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        wrapper_class=structlog.make_filtering_bound_logger(number),
    )
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[*shared, _add_socket],
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                renderer,
            ],
        )
    )
    handler.set_name("paiju")
    root = logging.getLogger()
    root.handlers[:] = [h for h in root.handlers if h.get_name() != "paiju"] + [handler]
    root.setLevel(number)
    logging.getLogger("websockets").setLevel(WEBSOCKETS_LEVELS.get(number, logging.WARNING))
