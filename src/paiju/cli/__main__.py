"""``paiju``: serve, operate rooms, export the protocol schema, self-play, replay, verify,
judge."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from paiju import __version__
from paiju.server.collector import collector_paused

with collector_paused():
    from paiju.cli.bots import add_bot_commands
    from paiju.cli.cluster import add_cluster_commands
    from paiju.cli.operator import add_operator_commands
    from paiju.cli.serve import add_serve_commands
    from paiju.cli.tools import add_tool_commands, run_judge
    from paiju.cli.verify import add_verify_commands

__all__ = ["build_parser", "main", "run_judge"]

EXAMPLES = """examples:
  paiju serve                                  # http://127.0.0.1:8765/ (--port to change)
  paiju room create --variant dragon --bots 3  # prints the room id
  paiju config show                            # every setting and where it came from
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paiju", description=__doc__, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"paiju {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    add_serve_commands(sub)
    add_operator_commands(sub)
    add_tool_commands(sub)
    add_verify_commands(sub)
    add_bot_commands(sub)
    add_cluster_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``paiju`` console script.

    Returns 0 on success, 1 when the server or store refuses (no such room), 2 for bad
    flags, settings, values or files; argparse itself exits 2 on a usage error. A bad value
    is reported in one line, never as a traceback.
    """
    from paiju.core.errors import GameError

    with collector_paused():
        args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except (ValueError, GameError) as exc:
        print(f"paiju: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
