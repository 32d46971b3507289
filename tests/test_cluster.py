"""crib3.cluster against real NATS servers (tests/nats_support.py): one
server, and a three-server cluster on loopback."""

from __future__ import annotations

import pytest

from nats_support import needs_nats, nats_cluster, nats_server

pytestmark = needs_nats


@pytest.fixture(scope="module")
def solo(tmp_path_factory):
    with nats_server(tmp_path_factory.mktemp("nats")) as server:
        yield server


def test_a_server_starts_with_jetstream_ready(solo):
    assert solo.healthy()


def test_a_cluster_stays_healthy_when_one_server_is_killed(tmp_path):
    with nats_cluster(tmp_path) as servers:
        assert all(server.healthy() for server in servers)
        servers[0].kill()
        assert servers[0].process.returncode == -9
        servers[1].wait_ready()
        servers[2].wait_ready()
