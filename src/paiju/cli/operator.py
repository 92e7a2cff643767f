"""The operator's commands on a running server, over the admin channel (``/admin``, bearer
token): rooms, connections, notices, the drain. ``ws://`` or, for a server with TLS,
``wss://`` (``--ca-file`` to trust a certificate of your own)."""

from __future__ import annotations

import argparse
import asyncio
import json
import ssl
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paiju.cli.common import add_command, config_from, out, with_config
from paiju.server.config import ServerConfig, parse_setting

if TYPE_CHECKING:
    from rich.table import Table

#: Refusals that mean a bad value was given (exit 2, as for a bad flag); others exit 1.
BAD_VALUE_CODES = frozenset({
    "invalid_message", "invalid_options", "unknown_variant", "variant_unavailable",
    "unknown_preset", "invalid_name", "seat_taken",
})


class Refused(Exception):
    """The server refused the command (its code and sentence)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def admin_url(args: argparse.Namespace, config: ServerConfig) -> str:
    """``--url``, else the configured server's admin channel (``wss`` if it has TLS)."""
    if args.url:
        return str(args.url)
    host = "127.0.0.1" if config.host in ("", "0.0.0.0") else config.host
    host = "::1" if host == "::" else host
    host = f"[{host}]" if ":" in host else host
    scheme = "wss" if config.tls_cert_file else "ws"
    return f"{scheme}://{host}:{config.port}/admin"


def admin_token(config: ServerConfig) -> str:
    """The configured token, else the one the server wrote to ``admin_token_file``."""
    if config.admin_token:
        return config.admin_token
    path = Path(config.admin_token_file)
    if not path.exists():
        raise ValueError(f"no admin token (give --admin-token, or run where {path} exists)")
    return path.read_text().strip()


