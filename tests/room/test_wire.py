"""The card room's wire (`crib3.room.wire`): every message written in a
neutral encoding (JSON by the engine's codec, terminal bytes as they are)
and read back strictly; no pickle; a frame that is not one of ours closes
its link; a worker of another version is refused at its hello."""

from __future__ import annotations

import ast
import asyncio
import json
import logging
import socket
import struct
from pathlib import Path

import pytest
from games import random_game

import crib3.room.wire as wire_module
from crib3.cards import DECK
from crib3.engine import Discard, Play, PlayerInfo, Rules, SeatFeed
from crib3.engine.codec import encode, encode_view
from crib3.room import wire
from crib3.room.chat import ChatLine
from crib3.room.host import summary
from crib3.room.seats import Seat


def crossed(message: object) -> object:
    (back,) = wire.Frames().feed(wire.frame(message))
    return back


def a_feed(seat: int | None = 1) -> tuple[tuple[object, object], ...]:
    """Some seat-redacted events of a game, each with the seat's view."""
    game = random_game(11)
    history, _ = SeatFeed(game, seat).follow(lambda *a: None)
    return tuple((event, view) for event, _state, view in history[:40])


def a_delta() -> wire.RoomDelta:
    seats = (Seat("ann", "ssh-ed25519 AAAA"), Seat(None, level="hard"),
             Seat("bob", None, "standard", True))
    standing = wire.PublicStanding((PlayerInfo("ann"), PlayerInfo("hard", "hard"),
                                    PlayerInfo("bob")), (12, 7, 30), 3, None)
    table = wire.TableSnap(
        uid=4, number=2, owner="ann", rules=Rules(61, True, False), seats=seats,
        online=frozenset({0, 2}), away_since=((2, 1234.5),), started=True, over=False,
        closed=False, closed_by=None, passed_from="cat", watchers=("dee",),
        chat=(ChatLine("ann", "hello <b>[red]ü</b>"),), standing=standing, in_room=True,
        whole=True, close_asked=("bob",))
    return wire.RoomDelta(version=9, clock=81234.25, patience=60.0,
                          people=(wire.Person("ann", "ssh-ed25519 AAAA", True),
                                  wire.Person("bob", None, False)),
                          shelved=((3, seats),), tables=(table, summary(table)),
                          reopenable=((5, seats[:1]),), events=(an_event(),))


def an_event() -> wire.EventSnap:
    return wire.EventSnap(name="club", host="ann", status="playing", start_at=1765000000.0,
                          board_count=6, entered=("ann", "bob", "cat", "dee"), board=2,
                          seating=(("ann", "bob", None), ("cat", "dee", None)), note="",
                          tables=(7, 8), lines=("Ranking", "   1. ann   1   100.0%  +3.5"))


def every_message() -> list[object]:
    feed = a_feed()
    return [
        wire.Hello(wire.VERSION, 4242),
        a_delta(),
        wire.FeedItems(7, feed),
        wire.FeedItems(8, a_feed(None)),
        wire.Call(1, 2, "room", "open_table", (wire.ME, Rules(121, False, True), ("easy", "hard"),
                                               None)),
        wire.Call(11, 2, "room", "open_table", (wire.ME, Rules(), ("easy", "easy"), False)),
        wire.Call(2, 2, "room", "bring_back", (wire.ME,)),
        wire.Call(3, 2, "room", "close_by_admin", (4, wire.ME)),
        wire.Call(4, 2, "room", "remove", ("bob", wire.ME)),
        wire.Call(5, 2, 4, "sit", (wire.ME,)),
        wire.Call(6, 2, 4, "say", (wire.ME, "good game ♥")),
        wire.Call(7, 2, 4, "leave", (1,)),
        wire.Call(8, 2, 4, "start", ("ann",)),
        wire.Call(9, 2, 4, "replace", (2, "ann")),
        wire.Call(10, 2, 4, "close_by", ("ann",)),
        wire.Call(11, 2, 4, "follow", (None,)),
        wire.Call(12, 2, 4, "dispatch", (1, Play(1, DECK[9]))),
        wire.Call(13, 2, 4, "dispatch", (0, Discard(0, DECK[50]))),
        wire.Call(14, 2, "room", "event_join", ("club", wire.ME)),
        wire.Call(15, 2, "room", "event_withdraw", ("club", wire.ME)),
        wire.Call(16, 2, "room", "event_start", ("club", wire.ME)),
        wire.Call(17, 2, "room", "event_made", ("club", wire.ME)),
        wire.Reply(1, 4),
        wire.Reply(2, None),
        wire.Reply(3, True),
        wire.Reply(4, "a string"),
        wire.Reply(5, ChatLine("ann", "hi")),
        wire.Reply(6, wire.Followed(3, feed)),
        wire.Reply(7, error="you do not sit in that seat at table 2"),
        wire.Reply(8, error="not your turn", illegal=True),
        wire.Unfollow(3),
        wire.OpenSession(5, "ann", "ssh-ed25519 AAAA", False, True, 0.6, "xterm-256color",
                         {"COLORTERM": "truecolor"}, (100, 30), watching=4, from_start=True,
                         code="ABCD-EFGH"),
        wire.OpenSession(6, "bob", None, True, False, 0.0, "xterm"),
        wire.Input(5, b"\x1b[A\r"),
        wire.Resize(5, 132, 43),
        wire.Flow(5, True),
        wire.End(5, False),
        wire.Leave(5),
        wire.Output(5, b"\x1b[?1049h" + bytes(range(256)) * 40),
        wire.Output(6, b""),
        wire.Ended(5, None),
        wire.Ended(6, "RuntimeError: boom"),
    ]


