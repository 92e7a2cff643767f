"""An MCR bot for `paiju bot run`: wins when it can, never claims, and discards the tile
with the fewest partners (copies, or neighbours in its suit) in its hand."""

import json
import sys


def partners(tile: str, hand: list[str]) -> int:
    count = hand.count(tile) - 1
    if tile[0] in "WBT":  # a suited tile: its neighbours of the same suit help too
        rank = int(tile[1])
        count += sum(f"{tile[0]}{r}" in hand for r in (rank - 2, rank - 1, rank + 1, rank + 2))
    return count


for line in sys.stdin:
    request = json.loads(line)
    if request["type"] != "request":
        continue  # a notice (match_over): nothing to answer
    legal = request["legal"]
    if "hu" in legal:
        action = "hu"
    elif "pass" in legal:
        action = "pass"
    else:
        hand = request["view"]["hand"]
        discards = [a for a in legal if a.startswith("discard ")]
        action = min(discards, key=lambda a: partners(a.split()[1], hand))
    print(json.dumps({"id": request["id"], "action": action}), flush=True)