class Channel:
    """One admin connection."""

    def __init__(self, args: argparse.Namespace) -> None:
        config = config_from(args)
        self.url = admin_url(args, config)
        self.token = admin_token(config)
        self.ssl: ssl.SSLContext | None = None
        if self.url.startswith("wss://"):
            self.ssl = ssl.create_default_context(cafile=getattr(args, "ca_file", None))

    def _connect(self) -> Any:
        from websockets.asyncio.client import connect

        return connect(self.url, ssl=self.ssl,
                       additional_headers={"Authorization": f"Bearer {self.token}"})

    async def call(self, request: dict[str, Any]) -> Any:
        """The result of one command; ``Refused`` if the server says no."""
        async with self._connect() as ws:
            await ws.send(json.dumps({"type": "admin", **request}))
            return _result(json.loads(await ws.recv()))

    async def stream(self, request: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
        """The answer, then every message that follows until the server closes."""
        from websockets.exceptions import ConnectionClosed

        async with self._connect() as ws:
            await ws.send(json.dumps({"type": "admin", **request}))
            yield {"type": "admin_result", "result": _result(json.loads(await ws.recv()))}
            try:
                async for frame in ws:
                    yield json.loads(frame)
            except ConnectionClosed:
                return


def _result(reply: dict[str, Any]) -> Any:
    if not reply.get("ok"):
        raise Refused(str(reply.get("code")), str(reply.get("message")))
    return reply.get("result")


def run(args: argparse.Namespace, request: dict[str, Any]) -> Any:
    """Send ``request``; errors reaching the server become one line (``Unreachable``)."""
    channel = Channel(args)
    try:
        return asyncio.run(channel.call(request))
    except Refused:
        raise
    except OSError as exc:
        raise Unreachable(f"cannot reach the server at {channel.url}: {exc}") from None
    except Exception as exc:  # the handshake refusal (401, 429) arrives as a websockets error
        raise Unreachable(f"admin channel refused: {exc}") from None


class Unreachable(Exception):
    """The admin channel cannot be reached or refuses the token."""


def guarded(command: Any) -> Any:
    """Map refusals to exit codes: a bad value 2, another refusal 1, no channel 2."""

    def wrapped(args: argparse.Namespace) -> int:
        try:
            return int(command(args))
        except Refused as exc:
            print(f"paiju: {exc}", file=sys.stderr)
            return 2 if exc.code in BAD_VALUE_CODES else 1
        except Unreachable as exc:
            print(f"paiju: {exc}", file=sys.stderr)
            return 2

    return wrapped


# ---------------------------------------------------------------- rooms


def cmd_room(args: argparse.Namespace) -> int:
    request: dict[str, Any] = {"command": args.room_command}
    if args.room_command == "create":
        request.update(_create_request(args))
    elif args.room_command != "list":
        request["room"] = args.id
    if args.room_command == "start":
        request["bot_level"] = args.bot_level
    if args.room_command in ("pause", "resume", "notice"):
        request["text"] = args.text
    if args.room_command == "invite":
        request.update(seat=args.seat, name=args.name)
    if args.room_command == "trustee":
        request.update(seat=args.seat, on=args.state == "on")
    if args.room_command == "watch":
        return _watch(args, request)
    result = run(args, request)
    _print_room_result(args, result)
    return 0


def _create_request(args: argparse.Namespace) -> dict[str, Any]:
    options = dict(parse_setting(o) for o in args.option or [])
    try:
        json.dumps(options)
    except TypeError:  # TOML dates and times have no JSON form
        raise ValueError(
            "--option values must be numbers, strings, booleans, arrays or tables, "
            f"not {options}"
        ) from None
    return {
        "variant": args.variant, "preset": args.preset, "seats": args.seats, "bots": args.bots,
        "bot_level": args.bot_level, "options": options, "seed": args.seed,
        "spectator_delay": args.spectator_delay,
        "spectator_delay_actions": args.spectator_delay_actions,
    }


def _print_room_result(args: argparse.Namespace, result: Any) -> None:
    command = args.room_command
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    elif command == "create":
        print(result["room"])  # the id alone, for scripts: ROOM=$(paiju room create ...)
    elif command == "list":
        out().print(rooms_table(result))
    elif command == "invite":
        print(result["token"])
        print(f"give this one-time token to {result['name']}: resume room {result['room']} "
              f"with it to take seat {result['seat']} from its bot", file=sys.stderr)
    elif command == "notice":
        print(f"told {result['told']} connection(s) in room {result['room']}")
    else:
        out().print(room_view(result))


def rooms_table(rows: list[dict[str, Any]]) -> Table | str:
    from rich.table import Table

    if not rows:
        return "no rooms"
    table = Table("room", "variant", "phase", "where", "totals", "seats")
    for row in rows:
        where = ("paused" if row.get("paused") else "live") if row["live"] else "stored"
        table.add_row(row["room"], row["variant"], row["phase"], where,
                      " ".join(str(t) for t in row["totals"]), ", ".join(row["seats"]))
    return table


def room_view(summary: dict[str, Any]) -> Table:
    from rich.table import Table

    where = "stored" if not summary.get("live") else (
        "live, paused" if summary.get("paused") else "live")
    table = Table("seat", "kind", "name", "ready", "connected", "total",
                  title=f"room {summary['room']}  {summary['variant']}  {summary['phase']}  "
                        f"hand {summary['hand']}  ({where})", title_justify="left")
    totals = summary.get("totals") or []
    for seat in summary.get("seats", []):
        total = totals[seat["seat"]] if seat["seat"] < len(totals) else ""
        table.add_row(str(seat["seat"]), seat["kind"], seat["name"], str(seat["ready"]),
                      str(seat["connected"]), str(total))
    extras = {k: summary[k] for k in ("options", "spectators", "spectator_delay",
                                      "spectator_delay_actions", "connections")
              if k in summary}
    table.caption = json.dumps(extras, ensure_ascii=False)
    table.caption_justify = "left"
    return table


def _watch(args: argparse.Namespace, request: dict[str, Any]) -> int:
    channel = Channel(args)

    async def follow() -> None:
        async for message in channel.stream(request):
            if message["type"] == "admin_result":
                print(f"watching room {message['result']['room']} (Ctrl-C to stop)",
                      file=sys.stderr, flush=True)
                continue
            print(json.dumps(message, ensure_ascii=False) if args.json else describe(message),
                  flush=True)

    try:
        asyncio.run(follow())
    except KeyboardInterrupt:
        return 0
    except Refused:
        raise
    except OSError as exc:
        raise Unreachable(f"cannot reach the server at {channel.url}: {exc}") from None
    return 0


def describe(message: dict[str, Any]) -> str:
    """One line for a message of the room's stream."""
    kind = message["type"]
    if kind == "state":
        return (f"state   v{message['version']:<4} {message['phase']:<9} hand {message['hand']}"
                f"  to act {message['to_act']}  totals {message['totals']}")
    if kind == "event":
        event = message["event"]
        data = json.dumps(event["data"], ensure_ascii=False)
        return f"event   v{message['version']:<4} {event['kind']} {data}"
    if kind == "room_paused":
        return f"paused  {message['paused']} {message.get('reason', '')}".rstrip()
    if kind == "notice":
        return f"notice  {message['text']}"
    return f"{kind:<7} {json.dumps(message, ensure_ascii=False)}"


# ---------------------------------------------------------------- server-wide


def cmd_connections(args: argparse.Namespace) -> int:
    from rich.table import Table

    rows = run(args, {"command": "connections", "room": args.room})
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    table = Table("connection", "kind", "room", "seat", "address")
    for row in rows:
        table.add_row(row["connection"], row["kind"], row["room"] or "",
                      "" if row["seat"] is None else str(row["seat"]), row["address"])
    out().print(table if rows else "no connections")
    return 0


def cmd_kick(args: argparse.Namespace) -> int:
    result = run(args, {"command": "kick", "connection": args.connection, "text": args.reason})
    print(json.dumps(result) if args.json else f"kicked {result['connection']}")
    return 0


def cmd_notice(args: argparse.Namespace) -> int:
    result = run(args, {"command": "notice", "text": args.text})
    print(json.dumps(result) if args.json else f"told {result['told']} connection(s)")
    return 0


def cmd_drain(args: argparse.Namespace) -> int:
    channel = Channel(args)

    async def drain() -> dict[str, Any]:
        answer: dict[str, Any] = {}
        async for message in channel.stream({"command": "drain"}):
            answer = answer or message["result"]
            if not args.wait:
                break
        return answer

    try:
        result = asyncio.run(drain())
    except OSError as exc:
        raise Unreachable(f"cannot reach the server at {channel.url}: {exc}") from None
    if args.json:
        print(json.dumps(result))
    else:
        done = "stopped" if args.wait else (
            f"stops once they end (at most {result['timeout']:g} s)")
        print(f"draining: {result['hands_in_play']} hand(s) in play; the server {done}")
    return 0


# ---------------------------------------------------------------- parser

ROOM_COMMANDS = [
    ("create", "create a room (prints its id)",
     "paiju room create --variant dragon --bots 3\n"
     "paiju room create --preset mcr --bots 4 --spectator-delay 30 --json"),
    ("list", "list the rooms, live and stored", "paiju room list --json"),
    ("show", "show one room: seats, scores, connections", "paiju room show 3f9a01bc"),
    ("start", "start now, bots filling the empty seats", "paiju room start 3f9a01bc --bot-level 1"),
    ("close", "close a room for good (its tokens are revoked)", "paiju room close 3f9a01bc"),
    ("pause", "pause a room: its timers stand still, actions are refused",
     "paiju room pause 3f9a01bc --text 'back in five minutes'"),
    ("resume", "resume a paused room (every deadline moves by the pause)",
     "paiju room resume 3f9a01bc"),
    ("invite", "a one-time token for a person to take a bot's seat",
     "paiju room invite 3f9a01bc --seat 2 --name Mei"),
    ("notice", "send a notice to everyone in a room",
     "paiju room notice 3f9a01bc 'the final starts in ten minutes'"),
    ("trustee", "put a person's seat in trustee mode (a bot plays it) or take it out",
     "paiju room trustee 3f9a01bc 2 on"),
    ("watch", "stream a room's public events live (no spectator delay)",
     "paiju room watch 3f9a01bc\npaiju room watch 3f9a01bc --json | jq .type"),
]


def admin_flags(parser: argparse.ArgumentParser) -> None:
    """Where the admin channel is and how to get in."""
    with_config(parser)
    parser.add_argument("--url", help="admin URL (default ws://HOST:PORT/admin from the config; "
                                      "wss:// for a server with TLS)")
    parser.add_argument("--ca-file", dest="ca_file",
                        help="PEM file of the certificate authority to trust for wss://")
    parser.add_argument("--admin-token", dest="admin_token")
    parser.add_argument("--host")
    parser.add_argument("--port", type=int)
    parser.add_argument("--json", action="store_true", help="print JSON")


def add_operator_commands(sub: Any) -> None:
    room = add_command(sub, "room", "operate rooms on a running server (admin channel)",
                       "paiju room list")
    room_sub = room.add_subparsers(dest="room_command", required=True)
    for name, text, example in ROOM_COMMANDS:
        rp = add_command(room_sub, name, text, example)
        admin_flags(rp)
        if name not in ("create", "list"):
            rp.add_argument("id", help="room id")
        if name in ("create", "start"):
            rp.add_argument("--bot-level", type=int, default=1, help="bot level (0 = random)")
        if name in ("pause", "resume"):
            rp.add_argument("--text", help="why (shown to the players)")
        if name == "notice":
            rp.add_argument("text", help="the notice")
        if name == "invite":
            rp.add_argument("--seat", type=int, required=True, help="a seat a bot holds")
            rp.add_argument("--name", default="player", help="the invited person's name")
        if name == "trustee":
            rp.add_argument("seat", type=int, help="a seat a person holds")
            rp.add_argument("state", choices=["on", "off"])
        if name == "create":
            _create_flags(rp)
        rp.set_defaults(func=guarded(cmd_room))

    for name, text, example, func in [
        ("connections", "list open connections (ids for kick)", "paiju connections --room 3f9a01bc",
         cmd_connections),
        ("kick", "close a connection (code 4002); its seat stays for a resume",
         "paiju kick 5be1c0de0a11 --reason 'abusive name'", cmd_kick),
        ("notice", "send a notice to every connection", "paiju notice 'restart at 22:00 UTC'",
         cmd_notice),
        ("drain", "drain the server: hands in play finish, then it stops (exit 0)",
         "paiju drain --wait", cmd_drain),
    ]:
        parser = add_command(sub, name, text, example)
        admin_flags(parser)
        if name == "connections":
            parser.add_argument("--room", help="only this room's")
        if name == "kick":
            parser.add_argument("connection", help="connection id (paiju connections)")
            parser.add_argument("--reason", help="sent in the close frame")
        if name == "notice":
            parser.add_argument("text", help="the notice")
        if name == "drain":
            parser.add_argument("--wait", action="store_true",
                                help="return once the server has stopped")
        parser.set_defaults(func=guarded(func))


def _create_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", help="the variant (default: the preset's)")
    parser.add_argument("--preset", help="room preset by name (default: the variant's own)")
    parser.add_argument("--seats", type=int)
    parser.add_argument("--bots", type=int, default=0, help="bots in the last N seats")
    parser.add_argument("--option", action="append", metavar="KEY=VALUE")
    parser.add_argument("--seed", help="match seed (default: random)")
    parser.add_argument("--spectator-delay", dest="spectator_delay", type=float,
                        help="seconds spectators see the game late (default: preset, server)")
    parser.add_argument("--spectator-delay-actions", dest="spectator_delay_actions", type=int,
                        help="actions spectators see the game late")
