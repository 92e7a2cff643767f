"""Botzone "Chinese Standard Mahjong" (国标麻将) bots on paiju's MCR.

Botzone's judge sends every bot a request line for everything that happens and wants one
response line back each time (docs/bots.md, "Botzone bots", lists the lines). This module
turns what one paiju seat sees of an MCR hand (its events and views) into those requests,
and the bot's responses back into paiju actions; ``paiju.bots.botzone_io`` runs the program
(one-shot or long-running, JSON or simple I/O).

Seats are named by Botzone player ids, which are wind places: id 0 is East (the dealer) and
play runs 0 -> 1 -> 2 -> 3, as in paiju (``view["order"]`` lists the seats in wind order).
Each paiju hand is one Botzone game: a fresh process and history per hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from paiju.bots.external import RoomRefused

#: Botzone's rules where a paiju option can differ: option -> (Botzone's value, why).
BOTZONE_RULES: dict[str, tuple[Any, str]] = {
    "multiple_win": (
        False,
        "on Botzone only one player wins a discard (一炮多响 is not played); this room lets "
        "every claimant win (multiple_win = true)",
    ),
    "min_fan": (8, "Botzone's minimum is 8 fans (8番起和); this room's min_fan is {value}"),
}

#: Differences a Botzone bot plays through: paiju refuses the answer and the seat falls back.
NOTICES = (
    "Botzone counts flowers towards the 8-fan minimum, paiju does not: a HU that reaches 8 "
    "only with flowers is refused",
    "on the last discard paiju allows only HU (Botzone's judge also accepts PENG, CHI and "
    "GANG there), and no kong when the wall is empty",
    "each paiju hand is one Botzone game (its own process and history); the match totals "
    "are not shown to the bot",
)
KONG_NOTICE = (
    "Botzone's fan calculator counts a melded plus a concealed kong as 明暗杠 (5 fans); this "
    "room counts 1 + 2 (concealed_and_melded_kong_5 = false)"
)


def check_room(variant: str, options: Mapping[str, Any]) -> list[str]:
    """The notices for a room a Botzone bot may play; ``RoomRefused`` for one it may not."""
    if variant != "mcr":
        raise RoomRefused(f"Botzone bots play MCR mahjong only, not {variant!r}")
    for key, (expected, why) in BOTZONE_RULES.items():
        value = options.get(key, expected)
        if value != expected:
            raise RoomRefused(why.format(value=value))
    notices = list(NOTICES)
    if not options.get("concealed_and_melded_kong_5", False):
        notices.append(KONG_NOTICE)
    return notices


class Untranslatable(Exception):
    """A Botzone response that has no paiju action here (the message says why)."""


@dataclass
class HandTranslator:
    """One seat's view of one MCR hand, as Botzone request lines.

    ``opening`` gives requests 0 and 1 and the first draw; ``requests`` turns one paiju event
    into zero or more request lines; ``action`` maps a response to a paiju action.
    """

    seat: int
    hand_index: int
    order: tuple[int, ...]
    pending_melds: dict[int, str] = field(default_factory=dict)
    own_discard: str | None = None

    @classmethod
    def for_view(cls, view: Mapping[str, Any]) -> HandTranslator:
        return cls(int(view["seat"]), int(view["hand_index"]), tuple(view["order"]))

    def pid(self, seat: int) -> int:
        """The Botzone player id (wind place) of a paiju seat."""
        return self.order.index(seat)

    def opening(self, view: Mapping[str, Any]) -> list[str]:
        """``0 id quan``, ``1 flowers... hand... flower tiles...`` and the dealer's draw.

        paiju deals the dealer a 14th tile; Botzone deals 13 and has the dealer draw first,
        so the dealer's drawn tile is that draw."""
        quan = int(view["prevalent_wind"][1]) - 1
        hand = list(view["hand"])
        dealer = int(view["dealer"])
        if self.seat == dealer:
            hand.remove(view["drawn"])
        players = [view["players"][seat] for seat in self.order]
        counts = " ".join(str(len(p["flowers"])) for p in players)
        flowers = [f for p in players for f in p["flowers"]]
        deal = " ".join(["1", counts, *hand, *flowers])
        first = f"2 {view['drawn']}" if self.seat == dealer else f"3 {self.pid(dealer)} DRAW"
        return [f"0 {self.pid(self.seat)} {quan}", deal, first]

    def requests(self, event: Mapping[str, Any]) -> list[str]:
        """The request lines for one paiju event (most events give one, some none)."""
        kind, data = event["kind"], event.get("data", {})
        seat = data.get("seat")
        if kind == "drawn" and seat == self.seat:
            return [f"2 {data['tile']}"]
        if kind == "draw" and seat != self.seat:
            return [f"3 {self.pid(seat)} DRAW"]
        if kind == "flower":
            return [f"3 {self.pid(seat)} BUHUA {data['flower']}"]
        if kind == "discard":
            return [self._discard(seat, data["tile"])]
        if kind in ("chi", "peng"):
            meld = str(data["meld"]).split()
            self.pending_melds[seat] = "PENG" if kind == "peng" else f"CHI {meld[1]}"
            return []
        if kind in ("gang", "angang"):
            return [f"3 {self.pid(seat)} GANG"]
        if kind == "bugang":
            return [f"3 {self.pid(seat)} BUGANG {data['tile']}"]
        return []  # drawn/draw pairs, claims, hu, the table's own events: nothing to send

    def _discard(self, seat: int, tile: str) -> str:
        """A discard: after a pung or chow Botzone names the meld and the discard at once."""
        meld = self.pending_melds.pop(seat, None)
        if seat == self.seat:
            self.own_discard = None
        return f"3 {self.pid(seat)} {meld or 'PLAY'} {tile}"

    def action(self, response: str, view: Mapping[str, Any]) -> str:
        """The paiju action for ``response`` to the decision ``view`` asks; ``Untranslatable``
        for a response paiju does not accept here."""
        legal = list(view["legal"])
        words = response.split()
        if not words:
            raise Untranslatable("an empty response")
        verb, args = words[0].upper(), words[1:]
        phase = view["phase"]
        if phase == "turn":
            action = _turn_action(verb, args)
        elif phase == "rob":
            action = {"HU": "hu", "PASS": "pass"}.get(verb) if not args else None
        else:
            action = self._claim_action(verb, args, view)
        if action is None:
            raise Untranslatable(f"{response!r} does not answer {_PHASES.get(phase, phase)}")
        if action not in legal:
            raise Untranslatable(_why_not(action, response))
        return action

    def _claim_action(self, verb: str, args: list[str], view: Mapping[str, Any]) -> str | None:
        if verb in ("PASS", "HU", "GANG") and not args:
            return verb.lower()
        if verb == "PENG" and len(args) == 1:
            claim, used = "peng", [view["claim"]["tile"]] * 2
        elif verb == "CHI" and len(args) == 2:
            claim = f"chi {args[0]}"
            used = _chow_tiles(args[0], view["claim"]["tile"])
        else:
            return None
        rest = list(view["hand"])
        for tile in [*used, args[-1]]:
            if tile not in rest:
                raise Untranslatable(f"{verb} then PLAY {args[-1]}: the hand lacks {tile}")
            rest.remove(tile)
        self.own_discard = args[-1]
        return claim

    def discard_after_claim(self) -> str | None:
        """The discard the bot named with its PENG or CHI (paiju asks for it separately)."""
        tile, self.own_discard = self.own_discard, None
        return f"discard {tile}" if tile else None


