"""Who may open a connection: client addresses (behind trusted proxies), connections per
address, the Origin of browser pages, and the back-off after failed admin logins.

Everything here is decided before a WebSocket opens, from the TCP peer and the HTTP request;
the refusals are HTTP statuses (docs/security.md lists them). Nothing here knows of rooms.
"""

from __future__ import annotations

import ipaddress
import math
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from websockets.datastructures import Headers

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: An IPv6 host usually owns a whole /64, so its addresses are counted together.
IPV6_PREFIX = 64
#: Failed admin logins are remembered for this many addresses at most (oldest forgotten).
ADMIN_MEMORY = 10_000
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def address_key(address: str) -> str:
    """The key an address is counted under: an IPv4 address itself, an IPv6 one by its /64
    (an IPv4-mapped IPv6 address as the IPv4 one); anything unparsable as it is."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/{IPV6_PREFIX}", strict=False))
    return str(ip)


class Proxies:
    """The reverse proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed."""

    def __init__(self, trusted: Iterable[str]) -> None:
        self.networks: list[Network] = [ipaddress.ip_network(t, strict=False) for t in trusted]

    def trusts(self, address: str) -> bool:
        """Whether ``address`` (a TCP peer) is one of the trusted proxies."""
        try:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.networks)

    def client(self, peer: str, headers: Headers) -> str:
        """The client's address: ``peer``, or, when ``peer`` is a trusted proxy, the nearest
        address of ``X-Forwarded-For`` that is not itself a trusted proxy (walking from the
        right, as each proxy appends the address it saw). A header that does not parse is
        ignored: the peer is then the client."""
        if not self.trusts(peer):
            return peer
        hops = [h.strip() for v in headers.get_all("X-Forwarded-For") for h in v.split(",")]
        for hop in reversed(hops):
            try:
                ipaddress.ip_address(hop)
            except ValueError:
                return peer
            if not self.trusts(hop):
                return hop
        return peer

    def scheme(self, peer: str, headers: Headers, tls: bool) -> str:
        """``https`` or ``http`` as the browser sees this server (a trusted proxy may say)."""
        if self.trusts(peer):
            said = headers.get("X-Forwarded-Proto", "").split(",")[0].strip().lower()
            if said in ("http", "https"):
                return said
        return "https" if tls else "http"


def normalize_origin(origin: str) -> str:
    """``scheme://host[:port]`` lower-cased, the scheme's default port left out; ``""`` for
    anything that is not such an origin (``null`` included)."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port
    except ValueError:
        return ""
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return ""
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    shown = "" if port is None or port == DEFAULT_PORTS[parts.scheme] else f":{port}"
    return f"{parts.scheme}://{host}{shown}"


class Origins:
    """The Origin check: no header (not a browser) passes; a browser page passes when it
    comes from this server itself (its origin is the request's ``Host``) or is listed."""

    def __init__(self, allowed: Iterable[str]) -> None:
        listed = list(allowed)
        self.any = "*" in listed
        self.allowed = {normalize_origin(o) for o in listed if o != "*"} - {""}

    def allows(self, headers: Headers, scheme: str) -> bool:
        """Whether a handshake with these headers may open (``scheme`` as the browser sees
        this server)."""
        origin = headers.get("Origin")
        if origin is None or self.any:
            return True
        seen = normalize_origin(origin)
        if not seen:
            return False
        own = normalize_origin(f"{scheme}://{headers.get('Host', '')}")
        return seen == own or seen in self.allowed


class AddressCounts:
    """Live connections per client address (TCP connections, handshakes included)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.total = 0

    def add(self, address: str) -> int:
        """Count one more connection from ``address``; returns the count now."""
        key = address_key(address)
        self.counts[key] = self.counts.get(key, 0) + 1
        self.total += 1
        return self.counts[key]

    def remove(self, address: str) -> None:
        """Forget one connection from ``address``."""
        key = address_key(address)
        left = self.counts.get(key, 0) - 1
        if left > 0:
            self.counts[key] = left
        else:
            self.counts.pop(key, None)
        self.total -= 1

    def of(self, address: str) -> int:
        """How many connections ``address`` has open."""
        return self.counts.get(address_key(address), 0)


@dataclass
class _Failures:
    count: int
    locked_until: float
    last: float


class AdminGate:
    """Back-off after failed admin logins, per address: after the n-th failure in a row the
    address is locked out for ``base * 2**(n-1)`` seconds (at most ``ceiling``), and during a
    lock-out every attempt is refused unchecked (HTTP 429), the right token included. A
    success, or ``ceiling`` seconds without a failure, clears the record."""

    def __init__(self, base: float, ceiling: float) -> None:
        self.base = base
        self.ceiling = ceiling
        self._failures: OrderedDict[str, _Failures] = OrderedDict()

    def retry_after(self, address: str, now: float) -> float:
        """Seconds until ``address`` may try again (0: it may try now)."""
        record = self._failures.get(address_key(address))
        if record is None:
            return 0.0
        if now - record.last > max(self.ceiling, record.locked_until - record.last):
            del self._failures[address_key(address)]
            return 0.0
        return max(0.0, record.locked_until - now)

    def failed(self, address: str, now: float) -> float:
        """Record a failed login; returns the lock-out it starts, in seconds."""
        key = address_key(address)
        record = self._failures.pop(key, None) or _Failures(0, now, now)
        record.count += 1
        lock = min(math.ldexp(self.base, min(record.count - 1, 40)), self.ceiling)
        record.locked_until, record.last = now + lock, now
        self._failures[key] = record
        while len(self._failures) > ADMIN_MEMORY:
            self._failures.popitem(last=False)
        return lock

    def succeeded(self, address: str) -> None:
        """A right token: forget the address's failures."""
        self._failures.pop(address_key(address), None)
