"""Textual's Footer, without its leak.

In Textual 8.2 the Footer rebuilds its keys (FooterKey widgets) whenever the
keys may have changed, and each key is bound to the footer's `compact`
reactive. Textual forgets a bound widget only when that reactive changes,
which never happens here, so every rebuild left its old keys alive, and each
new key was checked against all the old ones: memory and time grew with the
game. This footer lets go of the keys it no longer shows after each rebuild.
"""

from __future__ import annotations

from textual.widgets import Footer


class TidyFooter(Footer):
    async def recompose(self) -> None:
        await super().recompose()
        watchers = getattr(self, "__watchers", {})
        for name, bound in watchers.items():
            watchers[name] = [(node, callback) for node, callback in bound
                              if getattr(node, "is_attached", True)]
