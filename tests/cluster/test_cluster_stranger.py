"""A hostile stranger against a cluster's play now (`crib3.cluster.matcher`),
against a real nats-server: each place in the queue is a write to the
cluster's bucket and asks for a table, so joining is paced as opening a
table is."""

from __future__ import annotations

import pytest
from nats_support import nats_server, needs_nats, until

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

from crib3.cluster.room import ClusterRoom  # noqa: E402
from crib3.room import room as room_module  # noqa: E402
from crib3.room.basics import RoomError  # noqa: E402

pytestmark = needs_nats


async def test_joining_and_leaving_the_queue_at_every_key_is_paced(tmp_path):
    with nats_server(tmp_path) as nats:
        room = await ClusterRoom.start([nats.url], "a", tmp_path / "a")
        try:
            ann = await room.enter("ann", "key-ann", lambda reason: None, None)
            play_now = room.play_now
            assert play_now is not None
            for _ in range(room_module.OPENS_AT_ONCE):
                play_now.join(ann)
                play_now.leave(ann)
            with pytest.raises(RoomError, match="you asked for 3 tables just now: you may "
                                                "queue again in "):
                play_now.join(ann)
            await until(lambda: not play_now.mine and not play_now.watched.entries, 15,
                        what="no place left behind")
        finally:
            room.close()
            await room.stop()
