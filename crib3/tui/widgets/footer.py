"""The footer: Textual's look, but every key on one line drawn by one widget,
so that a change of keys is one line redrawn and never a layout.

Textual 8.2's Footer is a row of `FooterKey` widgets, rebuilt after every
change of the keys (a frame later: `call_after_refresh`). Each rebuild
styled, mounted and laid out new widgets and left the old ones alive (bound
to the footer's `compact`); told in place instead, a key whose width changed
still asked for a layout of the whole screen. On a table the keys change
with nearly every event (Enter says "Go on", then "Throw"; "1-5" becomes
"1-4"), so three events in four laid out every seat's screen: most of an
update's cost at a card room, where every event is drawn once per seat.

Here the keys are one `KeyLine` that fills the footer's width (its size
never changes, so nothing is laid out again): told the keys as the screen's
bindings change (at once, in the same turn of the loop as the change, so
the frame that shows the turn shows its keys), it redraws itself when they
differ. Its text is drawn as a `FooterKey` draws its own, with the same
component styles, so the line looks as Textual's does. A click is mapped
from its x to the key drawn there; the key under the mouse is lit as a
`FooterKey` is on hover. The command palette's key (its look is a border
and a dock to the right) stays Textual's own `FooterKey`: it is mounted once
and never changes width.

Key groups are shown as plain keys (crib3 has none). The keys' lines are
drawn once per process for every session showing the same keys
(`crib3.tui.widgets.shared_render`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, NamedTuple

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Footer

from crib3.tui.textual_compat import footer_key_class, set_footer_key_disabled
from crib3.tui.widgets.shared_render import SharedRender

if TYPE_CHECKING:
    from textual.screen import Screen


class Key(NamedTuple):
    """What one key of the footer says and does."""

    key: str
    key_display: str
    description: str
    action: str
    disabled: bool
    tooltip: str


class KeyLine(SharedRender, Widget):
    """The footer's keys (but the palette's), drawn as one line of text."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {
        "key-line--key", "key-line--description", "key-line--item", "key-line--disabled",
        "key-line--hover",
    }
    # FooterKey's DEFAULT_CSS, its parts as components: the key itself
    # (`--item`, `--disabled`, `--hover`) is the span of one key.
    DEFAULT_CSS = """
    KeyLine {
        width: 1fr;
        height: 1;
        text-wrap: nowrap;
        .key-line--item { background: $footer-item-background; }
        .key-line--disabled { background: $footer-item-background; text-style: dim; }
        .key-line--hover { color: $footer-key-foreground; background: $block-hover-background; }
        .key-line--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
            padding: 0 1;
        }
        .key-line--description {
            padding: 0 1 0 0;
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        &.-compact {
            .key-line--key { padding: 0; }
            .key-line--description { padding: 0 0 0 1; }
        }
    }
    """

    compact = reactive(False)

    def __init__(self) -> None:
        super().__init__()
        self.keys: tuple[Key, ...] = ()
        self.hover: int | None = None  # the key under the mouse

    def _watch_compact(self, compact: bool) -> None:
        self.set_class(compact, "-compact")

    def show(self, keys: tuple[Key, ...]) -> None:
        """Say these keys from the next frame on (nothing when they are
        what the line says already; never a layout: the line's size is
        the footer's)."""
        if keys != self.keys:
            self.keys = keys
            self.hover = None
            self.refresh()

    def render_key(self) -> Hashable:
        """What the line says (its styles come from the theme and the
        CSS, which the shared cache's key holds already: reading them here
        cost more than drawing the line)."""
        return (tuple(k[1:3] + k[4:5] for k in self.keys), self.hover, self.compact)

    def render(self) -> Text:
        return self.drawn()[0]

    def drawn(self) -> tuple[Text, list[tuple[int, int]]]:
        """The keys as `FooterKey.render` draws each, one after another
        (with a cell between them when compact, as the footer's margin),
        and where each key is: (first cell, past its last cell). (Where
        is worked out here, not kept from `render`: a line drawn by
        another session is taken from the shared cache, unrendered.)"""
        key_style = self.get_component_rich_style("key-line--key")
        description_style = self.get_component_rich_style("key-line--description")
        key_padding = self.get_component_styles("key-line--key").padding
        description_padding = self.get_component_styles("key-line--description").padding
        line = Text(no_wrap=True, end="")
        spans: list[tuple[int, int]] = []
        for index, key in enumerate(self.keys):
            if self.compact and index:
                line.append(" ")
            if key.description:
                label = Text.assemble(
                    (" " * key_padding.left + key.key_display + " " * key_padding.right,
                     key_style),
                    (" " * description_padding.left + key.description
                     + " " * description_padding.right, description_style))
            else:
                label = Text.assemble((key.key_display, key_style))
            part = "hover" if index == self.hover else "disabled" if key.disabled else "item"
            label.stylize_before(self.get_component_rich_style(f"key-line--{part}"))
            start = line.cell_len
            line.append_text(label)
            spans.append((start, line.cell_len))
        return line, spans

    def key_at(self, x: int) -> int | None:
        """The index of the key drawn at cell `x`, if any."""
        for index, (start, end) in enumerate(self.drawn()[1]):
            if start <= x < end:
                return index
        return None

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """As a `FooterKey` does: the key pressed (a bell if it is off)."""
        index = self.key_at(event.x)
        if index is None:
            return
        key = self.keys[index]
        if key.disabled:
            self.app.bell()
        else:
            self.app.simulate_key(key.key)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._light(self.key_at(event.x))

    def on_leave(self, event: events.Leave) -> None:
        self._light(None)

    def _light(self, index: int | None) -> None:
        if index != self.hover:
            self.hover = index
            self.tooltip = self.keys[index].tooltip or None if index is not None else None
            self.refresh()


