"""Shared fan test data: a compact hand notation and one case per fan (used by test_fans*.py
and test_oracle.py). Collected by pytest as a module, it only checks the notation itself.

Spec: ``"PENG:F1:1 GANG:B5:0 | W123 T456 J11 + W5 ; sd 4th kong last sw=1 pw=2 fl=3"``:
packs before ``|`` (kind:tile:offer), concealed tiles after it with runs written ``W123``,
the win tile after ``+``, flags after ``;`` (sd = self-drawn, 4th = 和绝张, kong = replacement
or robbing, last = last tile of the wall, sw/pw = seat/prevalent wind, fl = flowers,
five = the 明暗杠 option).
"""

from __future__ import annotations

from paiju.engines.mcr.fans import FanResult, WinContext, evaluate
from paiju.engines.mcr.hand import Pack
from paiju.engines.mcr.tiles import Tile, parse_tile


def tiles(text: str) -> list[Tile]:
    """``"W123 F11"`` -> [W1, W2, W3, F1, F1]."""
    out: list[Tile] = []
    for word in text.split():
        out.extend(parse_tile(word[0] + d) for d in word[1:])
    return out


def ctx(spec: str) -> WinContext:
    """The ``WinContext`` of a spec (see the module docstring)."""
    body, _, flag_text = spec.partition(";")
    pack_text, _, rest = body.rpartition("|") if "|" in body else ("", "", body)
    hand_text, _, win_text = rest.partition("+")
    packs = []
    for word in pack_text.split():
        kind, code, offer = word.split(":")
        packs.append(Pack(kind, parse_tile(code), int(offer)))
    flags = flag_text.split()
    opts = dict(f.split("=") for f in flags if "=" in f)
    return WinContext(
        packs=tuple(packs),
        hand=tuple(tiles(hand_text)),
        win_tile=parse_tile(win_text.strip()),
        flowers=int(opts.get("fl", 0)),
        self_drawn="sd" in flags,
        fourth_tile="4th" in flags,
        about_kong="kong" in flags,
        wall_last="last" in flags,
        seat_wind=int(opts.get("sw", 0)),
        prevalent_wind=int(opts.get("pw", 0)),
        kong_pair_five="five" in flags,
    )


def score(spec: str) -> FanResult:
    result = evaluate(ctx(spec))
    assert result is not None, spec
    return result


def fan_counts(spec: str) -> dict[str, int]:
    return {name: n for name, _p, n in score(spec).fans}


