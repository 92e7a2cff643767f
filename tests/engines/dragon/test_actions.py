"""Dragon notation: canonical text, round trips, malformed input."""

from __future__ import annotations

import pytest

from paiju.core.errors import MalformedAction
from paiju.engines.dragon.actions import Arrange, DeclareBust, format_action, parse_action


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        # the leftover is listed in tile order (杂九 45 before 36)
        ("chain 46 61 15 51 16 64 | 36 45", "chain 46 61 15 51 16 64 | 45 36"),
        # the reverse of a chain is the same arrangement
        ("chain 46 61 15 51 16 64 | 45 36", "chain 46 61 15 51 16 64 | 45 36"),
        ("chain 46 61 15 51 16 64 | 36 45", "chain 46 61 15 51 16 64 | 45 36"),
        ("chain 64 41 12 23 34 42 | 26 35", "chain 24 43 32 21 14 46 | 35 26"),
        ("  chain 11 11 13 33 36 66 61  |  63 ", "chain 11 11 13 33 36 66 61 | 36"),
        ("bust", "bust"),
    ],
)
def test_canonical_text(text: str, canonical: str) -> None:
    action = parse_action(text)
    assert format_action(action) == canonical
    assert parse_action(canonical) == action


def test_reverse_and_leftover_order_do_not_matter() -> None:
    a = parse_action("chain 12 24 | 66 11")
    b = parse_action("chain 42 21 | 11 66")
    assert a == b
    assert Arrange(((1, 2), (2, 4)), (0, 1)) == a
    assert isinstance(parse_action("bust"), DeclareBust)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "lay 12 | 11",
        "chain 12 24 11 66",
        "chain 12 | 11 | 22",
        "chain 17 | 11",
        "chain 12 | 1",
        "chain 12 | 666",
        "bust now",
        "chain 1-2 | 11",
    ],
)
def test_malformed(text: str) -> None:
    with pytest.raises(MalformedAction):
        parse_action(text)
