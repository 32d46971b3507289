"""A session worker's garbage collection (`crib3.net.collector`) and the
strips that no longer keep themselves alive in a cycle (`crib3.tui.textual_compat`)."""

from __future__ import annotations

import asyncio
import gc

from rich.segment import Segment
from textual.strip import Strip

from crib3.net import collector
from crib3.net.collector import Collector
from crib3.tui.textual_compat import many_terminals_in_one_process


def cycles_left_by(operation) -> int:
    """Objects the collector had to free after `operation` on a strip that
    is then dropped (0: reference counting freed it all)."""
    gc.collect()
    gc.disable()
    try:
        strip = Strip([Segment("hello", None), Segment(" you")], 9)
        operation(strip)
        del strip
        return gc.collect()
    finally:
        gc.enable()


def test_a_strip_divided_or_cropped_to_itself_is_freed_without_the_collector():
    many_terminals_in_one_process()
    assert cycles_left_by(lambda s: s.divide([9])) == 0
    assert cycles_left_by(lambda s: s.crop_extend(0, 9, None)) == 0
    # the answers are what Textual gives
    strip = Strip([Segment("hello", None), Segment(" you")], 9)
    assert strip.divide([9]) == [strip]
    assert strip.crop_extend(0, 9, None) is strip
    assert strip.crop_extend(-1, 9, None) is strip
    assert [s.text for s in strip.divide([5, 9])] == ["hello", " you"]
    assert strip.crop_extend(0, 12, None).text == "hello you   "
    assert strip.crop_extend(2, 7, None).text == "llo y"


async def test_the_worker_freezes_what_a_full_collection_keeps_and_sorts_it_out_later():
    gc.collect()
    kept = Collector()
    threshold = gc.get_threshold()
    try:
        kept.warmed()
        assert gc.get_freeze_count() > 0 and kept.refreezes == 1
        assert gc.get_threshold()[0] == collector.YOUNG
        frozen = gc.get_freeze_count()
        survivors = [[n] for n in range(5000)]  # (lists: tracked by the collector)
        gc.collect()
        await asyncio.sleep(0)  # frozen on the loop, soon after
        assert gc.get_freeze_count() >= frozen + 5000
        # a frozen cycle is kept until sessions end, then freed
        cycle: list[object] = []
        cycle.append(cycle)
        gc.collect()
        await asyncio.sleep(0)
        del cycle
        for _ in range(collector.REFREEZE_AFTER):
            kept.session_ended()
        before = kept.refreezes
        await asyncio.sleep(0)
        assert kept.refreezes == before + 1 and kept.ended == 0
        del survivors
    finally:
        kept.stop()
        gc.unfreeze()
        gc.set_threshold(*threshold)
