"""Plain HTTP requests to a server that runs on the test's own event loop (in a thread, so
the loop keeps serving), and the metrics they read."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families


def _get(url: str, token: str | None) -> tuple[int, str]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


async def get(url: str, token: str | None = None) -> tuple[int, str]:
    """The status and body of a GET of ``url``."""
    return await asyncio.to_thread(_get, url, token)


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a Prometheus exposition, keyed by name and sorted labels."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return found


def value(found: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str,
          **labels: str) -> float:
    """One sample's value (0 when the series has none yet)."""
    return found.get((name, tuple(sorted(labels.items()))), 0.0)
