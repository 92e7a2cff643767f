"""Who sits at a table, and what the host may read of a room."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from paiju.core.seats import Seat
from paiju.table.phases import Phase


class SeatBot(Protocol):
    """What the table needs of a bot: an action for the view it is shown."""

    def choose(self, view: Mapping[str, Any]) -> str: ...


#: Makes the bot of ``level`` for a seat (``ValueError`` for a level the variant lacks).
BotFactory = Callable[[Seat, int], SeatBot]

#: The bot level that plays a person's seat in trustee mode.
TRUSTEE_LEVEL = 1


@dataclass(slots=True)  # one per seat of every room in memory
class SeatSlot:
    """Who sits in a seat. A person's seat may be in trustee mode (托管): the variant's bot
    plays it for them (after ``timeouts`` consecutive timeouts, while they are away, or on
    an operator's word) until they take it back. ``away``: the person left the match (the
    seat stays theirs; their token takes it back)."""

    kind: str = "empty"  # "empty", "human" or "bot"
    name: str = ""
    bot_level: int = 1
    ready: bool = False
    connected: bool = False
    trustee: bool = False
    timeouts: int = 0
    away: bool = False
    #: A person's seat played by a program they run (the bot bridge), as its client declared.
    program: bool = False

    def public(self, seat: Seat) -> dict[str, Any]:
        """The seat as every client sees it."""
        return {
            "seat": seat,
            "kind": self.kind,
            "name": self.name,
            "ready": self.ready,
            "connected": self.connected,
            "trustee": self.trustee,
            "program": self.program,
        }

    def stored(self, seat: Seat) -> dict[str, Any]:
        """The seat as the store keeps it."""
        return self.public(seat) | {
            "bot_level": self.bot_level, "timeouts": self.timeouts, "away": self.away
        }

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> SeatSlot:
        """A seat from its stored form (older forms lack the trustee fields)."""
        return cls(
            kind=str(data.get("kind", "empty")),
            name=str(data.get("name", "")),
            bot_level=int(data.get("bot_level", 1)),
            ready=bool(data.get("ready", False)),
            connected=bool(data.get("connected", False)),
            trustee=bool(data.get("trustee", False)),
            timeouts=int(data.get("timeouts", 0)),
            away=bool(data.get("away", False)),
            program=bool(data.get("program", False)),
        )


@dataclass(frozen=True)
class RoomInfo:
    """What the host may read of a table (copies: changing them changes nothing)."""

    room_id: str
    variant: str
    phase: Phase
    hand: int
    seats: tuple[SeatSlot, ...]
    options: Mapping[str, Any]
    preset: str | None
    private: bool
    rematch: str | None

    def public_seats(self) -> list[dict[str, Any]]:
        """The seats as every client sees them."""
        return [slot.public(seat) for seat, slot in enumerate(self.seats)]

    def is_human(self, seat: Seat) -> bool:
        """Whether a person (not a bot, not nobody) holds ``seat``."""
        return 0 <= seat < len(self.seats) and self.seats[seat].kind == "human"


class Seats:
    """The seats of a table and the bots that hold some of them."""

    def __init__(self, count: int, bot_factory: BotFactory) -> None:
        self.slots = [SeatSlot() for _ in range(count)]
        self.bots: dict[Seat, SeatBot] = {}
        self._trustees: dict[Seat, SeatBot] = {}
        self._bot_factory = bot_factory

    def __len__(self) -> int:
        return len(self.slots)

    def __getitem__(self, seat: Seat) -> SeatSlot:
        return self.slots[seat]

    def __iter__(self) -> Iterator[SeatSlot]:
        return iter(self.slots)

    def kind(self, seat: Seat) -> str:
        """``empty``, ``human`` or ``bot``; ``empty`` for a seat that does not exist."""
        return self.slots[seat].kind if 0 <= seat < len(self.slots) else "empty"

    def humans(self) -> list[Seat]:
        """The seats people hold."""
        return [s for s, slot in enumerate(self.slots) if slot.kind == "human"]

    def first_free(self) -> Seat | None:
        """The lowest empty seat, or ``None``."""
        return next((s for s, slot in enumerate(self.slots) if slot.kind == "empty"), None)

    def all_ready(self) -> bool:
        """Every seat is a bot or a ready person."""
        return all(s.kind == "bot" or (s.kind == "human" and s.ready) for s in self.slots)

    def seat_person(
        self, seat: Seat, name: str, *, ready: bool = False, connected: bool = True,
        program: bool = False,
    ) -> None:
        """A person takes ``seat`` (``program``: their client says a program plays it)."""
        self.slots[seat] = SeatSlot(
            kind="human", name=name, ready=ready, connected=connected, program=program
        )
        self.bots.pop(seat, None)
        self._trustees.pop(seat, None)

    def free(self, seat: Seat) -> None:
        """Nobody holds ``seat`` any more."""
        self.slots[seat] = SeatSlot()
        self.bots.pop(seat, None)
        self._trustees.pop(seat, None)

    def new_bot(self, seat: Seat, level: int) -> SeatBot:
        """A bot of ``level`` for ``seat``; ``ValueError`` for a level the variant lacks."""
        return self._bot_factory(seat, level)

    def seat_bot(self, seat: Seat, bot: SeatBot, level: int, name: str) -> None:
        """``bot`` (of ``level``) holds ``seat``."""
        self.slots[seat] = SeatSlot(kind="bot", name=name, bot_level=level, ready=True)
        self.bots[seat] = bot

    def public(self) -> list[dict[str, Any]]:
        """The seats as every client sees them."""
        return [slot.public(seat) for seat, slot in enumerate(self.slots)]

    def stored(self) -> tuple[dict[str, Any], ...]:
        """The seats as the store keeps them (with bot levels and trustee counters)."""
        return tuple(slot.stored(s) for s, slot in enumerate(self.slots))

    def load(self, stored: Sequence[Mapping[str, Any]]) -> None:
        """Seat everyone as ``stored`` says (a restore): bots are made again, people are
        shown as not connected until they resume. ``ValueError`` for a bot level the
        variant lacks or a count that does not match."""
        if len(stored) != len(self.slots):
            raise ValueError(f"{len(stored)} stored seats for {len(self.slots)} seats")
        self.bots.clear()
        self._trustees.clear()
        for seat, data in enumerate(stored):
            slot = SeatSlot.from_stored(data)
            if slot.kind == "bot":
                self.bots[seat] = self._bot_factory(seat, slot.bot_level)
            slot.connected = False if slot.kind == "human" else slot.connected
            self.slots[seat] = slot

    def player(self, seat: Seat) -> SeatBot | None:
        """The bot that plays ``seat`` now: its own bot, or the trustee of a person's seat
        in trustee mode (the variant's level-1 bot, made when first needed); ``None`` when
        the person plays."""
        bot = self.bots.get(seat)
        if bot is not None or not self.slots[seat].trustee:
            return bot
        if seat not in self._trustees:
            self._trustees[seat] = self._bot_factory(seat, TRUSTEE_LEVEL)
        return self._trustees[seat]

    def automatic(self) -> list[Seat]:
        """The seats a bot plays: bots, and people's seats in trustee mode."""
        return [s for s, slot in enumerate(self.slots) if slot.kind == "bot" or slot.trustee]