def test_every_message_comes_back_equal_to_itself():
    messages = every_message()
    assert {type(m) for m in messages} >= {
        wire.Hello, wire.RoomDelta, wire.FeedItems, wire.Call, wire.Reply, wire.Unfollow,
        wire.OpenSession, wire.Input, wire.Resize, wire.Flow, wire.End, wire.Leave,
        wire.Output, wire.Ended}
    stream = b"".join(wire.frame(m) for m in messages)
    frames, back = wire.Frames(), []
    for i in range(0, len(stream), 777):  # in pieces, as a socket hands them over
        back += frames.feed(stream[i:i + 777])
    assert back == messages
    followed = back[messages.index(wire.Reply(6, wire.Followed(3, a_feed())))]
    sub, items = followed.value  # (a follow's reply unpacks as it always did)
    assert sub == 3 and items[0][1].phase is a_feed()[0][1].phase


def bodies(stream: bytes) -> list[bytes]:
    out = []
    while stream:
        (size,) = struct.unpack_from("!I", stream)
        out.append(stream[4:4 + size])
        stream = stream[4 + size:]
    return out


def test_a_message_is_a_json_object_of_its_type_and_fields_and_terminal_bytes_go_as_they_are():
    (body,) = bodies(wire.frame(wire.Hello(wire.VERSION, 12)))
    assert json.loads(body) == {"type": "Hello", "version": wire.VERSION, "pid": 12}
    (body,) = bodies(wire.frame(wire.FeedItems(7, a_feed()[:1])))
    event, view = a_feed()[0]
    assert json.loads(body) == {"type": "FeedItems", "sub": 7,
                                "items": [[encode(event), encode_view(view)]]}
    (body,) = bodies(wire.frame(wire.Call(12, 2, 4, "dispatch", (1, Play(1, DECK[9])))))
    assert json.loads(body)["args"] == [1, {"type": "Play", "seat": 1, "card": DECK[9].code}]
    screen = b"\x1b[H" + "é".encode() * 1000
    (body,) = bodies(wire.frame(wire.Output(300, screen)))
    assert body == b"\x01" + (300).to_bytes(4, "big") + screen  # not escaped, not base64
    (body,) = bodies(wire.frame(wire.Input(300, b"q")))
    assert body == b"\x02" + (300).to_bytes(4, "big") + b"q"


def test_no_pickle_in_the_wire_nor_in_what_speaks_it():
    root = Path(wire_module.__file__).parents[1]
    for path in ("room/wire.py", "room/host.py", "room/replica.py", "net/worker.py",
                 "net/workers.py", "net/placement.py", "net/collector.py"):
        tree = ast.parse((root / path).read_text())
        imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                    if isinstance(node, (ast.Import, ast.ImportFrom))
                    for alias in node.names} | {
            (node.module or "").split(".")[0] for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)}
        assert not imported & {"pickle", "marshal", "shelve", "copyreg", "dill"}, path
    assert not hasattr(wire, "pickle")


