"""What players ask of rooms: seats, watching, resuming, leaving, acting, the lobby.

Every change to a table runs inside its room's task (``Room.call``) and goes through the
table's commands; this module only reads the table through ``Table.info`` and ``snapshot``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable

import structlog

from paiju.core.errors import GameError
from paiju.persistence.store import Store, async_appender
from paiju.server import protocol as p
from paiju.server.config import ServerConfig
from paiju.server.errors import (
    AlreadyJoined,
    BadToken,
    Draining,
    InvalidMessage,
    RoomClosed,
    RoomPaused,
    RoomsDisabled,
    SpectatorsFull,
)
from paiju.server.lobby import check_name, lobby_message
from paiju.server.rooms import Elsewhere, Room, RoomManager
from paiju.server.sessions import CLOSE_TAKEN_OVER, Session, new_token, token_hash
from paiju.table import commands as c
from paiju.table.effects import Effect
from paiju.table.errors import NotSeated, WrongPhase
from paiju.table.table import CLOSED, FINISHED, WAITING, Table

log = structlog.get_logger("paiju.server")


def session_log(session: Session) -> structlog.typing.FilteringBoundLogger:
    """A logger bound to the session and, once it has one, its room and seat."""
    room = session.room.room_id if session.room is not None else None
    bound: structlog.typing.FilteringBoundLogger = log.bind(
        connection=session.session_id, room=room, seat=session.seat
    )
    return bound


#: The messages of a greeted session that are not a seated player's (``Players.seated``).
NOT_SEATED = (p.Ping, p.LobbyRequest, p.CreateRoom, p.Rematch, p.JoinRoom, p.Resume, p.LeaveRoom)


class Players:
    """The player side of the protocol, after ``hello``."""

    def __init__(self, config: ServerConfig, rooms: RoomManager, store: Store) -> None:
        self.config = config
        self.rooms = rooms
        self.store = store

    def dispatch(self, session: Session, message: p.ClientMessage) -> Awaitable[None]:
        """Carry out one message of a greeted session: what to await for it (``GameError``
        for a refusal, raised by the call or by the await). A seated player's message (most
        of them: acts) awaits its room's future itself, with no coroutine of this layer."""
        if not isinstance(message, NOT_SEATED):
            return self.seated(session, message)
        return self._unseated(session, message)

    async def _unseated(self, session: Session, message: p.ClientMessage) -> None:
        if isinstance(message, p.Ping):
            session.send(p.Pong(type="pong", nonce=message.nonce))
        elif isinstance(message, p.LobbyRequest):
            cluster = self.rooms.cluster
            elsewhere = await cluster.lobby_rows() if cluster is not None else None
            session.send(p.Lobby(**lobby_message(self.rooms, self.config.player_rooms,
                                                 elsewhere)))
        elif isinstance(message, p.CreateRoom):
            await self.create_room(session, message)
        elif isinstance(message, p.Rematch):
            await self.rematch(session)
        elif isinstance(message, p.JoinRoom | p.Resume):
            try:
                if isinstance(message, p.JoinRoom):
                    await self.join(session, message)
                else:
                    await self.resume(session, message)
            except Elsewhere as moved:  # cluster mode: another node serves the room
                session.send(p.Redirect(type="redirect", room=moved.room_id, node=moved.node,
                                        url=moved.url))
        elif isinstance(message, p.LeaveRoom):
            await self.leave(session)

    # ------------------------------------------------------------------ seats

    async def join(self, session: Session, message: p.JoinRoom) -> None:
        _not_in_a_room(session)
        room = await self.rooms.locate(message.room)
        if message.spectate:
            await room.call(lambda table, now: self._watch(room, session, table, now))
            return
        if self.rooms.draining:
            raise Draining("the server is draining for a restart: no new seats")
        await self._take_seat(session, room, message.seat, check_name(message.name))

    def _watch(
        self, room: Room, session: Session, table: Table, now: float
    ) -> tuple[None, list[Effect]]:
        self._check_spectators(room)
        room.spectators.add(session)
        session.room, session.seat = room, None
        session.send(p.Joined(type="joined", room=room.room_id, seat=None, token=None))
        shown = room.spectator_state(now)  # with a spectator delay: the last state let go
        if shown is not None:
            room.audience.deliver(shown, [session])
        return None, []

    def _check_spectators(self, room: Room) -> None:
        """``SpectatorsFull`` when the room, or the server, has all the spectators it takes:
        every spectator costs a send per change, so a swarm must not slow the other tables."""
        per_room, total = self.config.max_spectators_per_room, self.config.max_spectators
        if per_room and len(room.spectators) >= per_room:
            raise SpectatorsFull(
                f"room {room.room_id} has {per_room} spectators, as many as it takes",
                details={"limit": per_room},
            )
        if total and self.rooms.spectator_count() >= total:
            raise SpectatorsFull(
                f"the server has {total} spectators, as many as it takes",
                details={"limit": total},
            )

    async def _take_seat(self, session: Session, room: Room, seat: int | None, name: str) -> None:
        """Seat ``session`` in ``room`` (``seat``, or the first free one) with a new token."""
        token = new_token()
        program = session.program and self.config.show_programs

        async def job(table: Table, now: float) -> tuple[int, list[Effect]]:
            effects = table.handle(None, c.Join(name, seat, program), now)
            taken = table.last_joined
            assert taken is not None
            # Without its token nobody could ever resume the seat: if it cannot be saved the
            # job fails, its effects are dropped and the room rebuilds its table from the
            # store, where the seat was never taken.
            await self._save_token(token, room.room_id, taken)
            self._attach(room, session, taken, token)
            return taken, effects

        await room.call_async(job)

    async def _save_token(self, token: str, room_id: str, seat: int) -> None:
        """Save a seat token's hash (awaited when the store is shared)."""
        shared = async_appender(self.store)
        if shared is not None:
            await shared.save_token_async(token_hash(token), room_id, seat)
        else:
            self.store.save_token(token_hash(token), room_id, seat)

    async def _revoke_tokens(self, room_id: str, seat: int) -> None:
        """Forget a seat's tokens (awaited when the store is shared)."""
        shared = async_appender(self.store)
        if shared is not None:
            await shared.revoke_tokens_async(room_id, seat)
        else:
            self.store.revoke_tokens(room_id, seat)

    def _attach(self, room: Room, session: Session, seat: int, token: str | None) -> None:
        room.members.setdefault(seat, set()).add(session)
        session.room, session.seat = room, seat
        session_log(session).info("seated")
        session.send(p.Joined(type="joined", room=room.room_id, seat=seat, token=token))

    async def resume(self, session: Session, message: p.Resume) -> None:
        _not_in_a_room(session)
        hashed = token_hash(message.token)
        shared = async_appender(self.store)
        held = (await shared.find_token_async(hashed) if shared is not None
                else self.store.find_token(hashed))
        if held is None:
            invited = self.rooms.rooms.get(message.room)
            if invited is not None and hashed in invited.invites:
                await self._accept_invite(session, invited, hashed)
                return
        if held is None or held[0] != message.room:
            raise BadToken("that token holds no seat in this room")
        room = await self.rooms.locate(message.room)
        seat = held[1]

        def job(table: Table, now: float) -> tuple[None, list[Effect]]:
            if not table.info().is_human(seat):
                raise BadToken("that seat is no longer yours")
            _take_over(room, seat)
            self._attach(room, session, seat, message.token)
            # The table answers a reconnection with exactly one full state for the seat.
            return None, table.handle(seat, c.Connected(True), now)

        await room.call(job)

    async def _accept_invite(self, session: Session, room: Room, hashed: str) -> None:
        """An operator's invitation: the person takes the bot's seat for good and gets a
        seat token of its own (the invitation is spent)."""
        token = new_token()

        async def job(table: Table, now: float) -> tuple[None, list[Effect]]:
            seat, name = room.invites.pop(hashed, (None, ""))
            if seat is None:
                raise BadToken("that invitation was already used")
            effects = table.handle(None, c.Claim(seat, name), now)
            await self._save_token(token, room.room_id, seat)
            self._attach(room, session, seat, token)
            return None, effects

        await room.call_async(job)

    async def leave(self, session: Session) -> None:
        """Leave the room. A seat left before the match is freed (its token revoked); one
        left during the match stays the player's, played by the trustee, and their token
        takes it back."""
        room, seat = session.room, session.seat
        if room is None:
            raise NotSeated("this connection is in no room")

        async def job(table: Table, now: float) -> tuple[bool, list[Effect]]:
            playing = seat is not None and table.phase != CLOSED
            freed = playing and table.phase == WAITING
            effects = table.handle(seat, c.Leave(), now) if playing else []
            room.detach(session)
            if seat is not None and freed:
                # Inside the job, so a player who takes the freed seat next cannot lose the
                # token it is given to this revocation.
                await self._revoke_tokens(room.room_id, seat)
            info = table.info()
            nobody = not any(slot.kind == "human" and not slot.away for slot in info.seats)
            return nobody and info.phase != CLOSED, effects

        abandoned = False
        try:
            abandoned = await room.call_async(job)
        except RoomClosed:
            room.detach(session)  # the room's task has ended; its tokens are revoked already
        session.room, session.seat = None, None
        session.send(p.Left(type="left", room=room.room_id))
        if abandoned and room.made_by_player:
            # A room a player opened ends when its last player leaves: bots alone would
            # otherwise play on (or wait) for nobody.
            with contextlib.suppress(GameError):
                await self.rooms.close(room.room_id, "every player left")

    def seated(self, session: Session, message: p.ClientMessage) -> asyncio.Future[None]:
        """Queue a seated player's message for its room: the future of the room's answer (a
        function, not a coroutine: one less made and resumed per frame; see ``Room.call``).
        Raises ``NotSeated`` or ``Draining`` at once."""
        room, seat = session.room, session.seat
        if room is None or seat is None:
            raise NotSeated("join or resume a seat first")
        command = _command(message)
        if self.rooms.draining and isinstance(command, c.Ready | c.AddBot) and (
            not isinstance(command, c.Ready) or command.ready
        ):
            raise Draining("the server is draining for a restart: no new matches start")

        def job(table: Table, now: float) -> tuple[None, list[Effect]]:
            if session.room is not room or session.seat != seat:
                # Queued before another connection took the seat over.
                raise NotSeated("this connection no longer holds the seat")
            if room.paused and isinstance(command, c.Act):
                raise RoomPaused("an operator paused the room; act again once it resumes")
            return None, table.handle(seat, command, now)

        arrived = session.arrived_at if isinstance(command, c.Act) else None
        return room.call(job, arrived)

    async def disconnected(self, session: Session) -> None:
        """The connection is gone: stop sending to it; its seat shows as disconnected."""
        room, seat = session.room, session.seat
        if room is None or room.room_id not in self.rooms.rooms:
            return

        def job(table: Table, now: float) -> tuple[None, list[Effect]]:
            room.detach(session)
            if seat is None or room.members.get(seat) or not table.info().is_human(seat):
                return None, []
            return None, table.handle(seat, c.Connected(False), now)

        with contextlib.suppress(GameError):
            await room.call(job)

    # ------------------------------------------------------------------ rooms players make

    async def create_room(self, session: Session, message: p.CreateRoom) -> None:
        """A player opens a room from a preset and takes seat 0."""
        if not self.config.player_rooms:
            raise RoomsDisabled("the operator does not let players open rooms on this server")
        _not_in_a_room(session)
        name = check_name(message.name)
        room = self.rooms.create(
            preset=message.preset,
            options=dict(message.options),
            bots=message.bots,
            bot_level=message.bot_level,
            private=message.private,
            by_player=True,
        )
        session_log(session).info("room_created_by_player", created=room.room_id)
        await self._take_seat(session, room, 0, name)

    async def rematch(self, session: Session) -> None:
        """Move a seated player of a finished match to its rematch, in the same seat."""
        old, seat = session.room, session.seat
        if old is None or seat is None:
            raise NotSeated("a rematch is for a seated player of a finished match")

        def job(table: Table, now: float) -> tuple[tuple[Room, str], list[Effect]]:
            info = table.info()
            if info.phase != FINISHED:
                raise WrongPhase(f"the match is not over (the room is {info.phase})")
            name = info.seats[seat].name
            if info.rematch is not None:
                return (self.rooms.get(info.rematch), name), []
            new = self.rooms.create(
                info.variant,
                preset=info.preset,
                options=dict(info.options),
                private=info.private,
                bot_seats={s: slot.bot_level for s, slot in enumerate(info.seats)
                           if slot.kind == "bot"},
            )
            return (new, name), table.handle(None, c.OfferRematch(new.room_id), now)

        def leave_old(table: Table, now: float) -> tuple[None, list[Effect]]:
            old.detach(session)
            return None, []

        new_room, name = await old.call(job)
        await old.call(leave_old)
        session.room, session.seat = None, None
        await self._take_seat(session, new_room, seat, name)


