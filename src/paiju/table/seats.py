"""Who sits at a table, and what the host may read of a room."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from paiju.core.seats import Seat
from paiju.table.phases import Phase


class SeatBot(Protocol):
    """What the table needs of a bot: an action for the view it is shown."""

    def choose(self, view: Mapping[str, Any]) -> str: ...


#: Makes the bot of ``level`` for a seat (``ValueError`` for a level the variant lacks).
BotFactory = Callable[[Seat, int], SeatBot]


@dataclass
class SeatSlot:
    """Who sits in a seat."""

    kind: str = "empty"  # "empty", "human" or "bot"
    name: str = ""
    bot_level: int = 1
    ready: bool = False
    connected: bool = False

    def public(self, seat: Seat) -> dict[str, Any]:
        """The seat as every client sees it."""
        return {
            "seat": seat,
            "kind": self.kind,
            "name": self.name,
            "ready": self.ready,
            "connected": self.connected,
        }


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

    def seat_person(self, seat: Seat, name: str, *, ready: bool = False, connected: bool = True
                    ) -> None:
        """A person takes ``seat``."""
        self.slots[seat] = SeatSlot(kind="human", name=name, ready=ready, connected=connected)
        self.bots.pop(seat, None)

    def free(self, seat: Seat) -> None:
        """Nobody holds ``seat`` any more."""
        self.slots[seat] = SeatSlot()
        self.bots.pop(seat, None)

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
        """The seats as the store keeps them (with bot levels)."""
        return tuple(
            slot.public(s) | {"bot_level": slot.bot_level} for s, slot in enumerate(self.slots)
        )