HOSTILE: list[tuple[bytes, str]] = [
    (b"", "an empty frame"),
    (b"\x80\x05\x95\x10\x00\x00\x00", "begins with byte 128"),  # a pickle (version 3's wire)
    (b"cos\nsystem\n(S'echo hi'\ntR.", "begins with byte 99"),  # protocol 0 pickle
    (b"\x01\x00\x00", "without its session"),
    (b"\x03\x00\x00\x00\x01xx", "begins with byte 3"),
    (b"[1, 2]", "begins with byte 91"),
    (b"{not json", "not one of ours"),
    (b'{"type": "Hello", "version": 4, "pid": 1', "not one of ours"),
    (b'{"type": "Hello", "version": 4, "pid": NaN}', "NaN is not a number"),
    (b'{"type": "Hello", "version": 4, "pid": "\xff"}', "not one of ours"),  # not UTF-8
    (b'{"version": 4, "pid": 1}', "unknown message type None"),
    (b'{"type": "Popen", "args": ["sh"]}', "unknown message type 'Popen'"),
    (b'{"type": "Output", "session": 1, "data": "x"}', "unknown message type 'Output'"),
    (b'{"type": "__main__.Evil"}', "unknown message type"),
    (b'{"type": "Hello", "version": 4}', "lacks the field 'pid'"),
    (b'{"type": "Hello", "version": 4, "pid": 1, "shell": "sh"}', "unknown field 'shell'"),
    (b'{"type": "Hello", "version": "4", "pid": 1}', "Hello.version should be a whole number"),
    (b'{"type": "Hello", "version": true, "pid": 1}', "should be a whole number, not True"),
    (b'{"type": "Resize", "session": 1, "width": 80.5, "height": 24}', "whole number"),
    (b'{"type": "Call", "call": 1, "session": 1, "target": 4, "method": "__init__",'
     b' "args": []}', "'__init__' is no call of ours"),
    (b'{"type": "Call", "call": 1, "session": 1, "target": 4, "method": "sit",'
     b' "args": ["bob"]}', "Call.args[0] should be the caller"),
    (b'{"type": "Call", "call": 1, "session": 1, "target": 4, "method": "sit",'
     b' "args": []}', "should be a list of 1"),
    (b'{"type": "Call", "call": 1, "session": 1, "target": [4], "method": "sit",'
     b' "args": ["<the caller>"]}', "Call.target should be"),
    (b'{"type": "Call", "call": 1, "session": 1, "target": 4, "method": "dispatch",'
     b' "args": [1, {"type": "Shutdown"}]}', "unknown command type 'Shutdown'"),
    (b'{"type": "Call", "call": 1, "session": 1, "target": 4, "method": "dispatch",'
     b' "args": [1, {"type": "Play", "seat": 1, "card": "11H"}]}', "should be a card"),
    (b'{"type": "Call", "call": 1, "session": 1, "target": 4, "method": "sit",'
     b' "args": ["<the caller>"], "eval": 1}', "unknown field 'eval'"),
    (b'{"type": "Reply", "call": 1, "value": {"os.system": "sh"}, "error": null,'
     b' "illegal": false}', "a value a call returns"),
    (b'{"type": "Reply", "call": 1, "value": [1, 2], "error": null, "illegal": false}',
     "a value a call returns"),
    (b'{"type": "FeedItems", "sub": 1, "items": [[{"type": "Exploded"}, {}]]}',
     "unknown event type 'Exploded'"),
    (b'{"type": "OpenSession", "session": 1, "name": "a", "key": null, "admin": false,'
     b' "ascii": false, "think": 0.5, "term": "xterm", "env": {"A": 1}}', "env.A should be"),
    (b'{"type": "Flow", "session": 1, "paused": ' + b"[" * 100000 + b"]" * 100000 + b"}",
     "not one of ours"),
]


@pytest.mark.parametrize("body,why", HOSTILE, ids=[w for _, w in HOSTILE])
def test_a_hostile_frame_is_refused_with_one_line(body, why):
    with pytest.raises(wire.WireError, match="not one of ours") as refused:
        wire.Frames().feed(struct.pack("!I", len(body)) + body)
    assert why in str(refused.value)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 400


def test_a_frame_longer_than_max_frame_is_refused_before_it_is_read():
    with pytest.raises(wire.WireError, match="a frame of 67108865 bytes"):
        wire.Frames().feed(struct.pack("!I", wire.MAX_FRAME + 1) + b"{")


class FakePool:
    def __init__(self) -> None:
        self.lost_workers: list[object] = []
        self.added: list[object] = []

        class Host:
            def add_worker(host, worker: object) -> None:
                self.added.append(worker)

        self.host = Host()

    def lost(self, worker: object) -> None:
        self.lost_workers.append(worker)