def _command(message: p.ClientMessage) -> c.Command:
    """The table command a seated player's message asks for."""
    if isinstance(message, p.Act):
        return c.Act(message.version, message.action)
    if isinstance(message, p.SetReady):
        return c.Ready(message.ready)
    if isinstance(message, p.AddBot):
        return c.AddBot(message.seat, message.level)
    if isinstance(message, p.RemoveBot):
        return c.RemoveBot(message.seat)
    if isinstance(message, p.SendSeed):
        return c.SendSeed(message.hand, message.seed)
    if isinstance(message, p.TakeBack):
        return c.TakeBack()
    raise InvalidMessage(f"unexpected message type {message.type!r}")


def _take_over(room: Room, seat: int) -> None:
    """One connection per seat: whoever holds ``seat`` now is told and closed (4001)."""
    for old in list(room.members.get(seat, ())):
        room.detach(old)
        if isinstance(old, Session):
            old.room, old.seat = None, None
            old.send(p.TakenOver(type="taken_over", room=room.room_id, seat=seat))
            old.close_after_queued(CLOSE_TAKEN_OVER, TAKEN_OVER)
            session_log(old).info("seat_taken_over", room=room.room_id, seat=seat)


TAKEN_OVER = "seat taken over by another connection"


def _not_in_a_room(session: Session) -> None:
    if session.room is not None:
        raise AlreadyJoined(f"this connection is already in room {session.room.room_id}")
