"""CPU per message of the server's send path: a real websockets server connection
(``SlicedIntake``) with the server's permessage-deflate, sending the frames a table makes
(states and events of ``--variant``, recorded in process) to a client on the other core.

    .venv/bin/python benchmarks/send_cost.py --variant mcr
    .venv/bin/python benchmarks/send_cost.py --variant mcr --against /work/old/src

Each group of frames a table action sends one seat (its events, then its state) goes out in
one ``send_frames``, as the writer sends what was queued; with ``--through writer``, each
group is queued on a session (``Session.send_frame``) and its connection's writer
(``paiju.server.link.Writer``) sends it, one loop pass per group, as a room's turn does: the
whole path from the queue to the socket. The server process is pinned to
core 0 and timed with ``time.process_time``; ``--against SRC`` runs another checkout's
``src`` in a subprocess, run by run in turn, and prints both medians. ``--compression``:
message (the default setting), context or off. Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def recorded(variant: str, actions: int) -> list[list[bytes]]:
    """What each action sent seat 0, as groups of frames (events, then the state)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import action_cost

    from paiju.server.wire import encode_bytes
    from paiju.table import table as table_module
    from paiju.table.effects import Send

    groups: list[list[bytes]] = []
    handle = table_module.Table.handle

    def recording(self: Any, *args: Any, **kwargs: Any) -> Any:
        effects = handle(self, *args, **kwargs)
        group = [getattr(e, "frame", None) or encode_bytes(e.message)
                 for e in effects if isinstance(e, Send) and e.to == 0]
        if group:
            groups.append(group)
        return effects

    table_module.Table.handle = recording  # type: ignore[method-assign]
    try:
        action_cost.play(variant, actions, False, "send-cost")
    finally:
        table_module.Table.handle = handle  # type: ignore[method-assign]
    return groups


def queue_and_write(ws: Any) -> Any:
    """A function that queues a group of frames on a session of ``ws`` and lets its writer
    send them (a loop pass), as a room's turn queues them."""
    from paiju.server.config import ServerConfig
    from paiju.server.link import Links, Writer
    from paiju.server.throttle import LogLimiter

    async def dispatch(*_: Any) -> None:
        pass

    # Outbox limits out of reach: a client that falls behind is waited for, not closed.
    config = ServerConfig(outbound_queue=10**6, outbound_queue_bytes=2**40)
    links = Links(config, dispatch, LogLimiter(0))
    session = links.session(ws, "bench")
    writer = Writer(links, ws, session)

    async def send(_: Any, group: list[bytes]) -> None:
        for frame in group:
            session.send_frame(frame)
        await asyncio.sleep(0)
        while (task := writer.task) is not None:  # the socket is full: wait, as send does
            await task

    return send


async def serve_groups(groups: list[list[bytes]], compression: str, rounds: int,
                       through: str = "send_frames") -> float:
    """Seconds of CPU per message to send ``groups`` ``rounds`` times to a client."""
    import time

    from websockets.asyncio.server import serve

    from paiju.server.compression import deflate
    from paiju.server.intake import SlicedIntake, send_frames

    done: asyncio.Future[float] = asyncio.get_running_loop().create_future()

    async def handler(ws: Any) -> None:
        await ws.recv()
        send = send_frames if through == "send_frames" else queue_and_write(ws)
        began = time.process_time()
        sent = 0
        for _ in range(rounds):
            for n, group in enumerate(groups):
                await send(ws, group)
                sent += len(group)
                if n % 50 == 0:
                    await asyncio.sleep(0)  # let the transport drain, as a loaded loop does
        await ws.send("bye")
        done.set_result((time.process_time() - began) / sent)

    async with serve(handler, "127.0.0.1", 0, extensions=deflate(compression),  # type: ignore[arg-type]
                     compression=None, create_connection=SlicedIntake) as server:
        port = server.sockets[0].getsockname()[1]
        client = await asyncio.create_subprocess_exec(sys.executable, __file__, "--client",
                                                      str(port))
        spent = await done
        await client.wait()
    return spent


async def read_all(port: int) -> None:
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/", max_size=None) as ws:
        await ws.send("go")
        while await ws.recv(decode=False) != b"bye":
            pass


def one_run(args: argparse.Namespace, src: Path | None) -> float:
    if src is not None:
        cmd = [sys.executable, __file__, "--variant", args.variant, "--actions",
               str(args.actions), "--rounds", str(args.rounds), "--compression",
               args.compression, "--through", args.through, "--json"]
        env = {**os.environ, "PYTHONPATH": str(src.resolve())}
        out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
        return float(json.loads(out.splitlines()[-1]))
    groups = recorded(args.variant, args.actions)
    return asyncio.run(serve_groups(groups, args.compression, args.rounds, args.through))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="mcr", choices=["mcr", "dragon", "shengji", "diu"])
    parser.add_argument("--actions", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--compression", default="message", choices=["message", "context", "off"])
    parser.add_argument("--through", default="send_frames", choices=["send_frames", "writer"],
                        help="send each group with send_frames, or queue it for the writer")
    parser.add_argument("--against", type=Path, help="another checkout's src/, run by run")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--client", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client is not None:
        os.sched_setaffinity(0, {1})
        asyncio.run(read_all(args.client))
        return
    os.sched_setaffinity(0, {0})
    if args.json:
        print(json.dumps(one_run(args, None)))
        return
    this: list[float] = []
    against: list[float] = []
    for _ in range(args.runs):
        this.append(one_run(args, ROOT / "src"))
        if args.against is not None:
            against.append(one_run(args, args.against))
    print(f"{args.variant}, compression {args.compression}, through {args.through}: "
          "CPU per message sent "
          f"(median of {args.runs} runs)")
    print(f"this     {1e6 * statistics.median(this):6.1f} us")
    if against:
        print(f"against  {1e6 * statistics.median(against):6.1f} us  ({args.against})")


if __name__ == "__main__":
    main()
