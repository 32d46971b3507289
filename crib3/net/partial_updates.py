"""A screen update that draws only the widgets it changes.

When widgets change, Textual's compositor marks their regions dirty and,
on the next frame, asks every widget inside the box around *all* of those
regions for its lines over that box (`Compositor.render_partial_update`),
though it then sends the terminal only the dirty regions' cells. At a
card-room table an event changes the board at the top and the prompt at
the bottom, so the box is the whole screen: every widget of every seat's
screen went through its styles cache and line filters, line by line, to be
thrown away (150 events of a table: 13 widgets asked at every frame, some
87 lines each filtered; only the changed ones are sent).

`draw_only_what_changed()` has a partial update ask only the widgets that
overlap a dirty region, each only for the rows where it does. What is sent
is the same: the same cells, from the same widgets (the one in front wins
a cell, as before), for the same spans. It touches the compositor's
private methods, one more reason the project pins Textual's version (the
tests check the frames are byte for byte Textual's own).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

_DONE = False
TEXTUALS: Any = None  # Textual's own partial update, as it was (the tests compare)


def draw_only_what_changed() -> None:
    """Replace `Compositor.render_partial_update` (see the module's
    docstring); once per process."""
    global _DONE, TEXTUALS
    if _DONE:
        return
    from textual._compositor import ChopsUpdate, Compositor
    from textual.geometry import Region

    TEXTUALS = Compositor.render_partial_update

    def render_partial_update(self: Compositor) -> ChopsUpdate | None:
        screen_region = self.size.region
        update_regions = self._dirty_regions.copy()
        self._dirty_regions.clear()
        if not update_regions:
            return None
        spans = list(self._regions_to_spans(update_regions))
        is_rendered_line = {y for y, _, _ in spans}.__contains__
        dirty = [region.intersection(screen_region) for region in update_regions]
        chops = _chops(self, _renders_in(self, [r for r in dirty if r]), is_rendered_line)
        chop_ends = [cut_set[1:] for cut_set in self.cuts]
        return ChopsUpdate(chops, spans, chop_ends)

    def _renders_in(self: Compositor,
                    dirty: list[Region]) -> Iterable[tuple[Region, Region, list[Any]]]:
        """(region, visible part, lines) of each widget that overlaps a dirty
        region, front to back, its lines only for the rows where it does
        (its visible width whole: the cuts of a line are the widgets')."""
        for widget, (region, clip) in self.visible_widgets.items():
            visible = region.intersection(clip)
            if not visible:
                continue
            top = bottom = -1
            for one in dirty:
                part = visible.intersection(one)
                if part:
                    top = part.y if top < 0 else min(top, part.y)
                    bottom = max(bottom, part.bottom)
            if top < 0:
                continue
            band = Region(visible.x, top, visible.width, bottom - top)
            yield region, band, widget.render_lines(
                Region(band.x - region.x, band.y - region.y, band.width, band.height))

    Compositor.render_partial_update = render_partial_update  # type: ignore[method-assign]
    _DONE = True


def _chops(compositor: Any, renders: Iterable[tuple[Any, Any, list[Any]]],
           is_rendered_line: Any) -> Sequence[Mapping[int, Any]]:
    """`Compositor._render_chops` as Textual has it, over the given renders
    (each already within its widget's visible part)."""
    from textual.geometry import Region

    cuts = compositor.cuts
    chops: list[dict[int, Any]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
    intersection = Region.intersection
    for region, clip, strips in renders:
        render_region = intersection(region, clip)
        render_x = render_region.x
        first_cut, last_cut = render_region.column_span
        for y, strip in zip(render_region.line_range, strips):
            if not is_rendered_line(y):
                continue
            chops_line = chops[y]
            final_cuts = [cut for cut in cuts[y] if (last_cut >= cut >= first_cut)]
            cut_strips = strip.divide([cut - render_x for cut in final_cuts[1:]])
            get_chops_line = chops_line.get
            for cut, piece in zip(final_cuts, cut_strips):
                if get_chops_line(cut) is None:
                    chops_line[cut] = piece
    return chops
