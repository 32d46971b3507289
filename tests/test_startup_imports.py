"""The first screen comes up without what it does not show (issue 12, point
18): the dialogs' module brings the engine and the coach's tables, and it
was imported on the first resize, before the first frame."""

from __future__ import annotations

import subprocess
import sys

FIRST_SCREEN = '''
import asyncio, sys
from crib3.tui.app import Crib3App

async def main():
    app = Crib3App()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):  # pushed once the app's start is done
            await pilot.pause()
            if type(app.screen).__name__ == "NewGameScreen":
                break
        assert type(app.screen).__name__ == "NewGameScreen", app.screen
        print(" ".join(m for m in ("crib3.tui.screens.dialogs", "crib3.players.coach")
                       if m in sys.modules))

asyncio.run(main())
'''


def test_the_new_game_screen_comes_up_without_the_dialogs_and_the_coach(tmp_path):
    env = {"CRIB3_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"}
    done = subprocess.run([sys.executable, "-c", FIRST_SCREEN], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "", f"imported before they were needed: {done.stdout}"