# fan -> (a hand where it scores, a hand where an exclusion removes it or None, the fan that
# removes it). Winds default to East seat / East round, so wind pungs are chosen with care.
FAN_CASES: dict[str, tuple[str, str | None, str | None]] = {
    "Big Four Winds": ("| F111 F222 F333 F444 W5 + W5", None, None),
    "Big Three Dragons": ("| J111 J222 J333 W123 W5 + W5", None, None),
    "All Green": ("| T234 T234 T666 T888 J2 + J2", None, None),
    "Nine Gates": ("| W1112345678999 + W5", None, None),
    "Four Kongs": ("GANG:W1:1 GANG:T5:2 GANG:B9:3 GANG:F2:1 | J1 + J1", None, None),
    "Seven Shifted Pairs": ("| T2233445566778 + T8", None, None),
    "Thirteen Orphans": ("| W19 T19 B19 F1234 J123 + J1", None, None),
    "All Terminals": ("| W111 W999 T111 B999 T9 + T9", None, None),
    "Little Four Winds": ("| F111 F222 F333 F4 W234 + F4", None, None),
    "Little Three Dragons": ("| J111 J222 J3 W234 T567 + J3", None, None),
    "All Honors": ("| F111 F222 J111 J222 F3 + F3", None, None),
    "Four Concealed Pungs": ("| W111 T333 B555 B777 F3 + F3", None, None),
    "Pure Terminal Chows": ("| W123 W123 W789 W789 W5 + W5", None, None),
    "Quadruple Chow": ("| T234 T234 T234 T234 B9 + B9", None, None),
    "Four Pure Shifted Pungs": ("| B222 B333 B444 B555 J2 + J2", None, None),
    "Four Pure Shifted Chows": ("| W123 W234 W345 W456 J2 + J2", None, None),
    "Three Kongs": (
        "GANG:W1:1 GANG:T5:2 GANG:B9:3 | W234 J1 + J1",
        "GANG:W1:1 GANG:T5:2 GANG:B9:3 GANG:F2:1 | J1 + J1",
        "Four Kongs",
    ),
    "All Terminals and Honors": (
        "| W111 T999 F222 J333 B1 + B1",
        "| F111 F222 J111 J222 F3 + F3",
        "All Honors",
    ),
    "Seven Pairs": (
        "| W11 W55 T22 T99 B33 B66 F4 + F4",
        "| T2233445566778 + T8",
        "Seven Shifted Pairs",
    ),
    "Greater Honors and Knitted Tiles": ("| W147 T258 B3 F1234 J12 + J3", None, None),
    "All Even Pungs": ("| W222 T444 B666 B888 W4 + W4", None, None),
    "Full Flush": (
        "| B123 B345 B678 B999 B5 + B5",
        "| W123 W123 W789 W789 W5 + W5",
        "Pure Terminal Chows",
    ),
    "Pure Triple Chow": (
        "CHI:T4:1 | T345 T345 B789 F2 + F2",
        "| T234 T234 T234 T234 B9 + B9",
        "Quadruple Chow",
    ),
    "Pure Shifted Pungs": (
        "| W444 W555 W666 B123 J3 + J3",
        "| B222 B333 B444 B555 J2 + J2",
        "Four Pure Shifted Pungs",
    ),
    "Upper Tiles": ("| W789 T789 B777 B999 T8 + T8", None, None),
    "Middle Tiles": ("| W456 T456 B444 B666 T5 + T5", None, None),
    "Lower Tiles": ("| W123 T123 B111 B333 T2 + T2", None, None),
    "Pure Straight": ("| B123 B456 B789 W111 F2 + F2", None, None),
    "Three-Suited Terminal Chows": ("| W123 W789 T123 T789 B5 + B5", None, None),
    "Pure Shifted Chows": (
        "| T123 T234 T345 B999 J1 + J1",
        "| W123 W234 W345 W456 J2 + J2",
        "Four Pure Shifted Chows",
    ),
    "All Five": ("| W345 T456 B567 B555 W5 + W5", None, None),
    "Triple Pung": ("| W333 T333 B333 W789 F1 + F1", None, None),
    "Three Concealed Pungs": (
        "| W111 T333 B555 W678 F3 + F3",
        "| W111 T333 B555 B777 F3 + F3",
        "Four Concealed Pungs",
    ),
    "Lesser Honors and Knitted Tiles": (
        "| W147 T25 B36 F123 J123 + B9",
        "| W147 T258 B3 F1234 J12 + J3",
        "Greater Honors and Knitted Tiles",
    ),
    "Knitted Straight": ("| W147 T258 B369 W234 F1 + F1", None, None),
    "Upper Four": (
        "| W678 T789 B666 B999 T6 + T6",
        "| W789 T789 B777 B999 T8 + T8",
        "Upper Tiles",
    ),
    "Lower Four": (
        "| W123 T234 B111 B444 T2 + T2",
        "| W123 T123 B111 B333 T2 + T2",
        "Lower Tiles",
    ),
    "Big Three Winds": (
        "| F222 F333 F444 W123 B5 + B5",
        "| F111 F222 F333 F4 W234 + F4",
        "Little Four Winds",
    ),
    "Mixed Straight": ("| W123 T456 B789 W555 J2 + J2", None, None),
    "Reversible Tiles": ("| B123 B345 T456 T888 J3 + J3", None, None),
    "Mixed Triple Chow": ("| W234 T234 B234 W777 F1 + F1", None, None),
    "Mixed Shifted Pungs": ("| W333 T444 B555 W789 F1 + F1", None, None),
    "Chicken Hand": (
        "CHI:W2:1 PENG:T5:2 | B34 B789 F22 + B5 ; fl=2",
        "CHI:W2:1 PENG:T5:2 | B34 B789 F22 + B5 ; sd",
        "Self-Drawn",
    ),
    "Last Tile Draw": ("CHI:W2:1 | W789 T34 B567 F11 + T5 ; sd last", None, None),
    "Last Tile Claim": ("CHI:W2:1 | W789 T34 B567 F11 + T5 ; last", None, None),
    "Out with Replacement Tile": ("GANG:W2:1 | W789 T345 B567 F1 + F1 ; sd kong", None, None),
    "Robbing The Kong": ("CHI:W2:1 | W789 T34 B567 F11 + T5 ; kong", None, None),
    "All Pungs": (
        "PENG:W2:1 | T555 B777 F333 J3 + J3",
        "| W111 T333 B555 B777 F3 + F3",
        "Four Concealed Pungs",
    ),
    "Half Flush": (
        "| B123 B456 B789 F222 J3 + J3",
        "| T234 T234 T666 J222 T8 + T8",
        "All Green",
    ),
    "Mixed Shifted Chows": ("| W123 T234 B345 W999 J1 + J1", None, None),
    "All Types": (
        "| W123 T456 B789 F222 J3 + J3",
        "| W147 T258 B3 F1234 J12 + J3",
        "Greater Honors and Knitted Tiles",
    ),
    "Melded Hand": ("CHI:W2:1 CHI:T5:2 PENG:B7:3 PENG:F2:1 | J3 + J3", None, None),
    "Two Concealed Kongs": (
        "GANG:W1:0 GANG:T5:0 | W234 B789 J1 + J1",
        "GANG:W1:0 GANG:T5:0 GANG:B9:1 | W234 J1 + J1",
        "Three Kongs",
    ),
    "Two Dragons Pungs": (
        "| J111 J222 W123 T456 B5 + B5",
        "| J111 J222 J3 W234 T567 + J3",
        "Little Three Dragons",
    ),
    "Outside Hand": (
        "| W123 W789 T123 B999 F2 + F2",
        "| W111 T999 F222 J333 B1 + B1",
        "All Terminals and Honors",
    ),
    "Fully Concealed Hand": (
        "| W123 T456 B789 B234 F2 + F2 ; sd",
        "| W111 T333 B555 B777 F3 + F3 ; sd",
        "Four Concealed Pungs",
    ),
    "Two Melded Kongs": (
        "GANG:W1:1 GANG:T5:2 | W234 B789 J1 + J1",
        "GANG:W1:1 GANG:T5:2 GANG:B9:3 | W234 J1 + J1",
        "Three Kongs",
    ),
    "Last Tile": (
        "CHI:W2:1 | W789 T34 B567 F11 + T5 ; 4th",
        "CHI:W2:1 | W789 T34 B567 F11 + T5 ; 4th kong",
        "Robbing The Kong",
    ),
    "Dragon Pung": (
        "| J111 W123 T456 B789 F2 + F2",
        "| J111 J222 W123 T456 B5 + B5",
        "Two Dragons Pungs",
    ),
    "Prevalent Wind": (
        "PENG:F2:1 | W123 T456 B789 J3 + J3 ; pw=1 sw=0",
        "| F111 F222 F333 F444 W5 + W5 ; pw=1",
        "Big Four Winds",
    ),
    "Seat Wind": (
        "PENG:F3:1 | W123 T456 B789 J3 + J3 ; sw=2 pw=0",
        "| F111 F222 F333 F444 W5 + W5 ; sw=2",
        "Big Four Winds",
    ),
    "Concealed Hand": (
        "| W123 T456 B789 B234 F2 + F2",
        "| W11 W55 T22 T99 B33 B66 F4 + F4",
        "Seven Pairs",
    ),
    "All Chows": (
        "CHI:W2:1 | W456 T456 T789 B2 + B2",
        "| W123 W789 T123 T789 B5 + B5",
        "Three-Suited Terminal Chows",
    ),
    "Tile Hog": (
        "CHI:W2:1 | W222 W345 T789 B5 + B5",
        "| T234 T234 T234 T234 B9 + B9",
        "Quadruple Chow",
    ),
    "Double Pung": (
        "PENG:W2:1 | T222 B345 B789 F3 + F3",
        "| W111 W999 T111 B999 T9 + T9",
        "All Terminals",
    ),
    "Two Concealed Pungs": (
        "CHI:W2:1 | T222 B444 B789 F3 + F3",
        "| W111 T333 B555 W678 F3 + F3",
        "Three Concealed Pungs",
    ),
    "Concealed Kong": (
        "GANG:T5:0 | W123 W789 B234 F3 + F3",
        "GANG:W1:1 GANG:T5:0 | W234 B789 J1 + J1 ; five",
        "Concealed Kong and Melded Kong",
    ),
    "All Simples": (
        "CHI:W3:1 | T234 B567 B678 T8 + T8",
        "| W456 T456 B444 B666 T5 + T5",
        "Middle Tiles",
    ),
    "Pure Double Chow": (
        "CHI:W3:1 | W234 B567 T789 F3 + F3",
        "| T234 T234 T234 T234 B9 + B9",
        "Quadruple Chow",
    ),
    "Mixed Double Chow": (
        "CHI:W3:1 | T234 B789 B111 F3 + F3",
        "| W123 W789 T123 T789 B5 + B5",
        "Three-Suited Terminal Chows",
    ),
    "Short Straight": (
        "CHI:W3:1 | W567 B789 B111 F3 + F3",
        "| B123 B456 B789 W111 F2 + F2",
        "Pure Straight",
    ),
    "Two Terminal Chows": (
        "CHI:W2:1 | W789 B456 T555 F3 + F3",
        "| W123 W123 W789 W789 W5 + W5",
        "Pure Terminal Chows",
    ),
    "Pung of Terminals or Honors": (
        "CHI:W3:1 | T999 B456 B789 J3 + J3",
        "| F222 F333 F444 W123 B5 + B5",
        "Big Three Winds",
    ),
    "Melded Kong": (
        "GANG:T5:1 | W123 W789 B234 F3 + F3",
        "GANG:W1:1 GANG:T5:2 | W234 B789 J1 + J1",
        "Two Melded Kongs",
    ),
    "One Voided Suit": (
        "CHI:W3:1 | W567 T789 T111 F3 + F3",
        "| B123 B345 T456 T888 J3 + J3",
        "Reversible Tiles",
    ),
    "No Honors": (
        "CHI:W3:1 | W567 T789 T111 B9 + B9",
        "CHI:W3:1 | T234 B567 B678 T8 + T8",
        "All Simples",
    ),
    "Edge Wait": (
        "CHI:W3:1 | W12 T789 T111 B99 + W3",
        "CHI:W8:1 | W12345 T111 B99 + W3",
        None,
    ),
    "Closed Wait": (
        "CHI:W3:1 | W46 T789 T111 B99 + W5",
        "| W1333 T111 B789 F222 + W2",
        None,
    ),
    "Single Wait": (
        "CHI:W3:1 | W567 T789 T111 B9 + B9",
        "CHI:W2:1 CHI:T5:2 PENG:B7:3 PENG:F2:1 | J3 + J3",
        "Melded Hand",
    ),
    "Self-Drawn": (
        "CHI:W3:1 | W567 T789 T111 B9 + B9 ; sd",
        "| W123 T456 B789 B234 F2 + F2 ; sd",
        "Fully Concealed Hand",
    ),
    "Flower Tiles": ("CHI:W3:1 | W567 T789 T111 B9 + B9 ; fl=3", None, None),
}


def test_tiles_notation() -> None:
    assert tiles("W123 F11") == [0, 1, 2, 27, 27]


def test_every_fan_has_a_case() -> None:
    from paiju.engines.mcr.fans_table import FAN_TABLE

    assert set(FAN_CASES) == {name for name, _p, _z in FAN_TABLE[1:82]}
