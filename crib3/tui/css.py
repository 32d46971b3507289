"""Where the screens' layout lives: one stylesheet beside the app.

Every screen names this file as its `CSS_PATH` (Textual loads a file once,
whichever screen asks first), so a screen brings its layout wherever it is
shown: in the crib3 app, the card room's app, or a test's bare `App`. With
`textual run --dev crib3.tui.app:Crib3App` the file is live-edited. Widgets
keep their own `DEFAULT_CSS`.
"""

from __future__ import annotations

from pathlib import Path

STYLESHEET = Path(__file__).with_name("crib3.tcss")
