"""Textual's Footer, without its leak, and without a rebuild for every change
of keys.

In Textual 8.2 the Footer rebuilds its keys (FooterKey widgets) whenever the
keys may have changed, and each key is bound to the footer's `compact`
reactive. Textual forgets a bound widget only when that reactive changes,
which never happens here, so every rebuild left its old keys alive, and each
new key was checked against all the old ones: memory and time grew with the
game. This footer lets go of the keys it no longer shows after each rebuild.

A rebuild is also the dearest thing on a table's screen: new widgets are
styled, mounted and laid out, and the whole screen is sent again (at a card
room, once per seat per event). Most changes of keys keep the same number
of keys (Enter goes from "Go on" to "Throw"), so the keys on screen are
told what they say now instead (only a key whose width changed asks for a
layout), and a key more or less is one key added or removed. Only the
footer of the screen on top is told in place: one under a dialog is
rebuilt (told in place, a lobby's footer under its open-table dialog left
that dialog undrawn; `test_ssh_bounds` shows it).

Every session's footer says the same few things ("⏎ Go on", "? Help"), so
its keys draw their text through the process-wide cache of
`crib3.tui.widgets.shared_render`; and a key is given the footer's
`compact` before it is mounted (given after, it changed the key's classes
twice, each a recomputation of its styles).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

from textual.binding import Binding
from textual.widgets import Footer
from textual.app import ComposeResult
from textual.widgets._footer import FooterKey

from crib3.tui.widgets.shared_render import SharedRender


class _Key(NamedTuple):
    """What one FooterKey says and does."""

    key: str
    key_display: str
    description: str
    action: str
    disabled: bool
    tooltip: str
    palette: bool  # the command palette's key, drawn apart on the right


class SharedFooterKey(SharedRender, FooterKey):
    """A footer key whose text is drawn once per process, whatever the
    number of sessions showing it."""

    def render_key(self) -> Hashable:
        return (self.key_display, self.description, self._disabled, frozenset(self.classes),
                self.rich_style, self.get_component_rich_style("footer-key--key"),
                self.get_component_rich_style("footer-key--description"))


class TidyFooter(Footer):
    def compose(self) -> ComposeResult:
        """Textual's keys, as keys that share their drawing (the same
        widget class but for that: made a `SharedFooterKey` before they are
        mounted)."""
        for widget in super().compose():
            if type(widget) is FooterKey:
                widget.__class__ = SharedFooterKey
                # (the palette's key keeps its own `compact`; the others follow the footer's)
                self._compact_before_mount(widget, follow=not widget.has_class("-command-palette"))
            yield widget

    async def recompose(self) -> None:
        if self.is_attached and self._bindings_ready and self.screen is self.app.screen \
                and await self._retold():
            return
        await super().recompose()
        self._forget_gone_keys()

    async def _retold(self) -> bool:
        """Bring the keys on screen up to date in place: the keys that stay
        are told what they say now, surplus ones go, missing ones are added
        (before the palette's key). False when that cannot be done (key
        groups, or nothing on screen yet): then the footer is rebuilt."""
        now = list(self.children)
        wanted = self._keys()
        if not now or wanted is None or any(type(key) not in (FooterKey, SharedFooterKey)
                                            for key in now):
            return False
        now_palette = [k for k in now if k.has_class("-command-palette")]
        if len(now_palette) != sum(k.palette for k in wanted):
            return False
        plain_now = [k for k in now if not k.has_class("-command-palette")]
        plain_wanted = [k for k in wanted if not k.palette]
        for key, new in zip([*plain_now, *now_palette],
                            [*plain_wanted[:len(plain_now)], *(k for k in wanted if k.palette)]):
            _retell(key, new)  # type: ignore[arg-type]
        if len(plain_now) != len(plain_wanted):
            # (Textual's compose also sets `grid_size_columns`: unused by
            # the footer's horizontal layout, and each set redrew every key.)
            surplus = plain_now[len(plain_wanted):]
            if surplus:
                await self.remove_children(surplus)
            extra = [self._new_key(k) for k in plain_wanted[len(plain_now):]]
            if extra:
                await self.mount(*extra, before=now_palette[0] if now_palette else None)
            self._forget_gone_keys()
        return True

    def _new_key(self, key: _Key) -> FooterKey:
        """A key to add in place, already as compact as the footer."""
        new = SharedFooterKey(key.key, key.key_display, key.description, key.action,
                              disabled=key.disabled, tooltip=key.tooltip)
        self._compact_before_mount(new, follow=True)
        return new.data_bind(compact=Footer.compact)

    def _compact_before_mount(self, key: FooterKey, follow: bool) -> None:
        """Give a key not yet mounted its `-compact` class now, and with
        `follow` the footer's `compact` (a key was made compact, and told
        otherwise once mounted, each a restyling: at a session's start its
        footer cost more in them than in anything else)."""
        # Not read from the key: reading a reactive before mount runs its watcher.
        compact = self.compact if follow else True  # True: FooterKey's own default
        key.set_reactive(FooterKey.compact, compact)
        key.set_class(compact, "-compact", update=False)

    def _forget_gone_keys(self) -> None:
        watchers = getattr(self, "__watchers", {})
        for name, bound in watchers.items():
            watchers[name] = [(node, callback) for node, callback in bound
                              if getattr(node, "is_attached", True)]

    def _keys(self) -> list[_Key] | None:
        """The keys `Footer.compose` would make now, in its order; None when
        it would make groups (then it is left to compose them)."""
        active = self.screen.active_bindings
        first: dict[str, tuple[Binding, bool, str]] = {}
        for _, binding, enabled, tooltip in active.values():
            if binding.show:
                if binding.group is not None:
                    return None
                first.setdefault(binding.action, (binding, enabled, tooltip))
        display = self.app.get_key_display
        keys = [_Key(b.key, display(b), b.description, b.action, not enabled, tooltip, False)
                for b, enabled, tooltip in first.values()]
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            found = active.get(self.app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _, b, enabled, _ = found
                keys.append(_Key(b.key, display(b), b.description, b.action, not enabled,
                                 b.tooltip or b.description, True))
        return keys


def _retell(key: FooterKey, new: _Key) -> None:
    """Make `key` (on screen) say and do what `new` says."""
    if (key.key, key.key_display, key.description, key.action, key._disabled,
            key.tooltip or "") == new[:6]:
        return
    width_changed = (len(key.key_display), len(key.description)) != (
        len(new.key_display), len(new.description))
    key.key, key.key_display, key.description, key.action = new[:4]
    key._disabled = new.disabled
    key.tooltip = new.tooltip or None
    key.set_class(new.disabled, "-disabled")
    key.refresh(layout=width_changed)
