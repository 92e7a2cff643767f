"""Versions are per viewer, so they cannot betray secret answers (this was a leak once).

In a secret poll (an MCR claim window; the race engine's vote) a seat that is still asked is
sent nothing when another seat answers, but the table's version moves on. Any number the seat
can read back -- the version of its next state (after a reconnect, or any public change such
as a seat's connection), an event's version, or simply whether an ``act`` naming one version
more than it was shown is accepted -- tells it that someone else was asked and answered.
Each seat's versions count only the changes it can see; the table's own counter never
reaches a player.
"""

from __future__ import annotations

import pytest

from paiju.core.errors import StaleVersion
from paiju.table.commands import Act, Connected
from tests.table.test_table import seated_and_playing


def test_a_seat_cannot_tell_from_versions_that_another_seat_answered_in_secret() -> None:
    table = seated_and_playing()
    shown_to_bob = table.snapshot(1, 0.0)["version"]
    table.handle(0, Act(table.shown_version(0), "go"), 1.0)  # ann answers; bob is sent nothing
    table.handle(0, Connected(False), 1.0)  # a public change: everyone gets a state
    assert table.snapshot(1, 1.0)["version"] == shown_to_bob + 1  # one change bob could see


def test_a_version_a_seat_was_never_shown_is_refused() -> None:
    table = seated_and_playing()
    shown_to_bob = table.snapshot(1, 0.0)["version"]
    table.handle(0, Act(table.shown_version(0), "go"), 1.0)
    with pytest.raises(StaleVersion):  # the probe must not reveal ann's answer
        table.handle(1, Act(shown_to_bob + 1, "go"), 1.0)
