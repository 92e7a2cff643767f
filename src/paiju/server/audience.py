"""Who a room sends to, and how: its seated members, its spectators (through the spectator
feed, which may hold public messages back) and the operators watching it (at once).

Everything here runs inside the room's task. A message is encoded once however many
connections get it, and counted in the metrics per connection.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, Protocol

from paiju.server import protocol as p
from paiju.server.feed import SpectatorFeed
from paiju.server.metrics import Metrics
from paiju.server.wire import CHECKED, frame_of
from paiju.table.effects import SPECTATORS, Send


class Recipient(Protocol):
    """A room member: something that takes encoded frames (a session)."""

    def send_frame(self, frame: bytes) -> None: ...

    def left_room(self, room_id: str) -> None:
        """The room let go of this member (it was unloaded)."""

    def when_written(self, done: Callable[[], None]) -> None:
        """Call ``done`` once every frame queued so far has been written to the connection
        (never, if the connection ends first)."""


class Audience:
    """A room's recipients: ``members`` by seat, ``spectators``, ``watchers`` (operators)."""

    def __init__(self, feed: SpectatorFeed, metrics: Metrics) -> None:
        self.members: dict[int, set[Recipient]] = {}
        self.spectators: set[Recipient] = set()
        self.watchers: set[Recipient] = set()
        self.feed = feed
        self.metrics = metrics
        # While a player's action is carried out: the members it sent something to.
        self.reached: set[Recipient] | None = None

    def everyone(self) -> list[Recipient]:
        """Every recipient, each once."""
        members = {m for ms in self.members.values() for m in ms}
        return [*members, *self.spectators, *self.watchers]

    def watched(self) -> bool:
        """Whether the spectators' messages reach anyone: a spectator, an operator watching,
        or the spectator feed, which holds them for whoever joins later."""
        return bool(self.spectators or self.watchers or self.feed.delayed)

    def seated(self) -> bool:
        """Whether any seat has a connection."""
        return any(self.members.values())

    def send(self, effect: Send, now: Callable[[], float]) -> None:
        """Carry out a table's ``Send`` (``now``: the room's clock, read only if needed)."""
        if effect.to == SPECTATORS:
            self.public(effect.message, now, effect.frame)
            return
        targets = self.members.get(effect.to)
        if targets:
            # The seat's set as it is, not a copy: queuing a frame never changes who sits
            # where (a full outbox asks its connection to close later, from a task).
            self.deliver(effect.message, targets, effect.frame)
            if self.reached is not None:
                self.reached.update(targets)

    def public(self, message: dict[str, Any], now: Callable[[], float],
               frame: bytes | None = None) -> None:
        """A message for the spectators: to the operators watching at once, to the
        spectators now or once the feed lets it go (``frame``: the message encoded)."""
        delayed = self.feed.delayed
        if delayed:
            self.feed.push(message, now())
        self.deliver(message, [*self.watchers] if delayed else [*self.watchers,
                                                                *self.spectators], frame)

    def release(self, now: float) -> None:
        """Send the spectators what the feed lets go at ``now``."""
        if self.feed.delayed and len(self.feed):
            for message in self.feed.due(now):
                self.deliver(message, list(self.spectators))

    def deliver(self, message: dict[str, Any] | p.ServerMessage,
                targets: Collection[Recipient], frame: bytes | None = None) -> None:
        """Encode ``message`` once (unless ``frame`` is its encoding already) and queue it
        for every one of ``targets``."""
        if targets:
            if frame is None or CHECKED:
                frame = frame_of(message, frame)
            for member in targets:
                member.send_frame(frame)
            kind = message["type"] if isinstance(message, dict) else message.type
            self.metrics.sent(kind).inc(len(targets))

    def detach(self, session: Recipient) -> None:
        """Stop sending to ``session``."""
        self.spectators.discard(session)
        self.watchers.discard(session)
        for sessions in self.members.values():
            sessions.discard(session)

    def clear(self) -> list[Recipient]:
        """Forget every recipient; returns them."""
        everyone = self.everyone()
        self.members.clear()
        self.spectators.clear()
        self.watchers.clear()
        return everyone
