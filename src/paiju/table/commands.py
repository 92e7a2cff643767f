"""What a seat (or the operator) asks of a table. The server turns protocol messages into these."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Join:
    """Take a seat: the requested one, or the first empty seat."""

    name: str
    seat: int | None = None
    #: The player's client said it is a program (``hello.bot``) and the operator shows that.
    program: bool = False


@dataclass(frozen=True)
class Leave:
    """Give the seat up. Before the match the seat is freed; during it the seat stays the
    person's, in trustee mode (a bot plays it) until they come back with their token."""


@dataclass(frozen=True)
class Ready:
    """Say the seat is (or is no longer) ready to start."""

    ready: bool = True


@dataclass(frozen=True)
class Connected:
    """The seat's player connected or lost the connection (shown to the other seats)."""

    connected: bool


@dataclass(frozen=True)
class Act:
    """Play ``action`` (the variant's notation) against table version ``version``."""

    version: int
    action: str


@dataclass(frozen=True)
class Start:
    """Operator: start now, filling empty seats with bots of ``bot_level``."""

    bot_level: int = 1


@dataclass(frozen=True)
class Close:
    """Operator: end the room for good."""

    reason: str = "closed by the operator"


@dataclass(frozen=True)
class AddBot:
    """A seated player (or the operator) puts a bot of ``level`` in an empty seat while the
    room waits for players."""

    seat: int
    level: int = 1


@dataclass(frozen=True)
class RemoveBot:
    """A seated player (or the operator) takes the bot out of ``seat`` while the room waits."""

    seat: int


@dataclass(frozen=True)
class Claim:
    """A person takes over the bot's ``seat`` for good (an operator invited them), in any
    phase but a closed room; mid-match the seat's decision gets a person's deadline."""

    seat: int
    name: str


@dataclass(frozen=True)
class OfferRematch:
    """The match is over and ``room`` is its rematch; every viewer is told."""

    room: str


@dataclass(frozen=True)
class SendSeed:
    """The seat's client seed for hand ``hand`` (fair deals), before that hand is dealt."""

    hand: int
    seed: str


@dataclass(frozen=True)
class TakeBack:
    """The person takes their seat back from the trustee."""


@dataclass(frozen=True)
class SetTrustee:
    """Operator: put a person's ``seat`` in trustee mode (``on``) or take it out."""

    seat: int
    on: bool


Command = (
    Join
    | Leave
    | Ready
    | Connected
    | Act
    | Start
    | Close
    | AddBot
    | RemoveBot
    | OfferRematch
    | Claim
    | SendSeed
    | TakeBack
    | SetTrustee
)
