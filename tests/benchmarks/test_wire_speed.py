"""The card room's wire (`crib3.room.wire`), run on demand:
`python -m pytest tests/benchmarks/test_wire_speed.py --benchmark-only -s`.

Frames are on the hot path of every key to every screen: a key goes in an
`Input`, the move it makes goes as a `Call` (dispatch) and comes back as
`FeedItems` (an event and the seat's view) to each of a table's sessions,
the lobby hears a `RoomDelta`, and each screen goes out as an `Output`.
Each is timed here written and read back (encode + decode of one frame)
as the wire does it, and as the pickle it replaced did, in the same run:
`extra_info` holds both, in microseconds, and the ratio.
"""

from __future__ import annotations

import pickle
import timeit

import pytest
from games import random_game
from test_wire import a_delta

from crib3.cards import DECK
from crib3.engine import Play, SeatFeed
from crib3.room import wire


def typical() -> dict[str, object]:
    game = random_game(5)
    history, _ = SeatFeed(game, 1).follow(lambda *a: None)
    event, _, view = history[len(history) // 2]  # mid-game: a hand and a pile in the view
    screen = bytes(b"\x1b[38;2;200;200;200m\x1b[48;2;0;60;0m" + "│ 5♥ ".encode() * 8) * 40
    delta = a_delta()
    return {
        "Input (a key)": wire.Input(3, b"\r"),
        "Output (a 4 KB screen)": wire.Output(3, screen[:4096]),
        "Call (a move)": wire.Call(41, 3, 7, "dispatch", (1, Play(1, DECK[20]))),
        "Reply (to a move)": wire.Reply(41),
        "FeedItems (an event and its view)": wire.FeedItems(9, ((event, view),)),
        "RoomDelta (one table changed)": wire.RoomDelta(
            delta.version, delta.clock, delta.patience, delta.people, delta.shelved,
            delta.tables[:1], delta.reopenable),
    }


MESSAGES = typical()


def per_frame_us(run, number: int) -> float:
    return min(timeit.repeat(run, number=number, repeat=5)) / number * 1e6


@pytest.mark.parametrize("name", list(MESSAGES))
def test_a_frame_written_and_read_back(benchmark, name):
    message = MESSAGES[name]
    frames = wire.Frames()

    def by_wire():
        return frames.feed(wire.frame(message))

    def by_pickle():
        return pickle.loads(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))

    assert by_wire() == [message] and by_pickle() == message
    number = 2000
    wire_us, pickle_us = per_frame_us(by_wire, number), per_frame_us(by_pickle, number)
    size = len(wire.frame(message))
    pickled = len(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)) + 4
    benchmark(by_wire)
    benchmark.extra_info.update(wire_us=round(wire_us, 2), pickle_us=round(pickle_us, 2),
                                ratio=round(wire_us / pickle_us, 2), wire_bytes=size,
                                pickle_bytes=pickled)
    print(f"\n{name}: wire {wire_us:.1f} us ({size} B), pickle {pickle_us:.1f} us "
          f"({pickled} B), x{wire_us / pickle_us:.2f}")
