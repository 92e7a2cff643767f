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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from websockets.extensions import Extension
from websockets.extensions.base import ServerExtensionFactory
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import CTRL_OPCODES, Frame, Opcode
from websockets.typing import ExtensionParameter

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
#: Messages shorter than this (bytes) go out uncompressed.
SMALL = 256


class SmallAsIs(PerMessageDeflate):
    """permessage-deflate that leaves whole messages under ``SMALL`` bytes uncompressed."""

    def encode(self, frame: Frame) -> Frame:
        if (
            frame.fin
            and frame.opcode is not Opcode.CONT
            and frame.opcode not in CTRL_OPCODES
            and len(frame.data) < SMALL
        ):
            return frame  # RSV1 stays clear: the client reads it as it is
        return super().encode(frame)


class SmallAsIsFactory(ServerPerMessageDeflateFactory):
    """Negotiates as the library's factory does, and hands out ``SmallAsIs``."""

    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        answer, agreed = super().process_request_params(params, accepted_extensions)
        return answer, SmallAsIs(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
            agreed.compress_settings,
        )


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
