"""A Botzone "Chinese Standard Mahjong" bot in long-running mode with simple I/O, written for
the tests from Botzone's published protocol. After the first turn it prints
``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` and then gets one request line per turn. It tracks
its hand and melds from the requests, wins whenever the Botzone fan calculator (pymahjonggb)
counts 8 fans without flowers, makes every kong it can, claims a pung with a pair and a chow
when it lowers its shanten, and discards to the lowest shanten. Every response it gives is
appended to the file named by its first argument, for the tests to read."""

import sys

from MahjongGB import MahjongFanCalculator, MahjongShanten

MARK = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


class Seat:
    def __init__(self) -> None:
        self.me, self.quan = 0, 0
        self.hand: list[str] = []
        self.packs: list[tuple[str, str, int]] = []
        self.last: tuple[int, str] = (0, "")  # the last tile played or added, and by whom
        self.kong = ""  # the tile of this seat's own concealed kong, until it is shown

    def fans(self, tile: str, self_drawn: bool, rob: bool = False) -> int:
        rest = list(self.hand)
        if self_drawn:
            rest.remove(tile)
        try:
            found = MahjongFanCalculator(
                tuple(self.packs), tuple(rest), tile, 0, self_drawn, False, rob, False,
                self.me, self.quan,
            )
        except TypeError:  # not a winning hand
            return 0
        return sum(points for points, _ in found)

    def shanten(self, hand: list[str]) -> int:
        try:
            return int(MahjongShanten(tuple(self.packs), tuple(hand)))
        except TypeError:
            return 9

    def best_discard(self, hand: list[str]) -> str:
        def cost(tile: str) -> tuple[int, str]:
            rest = list(hand)
            rest.remove(tile)
            return self.shanten(rest), tile

        return min(set(hand), key=cost)

    def turn(self, tile: str) -> str:
        self.hand.append(tile)
        if self.fans(tile, True) >= 8:
            return "HU"
        for t in sorted(set(self.hand)):
            if self.hand.count(t) == 4:
                self.kong = t
                return f"GANG {t}"
        if ("PENG", tile) in {(k, t) for k, t, _ in self.packs}:
            return f"BUGANG {tile}"
        return f"PLAY {self.best_discard(self.hand)}"

    def claim(self, who: int, tile: str) -> str:
        if self.fans(tile, False) >= 8:
            return "HU"
        count = self.hand.count(tile)
        if count == 3:
            return "GANG"
        if count == 2:
            rest = list(self.hand)
            rest.remove(tile)
            rest.remove(tile)
            return f"PENG {self.best_discard(rest)}"
        if who == (self.me + 3) % 4 and tile[0] in "WBT":
            return self.chow(tile)
        return "PASS"

    def chow(self, tile: str) -> str:
        rank = int(tile[1])
        now = self.shanten(self.hand)
        for middle in (rank - 1, rank, rank + 1):
            if not 2 <= middle <= 8:
                continue
            need = [f"{tile[0]}{r}" for r in (middle - 1, middle, middle + 1)]
            need.remove(tile)
            rest = list(self.hand)
            if all(t in rest for t in need):
                for t in need:
                    rest.remove(t)
                out = self.best_discard(rest)
                rest.remove(out)
                if self.shanten(rest) < now:
                    return f"CHI {tile[0]}{middle} {out}"
        return "PASS"

    def seen(self, words: list[str]) -> str:
        """A "3 ..." request: what somebody did; a response if it is this seat's chance."""
        who, what = int(words[1]), words[2]
        mine = who == self.me
        if mine:
            self.mine(what, words[3:])
        if what in ("PLAY", "PENG", "CHI"):
            self.last = (who, words[-1])
            return "PASS" if mine else self.claim(who, words[-1])
        if what == "BUGANG" and not mine:
            return "HU" if self.fans(words[3], False, rob=True) >= 8 else "PASS"
        return "PASS"

    def mine(self, what: str, args: list[str]) -> None:
        """Update the hand for this seat's own action, as the judge announced it."""
        if what == "PLAY":
            self.hand.remove(args[0])
        elif what == "PENG":
            self.take(self.last[1], 2, ("PENG", self.last[1], (self.last[0] - self.me) % 4))
            self.hand.remove(args[0])
        elif what == "CHI":
            middle, claimed = args[0], self.last[1]
            tiles = [f"{middle[0]}{int(middle[1]) + d}" for d in (-1, 0, 1)]
            offer = tiles.index(claimed) + 1
            tiles.remove(claimed)
            for t in tiles:
                self.hand.remove(t)
            self.packs.append(("CHI", middle, offer))
            self.hand.remove(args[1])
        elif what == "GANG" and self.kong:
            self.take(self.kong, 4, ("GANG", self.kong, 0))
            self.kong = ""
        elif what == "GANG":
            self.take(self.last[1], 3, ("GANG", self.last[1], (self.last[0] - self.me) % 4))
        elif what == "BUGANG":
            self.hand.remove(args[0])
            self.packs = [("GANG", t, o) if (k, t) == ("PENG", args[0]) else (k, t, o)
                          for k, t, o in self.packs]

    def take(self, tile: str, count: int, pack: tuple[str, str, int]) -> None:
        for _ in range(count):
            self.hand.remove(tile)
        self.packs.append(pack)

    def answer(self, line: str) -> str:
        words = line.split()
        if words[0] == "0":
            self.me, self.quan = int(words[1]), int(words[2])
        elif words[0] == "1":
            self.hand = words[5:18]
        elif words[0] == "2":
            return self.turn(words[1])
        elif words[0] == "3":
            return self.seen(words)
        return "PASS"


def main() -> None:
    log = open(sys.argv[1], "a") if len(sys.argv) > 1 else None  # noqa: SIM115 (for the run)
    seat = Seat()
    sys.stdin.readline()  # the turn number of the first (full) input: 1
    for line in sys.stdin:
        if not line.strip():
            continue  # the first input's data and globaldata lines
        response = seat.answer(line.strip())
        if log:
            log.write(response + "\n")
            log.flush()
        print(response)
        print(MARK, flush=True)


main()