_PHASES = {
    "turn": "a draw (PLAY/GANG/BUGANG/HU)",
    "claim": "a discard (PASS/PENG/CHI/GANG/HU)",
    "rob": "an added kong (PASS/HU)",
}


def _turn_action(verb: str, args: list[str]) -> str | None:
    if verb == "HU" and not args:
        return "hu"
    names = {"PLAY": "discard", "GANG": "angang", "BUGANG": "bugang"}
    if verb in names and len(args) == 1:
        return f"{names[verb]} {args[0]}"
    return None


def _chow_tiles(middle: str, claimed: str) -> list[str]:
    """The two hand tiles a chow named by its ``middle`` tile uses with ``claimed``."""
    if len(middle) != 2 or middle[0] not in "WBT" or not middle[1].isdigit():
        raise Untranslatable(f"CHI {middle}: not a suited middle tile")
    rank = int(middle[1])
    tiles = [f"{middle[0]}{r}" for r in (rank - 1, rank, rank + 1)]
    if claimed not in tiles:
        raise Untranslatable(f"CHI {middle} does not use the discarded {claimed}")
    tiles.remove(claimed)
    return tiles


def _why_not(action: str, response: str) -> str:
    if action == "hu":
        return (
            f"{response!r}: paiju does not offer hu here (the hand is not complete, or under "
            "8 fans without flowers; Botzone counts flowers towards the 8)"
        )
    return f"{response!r}: {action!r} is not among paiju's legal actions here"
