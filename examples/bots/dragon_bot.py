"""A dragon (牌九接龙) bot for `paiju bot run`: of the arrangements listed, keeps a pair of
identical scoring tiles if it can, else the scoring tiles worth the most points."""

import json
import sys


def value(action: str) -> int:
    if action == "bust":
        return -1
    kept = action.split("|")[1].split()
    if len(kept) == 2 and kept[0] == kept[1]:
        return 10  # a pair beats every points hand
    return sum(int(tile[0]) + int(tile[1]) for tile in kept) % 10


for line in sys.stdin:
    request = json.loads(line)
    if request["type"] != "request":
        continue  # a notice (match_over): nothing to answer
    action = max(request["legal"], key=value)
    print(json.dumps({"id": request["id"], "action": action}), flush=True)
