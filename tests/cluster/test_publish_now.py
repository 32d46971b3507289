"""A message published in the caller's own turn of the loop
(crib3.cluster.publish_now), against a real nats-server: it is on the
socket before the caller yields, it keeps its place among the messages
published the public way, and wherever the client is not in the shape it
knows it leaves the message to the public way."""

from __future__ import annotations

import asyncio

import pytest
from nats_support import nats_server, needs_nats

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

import nats

from crib3.cluster.publish_now import publish_now

pytestmark = needs_nats


@pytest.fixture(scope="module")
def solo(tmp_path_factory):
    with nats_server(tmp_path_factory.mktemp("nats")) as server:
        yield server


async def test_a_message_is_on_the_socket_before_the_caller_yields(solo):
    sender, reader = await nats.connect(solo.url), await nats.connect(solo.url)
    try:
        got: list[bytes] = []
        came = asyncio.Event()

        async def arrived(msg) -> None:
            got.append(msg.data)
            came.set()

        await reader.subscribe("visit.out", cb=arrived)
        await reader.flush()
        await sender.flush()
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
        got: list[bytes] = []
        done = asyncio.Event()

        async def arrived(msg) -> None:
            got.append(msg.data)
            if len(got) == 300:
                done.set()

        await reader.subscribe("visit.order", cb=arrived)
        await reader.flush()
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
    await sender.flush()
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
    got: list[object] = []
    came = asyncio.Event()

    async def arrived(msg) -> None:
        got.append(wire.decode(msg.data))
        came.set()

    await reader.subscribe("crib3.visit.a.v1.out", cb=arrived)
    await reader.flush()
    await client.flush()
    link = VisitLink(Visits(client, "a"), "b", "a.v1", outgoing="crib3.visit.a.v1.out",
                     incoming="crib3.visit.a.v1.in")
    try:
        link.send(wire.Output(0, b"\x1b[Ha frame"))
        assert link.queued == 0 and client._pending_data_size == 0
        assert client._transport._io_writer.transport.get_write_buffer_size() == 0
        await asyncio.wait_for(came.wait(), 10)
        assert got == [wire.Output(0, b"\x1b[Ha frame")]
    finally:
        link.close()
        await link.drained()
        await client.close()
        await reader.close()
