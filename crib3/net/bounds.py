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

What a client causes beyond keys is bounded too, since each costs the app
as much as a key or more: a focus report restyles the whole screen (only
the latest focus matters, so one is told at most every `FOCUS_QUIET`), a
mouse move is folded into the next, and a terminal's replies have a rate
of their own. A session that goes on sending more than this is closed, so
the shared loop is given back to everyone else.
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
FOCUS_QUIET = 0.25          # seconds between two focus changes told to the app, at least
MOVE_QUIET = 0.05           # ... and between two mouse moves (the latest is told)
REPLIES_PER_SECOND = 2.0    # terminal replies (cursor, modes) handed on, sustained
REPLY_BURST = 8             # ... and at once
FLOOD_STRIKES = 20          # seconds in which input was dropped, within FLOOD_WINDOW ...
FLOOD_WINDOW = 60.0         # ... before the session is closed (its neighbours never are)
MAX_UNTOLD = 16384          # characters parsed with nothing told (an endless paste): then dropped
PARSE_FAILURES = 3          # sequences the parser could not read before the session is closed


@dataclass
class InputCount:
    """What a session's input and output came to: for the log, and for the tests."""

    delivered: int = 0        # input events handed to the app
    dropped: int = 0          # input events over the rate or the backlog
    dropped_bytes: int = 0    # bytes over the byte rate, never parsed
    most_waiting: int = 0     # the largest backlog seen when delivering
    frames_skipped: int = 0   # output not sent because the client was behind
    resizes: int = 0          # sizes drawn (one changed as it started, then each after a lull)
    coalesced: int = 0        # focus changes and mouse moves folded into a later one
    dropped_replies: int = 0  # terminal replies over their rate
    parse_failures: int = 0   # sequences that ended a parser (a new one took over)
    dropped_untold: int = 0   # characters the parser held with nothing told, thrown away
    strikes: int = 0          # seconds (within a minute) in which input had to be dropped


def capped_size(width: int, height: int) -> tuple[int, int]:
    """The size a screen is drawn at: the client's, at most 300×100."""
    return min(max(width, 1), MAX_COLUMNS), min(max(height, 1), MAX_ROWS)
