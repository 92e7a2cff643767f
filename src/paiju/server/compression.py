"""permessage-deflate (RFC 7692) as the server offers it: the ``compression`` setting.

With the window kept between messages ("context", the websockets library's default) each
connection holds a zlib compressor and decompressor for its whole life, some 40 KiB, which
at thousands of idle connections is most of the server's memory per connection. "message"
(the default) compresses each message alone: both sides agree to take no context over
(``server_no_context_takeover``, ``client_no_context_takeover``), so zlib's state exists
only while a message is being compressed. States compress to ~45% of their size that way
against ~7-11% with the context, at about twice the CPU per message (benchmarks in
docs/operations.md, "Compression"). "off" offers no compression.

Either way the server compresses at zlib's fastest level, and sends a message shorter than
``SMALL`` bytes as it is (RFC 7692 lets each message say whether it is compressed): two
thirds of what a table sends are such short events, which deflate barely shrinks
(benchmarks/compression_cost.py).

With "message", whole messages are compressed by ISA-L (the ``isal`` package; the standard
library's zlib when it is missing) at its fastest level: the same deflate format,
which every client reads, at about a third of zlib-ng's CPU for an MCR state (5.8 against
15.6 us, ``Deflater``) for the same output (50% of the state's size; zlib at its level 1: 40%,
at 37 us). States are most of what the server compresses: zlib-ng's compressor was ~8% of a
loaded server's main thread. One compressor serves every connection and is reset after each
message (a full flush), so no message's bytes depend on another's (a test holds each to a
fresh compressor's output): one seat's compressed sizes cannot tell anything about what
another seat was sent. A message that does not shrink goes out as it is (ISA-L's fastest
level never falls back to stored blocks: random bytes would grow by a quarter).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from websockets.extensions import Extension
from websockets.extensions.base import ServerExtensionFactory
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import CTRL_OPCODES, Frame, Opcode
from websockets.typing import ExtensionParameter

try:
    from isal import isal_zlib as deflating
except ImportError:  # pragma: no cover - the dependency is declared; a bare install still runs
    import zlib as deflating  # type: ignore[no-redef]

Compression = Literal["message", "context", "off"]

#: The LZ77 window (bits) for both directions: messages are a few KiB, a larger window
#: would cost memory during each compression for nothing.
WINDOW_BITS = 12
#: zlib's memory level while compressing (the library's default for its deflate); lower ones
#: save a few KiB per compressor and cost more CPU per message.
MEMORY_LEVEL = 5
#: zlib's level: the fastest compresses states to within a few points of the default (6)
#: at three quarters of its CPU.
LEVEL = 1
#: The shared ``Deflater``'s level: ISA-L's fastest (0, which still compresses: ISA-L has no
#: level that only stores), else zlib's.
DEFLATER_LEVEL = 0 if deflating.__name__.startswith("isal") else LEVEL
#: Messages shorter than this (bytes) go out uncompressed.
SMALL = 256


#: The empty stored block a flush ends with, which permessage-deflate leaves off the wire.
FLUSH_TAIL = b"\x00\x00\xff\xff"


class Deflater:
    """Compresses whole messages one at a time, each alone: a full flush after each one
    empties the compressor's history, so a message compresses to the same bytes as with a
    compressor of its own (without the cost of making one per message)."""

    __slots__ = ("_encoder",)

    def __init__(self, window_bits: int, level: int = DEFLATER_LEVEL,
                 memory_level: int = MEMORY_LEVEL) -> None:
        self._encoder: Any = deflating.compressobj(
            level, deflating.DEFLATED, -window_bits, memory_level
        )

    def message(self, data: bytes) -> bytes | None:
        """``data`` deflated as a message of its own, without the flush's tail; ``None`` when
        that is not shorter than ``data`` (it goes out as it is)."""
        out: bytes = self._encoder.compress(data) + self._encoder.flush(deflating.Z_FULL_FLUSH)
        if len(out) - len(FLUSH_TAIL) >= len(data):
            return None
        return out[: -len(FLUSH_TAIL)]


class SmallAsIs(PerMessageDeflate):
    """permessage-deflate that leaves whole messages under ``SMALL`` bytes uncompressed and,
    without context takeover, compresses the others with a ``Deflater`` shared by every
    connection (``deflater``; the library's own path for anything else)."""

    deflater: Deflater | None = None

    def encode(self, frame: Frame) -> Frame:
        if frame.fin and frame.opcode is not Opcode.CONT and frame.opcode not in CTRL_OPCODES:
            if len(frame.data) < SMALL:
                return frame  # RSV1 stays clear: the client reads it as it is
            if self.deflater is not None:
                data = self.deflater.message(bytes(frame.data))
                if data is None:
                    return frame  # it would not shrink: sent as it is, as a short one
                return Frame(frame.opcode, data, True, True, frame.rsv2, frame.rsv3)
        return super().encode(frame)


class SmallAsIsFactory(ServerPerMessageDeflateFactory):
    """Negotiates as the library's factory does, and hands out ``SmallAsIs`` with the
    factory's ``Deflater`` for the window the client agreed to (one per window size)."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self._deflaters: dict[int, Deflater] = {}

    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        answer, agreed = super().process_request_params(params, accepted_extensions)
        extension = SmallAsIs(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
            agreed.compress_settings,
        )
        if agreed.local_no_context_takeover:
            extension.deflater = self.deflater(agreed.local_max_window_bits)
        return answer, extension

    def deflater(self, window_bits: int) -> Deflater:
        """The shared compressor for messages of ``window_bits``."""
        found = self._deflaters.get(window_bits)
        if found is None:
            found = self._deflaters[window_bits] = Deflater(window_bits)
        return found


def deflate(compression: Compression) -> Sequence[ServerExtensionFactory]:
    """The extensions the server offers for ``compression``."""
    if compression == "off":
        return []
    alone = compression == "message"
    return [
        SmallAsIsFactory(
            server_no_context_takeover=alone,
            client_no_context_takeover=alone,
            server_max_window_bits=WINDOW_BITS,
            client_max_window_bits=WINDOW_BITS,
            compress_settings={"level": LEVEL, "memLevel": MEMORY_LEVEL},
        )
    ]
