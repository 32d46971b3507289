"""A visit's messages through NATS in the turn of the loop that makes or
reads them (crib3.cluster.nats_now), against a real nats-server: one
published is on the socket before the caller yields and keeps its place
among those published the public way; one read is handed on by nats-py's
reading task itself, in order, a failing handler logged and the
subscription going on; and wherever the client is not in the shape these
know, the public way is taken."""

from __future__ import annotations

import asyncio

import pytest
from nats_support import nats_server, needs_nats

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

import nats

from crib3.cluster.liveness import round_trip
from crib3.cluster.nats_now import publish_now, subscribe_now

pytestmark = needs_nats


@pytest.fixture(scope="module")
def solo(tmp_path_factory):
    with nats_server(tmp_path_factory.mktemp("nats")) as server:
        yield server


async def listening(reader, subject: str, count: int = 1,
                    read=lambda data: data) -> tuple[list, asyncio.Event]:
    """What `reader` gets on `subject` (each message's data as `read`
    makes it), subscribed the public way; the event is set at the
    `count`th message."""
    got: list = []
    done = asyncio.Event()

    async def arrived(msg) -> None:
        got.append(read(msg.data))
        if len(got) == count:
            done.set()

    await reader.subscribe(subject, cb=arrived)
    await round_trip(reader, 5)
    return got, done


async def test_a_message_is_on_the_socket_before_the_caller_yields(solo):
    sender, reader = await nats.connect(solo.url), await nats.connect(solo.url)
    try:
        got, came = await listening(reader, "visit.out")
        await round_trip(sender, 5)
        assert publish_now(sender, "visit.out", b"a frame")
        # Nothing left for nats-py's flusher: handed to the kernel in this turn.
        assert sender._pending_data_size == 0
        assert sender._transport._io_writer.transport.get_write_buffer_size() == 0
        assert sender.stats["out_msgs"] >= 1
        await asyncio.wait_for(came.wait(), 10)
        assert got == [b"a frame"]
    finally:
        await sender.close()
        await reader.close()


async def test_messages_keep_their_order_among_those_published_the_public_way(solo):
    sender, reader = await nats.connect(solo.url), await nats.connect(solo.url)
    try:
        got, done = await listening(reader, "visit.order", 300)
        now = later = 0
        for n in range(300):
            body = str(n).encode()
            if n % 3 == 0:
                await sender.publish("visit.order", body)  # waits in nats-py's buffer
            elif publish_now(sender, "visit.order", body):
                now += 1
            else:
                later += 1  # something of the client's waits to be written: the public way
                await sender.publish("visit.order", body)
            if n % 7 == 0:
                await asyncio.sleep(0)  # (nats-py's flusher runs now and then)
        await asyncio.wait_for(done.wait(), 10)
        assert got == [str(n).encode() for n in range(300)]
        assert now and later  # both ways were taken, and the order held
    finally:
        await sender.close()
        await reader.close()


async def test_what_it_does_not_know_goes_the_public_way(solo):
    assert not publish_now(object(), "visit.x", b"x")
    sender = await nats.connect(solo.url)
    await round_trip(sender, 5)
    assert not publish_now(sender, "visit.x", b"x" * (sender.max_payload + 1))
    await sender.publish("visit.x", b"waiting")  # in nats-py's buffer, not yet written
    assert not publish_now(sender, "visit.x", b"x")
    await sender.close()
    assert not publish_now(sender, "visit.x", b"x")


async def test_a_visits_screen_leaves_in_the_turn_it_was_drawn(solo):
    """A visit's output (its frames, at the host; its keys, at the door)
    is on the socket when `send` returns: it no longer waits for the
    link's sender task and nats-py's flusher, each a turn of a busy loop."""
    from crib3.cluster.visits import VisitLink, Visits
    from crib3.room import wire

    client, reader = await nats.connect(solo.url), await nats.connect(solo.url)
    got, came = await listening(reader, "crib3.visit.a.v1.out", read=wire.decode)
    await round_trip(client, 5)
    link = VisitLink(Visits(client, "a"), "b", "a.v1", outgoing="crib3.visit.a.v1.out",
                     incoming="crib3.visit.a.v1.in")
    try:
        link.send(wire.Output(0, b"\x1b[Ha frame"))
        assert link.queued == 0 and client._pending_data_size == 0
        assert client._transport._io_writer.transport.get_write_buffer_size() == 0
        await asyncio.wait_for(came.wait(), 10)
        assert got == [wire.Output(0, b"\x1b[Ha frame")]
        # And what comes to it (the keys, at the host) is handed on as it is read.
        keys: list[tuple[object, object]] = []
        arrived = asyncio.Event()

        def receive(message: object) -> None:
            keys.append((message, asyncio.current_task()))
            arrived.set()

        await link.listen()
        link.attach(receive, lambda: None)
        await round_trip(client, 5)
        await reader.publish("crib3.visit.a.v1.in", wire.encode(wire.Input(0, b"\r")))
        await asyncio.wait_for(arrived.wait(), 10)
        assert keys == [(wire.Input(0, b"\r"), client._reading_task)]
    finally:
        link.close()
        await link.drained()
        await client.close()
        await reader.close()


