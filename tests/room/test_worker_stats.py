"""What a session worker measures of itself (`crib3.net.worker_stats`): the
load benchmark divides its outputs, bytes and CPU by the keys it took."""

from __future__ import annotations

import gc
import json

from crib3.net.worker_stats import WorkerStats


def test_the_outputs_their_bytes_and_the_cpu_are_written(tmp_path):
    stats = WorkerStats(tmp_path)
    try:
        stats.output(1, 4000)
        stats.output(2, 10)
        stats.write()
    finally:
        gc.callbacks.remove(stats._gc)
    (written,) = tmp_path.glob("worker-*.json")
    data = json.loads(written.read_text())
    assert (data["writes"], data["written"]) == (2, 4010)
    assert data["cpu"] >= 0
