"""A diu (绥江-丢) bot for `paiju bot run`: calls 丢 whenever it may, passes every other call,
and discards the first card it is offered."""

import json
import sys

for line in sys.stdin:
    request = json.loads(line)
    if request["type"] != "request":
        continue  # a notice (match_over): nothing to answer
    legal = request["legal"]
    diu = [a for a in legal if a == "call diu" or a.startswith("diu ")]
    if diu:
        action = diu[0]
    elif "pass" in legal:
        action = "pass"
    else:
        action = legal[0]  # a discard (or laying a won card)
    print(json.dumps({"id": request["id"], "action": action}), flush=True)
