"""A card room's start with 20,000 closed tables beside it, against an
empty folder, as a ratio.

Run on demand:
`python -m pytest tests/benchmarks/test_room_start.py --benchmark-only -s`

Under `--open` anyone could open a table, start it and close it again,
all day: each closed game stays on disk, for the record. A start used to
read every one of them (their seat files and their whole logs) to find
that it was closed; now they are in a folder of their own, `closed/`,
whose names alone are read (for the next table's number). Each start runs
in a fresh interpreter and times what the room does with its folder
(`Room.restore` and the first table's number), then the whole process.
Also timed: the first start on a folder an older crib3 left, with the
closed tables beside the open ones (it moves them, unread), and the start
after it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

CLOSED = 20_000

START = r'''
import json, resource, sys, time
began = time.perf_counter()
from pathlib import Path
from crib3.room import Room
folder = Path(sys.argv[1])
start = time.perf_counter()
room = Room(folder, think=3600)
problems = room.restore()
if hasattr(room, "_next_number"):
    number = room._next_number()
else:  # (a crib3 from before `closed/`, timed the same way side by side)
    from crib3.room.storage import numbers_on_disk
    number = max([0, *room.tables, *numbers_on_disk(folder)]) + 1
took = time.perf_counter() - start
room.close()
print(json.dumps({"room_s": took, "process_s": time.perf_counter() - began,
                  "tables": len(room.tables), "next": number, "problems": len(problems),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
'''


def one_closed_table(folder: Path) -> tuple[str, str]:
    """A real closed game's two files (seat file, log), as text."""
    import asyncio

    from crib3.engine import Rules
    from crib3.room import Room

    async def make() -> tuple[str, str]:
        room = Room(folder, think=3600)
        ann = room.sign_in("Ann", "SHA256:ann", lambda reason: None)
        table = room.open_table(ann, Rules(), ("easy", "easy"))
        table.start("Ann")
        table.close_by("Ann")
        room.close()
        return table.meta_path.read_text(), table.log_path.read_text()

    return asyncio.run(make())


def fill(folder: Path, where: Path, meta: str, log: str) -> None:
    where.mkdir(parents=True, exist_ok=True)
    data = json.loads(meta)
    for number in range(1, CLOSED + 1):
        data["number"] = number
        (where / f"table-{number}.json").write_text(json.dumps(data, indent=1))
        (where / f"table-{number}.jsonl").write_text(log)


def start(folder: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", START, str(folder)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def best(folder: Path, times: int = 3) -> dict:
    runs = [start(folder) for _ in range(times)]
    return min(runs, key=lambda r: r["room_s"])


def test_a_start_with_twenty_thousand_closed_tables(benchmark, tmp_path):
    meta, log = one_closed_table(tmp_path / "sample")
    empty, kept, older = tmp_path / "empty", tmp_path / "kept", tmp_path / "older"
    empty.mkdir()
    fill(kept, kept / "closed", meta, log)
    found: dict = {}

    def measure() -> None:
        found["empty"] = best(empty)
        found["kept"] = best(kept)
        shutil.rmtree(older, ignore_errors=True)
        fill(older, older, meta, log)  # an older crib3's layout
        found["older_first"] = start(older)
        found["older_then"] = best(older)

    benchmark.pedantic(measure, rounds=1, iterations=1)
    e, k = found["empty"], found["kept"]
    assert k["next"] == CLOSED + 1 and k["tables"] == 0 and k["problems"] == 0
    assert found["older_then"]["next"] == CLOSED + 1
    for name, run in found.items():
        print(f"{name:12s} room {run['room_s'] * 1000:8.1f} ms   process "
              f"{run['process_s'] * 1000:8.1f} ms   peak {run['peak_mb']:6.1f} MB")
    print(f"ratio, 20,000 closed / empty: room {k['room_s'] / e['room_s']:.1f}x, "
          f"process {k['process_s'] / e['process_s']:.2f}x")
    benchmark.extra_info.update({f"{n}_{w}": round(r[w], 4) for n, r in found.items()
                                 for w in ("room_s", "process_s")})
    # (the processes' times are mostly imports, and noisy on a shared machine)
    assert k["room_s"] < found["older_first"]["room_s"] / 10
    assert k["peak_mb"] < e["peak_mb"] + 5