async def test_a_message_read_is_handed_on_by_the_reading_task_itself(solo):
    sender, reader = await nats.connect(solo.url), await nats.connect(solo.url)
    got: list[bytes] = []
    tasks: set[object] = set()
    done = asyncio.Event()

    def handler(msg) -> None:
        got.append(msg.data)
        tasks.add(asyncio.current_task())
        if len(got) == 200:
            done.set()

    try:
        subscription = await subscribe_now(reader, "visit.in", handler)
        await round_trip(reader, 5)
        for n in range(200):
            await sender.publish("visit.in", str(n).encode())
        await asyncio.wait_for(done.wait(), 10)
        assert got == [str(n).encode() for n in range(200)]
        # No turn of the subscription's own: nats-py's reading task handed them on.
        assert tasks == {reader._reading_task}
        assert subscription._wait_for_msgs_task is None
        assert subscription.pending_msgs == 0 and subscription._pending_size == 0
        await subscription.unsubscribe()
    finally:
        await sender.close()
        await reader.close()


async def test_a_failing_handler_is_logged_and_the_subscription_goes_on(solo, caplog):
    sender, reader = await nats.connect(solo.url), await nats.connect(solo.url)
    got: list[bytes] = []
    done = asyncio.Event()

    def handler(msg) -> None:
        if msg.data == b"bad":
            raise ValueError("not a wire message")
        got.append(msg.data)
        if msg.data == b"after":
            done.set()

    try:
        subscription = await subscribe_now(reader, "visit.bad", handler)
        await round_trip(reader, 5)
        for body in (b"before", b"bad", b"after"):
            await sender.publish("visit.bad", body)
        await asyncio.wait_for(done.wait(), 10)
        assert got == [b"before", b"after"]
        assert caplog.text.count("could not be handled") == 1
        # nats-py's reading goes on: the connection still answers.
        await round_trip(reader, 5)
        await subscription.drain()
    finally:
        await sender.close()
        await reader.close()


async def test_a_subscription_in_another_shape_gets_its_messages_the_public_way(solo):
    reader, sender = await nats.connect(solo.url), await nats.connect(solo.url)
    real = reader.subscribe
    came = asyncio.Event()

    async def another_shape(subject, **kwargs):
        subscription = await real(subject, **kwargs)
        if "cb" not in kwargs:
            subscription._pending_queue = None  # (not the queue nats_now knows)
        return subscription

    reader.subscribe = another_shape
    try:
        subscription = await subscribe_now(reader, "visit.other", lambda msg: came.set())
        await round_trip(reader, 5)
        await sender.publish("visit.other", b"x")
        await asyncio.wait_for(came.wait(), 10)
        assert subscription._wait_for_msgs_task is not None  # its own task, as nats-py does
    finally:
        await sender.close()
        await reader.close()


async def test_a_visit_that_cannot_send_ends_rather_than_leave_a_gap():
    """nats-py refuses a publish (its buffer full in an outage, or the
    connection closed): the visit ends as when its other side stops
    answering, and nothing sent after it goes out with a message missing
    before it."""
    from crib3.cluster.visits import VisitLink, Visits
    from crib3.room import wire

    class Refusing:
        published: list[bytes] = []

        async def publish(self, subject: str, body: bytes) -> None:
            if not self.published:
                self.published.append(body)
                raise nats.errors.OutboundBufferLimitError
            self.published.append(body)

    client = Refusing()
    link = VisitLink(Visits(client, "a"), "b", "a.v2", outgoing="crib3.visit.a.v2.out",
                     incoming="crib3.visit.a.v2.in")
    ended = asyncio.Event()
    link.attach(lambda message: None, ended.set)
    link.send(wire.Output(0, b"first"))  # (not the shape publish_now knows: queued)
    await asyncio.wait_for(ended.wait(), 5)
    assert link.closed
    link.send(wire.Output(0, b"second"))
    await link.drained()
    assert len(client.published) == 1


async def test_a_subject_nats_would_refuse_is_left_to_the_public_way(solo):
    """A subject with a space or a line break in it would break the PUB
    line (a second command smuggled in): publish_now leaves it to nats-py,
    which refuses it, and the connection goes on."""
    sender = await nats.connect(solo.url)
    try:
        await round_trip(sender, 5)
        for subject in ("", "crib3.visit.a b.out", "crib3.visit.a\r\nPUB x 1"):
            assert not publish_now(sender, subject, b"x")
        await round_trip(sender, 5)
        assert sender.is_connected
    finally:
        await sender.close()
