"""What permessage-deflate costs per message, on the frames MCR tables really send.

    .venv/bin/python benchmarks/compression_cost.py [--actions 3000]

Plays ``--actions`` actions on 50 MCR tables (random legal actions), keeps every frame the
table sends (states and events, encoded as on the wire), then compresses each frame alone, as
``compression = "message"`` does (a fresh zlib compressor per message, window 12 bits), with
each setting: zlib level and memory level, and whether messages under ``--small`` bytes are
sent as they are. Prints per setting the CPU time per message (mean, in µs), the bytes on the
wire as a share of the frames' bytes, and the memory zlib allocates for one compressor.
"""

from __future__ import annotations

import argparse
import random
import time
import zlib

from gc_pauses import new_table, playing  # the same MCR tables (benchmarks/ is on the path)

from paiju.server.wire import encode_bytes
from paiju.table.commands import Act
from paiju.table.effects import Send

WINDOW_BITS = 12


def frames(actions: int) -> list[bytes]:
    """The frames 50 tables send over ``actions`` random legal actions."""
    rng = random.Random(1)
    tables = [new_table(n) for n in range(50)]
    made = len(tables)
    sent: list[bytes] = []
    for _ in range(actions):
        k = rng.randrange(len(tables))
        made = playing(tables, k, made)
        table = tables[k]
        seat = min(table.decisions.waiting)
        legal = table.engine.view(table.state, seat)["legal"]
        effects = table.handle(seat, Act(table.shown_version(seat), rng.choice(legal)), 0.0)
        sent += [encode_bytes(e.message) for e in effects if isinstance(e, Send)]
    return sent


def compressor_memory(mem_level: int) -> int:
    """Bytes zlib allocates for one deflate stream (zlib's own formula, zconf.h)."""
    return (1 << (WINDOW_BITS + 2)) + (1 << (mem_level + 9))


def measure(sent: list[bytes], level: int, mem_level: int, small: int) -> str:
    wire = 0
    start = time.process_time()
    for frame in sent:
        if len(frame) < small:
            wire += len(frame)
            continue
        encoder = zlib.compressobj(level, zlib.DEFLATED, -WINDOW_BITS, mem_level)
        data = encoder.compress(frame) + encoder.flush(zlib.Z_SYNC_FLUSH)
        wire += len(data) - 4
    spent = time.process_time() - start
    raw = sum(len(f) for f in sent)
    return (f"level {level} memLevel {mem_level} small<{small:<4d} "
            f"{1e6 * spent / len(sent):6.1f} µs/msg  wire {100 * wire / raw:5.1f}% of "
            f"{raw / len(sent):6.0f} B  zlib {compressor_memory(mem_level) // 1024:3d} KiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--small", type=int, default=256)
    args = parser.parse_args()
    sent = frames(args.actions)
    shares = sum(len(f) < args.small for f in sent) / len(sent)
    print(f"{len(sent)} frames, {100 * shares:.0f}% under {args.small} bytes")
    for level, mem_level, small in [(6, 5, 0), (1, 5, 0), (1, 5, args.small), (1, 3, args.small),
                                    (1, 1, args.small)]:
        print(measure(sent, level, mem_level, small))


if __name__ == "__main__":
    main()
