"""``paiju bot run`` (the bot bridge) and ``paiju arena`` (duplicate tournaments)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from paiju.cli.common import add_command
from paiju.server.config import parse_setting

#: What a failed answer leads to, in the bridge's reports.
BRIDGE_FALLBACK = (
    "the seat falls back to the timeout action (the server's at the deadline; without a "
    "deadline the bridge's trustee, paiju's level-1 bot)"
)


def _program_argv(raw: list[str]) -> list[str]:
    argv = raw[1:] if raw[:1] == ["--"] else raw
    if not argv:
        raise ValueError("give the bot program after --, e.g. paiju bot run ... -- python bot.py")
    return argv


def _options(pairs: list[str] | None) -> dict[str, Any]:
    return dict(parse_setting(o) for o in pairs or [])


def cmd_bot_run(args: argparse.Namespace) -> int:
    from paiju.bots.bridge import BridgeOptions, run_bridge
    from paiju.bots.drivers import DriverFactory
    from paiju.bots.external import Reporter

    reporter = Reporter(sys.stderr, label=f"paiju bot [{args.name}]")
    factory = DriverFactory(
        _program_argv(args.program),
        args.protocol,
        reporter,
        args.answer_timeout,
        BRIDGE_FALLBACK,
        io=args.botzone_io,
    )

    options = BridgeOptions(
        url=args.url,
        room=args.room,
        seat=args.seat,
        name=args.name,
        loop=args.loop,
        matches=args.matches,
        bots=args.bots,
        bot_level=args.bot_level,
        options=_options(args.option),
        hands=args.hands,
        rate=args.rate,
        answer_timeout=args.answer_timeout,
        client_seed=not args.no_client_seed,
    )
    return run_bridge(options, factory, reporter, factory.check)


def cmd_arena(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from paiju.bots.arena import Arena, parse_players
    from paiju.bots.arena_report import plain
    from paiju.bots.external import Reporter

    err = Console(stderr=True)
    arena = Arena(
        args.variant,
        parse_players(args.players),
        _options(args.option),
        seed=args.seed,
        think_time=args.think_time,
        reporter=Reporter(sys.stderr, label="paiju arena"),
    )
    columns = (*Progress.get_default_columns()[:2], BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    try:
        with Progress(*columns, console=err, disable=args.quiet) as bar:
            task = bar.add_task(f"{args.variant} arena", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            result = arena.run(args.hands, args.duplicate, progress)
    finally:
        arena.close()
    if args.markdown:
        print(plain(result))
    else:
        _print_tables(result)
    return 0


def _print_tables(result: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    from paiju.bots.arena_report import tables

    header, rows, pairs = tables(result)
    kind = "duplicate boards" if result.duplicate else "boards"
    out = Console()
    if not out.is_terminal:
        out = Console(width=140)  # a file or pipe: wide enough for every column
    players = Table(title=f"{result.variant}: {result.boards} {kind}, {result.hands} hands")
    for name in header:
        players.add_column(name, justify="left" if name == "player" else "right")
    for row in rows:
        players.add_row(*row)
    out.print(players)
    pairwise = Table(title="pairwise, paired by board")
    for name in ("pair", "difference/hand (95% CI)", "z", "p"):
        pairwise.add_column(name, justify="left" if name == "pair" else "right")
    for row in pairs:
        pairwise.add_row(*row)
    out.print(pairwise)


def add_bot_commands(sub: Any) -> None:
    """Add ``bot run`` and ``arena`` to the ``paiju`` parser's subcommands."""
    example = "paiju bot run --url ws://127.0.0.1:8765/ --room new:mcr -- python my_bot.py"
    bot = add_command(sub, "bot", "external bots: play a seat with your own program", example)
    bot_sub = bot.add_subparsers(dest="bot_command", required=True)
    run = add_command(
        bot_sub,
        "run",
        "play a seat over the protocol with a program (everything after --; docs/bots.md); "
        "exit status 0 when the match ends",
        example + "\npaiju bot run --url ws://127.0.0.1:8765/ --room 3f9a01bc "
        "--protocol botzone -- ./botzone_bot",
    )
    run.add_argument("--url", required=True, help="the server, e.g. ws://127.0.0.1:8765/")
    run.add_argument(
        "--room", required=True, help="a room id, or new:PRESET to open one (bots fill the rest)"
    )
    run.add_argument("--seat", type=int, help="the seat to take (default: the first free)")
    run.add_argument("--name", default="bridge bot", help="the seat's name (1-24 characters)")
    run.add_argument(
        "--loop", action="store_true", help="after each match ask for a rematch and play it"
    )
    run.add_argument("--matches", type=int, help="stop after this many matches")
    run.add_argument(
        "--hands", type=int, help="leave after this many hands (a server bot plays on)"
    )
    run.add_argument("--protocol", choices=("json", "botzone"), default="json")
    run.add_argument(
        "--botzone-io",
        choices=("json", "simple"),
        default="json",
        help="Botzone's JSON or simple interaction (with --protocol botzone)",
    )
    run.add_argument("--bots", type=int, help="new:PRESET rooms: bot seats (default: the rest)")
    run.add_argument("--bot-level", type=int, default=1, help="new:PRESET rooms: their level")
    run.add_argument("--option", action="append", metavar="KEY=VALUE", help="new:PRESET rooms")
    run.add_argument(
        "--rate", type=float, default=15.0, help="messages per second at most (0: no cap)"
    )
    run.add_argument(
        "--answer-timeout",
        type=float,
        default=30.0,
        help="seconds the program may think where the server sets no earlier deadline",
    )
    run.add_argument(
        "--no-client-seed",
        action="store_true",
        help="send no client seed before each hand (the server then draws the seat's)",
    )
    run.add_argument("program", nargs=argparse.REMAINDER, help="-- CMD ARGS...")
    run.set_defaults(func=cmd_bot_run)

    arena = add_command(
        sub,
        "arena",
        "a duplicate tournament between bots, in-process: --hands deals (boards), with "
        "--duplicate each once per rotation of the players over the seats; players are bot "
        "levels (2), cmd:COMMAND (JSON-lines programs), botzone:COMMAND or "
        "botzone-simple:COMMAND (Botzone MCR bots); docs/bots.md",
        "paiju arena --variant mcr --players 3,2,3,2 --hands 500 --duplicate",
    )
    arena.add_argument("--variant", required=True)
    arena.add_argument(
        "--players", required=True, help="one per seat, comma-separated: 3,2,3,2 or 2,cmd:..."
    )
    arena.add_argument("--hands", type=int, default=100, help="boards (deals) to play")
    arena.add_argument(
        "--duplicate", action="store_true", help="play every board in every rotation"
    )
    arena.add_argument("--seed", default="arena")
    arena.add_argument("--option", action="append", metavar="KEY=VALUE")
    arena.add_argument(
        "--think-time", type=float, default=10.0, help="seconds a program may take per decision"
    )
    arena.add_argument("--markdown", action="store_true", help="plain Markdown tables")
    arena.add_argument("--quiet", action="store_true", help="no progress bar")
    arena.set_defaults(func=cmd_arena)
