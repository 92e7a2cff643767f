"""A ``Send`` is immutable, and its repr leaves out the frame that repeats its message."""

from __future__ import annotations

import pytest

from paiju.table.effects import SPECTATORS, Send


def test_a_send_cannot_be_changed_and_reads_without_its_frame() -> None:
    send = Send(SPECTATORS, {"type": "pong"}, b'{"type":"pong"}')
    with pytest.raises(AttributeError):
        send.frame = None  # type: ignore[misc]
    assert (send.to, send.message, send.frame) == (-1, {"type": "pong"}, b'{"type":"pong"}')
    assert Send(0, {}).frame is None
    assert repr(send) == "Send(to=-1, message={'type': 'pong'})"
