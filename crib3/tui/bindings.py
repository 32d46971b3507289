"""Footer redraws only when a key is switched on or off.

Why: in Textual 8.2 every `refresh_bindings()` makes the `Footer` build new
`FooterKey` widgets, and the old ones stay alive (linked to the footer's
`compact` reactive) until the app ends. A table that refreshed its keys on
every event grew by megabytes a game, and a card room with sixty sessions
spent most of its CPU rebuilding footers nobody's keys had changed in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.actions import parse
from textual.binding import Binding

if TYPE_CHECKING:  # a mixin for a screen: checked as one
    from textual.screen import Screen

    _Mixed = Screen[Any]
else:
    _Mixed = object


class QuietBindings(_Mixed):
    """Mixin for a Screen: `keys_may_have_changed()` instead of
    `refresh_bindings()`."""

    _key_state: tuple[object, ...] | None = None

    def keys_may_have_changed(self) -> None:
        state = tuple(self._key_states())
        if state != self._key_state:
            self._key_state = state
            self.refresh_bindings()

    def _key_states(self) -> list[object]:
        states: list[object] = []
        for binding in self.BINDINGS:
            action = binding.action if isinstance(binding, Binding) else binding[1]
            namespace, name, params = parse(action)
            states.append(True if namespace else self.check_action(name, params))
        return states
