"""Rate limits that count cost: what a message costs the server, the bytes a connection may
send, and how many log lines refusals may write.

A connection has two budgets. Messages spend *cost units* (``MESSAGE_COSTS``: a ping is 1, a
request that builds a lobby listing or a room is more); when a message costs more than is left
it is answered ``rate_limited`` and counts as a strike. Bytes are not refused but *waited
for*: a connection that sends more than ``rate_bytes_per_second`` is simply not read until its
budget has refilled, so TCP slows the sender down and the server spends nothing on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: What each message type costs, in units of the ``rate_per_second`` budget. A message type
#: that is not listed (and a frame that is not a valid message) costs ``DEFAULT_COST``.
MESSAGE_COSTS: dict[str, float] = {
    "hello": 1.0,
    "ping": 1.0,
    "ready": 1.0,
    "leave": 1.0,
    "act": 2.0,
    "seed": 2.0,
    "take_back": 2.0,
    "add_bot": 2.0,
    "remove_bot": 2.0,
    "join": 4.0,
    "resume": 4.0,
    "rematch": 5.0,
    "lobby": 5.0,
    "create_room": 10.0,
}
DEFAULT_COST = 1.0


@dataclass(slots=True)  # two per connection
class TokenBucket:
    """``rate`` units a second, at most ``burst`` saved up; starts full."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = 0.0

    def _refill(self, now: float) -> None:
        if self.tokens == -1.0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def allow(self, now: float, cost: float = 1.0) -> bool:
        """Spend ``cost`` if that much is left (after refilling by the time elapsed)."""
        self._refill(now)
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def spend(self, now: float, cost: float) -> float:
        """Spend ``cost`` even if that leaves a debt; returns the seconds until the debt is
        paid back (0 when nothing is owed)."""
        self._refill(now)
        self.tokens -= cost
        return 0.0 if self.tokens >= 0 or self.rate <= 0 else -self.tokens / self.rate


def message_cost(kind: str | None) -> float:
    """The cost of a message of type ``kind`` (``None``: a frame that did not parse)."""
    return MESSAGE_COSTS.get(kind or "", DEFAULT_COST)


@dataclass
class LogLimiter:
    """At most ``rate`` lines a second (bursts of ``10 * rate``) per kind of line caused by
    clients (refusals, connections); the rest are counted, not written. The next line written
    of that kind says how many were left out before it (``suppressed``)."""

    rate: float
    _buckets: dict[str, TokenBucket] = field(default_factory=dict)
    _pending: dict[str, int] = field(default_factory=dict)
    suppressed: dict[str, int] = field(default_factory=dict)

    def allow(self, kind: str, now: float) -> int | None:
        """``None`` if this line is to be left out, otherwise how many lines of this kind were
        left out since the last one written (to log with it). A rate of 0 writes every line."""
        if self.rate <= 0:
            return 0
        bucket = self._buckets.setdefault(kind, TokenBucket(self.rate, self.rate * 10))
        if not bucket.allow(now):
            self._pending[kind] = self._pending.get(kind, 0) + 1
            self.suppressed[kind] = self.suppressed.get(kind, 0) + 1
            return None
        return self._pending.pop(kind, 0)
