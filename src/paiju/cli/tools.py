"""Commands that work without a server: schema, self-play, replay, the judges. Long work shows
a ``rich`` progress bar on stderr (``--quiet`` hides it); results go to stdout."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from paiju.cli.common import add_command, err, out, stored_records, with_config
from paiju.server.config import parse_setting

if TYPE_CHECKING:
    from rich.progress import Progress


def progress_bar(quiet: bool = False) -> Progress:
    """A progress bar on stderr (shown only at a terminal, and not with ``quiet``)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=err(), disable=quiet, transient=False,
    )


def cmd_schema(args: argparse.Namespace) -> int:
    from paiju.server.protocol import schema

    text = json.dumps(schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


# ---------------------------------------------------------------- selfplay


def cmd_selfplay(args: argparse.Namespace) -> int:
    from paiju.bots.selfplay import report, run_selfplay
    from paiju.engines.registry import get_engine

    engine = get_engine(args.variant)
    options = engine.normalize_options(dict(parse_setting(o) for o in args.option or []))
    seats = engine.seat_count(options)
    try:
        levels = [int(x) for x in args.bots.split(",")] if args.bots else [1] * seats
    except ValueError:
        raise ValueError(f"--bots takes bot levels such as 3,2,1,1, not {args.bots!r}") from None
    start = time.perf_counter()
    with progress_bar(args.quiet) as bar:
        task = bar.add_task(f"{args.variant} self-play", total=args.games)
        result = run_selfplay(
            args.variant, args.games, levels, seed=args.seed, options=options,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    print(report(result, time.perf_counter() - start))
    return 0


# ---------------------------------------------------------------- replay


def cmd_replay(args: argparse.Namespace) -> int:
    found = stored_records(args)
    if found is None:
        return 2
    store, where = found
    try:
        if args.all:
            return _replay_all(store, args.quiet)
        if args.room_id is None:
            raise ValueError("name a room, or --all")
        return _replay_one(store, args.room_id, where)
    finally:
        store.close()


def _replay_one(store: Any, room_id: str, database: str) -> int:
    from rich.table import Table

    from paiju.engines.registry import get_engine
    from paiju.persistence.replay import replay_hands, room_log

    record = store.get_room(room_id)
    log = room_log(store, room_id) if record is not None else None
    if record is None or log is None:
        print(f"paiju: no room {room_id!r} in {database}", file=sys.stderr)
        return 1
    engine = get_engine(record.variant)
    console = out()
    console.print(f"room {record.room_id}  variant {record.variant}  phase {record.phase}")
    console.print(f"options {json.dumps(record.options, sort_keys=True)}")
    made = log.created
    for played in replay_hands(engine, made.options, made.seed, log.actions, log.deals,
                               made.scheme):
        table = Table("seq", "seat", "action", "by", title=f"hand {played.hand}",
                      title_justify="left")
        for action in played.actions:
            table.add_row(str(action.seq), str(action.seat), action.action, action.source)
        table.caption_justify = "left"
        table.caption = (
            f"result: {' '.join(f'{s:+d}' for s in played.scores)}"
            if played.scores is not None else "(in progress)"
        )
        console.print(table)
    return 0


def _replay_all(store: Any, quiet: bool) -> int:
    """Replay every stored room (a check after an upgrade): one row per room that fails."""
    from rich.table import Table

    from paiju.engines.registry import get_engine
    from paiju.persistence.replay import replay_hands, room_log

    records = store.list_rooms()
    failures: list[tuple[str, str]] = []
    hands = actions = 0
    with progress_bar(quiet) as bar:
        for record in bar.track(records, description="replaying rooms"):
            try:
                engine = get_engine(record.variant)
                log = room_log(store, record.room_id)
                if log is None:
                    raise ValueError("the room has no records")
                made = log.created
                hands += sum(1 for _ in replay_hands(
                    engine, made.options, made.seed, log.actions, log.deals, made.scheme))
                actions += len(log.actions)
            except Exception as exc:
                failures.append((record.room_id, f"{type(exc).__name__}: {exc}"))
    table = Table("rooms", "replayed", "failed", "hands", "actions")
    table.add_row(str(len(records)), str(len(records) - len(failures)), str(len(failures)),
                  str(hands), str(actions))
    out().print(table)
    for room_id, why in failures:
        print(f"paiju: room {room_id} does not replay: {why}", file=sys.stderr)
    return 1 if failures else 0


# ---------------------------------------------------------------- judge


def run_judge(variant: str, lines: Iterable[str], out_: TextIO) -> int:
    """Answer each JSON line of ``lines`` with one JSON line on ``out_``; bad lines get errors.

    Returns 2 (one line on stderr, no traceback) for a variant that is unknown, cannot be
    loaded or has no judge.
    """
    from paiju.core.errors import GameError
    from paiju.engines.registry import get_variant

    try:
        registered = get_variant(variant)
    except GameError as exc:
        print(f"paiju: {exc}", file=sys.stderr)
        return 2
    if registered.judge is None:
        print(f"paiju: the variant {variant!r} provides no judge", file=sys.stderr)
        return 2
    for line in lines:
        if not line.strip():
            continue
        request: Any = None
        try:
            try:
                request = json.loads(line)
            except ValueError as exc:
                raise ValueError(f"the line is not valid JSON: {exc}") from exc
            if not isinstance(request, dict):
                raise ValueError("each line must be a JSON object")
            answer = registered.answer(request)
        except Exception as exc:
            ident = request.get("id") if isinstance(request, dict) else None
            answer = {"id": ident, "error": str(exc) or type(exc).__name__}
        out_.write(json.dumps(answer, ensure_ascii=False) + "\n")
        out_.flush()
    return 0


def cmd_judge(args: argparse.Namespace) -> int:
    if not args.files:
        return run_judge(args.variant, sys.stdin, sys.stdout)
    missing = [f for f in args.files if not Path(f).is_file()]
    if missing:
        raise ValueError(f"no file {missing[0]}")
    total = sum(_lines(Path(f)) for f in args.files)
    with ExitStack() as stack, progress_bar(args.quiet) as bar:
        task = bar.add_task(f"{args.variant} judge", total=total)
        handles = [stack.enter_context(open(f, encoding="utf-8")) for f in args.files]
        return run_judge(args.variant, _counted(handles, bar, task), sys.stdout)


def _lines(path: Path) -> int:
    with path.open(encoding="utf-8") as handle:
        return sum(1 for line in handle if line.strip())


def _counted(handles: Sequence[TextIO], bar: Progress, task: Any) -> Iterator[str]:
    for handle in handles:
        for line in handle:
            yield line
            if line.strip():
                bar.advance(task)


# ---------------------------------------------------------------- parser


def add_tool_commands(sub: Any) -> None:
    schema = add_command(sub, "schema", "print the protocol's JSON Schema",
                         "paiju schema --output tests/golden/protocol_schema.json")
    schema.add_argument("--output", help="write to this file instead of stdout")
    schema.set_defaults(func=cmd_schema)

    selfplay = add_command(sub, "selfplay", "bots play matches in-process; report by level",
                           "paiju selfplay --variant dragon --games 200 --bots 1,1,0,0")
    selfplay.add_argument("--variant", required=True)
    selfplay.add_argument("--games", type=int, default=100, help="matches to play")
    selfplay.add_argument("--bots", help="bot level per seat, e.g. 3,2,1,1 (0 = random-legal)")
    selfplay.add_argument("--seed", default="selfplay")
    selfplay.add_argument("--option", action="append", metavar="KEY=VALUE")
    selfplay.add_argument("--quiet", action="store_true", help="no progress bar")
    selfplay.set_defaults(func=cmd_selfplay)

    replay = add_command(sub, "replay",
                         "rebuild a room's game from seed + log and print it (--all: check all)",
                         "paiju replay 3f9a01bc --database var/paiju.sqlite3\n"
                         "paiju replay --all")
    with_config(replay)
    replay.add_argument("room_id", nargs="?")
    replay.add_argument("--database")
    replay.add_argument("--all", action="store_true",
                        help="replay every stored room; exit 1 if one does not replay")
    replay.add_argument("--quiet", action="store_true", help="no progress bar")
    replay.set_defaults(func=cmd_replay)

    judge = add_command(sub, "judge",
                        "rules referee: JSON lines in (stdin or files), JSON lines out",
                        "echo '{\"id\": 1, \"kind\": \"solve\", \"tiles\": [\"66\",\"66\",\"16\","
                        "\"46\",\"44\",\"45\",\"35\",\"11\"]}' | paiju judge dragon\n"
                        "paiju judge mcr hands-*.jsonl > answers.jsonl")
    judge.add_argument("variant")
    judge.add_argument("files", nargs="*", help="files of JSON lines (default: stdin)")
    judge.add_argument("--quiet", action="store_true", help="no progress bar")
    judge.set_defaults(func=cmd_judge)
