"""A hostile stranger against a cluster's play now (`crib3.cluster.matcher`),
against a real nats-server: each place in the queue is a write to the
cluster's bucket, made in the background, and asks for a table."""

from __future__ import annotations

import pytest
from nats_support import nats_server, needs_nats, until

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

from crib3.cluster.matcher import entry_key  # noqa: E402
from crib3.cluster.room import ClusterRoom  # noqa: E402
from crib3.room import room as room_module  # noqa: E402
from crib3.room.basics import RoomError  # noqa: E402
from crib3.room.playnow import queue_identity  # noqa: E402

pytestmark = needs_nats


async def test_p_esc_p_at_every_key_is_paced_and_leaves_one_place_known(tmp_path):
    with nats_server(tmp_path) as nats:
        room = await ClusterRoom.start([nats.url], "a", tmp_path / "a")
        try:
            ann = await room.enter("ann", "key-ann", lambda reason: None, None)
            play_now = room.play_now
            assert play_now is not None
            identity = queue_identity(ann)
            key = entry_key(identity)
            # Back in the queue before the first write is answered: the one
            # place the bucket holds is known to be hers (not a place nobody
            # here knows of, which the matcher would seat while her lobby
            # says she is not queued, kept until she leaves the room).
            play_now.join(ann)
            play_now.leave(ann)
            play_now.join(ann)
            await until(lambda: not play_now._writes and key in play_now.watched.entries, 15,
                        what="the writes answered and heard")
            assert play_now.queued(ann) and play_now.mine[identity][1] is not None
            play_now.leave(ann)  # and Esc then gives it up
            await until(lambda: not play_now.watched.entries, 15, what="the place gone")
            # Each place asks for a table: paced as opening one is.
            for _ in range(room_module.OPENS_AT_ONCE - 2):
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
