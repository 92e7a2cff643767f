"""``paiju verify``: a signed hand history, or a stored room record by record
(docs/fairness.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from paiju.cli.common import add_command, stored_records, with_config


def cmd_verify(args: argparse.Namespace) -> int:
    """Print a verdict per check; 0 when every check holds, 1 at the first that fails, 2
    when there is nothing to check (no database, not JSON)."""
    from paiju.persistence.verify import Verdict, verify_history

    if (args.history is None) == (args.room is None):
        raise ValueError("give a history file, or --room ID (not both)")
    verdicts: list[Verdict]
    if args.room is not None:
        found = _verify_room(args)
        if isinstance(found, int):
            return found
        verdicts = found
    else:
        text = sys.stdin.read() if args.history == "-" else Path(args.history).read_text()
        try:
            document = json.loads(text)
        except ValueError as exc:
            raise ValueError(f"{args.history} is not JSON: {exc}") from None
        verdicts = verify_history(document, args.key)
    for verdict in verdicts:
        print(verdict.line())
    failed = [v for v in verdicts if not v.ok]
    if failed:
        where = f"record {failed[0].record}" if failed[0].record is not None else "the document"
        print(f"paiju: verification failed at {where}: {failed[0].check}", file=sys.stderr)
        return 1
    print("verified")
    return 0


def _verify_room(args: argparse.Namespace) -> Any:
    """The verdicts on a stored room, or an exit code when it cannot be checked."""
    from paiju.cli.tools import progress_bar
    from paiju.persistence.verify import verify_room

    found = stored_records(args)
    if found is None:
        return 2
    store, where = found
    try:
        if store.get_room(args.room) is None:
            print(f"paiju: no room {args.room!r} in {where}", file=sys.stderr)
            return 1
        with progress_bar(args.quiet) as bar:
            task = bar.add_task(f"replaying room {args.room}", total=None)
            return verify_room(
                store, args.room, lambda done, total: bar.update(task, completed=done, total=total)
            )
    finally:
        store.close()


def add_verify_commands(sub: Any) -> None:
    verify = add_command(
        sub, "verify", "check a signed hand history, or a stored room record by record",
        "curl -s http://127.0.0.1:8765/history/3f9a01bc/2 > hand.json\n"
        "paiju verify hand.json --key $(curl -s http://127.0.0.1:8765/history/key | jq -r "
        ".public_key)\npaiju verify --room 3f9a01bc --database var/paiju.sqlite3",
    )
    with_config(verify)
    verify.add_argument("history", nargs="?", help="a history file (JSON; - for stdin)")
    verify.add_argument("--key", help="the server's public key (hex), as you got it")
    verify.add_argument("--room", help="check this room of the database instead")
    verify.add_argument("--database")
    verify.add_argument("--quiet", action="store_true", help="no progress bar (--room)")
    verify.set_defaults(func=cmd_verify)
