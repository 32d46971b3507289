"""The card room lobby's list of tables (`TableList`): a DataTable whose
drawing caches are kept to the lobby's size."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.widgets import DataTable

from crib3.tui.textual_compat import clear_data_table_caches, shrink_data_table_caches


class TableList(DataTable):
    """The lobby's list of tables: Enter sits you at the highlighted one.

    Textual's DataTable keeps what it drew in caches sized for big tables
    (10,000 cells, 1,000 rows and lines), keyed by the table's update: so a
    lobby redrawn as the room fills keeps every drawing before until those
    caches are full. Seating 20 tables, each card-room worker held some
    500,000 objects of them (most of its memory). The lobby shows at most 16
    rows of 4 columns: its caches hold a few drawings of that
    (`DRAWINGS_KEPT`), and are emptied as it goes (the lobby left when its
    person sits may wait for the collector: what it drew need not)."""

    BINDINGS = [Binding("enter", "select_cursor", "Join", show=False)]  # (the hint line says it)
    DRAWINGS_KEPT = 4  # drawings of 16 rows (of 4 cells) each cache holds

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        shrink_data_table_caches(self, 16 * self.DRAWINGS_KEPT)

    def on_unmount(self) -> None:
        clear_data_table_caches(self)
