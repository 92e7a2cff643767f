"""A shengji bot for `paiju bot run`: never bids, and otherwise plays the listed action that
gives away the fewest points (5s, 10s and kings)."""

import json
import sys

POINTS = {"5": 5, "10": 10, "K": 10}


def points(action: str) -> int:
    return sum(POINTS.get(card[1:], 0) for card in action.split()[1:])


for line in sys.stdin:
    request = json.loads(line)
    if request["type"] != "request":
        continue  # a notice (match_over): nothing to answer
    legal = request["legal"]  # a sample when legal_complete is false: every one is legal
    action = "pass" if "pass" in legal else min(legal, key=points)
    print(json.dumps({"id": request["id"], "action": action}), flush=True)
