"""permessage-deflate (RFC 7692) as the server offers it: the ``compression`` setting.

With the window kept between messages ("context", the websockets library's default) each
connection holds a zlib compressor and decompressor for its whole life, some 40 KiB, which
at thousands of idle connections is most of the server's memory per connection. "message"
(the default) compresses each message alone: both sides agree to take no context over
(``server_no_context_takeover``, ``client_no_context_takeover``), so zlib's state exists
only while a message is being compressed. States compress to ~45% of their size that way
against ~7-11% with the context, at about twice the CPU per message (benchmarks in
docs/operations.md, "Compression"). "off" offers no compression.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from websockets.extensions.base import ServerExtensionFactory
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

Compression = Literal["message", "context", "off"]

#: The LZ77 window (bits) for both directions: messages are a few KiB, a larger window
#: would cost memory during each compression for nothing.
WINDOW_BITS = 12
#: zlib's memory level while compressing (the library's default for its deflate).
MEMORY_LEVEL = 5


def deflate(compression: Compression) -> Sequence[ServerExtensionFactory]:
    """The extensions the server offers for ``compression``."""
    if compression == "off":
        return []
    alone = compression == "message"
    return [
        ServerPerMessageDeflateFactory(
            server_no_context_takeover=alone,
            client_no_context_takeover=alone,
            server_max_window_bits=WINDOW_BITS,
            client_max_window_bits=WINDOW_BITS,
            compress_settings={"memLevel": MEMORY_LEVEL},
        )
    ]