async def main_side(sent: bytes) -> tuple[FakePool, bytes]:
    """A `crib3.net.workers.Worker` (the main process's end of a worker's
    socket) that reads `sent` from its worker: what its pool was told, and
    whether it closed the socket."""
    from crib3.net.workers import Worker

    ours, theirs = socket.socketpair()
    pool = FakePool()
    worker = Worker(pool, 0)  # type: ignore[arg-type]
    reader, worker.writer = await asyncio.open_unix_connection(sock=ours)
    reading = asyncio.get_running_loop().create_task(worker._read(reader))
    theirs.sendall(sent)
    theirs.setblocking(False)
    loop = asyncio.get_running_loop()
    for _ in range(200):
        if pool.added or pool.lost_workers:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    closed = b""
    try:
        closed = await asyncio.wait_for(loop.sock_recv(theirs, 100), 2)
    except TimeoutError:
        closed = b"(open)"
    reading.cancel()
    worker.stop()
    theirs.close()
    return pool, closed


async def test_a_worker_of_another_version_is_refused_at_its_hello(caplog):
    caplog.set_level(logging.WARNING, "crib3.serve")
    pool, closed = await main_side(wire.frame(wire.Hello(wire.VERSION - 1, 99)))
    assert pool.added == [] and closed == b""  # not taken; its socket closed
    assert f"speaks version {wire.VERSION - 1}, not {wire.VERSION}: stopped" in caplog.text
    pool, closed = await main_side(wire.frame(wire.Hello(wire.VERSION, 99)))
    assert len(pool.added) == 1 and closed == b"(open)"  # (its own version: taken)


async def test_a_worker_that_speaks_pickle_is_refused_at_its_first_frame(caplog):
    import pickle  # (the test writes what version 3 wrote; the wire never reads it)

    caplog.set_level(logging.WARNING, "crib3.serve")
    body = pickle.dumps(wire.Hello(3, 99))
    pool, closed = await main_side(struct.pack("!I", len(body)) + body)
    assert pool.added == [] and pool.lost_workers and closed == b""
    assert "not one of ours (a worker of another version?)" in caplog.text


async def test_a_workers_link_closes_on_a_frame_that_is_not_one_of_ours(caplog):
    from crib3.net.worker import WorkerLink

    class Receiver:
        stats = None
        got: list[object] = []

        def receive(self, message: object, later: bool) -> None:
            self.got.append(message)

    caplog.set_level(logging.WARNING, "crib3.serve")
    mine, theirs = socket.socketpair()
    receiver = Receiver()
    link = WorkerLink(mine, receiver)  # type: ignore[arg-type]
    try:
        theirs.sendall(wire.frame(wire.Resize(1, 80, 24))
                       + struct.pack("!I", 9) + b'{"type":1')
        await asyncio.wait_for(link.closed.wait(), 5)
        assert receiver.got == []  # (the good frame came in the same read: none applied)
        assert "the link is closed" in caplog.text
        # a call on a closed link is answered at once, as when the room closes
        assert link.call(wire.Call(1, 1, 4, "sit", (wire.ME,))).error == \
            "the card room is closing"
    finally:
        link._lost()
        mine.close()
        theirs.close()


@pytest.mark.slow
async def test_the_frames_of_a_whole_hand_over_ssh_are_json_or_terminal_bytes(
        tmp_path, monkeypatch):
    from ssh_support import press_on, seat_three, serving

    sent: list[bytes] = []  # the main process's frames, each whole
    received: dict[int, list[bytes]] = {}  # what each worker wrote, as it was read
    frame, feed = wire.frame, wire.Frames.feed

    def framed(message: object) -> bytes:
        data = frame(message)
        sent.append(data)
        return data

    def read(self: wire.Frames, data: bytes) -> list[object]:
        received.setdefault(id(self), []).append(bytes(data))
        return feed(self, data)

    monkeypatch.setattr(wire, "frame", framed)
    monkeypatch.setattr(wire.Frames, "feed", read)
    async with serving(tmp_path, workers=2) as server:
        clients, table = await seat_three(server.port, server.room)
        await press_on(clients, table, hands=1)
        for client in clients:
            client.close()
    kinds: dict[str, int] = {}
    streams = [*sent, *(b"".join(chunks) for chunks in received.values())]
    for body in [b for stream in streams for b in bodies(stream)]:
        if body[:1] in (b"\x01", b"\x02"):
            name = "Output" if body[:1] == b"\x01" else "Input"
        else:
            data = json.loads(body.decode("utf-8"))
            assert type(data) is dict
            name = data["type"]
        kinds[name] = kinds.get(name, 0) + 1
    assert {"Hello", "RoomDelta", "OpenSession", "Input", "Output", "Call", "Reply",
            "FeedItems"} <= set(kinds), kinds
    assert len(received) == 2 and kinds["Hello"] == 2
