"""Making seat drivers for an external program, by protocol (the bridge's and the arena's)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from paiju.bots.botzone import check_room
from paiju.bots.botzone_io import BotzoneDriver, BotzoneRunner
from paiju.bots.external import JsonLinesDriver, Reporter, RoomRefused, SeatDriver
from paiju.bots.program import Program

PROTOCOLS = ("json", "botzone")


class DriverFactory:
    """Drivers for ``argv`` speaking ``protocol`` (``json`` or ``botzone``; Botzone bots with
    ``io`` ``json`` or ``simple``). ``check`` refuses a room a Botzone bot cannot play
    (``RoomRefused``) and reports the rule differences it plays through."""

    def __init__(
        self,
        argv: Sequence[str],
        protocol: str,
        reporter: Reporter,
        answer_timeout: float,
        fallback: str,
        io: str = "json",
    ) -> None:
        if protocol not in PROTOCOLS:
            raise ValueError(f"--protocol is json or botzone, not {protocol!r}")
        self.argv = list(argv)
        self.protocol = protocol
        self.reporter = reporter
        self.answer_timeout = answer_timeout
        self.fallback = fallback
        self.io = io

    def check(self, variant: str, options: Mapping[str, Any]) -> None:
        """Nothing for JSON-lines programs; Botzone's rule check otherwise."""
        if self.protocol == "botzone":
            for notice in check_room(variant, options):
                self.reporter.note(f"rule difference: {notice}")

    def __call__(self, variant: str, view: Mapping[str, Any]) -> SeatDriver:
        """A driver for a seat whose first view is ``view``, after ``check`` of the options
        it shows (``RoomRefused``)."""
        self.check(variant, view.get("options", {}))
        return self.driver()

    def driver(self) -> SeatDriver:
        """A driver (its program is started on first use)."""
        program = Program(self.argv)
        if self.protocol == "json":
            return JsonLinesDriver(program, self.reporter, self.answer_timeout, self.fallback)
        runner = BotzoneRunner(program, self.io)
        return BotzoneDriver(runner, self.reporter, self.answer_timeout, self.fallback)


__all__ = ["DriverFactory", "RoomRefused"]
