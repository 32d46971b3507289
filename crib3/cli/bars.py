"""The progress bar of a long command (`sim`, `sim --duplicate`, a first
`stats` over many games, `verify` over many files): Rich's, on stderr, when
stderr is a terminal; nothing at all otherwise, so a pipe or a file gets the
command's plain lines exactly as before.

The bar says what has been done of how much ("312/1000 games"), how it
stands so far (the running share, or how many files were valid) and the time
left. What the command prints on stderr meanwhile goes above the bar, and
so does what it prints on stdout when stdout is that terminal too (a piped
stdout is left alone).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol


class Bar(Protocol):
    @property
    def console(self) -> Any:
        """Rich's console under the bar, to print above it; None without a bar."""

    def advance(self, n: int = 1, status: str | None = None) -> None: ...


class _NoBar:
    console = None

    def advance(self, n: int = 1, status: str | None = None) -> None:
        pass


NO_BAR: Bar = _NoBar()


class _RichBar:
    def __init__(self, progress: Any, task: Any) -> None:
        self.progress, self.task = progress, task

    @property
    def console(self) -> Any:
        return self.progress.console

    def advance(self, n: int = 1, status: str | None = None) -> None:
        if status is None:
            self.progress.advance(self.task, n)
        else:
            self.progress.update(self.task, advance=n, status=status)


def wanted(quiet: bool = False) -> bool:
    """A bar is drawn when stderr is a terminal (and --quiet was not given)."""
    return not quiet and sys.stderr.isatty()


@contextmanager
def progress_bar(total: int, what: str, status: str = "", enabled: bool | None = None,
                 ) -> Iterator[Bar]:
    """A bar counting `total` `what`s ("games", "files"), with `status`
    (changed by each `advance`) beside it; NO_BAR when no bar is wanted."""
    if enabled is None:
        enabled = wanted()
    if not enabled or total <= 0:
        yield NO_BAR
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    with Progress(BarColumn(bar_width=24), MofNCompleteColumn(), TextColumn(what),
                  TextColumn("{task.fields[status]}", markup=False), TimeRemainingColumn(),
                  console=console, transient=True,
                  redirect_stdout=sys.stdout.isatty(), redirect_stderr=True) as progress:
        task = progress.add_task(what, total=total, status=status)
        yield _RichBar(progress, task)
