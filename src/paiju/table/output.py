"""What a table sends: the ``state`` message of each viewer, and events.

A mixin of ``Table`` (it reads the table's fields, declared below, and changes only what each
viewer was shown). Every message is built for one viewer from what that viewer may see.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from paiju.core.seats import Seat
from paiju.engines.base import Engine, Event
from paiju.table.decisions import Decisions, Waiting
from paiju.table.effects import SPECTATORS, Effect, Send
from paiju.table.match import Match
from paiju.table.phases import FINISHED, PLAYING, Phase
from paiju.table.seats import Seats
from paiju.table.viewers import Viewers


class Output:
    """The messages of a table (see the module docstring)."""

    room_id: str
    engine: Engine[Any, Any]
    phase: Phase
    match: Match
    state: Any
    seats: Seats
    decisions: Decisions
    viewers: Viewers
    preset: str | None
    private: bool
    rematch: str | None
    seed_hand: Callable[[], int]  # from ``Keeping``: the hand whose client seeds are taken
    #: Whether anyone receives the spectators' messages (the host says; by default always).
    watched: Callable[[], bool]

    def shown_version(self, target: Seat) -> int:
        """The version of the last state sent to ``target`` (a seat, or ``SPECTATORS``)."""
        return self.viewers.shown_version(target)

    def snapshot(self, seat: Seat | None, now: float) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (``None``: a spectator): only what it may see."""
        waiting = self._waiting_of(seat)
        message = self._content(seat, waiting, self._common())
        message["version"] = self.shown_version(SPECTATORS if seat is None else seat)
        message["deadline_ms"] = _deadline_ms(waiting, now)
        message["decision_version"] = waiting.shown_from if waiting is not None else None
        return message

    def _common(self) -> dict[str, Any]:
        """What every viewer's state holds alike, worked out once per broadcast (the lists
        and the deal without a seed are then shared by the viewers' messages: nothing
        changes a message once built)."""
        public = self._public_waiting()
        deal = self._deal_common()
        return {
            "totals": list(self.match.totals),
            "seats": self.seats.public(),
            "public_waiting": public,
            "to_act": sorted(public),
            "deal": deal,
            "unseeded": _seeded(deal, None),
        }

    def _waiting_of(self, seat: Seat | None) -> Waiting | None:
        """The decision ``seat`` is asked for (``None``: none, or a spectator)."""
        return self.decisions.waiting.get(seat) if seat is not None else None

    def _content(self, seat: Seat | None, waiting: Waiting | None,
                 common: dict[str, Any]) -> dict[str, Any]:
        """The ``state`` for ``seat`` without its counters (``COUNTERS``, which
        ``Viewers.show`` or ``snapshot`` add): what the viewer's digest is of."""
        to_act = common["to_act"]
        if waiting is not None and seat not in common["public_waiting"]:
            to_act = sorted(common["public_waiting"] | {seat})  # a seat knows it is asked
        return {  # (keys in sorted order, as they are written: see ``_seeded``)
            "deal": self._deal_for(seat, common),
            "hand": self.match.hand,
            "phase": self.phase,
            "preset": self.preset,
            "private": self.private,
            "rematch": self.rematch,
            "room": self.room_id,
            "seats": common["seats"],
            "to_act": to_act,
            "totals": common["totals"],
            "type": "state",
            "variant": self.engine.name,
            "view": self.engine.view(self.state, seat) if self.state is not None else None,
            "you": seat,
        }

    def _deal_common(self) -> dict[str, Any]:
        """The fair-deal facts of the room: the scheme; the hand on the table (or the next
        one, between hands) with its seed's commitment; the hand whose client seeds are taken
        now (``None`` when none is). The same for every viewer: worked out once per
        broadcast (the commitment is two hashes)."""
        match = self.match
        playing = self.phase == PLAYING
        hand = match.hand if playing or self.state is None else match.hand + 1
        over = self.phase == FINISHED or (not playing and match.ends_before(hand))
        return {
            "commitment": None if over else match.commitment(hand),
            "hand": None if over else hand,
            "scheme": match.scheme,
            "seed_hand": None if over or not match.fair else self.seed_hand(),
        }

    def _deal_for(self, seat: Seat | None, common: dict[str, Any]) -> dict[str, Any]:
        """The deal facts ``seat`` is shown: the room's (``common["deal"]``) and the seat's
        own client seed for the hand whose seeds are taken; without one, the deal every
        such viewer shares (``common["unseeded"]``)."""
        own = None
        if seat is not None and common["deal"]["seed_hand"] is not None:
            own = self.match.client_seeds.get(seat)
        return common["unseeded"] if own is None else _seeded(common["deal"], own)

    def _public_waiting(self) -> set[Seat]:
        """The waiting seats every viewer may know about.

        In a claim window, *who* is asked reveals who can claim the tile, so the engine's
        ``public_to_act`` narrows what is public; a seat always knows that it is itself asked.
        """
        waiting = self.decisions.waiting.keys()
        if self.state is None:
            return set(waiting)
        return waiting & self.engine.public_to_act(self.state)  # (a new set)

    def _broadcast_states(self, now: float) -> list[Effect]:
        """A state message for every viewer whose state changed in anything but the version
        (see ``Viewers.show``).

        Only viewers who can receive it are built one: the people connected to their
        seats, and the spectators while ``watched()``. A seat that was not sent a state
        keeps its version and the content it was last shown, so when it is back the change
        shows and its version moves on by one."""
        common = self._common()
        sends: list[Effect] = []
        for seat in self._listening():
            waiting = self._waiting_of(seat)
            send = self.viewers.show(seat, self._content(seat, waiting, common), waiting,
                                     _deadline_ms(waiting, now))
            if send is not None:
                sends.append(send)
        if self.watched():
            send = self.viewers.show(SPECTATORS, self._content(None, None, common), None)
            if send is not None:
                sends.append(send)
        return sends

    def _listening(self) -> list[Seat]:
        """The people's seats that messages can reach: those connected."""
        return [s for s, slot in enumerate(self.seats.slots)
                if slot.kind == "human" and slot.connected]

    def _send_events(self, events: tuple[Event, ...]) -> list[Effect]:
        """An ``event`` message to every viewer that may see each event, in the order of the
        events (for each: the seats, then the spectators).

        Each event's JSON is written once and put in every viewer's frame after that
        viewer's own beginning (its version, written once per viewer for all the events):
        only the version differs. The frame is the message as orjson writes it, key for key."""
        if not events:
            return []
        targets: list[Seat | None] = [*self._listening()]
        if self.watched():
            targets.append(None)
        if not targets:
            return []
        room = self.room_id
        head = b'{"type":"event","room":%b,"version":' % orjson.dumps(room)
        shown = self.viewers.shown_version
        viewers = []
        for seat in targets:
            target = SPECTATORS if seat is None else seat
            version = shown(target)
            viewers.append((seat, target, version, b"%b%d" % (head, version)))
        sends: list[Effect] = []
        for event in events:
            message = {"kind": event.kind, "data": dict(event.data)}
            tail = b',"event":%b}' % orjson.dumps(message)
            audience = event.audience
            for seat, target, version, begun in viewers:
                if audience is None or (seat is not None and seat in audience):
                    sends.append(Send(target, {"type": "event", "room": room, "version": version,
                                               "event": message}, begun + tail))
        return sends


def _seeded(deal: dict[str, Any], seed: str | None) -> dict[str, Any]:
    """``deal`` (of ``_deal_common``) with a viewer's client ``seed``.

    Its keys in sorted order, as every dict of a state is built where it can be: a state is
    written with sorted keys (``Viewers``), which costs a fifth less for dicts already in
    order."""
    return {"commitment": deal["commitment"], "hand": deal["hand"], "scheme": deal["scheme"],
            "seed": seed, "seed_hand": deal["seed_hand"]}


def _deadline_ms(waiting: Waiting | None, now: float) -> int | None:
    """The milliseconds left of ``waiting``'s countdown at ``now`` (``None``: no countdown)."""
    if waiting is None or waiting.deadline is None:
        return None
    return max(0, round((waiting.deadline - now) * 1000))
