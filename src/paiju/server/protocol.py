"""The wire protocol: pydantic v2 models, a discriminated union on ``type`` in each direction.

Every frame is one JSON object. Clients open with ``hello`` naming ``protocol_version``; the
server answers ``welcome``. Engine views travel inside ``state`` messages as JSON objects whose
fields each variant documents (docs/rules/<variant>.md); everything else is fixed here, and
``paiju schema`` prints the JSON Schema of both directions.
"""

from __future__ import annotations

import types
import typing
from enum import StrEnum
from functools import cache
from typing import Annotated, Any, Literal, Union, get_args, get_origin, is_typeddict

import typing_extensions
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter

from paiju.engines.registry import get_variant, variants
from paiju.table.table import Phase

#: The protocol version this server speaks. A client naming another one is refused with
#: ``unsupported_version``; additive changes (new optional fields, new message types the
#: client may ignore) keep the number, anything else increases it.
PROTOCOL_VERSION = 1

#: A player's name as sent; the server checks it further (length after trimming, no control
#: or bidirectional-override characters) and refuses it with ``invalid_name``.
Name = Annotated[str, Field(min_length=1, max_length=200)]
RoomId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ErrorCode(StrEnum):
    """Every error code of the protocol itself (docs/protocol.md lists each with its meaning).

    Variants add rule-naming codes of their own (``must_follow_pair``, ...), declared by each
    variant and listed in docs/rules/<variant>.md; on the wire they are ``RuleCode``s."""

    MALFORMED_JSON = "malformed_json"
    INVALID_MESSAGE = "invalid_message"
    UNSUPPORTED_VERSION = "unsupported_version"
    HELLO_REQUIRED = "hello_required"
    RATE_LIMITED = "rate_limited"
    UNKNOWN_ROOM = "unknown_room"
    BAD_TOKEN = "bad_token"
    ALREADY_JOINED = "already_joined"
    NOT_SEATED = "not_seated"
    ROOM_FULL = "room_full"
    SEAT_TAKEN = "seat_taken"
    WRONG_PHASE = "wrong_phase"
    STALE_VERSION = "stale_version"
    ALREADY_ANSWERED = "already_answered"
    NOT_YOUR_TURN = "not_your_turn"
    MALFORMED_ACTION = "malformed_action"
    ILLEGAL_ACTION = "illegal_action"
    GAME_OVER = "game_over"
    INVALID_OPTIONS = "invalid_options"
    UNKNOWN_VARIANT = "unknown_variant"
    VARIANT_UNAVAILABLE = "variant_unavailable"
    NOT_PROVIDED = "not_provided"
    INVALID_NAME = "invalid_name"
    ROOMS_DISABLED = "rooms_disabled"
    UNKNOWN_PRESET = "unknown_preset"
    SPECTATORS_FULL = "spectators_full"
    DRAINING = "draining"
    ROOM_PAUSED = "room_paused"
    UNKNOWN_CONNECTION = "unknown_connection"
    SEED_REFUSED = "seed_refused"
    NOT_A_PERSON = "not_a_person"
    STORAGE_FAILED = "storage_failed"
    INTERNAL_ERROR = "internal_error"


#: A variant's own rule-naming code (an ``illegal_action`` that says which rule).
RuleCode = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{1,47}$")]


# ---------------------------------------------------------------- client -> server


class Hello(_Message):
    """The first message of every connection."""

    type: Literal["hello"]
    protocol_version: int
    client: str = Field(default="", max_length=80)
    #: This client is a program playing (the bot bridge): its seats show ``program``.
    bot: bool = False


class JoinRoom(_Message):
    """Take a seat in a room (the given one or the first free one), or watch it."""

    type: Literal["join"]
    room: RoomId
    name: Name = "player"
    seat: int | None = Field(default=None, ge=0, le=15)
    spectate: bool = False


class Resume(_Message):
    """Take a seat back with the token handed out on ``join`` (after a disconnect)."""

    type: Literal["resume"]
    room: RoomId
    token: str = Field(min_length=8, max_length=200)


class SetReady(_Message):
    """Ready (or not) to start; the match starts when every seat is taken and ready."""

    type: Literal["ready"]
    ready: bool = True


class Act(_Message):
    """Play an action (the variant's notation) against the version of the last state seen."""

    type: Literal["act"]
    version: int = Field(ge=0)
    action: str = Field(min_length=1, max_length=400)


class LeaveRoom(_Message):
    """Leave the room: before the match the seat is freed; during it the seat stays yours,
    played by the trustee until you resume with your token. A spectator stops watching."""

    type: Literal["leave"]


class Ping(_Message):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]
    nonce: int | str | None = None


class LobbyRequest(_Message):
    """Ask for the lobby: the presets players may open rooms from, and the public rooms."""

    type: Literal["lobby"]


