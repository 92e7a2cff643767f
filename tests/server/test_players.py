"""How a greeted session's messages are routed: a seated player's go to its room, the others
(``NOT_SEATED``) are carried out on the connection's side."""

from __future__ import annotations

import typing

from paiju.server import protocol as p
from paiju.server.players import NOT_SEATED, _command


def client_message_types() -> set[type]:
    union = typing.get_args(p.ClientMessage)[0]
    return set(typing.get_args(union))


def test_every_client_message_is_hello_unseated_or_a_seated_player_s_command() -> None:
    """A message type that is neither ``hello`` nor in ``NOT_SEATED`` goes to the room as a
    seated player's command, so it must be one ``_command`` knows (a new type is routed on
    purpose, not by falling through)."""
    seated = client_message_types() - {p.Hello, *NOT_SEATED}
    assert set(NOT_SEATED) <= client_message_types()
    assert seated == {p.Act, p.SetReady, p.AddBot, p.RemoveBot, p.SendSeed, p.TakeBack}
    examples = [
        p.Act(type="act", version=3, action="x"),
        p.SetReady(type="ready"),
        p.AddBot(type="add_bot", seat=1),
        p.RemoveBot(type="remove_bot", seat=1),
        p.SendSeed(type="seed", hand=1, seed="ab" * 32),
        p.TakeBack(type="take_back"),
    ]
    assert {type(m) for m in examples} == seated
    for message in examples:
        assert _command(message) is not None
