"""``paiju``: serve, operate rooms, export the protocol schema, self-play, replay, judge."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from paiju.cli.bots import add_bot_commands
from paiju.server.config import ServerConfig, load_config, parse_setting

DEFAULT_CONFIG = "configs/server.toml"


def _config(args: argparse.Namespace) -> ServerConfig:
    path = args.config if Path(args.config).exists() else None
    if path is None and args.config != DEFAULT_CONFIG:
        raise ValueError(f"no config file at {args.config}")
    try:
        config = load_config(path)
    except (OSError, ValueError) as exc:  # tomllib.TOMLDecodeError is a ValueError
        raise ValueError(f"cannot read {path}: {exc}") from exc
    overrides = dict(parse_setting(s) for s in getattr(args, "set", None) or [])
    for key in ("host", "port", "database", "admin_token", "rooms_dir"):
        value = getattr(args, key, None)
        if value is not None:
            overrides[key] = value
    return config.with_overrides(overrides)


# ---------------------------------------------------------------- serve


def cmd_serve(args: argparse.Namespace) -> int:
    from paiju.persistence.memory import MemoryStore
    from paiju.persistence.sqlite import SqliteStore
    from paiju.persistence.store import Store
    from paiju.server.app import configure_logging, run_server

    config = _config(args)
    configure_logging()
    store: Store = MemoryStore() if args.memory else SqliteStore(config.database)
    asyncio.run(run_server(config, store))
    return 0


# ---------------------------------------------------------------- room (admin client)


def _admin_token(args: argparse.Namespace, config: ServerConfig) -> str:
    if config.admin_token:
        return config.admin_token
    path = Path(config.admin_token_file)
    if not path.exists():
        raise ValueError(f"no admin token (give --admin-token, or run where {path} exists)")
    return path.read_text().strip()


async def _admin_call(url: str, token: str, request: dict[str, Any]) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    async with connect(url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        await ws.send(json.dumps({"type": "admin", **request}))
        reply: dict[str, Any] = json.loads(await ws.recv())
        return reply


def cmd_room(args: argparse.Namespace) -> int:
    config = _config(args)
    url = args.url or f"ws://{config.host}:{config.port}/admin"
    request: dict[str, Any] = {"command": args.room_command}
    if args.room_command == "create":
        options = dict(parse_setting(o) for o in args.option or [])
        try:
            json.dumps(options)
        except TypeError:  # TOML dates and times have no JSON form
            raise ValueError(
                "--option values must be numbers, strings, booleans, arrays or tables, "
                f"not {options}"
            ) from None
        request.update(
            variant=args.variant,
            preset=args.preset,
            seats=args.seats,
            bots=args.bots,
            bot_level=args.bot_level,
            options=options,
            seed=args.seed,
        )
    elif args.room_command in ("show", "close", "start"):
        request["room"] = args.id
        if args.room_command == "start":
            request["bot_level"] = args.bot_level
    try:
        reply = asyncio.run(_admin_call(url, _admin_token(args, config), request))
    except OSError as exc:
        print(f"paiju: cannot reach the server at {url}: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # the handshake refusal (401) arrives as a websockets error
        print(f"paiju: admin channel refused: {exc}", file=sys.stderr)
        return 2
    if not reply.get("ok"):
        print(f"paiju: {reply.get('code')}: {reply.get('message')}", file=sys.stderr)
        return 1
    _print_admin(args.room_command, reply.get("result"), args.json)
    return 0


def _print_admin(command: str, result: Any, as_json: bool) -> None:
    if as_json or command != "list":
        print(json.dumps(result, indent=None if as_json else 2, ensure_ascii=False))
        return
    if not result:
        print("no rooms")
    for row in result:
        live = "live" if row["live"] else "stored"
        totals = " ".join(str(t) for t in row["totals"])
        print(
            f"{row['room']:<10} {row['variant']:<8} {row['phase']:<10} {live:<6} [{totals}]  "
            f"{', '.join(row['seats'])}"
        )


# ---------------------------------------------------------------- schema, replay, judge


def cmd_schema(args: argparse.Namespace) -> int:
    from paiju.server.protocol import schema

    text = json.dumps(schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from paiju.engines.registry import get_engine
    from paiju.persistence.replay import replay_text
    from paiju.persistence.sqlite import SqliteStore

    config = _config(args)
    if not Path(config.database).exists():
        print(f"paiju: no database at {config.database}", file=sys.stderr)
        return 2
    store = SqliteStore(config.database)
    record = store.get_room(args.room_id)
    if record is None:
        print(f"paiju: no room {args.room_id!r} in {config.database}", file=sys.stderr)
        return 1
    engine = get_engine(record.variant)
    print(f"room {record.room_id}  variant {record.variant}  phase {record.phase}")
    print(f"options {json.dumps(record.options, sort_keys=True)}")
    print(replay_text(engine, record.options, record.seed, store.actions(record.room_id)))
    store.close()
    return 0


def run_judge(variant: str, lines: TextIO, out: TextIO) -> int:
    """Answer each JSON line of ``lines`` with one JSON line on ``out``; bad lines get errors.

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
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
        out.flush()
    return 0


