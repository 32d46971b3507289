"""How much one SSH session may ask of the server: the limits (the token
bucket that keeps input to them is `crib3.common.rates`).

Every session runs on the server's one event loop, so a session that sends
keys faster than anyone types (a flood, a paste held down, a broken
client) would take the loop from everybody else; one that stops reading
would make the server hold its screens without end; one that claims a
huge terminal would be drawn at that size. `ChannelDriver` keeps each
session inside these numbers: input beyond the rates is dropped (a person
never types 30 keys a second for long, so nobody playing loses a key),
output waits while the client is behind and is then drawn afresh, and the
size that is drawn is capped.
"""

from __future__ import annotations

from dataclasses import dataclass

KEYS_PER_SECOND = 30.0      # sustained input events (keys, clicks, pastes)
KEY_BURST = 60              # ... and how many may come at once
BYTES_PER_SECOND = 4096.0   # bytes handed to the parser, sustained
BYTE_BURST = 16384          # ... and at once: a longer burst is cut off
MAX_BACKLOG = 32            # input events the app may have waiting, at most
OUTPUT_HIGH_WATER = 256 * 1024  # unsent bytes before frames are skipped
OUTPUT_LOW_WATER = 32 * 1024    # ... and when they are drawn again (afresh)
MAX_COLUMNS, MAX_ROWS = 300, 100  # the largest screen drawn; a bigger one is drawn at this
RESIZE_QUIET = 0.05         # seconds without a resize before the latest one is drawn


@dataclass
class InputCount:
    """What a session's input and output came to: for the log, and for the tests."""

    delivered: int = 0        # input events handed to the app
    dropped: int = 0          # input events over the rate or the backlog
    dropped_bytes: int = 0    # bytes over the byte rate, never parsed
    most_waiting: int = 0     # the largest backlog seen when delivering
    frames_skipped: int = 0   # output not sent because the client was behind
    resizes: int = 0          # sizes drawn (one changed as it started, then each after a lull)


def capped_size(width: int, height: int) -> tuple[int, int]:
    """The size a screen is drawn at: the client's, at most 300×100."""
    return min(max(width, 1), MAX_COLUMNS), min(max(height, 1), MAX_ROWS)
