"""What a room's spectators are sent, held back against 看牌 (a watcher passing what the
table shows to a player): every public message waits ``delay`` seconds of the room's clock
and ``actions`` more accepted actions before it goes out.

The table is untouched: it addresses its public messages to the spectators as always, and
the room puts them in this feed instead of sending them. Messages leave in order, so a
spectator sees exactly what an undelayed one would have seen, only later. A spectator who
joins is given the last state the feed released, never the table's current one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Message = dict[str, Any]


@dataclass
class _Held:
    message: Message
    release_at: float
    actions_due: int  # the feed's action count at which the action condition is met


class SpectatorFeed:
    """Public messages held for ``delay`` seconds and ``actions`` actions (0: no condition).

    ``actions`` counts play: when no hand is in play (between hands, a finished match),
    ``end_of_play`` lifts the action condition of everything held, since nothing more will
    be played to release it and the hand's end shows everything anyway."""

    def __init__(self, delay: float = 0.0, actions: int = 0) -> None:
        self.delay = delay
        self.actions = actions
        self._held: list[_Held] = []  # (an empty deque is 600 bytes, one per room)
        self._count = 0
        self.latest_state: Message | None = None

    @property
    def delayed(self) -> bool:
        """Whether messages are held at all."""
        return self.delay > 0 or self.actions > 0

    def push(self, message: Message, now: float) -> None:
        """Hold ``message`` (room clock ``now``) until its conditions are met."""
        self._held.append(_Held(message, now + self.delay, self._count + self.actions))

    def action(self) -> None:
        """One more action was accepted."""
        self._count += 1

    def end_of_play(self) -> None:
        """No hand is in play: only the time condition holds messages back now."""
        for held in self._held:
            held.actions_due = min(held.actions_due, self._count)

    def due(self, now: float) -> list[Message]:
        """The messages whose conditions are met at ``now``, oldest first (a message never
        overtakes an older one)."""
        ready = 0
        while ready < len(self._held) and self._ready(self._held[ready], now):
            ready += 1
        out = [held.message for held in self._held[:ready]]
        del self._held[:ready]
        for message in out:
            if message.get("type") == "state":
                self.latest_state = message
        return out

    def _ready(self, held: _Held, now: float) -> bool:
        return held.release_at <= now and held.actions_due <= self._count

    def next_release(self) -> float | None:
        """When the oldest held message is due by time, if only time holds it back."""
        if not self._held or self._held[0].actions_due > self._count:
            return None
        return self._held[0].release_at

    def __len__(self) -> int:
        return len(self._held)