def cmd_judge(args: argparse.Namespace) -> int:
    return run_judge(args.variant, sys.stdin, sys.stdout)


# ---------------------------------------------------------------- selfplay


def _progress(done: int, total: int) -> None:
    if not sys.stderr.isatty() and done not in (total,) and done % max(1, total // 10):
        return
    width = 30
    filled = width * done // total
    end = "\n" if done == total else ""
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}{end}")
    sys.stderr.flush()


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
    result = run_selfplay(
        args.variant,
        args.games,
        levels,
        seed=args.seed,
        options=options,
        progress=None if args.quiet else _progress,
    )
    print(report(result, time.perf_counter() - start))
    return 0


# ---------------------------------------------------------------- parser


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="paiju", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    def with_config(p: argparse.ArgumentParser) -> None:
        p.add_argument("--config", default=DEFAULT_CONFIG, help="server TOML (default %(default)s)")
        p.add_argument(
            "--set",
            action="append",
            metavar="KEY=VALUE",
            help="override any [server] setting (TOML value); repeatable",
        )

    serve = sub.add_parser("serve", help="run the WebSocket server until SIGTERM/SIGINT")
    with_config(serve)
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--database", help="SQLite file for rooms and logs")
    serve.add_argument("--admin-token", dest="admin_token")
    serve.add_argument("--rooms-dir", dest="rooms_dir", help="folder of room presets")
    serve.add_argument("--memory", action="store_true", help="keep nothing on disk (testing)")
    serve.set_defaults(func=cmd_serve)

    room = sub.add_parser("room", help="operate rooms on a running server (admin channel)")
    room_sub = room.add_subparsers(dest="room_command", required=True)
    for name, text in [
        ("create", "create a room"),
        ("list", "list rooms"),
        ("show", "show one room"),
        ("close", "close a room for good"),
        ("start", "start now, bots filling empty seats"),
    ]:
        rp = room_sub.add_parser(name, help=text)
        with_config(rp)
        rp.add_argument("--url", help="admin URL (default ws://HOST:PORT/admin from the config)")
        rp.add_argument("--admin-token", dest="admin_token")
        rp.add_argument("--host")
        rp.add_argument("--port", type=int)
        rp.add_argument("--json", action="store_true", help="print raw JSON")
        if name in ("show", "close", "start"):
            rp.add_argument("id", help="room id")
        if name in ("create", "start"):
            rp.add_argument("--bot-level", type=int, default=1, help="bot level (0 = random)")
        if name == "create":
            rp.add_argument("--variant", help="the variant (default: the preset's)")
            rp.add_argument(
                "--preset", help="room preset by name (default: the variant's own preset)"
            )
            rp.add_argument("--seats", type=int)
            rp.add_argument("--bots", type=int, default=0, help="bots in the last N seats")
            rp.add_argument("--option", action="append", metavar="KEY=VALUE")
            rp.add_argument("--seed", help="match seed (default: random)")
        rp.set_defaults(func=cmd_room)

    schema = sub.add_parser("schema", help="print the protocol's JSON Schema")
    schema.add_argument("--output", help="write to this file instead of stdout")
    schema.set_defaults(func=cmd_schema)

    selfplay = sub.add_parser("selfplay", help="bots play matches in-process; report by level")
    selfplay.add_argument("--variant", required=True)
    selfplay.add_argument("--games", type=int, default=100, help="matches to play")
    selfplay.add_argument("--bots", help="bot level per seat, e.g. 3,2,1,1 (0 = random-legal)")
    selfplay.add_argument("--seed", default="selfplay")
    selfplay.add_argument("--option", action="append", metavar="KEY=VALUE")
    selfplay.add_argument("--quiet", action="store_true", help="no progress bar")
    selfplay.set_defaults(func=cmd_selfplay)

    replay = sub.add_parser("replay", help="rebuild a room's game from seed + log and print it")
    with_config(replay)
    replay.add_argument("room_id")
    replay.add_argument("--database")
    replay.set_defaults(func=cmd_replay)

    judge = sub.add_parser("judge", help="rules referee: JSON lines in, JSON lines out")
    judge.add_argument("variant")
    judge.set_defaults(func=cmd_judge)

    add_bot_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``paiju`` console script.

    Returns 0 on success, 1 when the server or store refuses (no such room), 2 for bad
    flags, settings or files; argparse itself exits 2 on a usage error. A bad value is
    reported in one line, never as a traceback.
    """
    from paiju.core.errors import GameError

    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except (ValueError, GameError) as exc:
        print(f"paiju: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