class CreateRoom(_Message):
    """Open a room from a preset and take seat 0; bots take the last ``bots`` seats."""

    type: Literal["create_room"]
    preset: str = Field(min_length=1, max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    bots: int = Field(default=0, ge=0, le=15)
    bot_level: int = 1  # the variant names its levels (invalid_options otherwise)
    private: bool = False
    name: Name = "player"


class AddBot(_Message):
    """Put a bot in an empty seat of a waiting room (any seated player)."""

    type: Literal["add_bot"]
    seat: int = Field(ge=0, le=15)
    level: int = 1  # the variant names its levels (invalid_options otherwise)


class RemoveBot(_Message):
    """Take the bot out of a seat of a waiting room (any seated player)."""

    type: Literal["remove_bot"]
    seat: int = Field(ge=0, le=15)


class Rematch(_Message):
    """After a finished match: move to its rematch room, in the same seat (the first
    request makes the room)."""

    type: Literal["rematch"]


class SendSeed(_Message):
    """Your client seed for hand ``hand`` (fair deals, docs/fairness.md): any time before
    that hand is dealt, once; ``state.deal.seed_hand`` says which hand takes seeds now."""

    type: Literal["seed"]
    hand: int = Field(ge=0)
    seed: str = Field(min_length=1, max_length=128)


class TakeBack(_Message):
    """Take your seat back from the trustee (托管)."""

    type: Literal["take_back"]


ClientMessage = Annotated[
    Hello
    | JoinRoom
    | Resume
    | SetReady
    | Act
    | LeaveRoom
    | Ping
    | LobbyRequest
    | CreateRoom
    | AddBot
    | RemoveBot
    | Rematch
    | SendSeed
    | TakeBack,
    Field(discriminator="type"),
]
CLIENT_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


# ---------------------------------------------------------------- server -> client


class Welcome(_Message):
    """Answer to ``hello``."""

    type: Literal["welcome"]
    protocol_version: int
    server: str
    variants: list[str]
    player_rooms: bool = True
    history_key: str | None = None


class Joined(_Message):
    """You hold ``seat`` of ``room`` (``None`` when watching). Keep ``token`` to resume."""

    type: Literal["joined"]
    room: str
    seat: int | None
    token: str | None


class SeatInfo(_Message):
    """A seat as everyone sees it. ``trustee``: the variant's bot plays this person's seat
    for them (after timeouts, while they are away, or on the operator's word)."""

    seat: int
    kind: Literal["empty", "human", "bot"]
    name: str
    ready: bool
    connected: bool
    trustee: bool = False
    #: The seat's player declared a program plays it (``hello.bot``); older servers omit it.
    program: bool = False


class DealInfo(_Message):
    """The room's fair-deal facts (docs/fairness.md): its deal ``scheme``; ``hand``, the hand
    on the table (between hands: the next one), with ``commitment``, the SHA-256 of its
    secret seed (``null`` for ``seeded-v0`` rooms or when no hand is left); ``seed_hand``, the
    hand whose client seeds are taken now (``null``: none); ``seed``, yours for it."""

    scheme: str
    hand: int | None
    commitment: str | None
    seed_hand: int | None
    seed: str | None


class State(_Message):
    """The room as this connection may see it; sent after every change."""

    type: Literal["state"]
    room: str
    variant: str
    version: int
    phase: Phase
    hand: int
    totals: list[int]
    seats: list[SeatInfo]
    you: int | None
    to_act: list[int]
    decision_version: int | None
    deadline_ms: int | None
    view: dict[str, Any] | None
    preset: str | None = None
    private: bool = False
    rematch: str | None = None
    deal: DealInfo | None = None


class EventBody(_Message):
    """One thing that happened (``kind`` and its data, per variant)."""

    kind: str
    data: dict[str, Any]


class GameEvent(_Message):
    """Something happened that this connection may see."""

    type: Literal["event"]
    room: str
    version: int
    event: EventBody


class Error(_Message):
    """A refusal: ``code`` is stable (see docs/protocol.md), ``message`` is for people."""

    type: Literal["error"]
    code: ErrorCode | RuleCode
    message: str
    details: dict[str, Any] = Field(default_factory=dict)


class Pong(_Message):
    """Answer to ``ping``."""

    type: Literal["pong"]
    nonce: int | str | None = None


class Left(_Message):
    """You left the room."""

    type: Literal["left"]
    room: str


class Preset(_Message):
    """A room preset players may open rooms from."""

    name: str
    variant: str
    title: str
    seats: int
    options: dict[str, Any]
    timers: dict[str, float]
    choices: dict[str, list[Any]]


class RoomRow(_Message):
    """A public room as the lobby lists it."""

    room: str
    variant: str
    preset: str | None
    phase: Phase
    hand: int
    seats: list[SeatInfo]
    free: list[int]
    spectators: int


class Lobby(_Message):
    """Answer to ``lobby``: presets and the live public rooms, newest first."""

    type: Literal["lobby"]
    player_rooms: bool
    presets: list[Preset]
    rooms: list[RoomRow]


class TakenOver(_Message):
    """Another connection resumed your seat (one connection per seat). Your connection is
    closed next, with code 4001; do not reconnect on your own, or the two would take the seat
    from each other in turn."""

    type: Literal["taken_over"]
    room: str
    seat: int


class Notice(_Message):
    """A message from the operator, to one room (``room``) or to everyone (``room`` is
    ``None``). ``kind`` is ``operator`` for a text an operator wrote, ``draining`` when the
    server is about to restart: hands in progress finish, nothing new starts."""

    type: Literal["notice"]
    room: str | None
    kind: Literal["operator", "draining"]
    text: str


class RoomPaused(_Message):
    """An operator paused (``paused``) or resumed the room. While paused nothing happens:
    no deadline runs out, bots wait, actions are refused with ``room_paused``; on resume
    every deadline is later by the pause, and each seat is sent its state again."""

    type: Literal["room_paused"]
    room: str
    paused: bool
    reason: str = ""


class Redirect(_Message):
    """Cluster mode (docs/cluster.md): the room is served by another node of the cluster.
    Answers a ``join`` or ``resume`` of a room owned elsewhere, and is sent to every member
    of a room that moves off this node (its node drains, or lost the room's lease); the
    connection is no longer in the room. Open a connection to ``url`` (when empty, to the
    address you used, after a short wait: the room is between owners) and send the same
    ``join`` (``resume`` with your token, which stays valid) again. ``node`` names the owner
    (empty when not known)."""

    type: Literal["redirect"]
    room: str
    url: str = ""
    node: str = ""


ServerMessage = Annotated[
    Welcome
    | Joined
    | State
    | GameEvent
    | Error
    | Pong
    | Left
    | Lobby
    | TakenOver
    | Notice
    | RoomPaused
    | Redirect,
    Field(discriminator="type"),
]
SERVER_ADAPTER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


# ---------------------------------------------------------------- operator (admin channel)


AdminCommand = Literal[
    "create", "list", "show", "close", "start", "pause", "resume", "notice", "invite",
    "connections", "kick", "watch", "drain", "trustee",
]


class AdminRequest(_Message):
    """An operator command on the authenticated admin channel (path ``/admin``);
    docs/protocol.md says which fields each command reads."""

    type: Literal["admin"]
    command: AdminCommand
    room: str | None = None
    on: bool = True  # trustee: in (true) or out (false)
    variant: str | None = None
    preset: str | None = Field(default=None, max_length=64)
    seats: int | None = Field(default=None, ge=1, le=16)
    bots: int = Field(default=0, ge=0, le=16)
    bot_level: int = 1  # the variant names its levels (invalid_options otherwise)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: str | None = Field(default=None, max_length=200)
    seat: int | None = Field(default=None, ge=0, le=15)
    name: str | None = Field(default=None, max_length=200)
    connection: str | None = Field(default=None, max_length=64)
    text: str | None = Field(default=None, max_length=500)
    spectator_delay: float | None = Field(default=None, ge=0)
    spectator_delay_actions: int | None = Field(default=None, ge=0)


class AdminResult(_Message):
    """The answer to an admin command."""

    type: Literal["admin_result"]
    ok: bool
    result: dict[str, Any] | list[dict[str, Any]] | None = None
    code: ErrorCode | RuleCode | None = None
    message: str | None = None


def schema() -> dict[str, Any]:
    """The JSON Schema of the protocol, both directions and the admin channel, and per
    registered variant the ``view`` inside ``state`` messages, the ``data`` of each event kind
    and the variant's own error codes."""
    return {
        "title": "paiju protocol",
        "protocol_version": PROTOCOL_VERSION,
        "client_to_server": CLIENT_ADAPTER.json_schema(),
        "server_to_client": SERVER_ADAPTER.json_schema(),
        "admin_request": AdminRequest.model_json_schema(),
        "admin_result": AdminResult.model_json_schema(),
        "variants": {name: variant_schema(name) for name in variants()},
    }


def variant_schema(name: str) -> dict[str, Any]:
    """The view, event and error-code schema of one variant (its declared ``TypedDict``s)."""
    variant = get_variant(name)
    return {
        "view": TypeAdapter(_portable(variant.view)).json_schema(),
        "events": {
            kind: TypeAdapter(_portable(data)).json_schema()
            for kind, data in sorted(variant.events.items())
        },
        "error_codes": dict(sorted(variant.error_codes.items())),
    }


@cache
def _portable(declared: Any) -> Any:
    """``declared`` with every ``typing.TypedDict`` rebuilt as a ``typing_extensions`` one:
    engines use the standard library's, which pydantic reads only from Python 3.12 on."""
    if is_typeddict(declared):
        hints = typing.get_type_hints(declared)
        fields = {
            key: _portable(hint)
            if key in declared.__required_keys__
            else typing_extensions.NotRequired[_portable(hint)]
            for key, hint in hints.items()
        }
        rebuilt: Any = typing_extensions.TypedDict(declared.__name__, fields)  # type: ignore[misc]
        rebuilt.__doc__ = declared.__doc__
        return rebuilt
    origin = get_origin(declared)
    if origin in (Union, types.UnionType):
        return Union[tuple(_portable(a) for a in get_args(declared))]  # noqa: UP007
    if origin in (list, dict):
        return origin[tuple(_portable(a) for a in get_args(declared))]
    return declared
