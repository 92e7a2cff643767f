"""What a table sends: the ``state`` message of each viewer, and events.

A mixin of ``Table`` (it reads the table's fields, declared below, and changes only what each
viewer was shown). Every message is built for one viewer from what that viewer may see.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, NamedTuple

import orjson

from paiju.core.seats import Seat
from paiju.engines.base import Engine, Event
from paiju.table.decisions import Decisions, Waiting
from paiju.table.effects import SPECTATORS, Effect, Send
from paiju.table.match import Match
from paiju.table.phases import FINISHED, PLAYING, Phase
from paiju.table.seats import Seats
from paiju.table.viewers import SORTED, Viewers


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
    #: The room's facts as last shown (``_room_facts``), ``None`` before the first.
    _facts: RoomFacts | None

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
        changes a message once built). ``facts``: the room's facts, as ``_room_facts``."""
        public = self._public_waiting()
        facts = self._room_facts()
        return {
            "totals": facts.totals,
            "seats": facts.seats,
            "public_waiting": public,
            "to_act": sorted(public),
            "deal": facts.deal,
            "unseeded": facts.unseeded,
            "facts": facts,
        }

    def _room_facts(self) -> RoomFacts:
        """The room's facts every viewer is shown, with their text: the same objects (and
        bytes) from one broadcast to the next while none of them changes, which is most
        of the time (an action changes the views, rarely the seats or the totals)."""
        deal = self._deal_common()
        slots = self.seats.slots
        key = (tuple(map(_PUBLIC, slots)), self.match.hand, self.phase, self.preset,
               self.private, self.rematch, self.room_id, self.match.totals,
               deal["commitment"], deal["hand"], deal["scheme"], deal["seed_hand"])
        facts = self._facts
        if facts is None or facts.key != key:
            facts = self._facts = _facts(key, self, deal)
        return facts

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
        show = self.viewers.show
        sends: list[Effect] = []
        for seat in self._listening():
            waiting = self._waiting_of(seat)
            content = self._content(seat, waiting, common)
            send = show(seat, content, waiting, _deadline_ms(waiting, now),
                        _written(content, common))
            if send is not None:
                sends.append(send)
        if self.watched():
            content = self._content(None, None, common)
            send = show(SPECTATORS, content, None, None, _written(content, common))
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


class RoomFacts(NamedTuple):
    """What every viewer's state shows of the room alike (see ``Output._room_facts``), and
    its text as ``Viewers`` writes a content (sorted keys): the deal without a seed, the
    keys from ``hand`` to ``seats`` (then the name ``to_act``), the keys from ``totals`` to
    ``variant`` (then the name ``view``). ``key``: what they were made from."""

    key: tuple[Any, ...]
    seats: list[dict[str, Any]]
    totals: list[int]
    deal: dict[str, Any]
    unseeded: dict[str, Any]
    unseeded_text: bytes
    fixed_text: bytes
    rest_text: bytes


#: A seat's fields that every viewer sees (``SeatSlot.public``): the key of what it shows.
_PUBLIC = attrgetter("kind", "name", "ready", "connected", "trustee", "program")


def _facts(key: tuple[Any, ...], table: Output, deal: dict[str, Any]) -> RoomFacts:
    """The ``RoomFacts`` of ``table`` (``deal``: its ``_deal_common``)."""
    seats = table.seats.public()
    totals = list(table.match.totals)
    unseeded = _seeded(deal, None)
    fixed = orjson.dumps({
        "hand": table.match.hand,
        "phase": table.phase,
        "preset": table.preset,
        "private": table.private,
        "rematch": table.rematch,
        "room": table.room_id,
        "seats": seats,
    }, option=orjson.OPT_SORT_KEYS)
    rest = orjson.dumps({"totals": totals, "type": "state", "variant": table.engine.name},
                        option=orjson.OPT_SORT_KEYS)
    return RoomFacts(key, seats, totals, deal, unseeded,
                     orjson.dumps(unseeded, option=orjson.OPT_SORT_KEYS),
                     b"," + fixed[1:-1] + b',"to_act":', b"," + rest[1:-1] + b',"view":')


def _written(content: dict[str, Any], common: dict[str, Any]) -> bytes:
    """``content`` (of ``_content``) as ``Viewers`` writes a content, key for key (sorted
    keys, see ``viewers._content``), from the text of the room's facts (``RoomFacts``) and
    its own parts: only its view (a kilobyte or two) and what differs from other viewers'
    is written for each viewer, not the seats, the deal and the room's facts again (half
    the writing of an MCR state)."""
    facts: RoomFacts = common["facts"]
    deal = content["deal"]
    to_act = content["to_act"]
    you = content["you"]
    return b"".join((
        b'{"deal":',
        facts.unseeded_text if deal is facts.unseeded
        else orjson.dumps(deal, option=orjson.OPT_SORT_KEYS),
        facts.fixed_text,
        orjson.dumps(to_act),
        facts.rest_text,
        _view_text(content["view"]),
        b',"you":',
        b"null" if you is None else b"%d" % you,
        b"}",
    ))


def _view_text(view: Any) -> bytes:
    """A view as ``viewers._content`` writes it (keys that are not strings the slow way)."""
    try:
        return orjson.dumps(view, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return orjson.dumps(view, option=SORTED)


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
