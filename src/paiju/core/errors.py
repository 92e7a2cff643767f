"""The error contract: every rejection a player can cause is a ``GameError`` with a stable code.

The code goes on the wire unchanged; the message is a sentence for people. Engines raise
specific codes (``must_follow_pair``, ``throw_blocked``) through the ``code`` argument while
keeping the family (``IllegalAction``) that callers can catch.
"""

from __future__ import annotations

from collections.abc import Mapping


class GameError(Exception):
    """Base of every rule or protocol rejection."""

    code = "game_error"

    def __init__(
        self, message: str, *, code: str | None = None, details: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details: dict[str, object] = dict(details or {})


class MalformedAction(GameError):
    """The action text cannot be parsed in the variant's notation."""

    code = "malformed_action"


class IllegalAction(GameError):
    """The action is well formed but the rules do not allow it now."""

    code = "illegal_action"


class NotYourTurn(GameError):
    """The seat is not among the seats the game is waiting for."""

    code = "not_your_turn"


class StaleVersion(GameError):
    """The action was made against an older state than the current one."""

    code = "stale_version"


class GameOver(GameError):
    """The hand or match has ended; no more actions are taken."""

    code = "game_over"


class InvalidOptions(GameError):
    """A table option is unknown or has a value the variant does not support."""

    code = "invalid_options"


class UnknownVariant(GameError):
    """No engine is registered under that name."""

    code = "unknown_variant"


class VariantUnavailable(GameError):
    """A variant is registered but cannot be used: its module failed to import, or its entry
    point does not name a ``Variant`` of that name. The message names the entry point and
    the exception."""

    code = "variant_unavailable"


class NotProvided(GameError):
    """The variant does not provide an optional part (a judge)."""

    code = "not_provided"