class TidyFooter(Footer):
    """Textual's footer, drawn by one `KeyLine` (and the palette's key)."""

    def compose(self) -> ComposeResult:
        line = KeyLine()
        # The footer's `compact`, given before it mounts (given as it
        # mounts, its class changed: a recomputation of its styles).
        line.set_reactive(KeyLine.compact, self.compact)
        line.set_class(self.compact, "-compact", update=False)
        yield line

    def _watch_compact(self, compact: bool) -> None:
        for line in self.query_children(KeyLine):
            line.compact = compact

    def on_mount(self) -> None:
        """Told of a change of keys as it happens (Textual's footer is told
        at the footer's next turn of its message queue, and then rebuilt
        after the next refresh: the keys came a frame or two after the turn)."""
        self.screen.bindings_updated_signal.subscribe(self, self._keys_changed, immediate=True)

    async def recompose(self) -> None:
        """(Nothing here asks for it; should anything, the new line is
        told the keys at once rather than at the next change of keys.)"""
        await super().recompose()
        if self.is_attached:
            self._keys_changed(self.screen)

    def bindings_changed(self, screen: Screen) -> None:
        """(Textual's footer subscribes this too, to be called later: there
        is nothing left to do then.)"""

    def _keys_changed(self, screen: Screen) -> None:
        """The screen's keys may have changed: told to the line at once (a
        footer under a dialog waits until its screen is on top again,
        when Textual tells it anew)."""
        if not (self.is_attached and screen is self.screen and screen is self.app.screen):
            return
        keys, palette = self._keys()
        for line in self.query_children(KeyLine):  # (none yet while the footer mounts)
            line.show(keys)
        self._show_palette(palette)

    def _show_palette(self, wanted: Key | None) -> None:
        """The palette's key, mounted the first time it is wanted (its
        width never changes after), and told when it is switched on or off."""
        now = self.query_children(".-command-palette")
        footer_key = footer_key_class()
        if wanted is None or footer_key is None:  # (no FooterKey: the palette is still Ctrl+P)
            if now:
                now.remove()
            return
        if now:
            set_footer_key_disabled(now.first(footer_key), wanted.disabled)
            return
        key = footer_key(wanted.key, wanted.key_display, wanted.description, wanted.action,
                         disabled=wanted.disabled, tooltip=wanted.tooltip,
                         classes="-command-palette")
        # Compact (FooterKey's own default, never bound to the footer's)
        # before it is mounted: given as it mounts, its class changed
        # once more, a recomputation of its styles.
        key.set_reactive(footer_key.compact, True)
        key.set_class(True, "-compact", update=False)
        self.mount(key)

    def _keys(self) -> tuple[tuple[Key, ...], Key | None]:
        """The keys `Footer.compose` would show now, in its order (one per
        action, the first binding's), and the palette's key if shown."""
        active = self.screen.active_bindings
        first: dict[str, tuple[Binding, bool, str]] = {}
        for _, binding, enabled, tooltip in active.values():
            if binding.show:
                first.setdefault(binding.action, (binding, enabled, tooltip))
        display = self.app.get_key_display
        keys = tuple(Key(b.key, display(b), b.description, b.action, not enabled, tooltip)
                     for b, enabled, tooltip in first.values())
        palette = None
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            found = active.get(self.app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _, b, enabled, _ = found
                palette = Key(b.key, display(b), b.description, b.action, not enabled,
                              b.tooltip or b.description)
        return keys, palette
