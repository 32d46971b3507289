"""The turn marker: a widget that looks otherwise on its turn, without a
recomputation of its styles each time the turn moves.

The boxes of the seats, your hand's box and the prompt stand out on a
seat's turn (a heavy accent border, a reversed prompt). Drawn by a CSS
class, each turn change asked Textual to match every rule of the
stylesheet against the widget again (`update_node_styles`): four times an
event at every seat, a noticeable share of a table's update at a card room,
where every event is drawn once per seat (assets/measurements/card-room.md).

Here the look of the turn is still the CSS's, as a component class of the
widget (`MARKED`, e.g. `SeatPanel .seat-panel--to-act { border: heavy
$accent; }`), which Textual works out whenever it styles the widget. A
turn change copies those few rules into the widget's inline styles (or
takes them out again) and repaints it: no rule is matched. The widget keeps
its class (`to-act`) too, without a restyle, for anyone who asks whether it
is marked. When Textual styles the widget again (a theme, the screen's
size classes) the look is copied again from the new component styles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.widgets import Static

from crib3.tui.textual_compat import component_rules

if TYPE_CHECKING:  # a mixin for a widget: checked as one
    from textual.widget import Widget

    _Mixed = Widget
else:
    _Mixed = object

# The rules a turn's look may set (the inline styles it owns). A colour in
# the CSS is two rules: the colour and whether it is worked out from the
# background ("auto"), which the widget's own CSS may say it is.
MARK_RULES = (
    "border_top", "border_right", "border_bottom", "border_left", "border_title_style",
    "border_title_color", "color", "auto_color", "background", "text_style",
)


def _same(painted: object, look: object) -> bool:
    """The look painted last is the one now (the same component styles, or
    equal rules where Textual gives no lasting object)."""
    return painted is look or (isinstance(look, tuple) and painted == look)


class TurnMarked(_Mixed):
    """Mix into a widget (before it) that says its turn's look in the CSS
    as the component class `MARKED`, and is marked by `mark`."""

    MARKED: ClassVar[str]  # the component class of the turn's look
    MARK_CLASS: ClassVar[str] = "to-act"  # the class it carries while marked

    _marked: bool = False
    _painted: tuple[bool, object] | None = None  # (marked, component styles) shown
    _painting = False

    def mark(self, on: bool) -> None:
        """On this seat's turn (or not): repainted only when it changed."""
        if on == self._marked:
            return
        self._marked = on
        self.set_class(on, self.MARK_CLASS, update=False)  # (no restyle: see the module)
        self._paint_mark()

    def _paint_mark(self) -> None:
        """The turn's look in the inline styles (or none of it), as the
        component class says now; nothing before the widget is styled."""
        found = component_rules(self, self.MARKED)
        if found is None:
            return
        look, look_rules = found
        if self._painted is not None and self._painted[0] == self._marked \
                and _same(self._painted[1], look):
            return
        self._painted = (self._marked, look)
        inline = self.styles.inline
        rules = look_rules if self._marked else {}
        changed = False
        for name in MARK_RULES:
            value = rules.get(name)
            if inline.get_rule(name, None) != value:  # (Textual types its default as required)
                inline.set_rule(name, value)
                changed = True
        if changed:
            self._painting = True
            try:
                self.notify_style_update()  # (its cached styles are stale)
            finally:
                self._painting = False
            self.refresh()

    def on_mount(self) -> None:
        self._paint_mark()  # marked before it was styled

    def notify_style_update(self) -> None:
        """Styled again by Textual: the turn's look is copied again once
        the component styles are worked out too (they come after)."""
        super().notify_style_update()
        if self._marked and not self._painting and self.is_mounted:
            self.call_later(self._paint_mark)


class PromptLine(TurnMarked, Static):
    """The table's prompt: on your turn it stands out from the log under
    it (its look: `PromptLine .prompt-line--yours` in the CSS)."""

    COMPONENT_CLASSES = {"prompt-line--yours"}
    MARKED = "prompt-line--yours"
    MARK_CLASS = "yours"
