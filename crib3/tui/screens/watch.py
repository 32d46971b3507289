"""The card room's screen for watching a table, and its help.

- `SpectatorScreen`: a started table watched without a seat. It is the
  seats' table screen in a read-only mode, built on the seat-less feed
  (`SeatFeed(game, None)`): the engine hands it public facts only, so no
  hidden card can reach a spectator's terminal, whatever this screen does.
  The bottom of the table is the first seat's place, drawn face down.
- `RoomHelpScreen`: the help, with the card room's own keys.

The chat prompt and the admin's dialogs are `crib3.tui.screens.room_dialogs`.
Names and chat are people's text: shown as `Text` or with markup off.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from crib3.common.names import shown_name
from crib3.engine import Event, SeatView, State, project
from crib3.engine import events as ev
from crib3.engine.state import Phase
from crib3.tui.screens.board_table import BoardWords, board_name, board_title
from crib3.tui.screens.dialogs import HELP_TEXT, PALETTE_KEY, TAKE_BACK_KEY, HelpScreen
from crib3.tui.screens.room_table import RoomTableScreen
from crib3.tui.screens.table import PAUSE_AFTER, READ_BACK_KEYS
from crib3.tui.widgets.chat import ChatPanel
from crib3.tui.widgets.redraw import redraw_line
from crib3.tui.words import Mode, points

if TYPE_CHECKING:
    from crib3.room.contract import TableView

PAUSE_PER_THINK = 2.5  # a spectator's screen rests this many think-times where a seat
PAUSE_AT_LEAST = 0.3   # waits for Enter (1.5 s at the default pace), and no less than this

# The card room's keys take the place of the palette's line (no palette
# here). Every line fits the help panel at 80x24 with its scrollbar (45
# cells): a longer one wraps, its words under the key column.
ROOM_KEYS = """\
[b]Card room[/b]
  c          chat at the table
  l          leave the table; your seat waits
  x          close your table (its owner)
  b          a computer for someone gone
  i          a link for a friend's browser
  m          the bell for your turn: on, off
  w, r       in the lobby: watch a game,
             bring your put-away table back
"""
# The lobby's keys, every one it binds (a test holds them to its bindings),
# first in the help opened there.
LOBBY_KEYS = """\
[b]Lobby[/b]
  ↑/↓        choose a table
  Enter      sit down at it
  w          watch a game
  o          open a table of your own
  p          play now: seated with two people
             near your rating, at a new table
  c          after the wait: the computer
  Esc        leave the queue (else: quit)
  r          bring your put-away table back
  s          players: the board, profiles
  g          my games: replay one, export it
  e          live duplicate events
  m          the bell for your turn: on, off
  ?          this help
  q, Ctrl+Q  leave the room
"""
# A table's keys, after the lobby's in the help opened there.
TABLE_KEYS = """\
[b]At a table[/b]
  c          chat at the table
  l          leave the table; your seat waits
  x          close your table (its owner)
  b          a computer for someone gone
  i          a link for a friend's browser
"""
MATCH_HELP = """\
[b]Matches[/b] (o, then Match: best of 3 or 5)
The same three play game after game, each deal cut for anew; the first to \
win 2 games (of 3) or 3 (of 5) wins the match. If the games run out with \
nobody there (1-1-1, 2-2-1), the match goes on until someone is. A rated \
match moves ratings once, when it ends: its winner first, the others by \
games won. Leave it, and the computer finishes it for you, last.
"""
ADMIN_KEYS = """\
  x          admin: close a table (saved)
  k          admin: remove someone's session
  b, u       admin: ban someone, mute someone
  l          admin: lift a ban or a mute
  d          admin: the message of the day
"""


class SpectatorScreen(RoomTableScreen):
    """A table watched without a seat (see the module's docstring): no
    prompts to answer, no hand keys; Enter only hurries a pause, c chats,
    l leaves."""

    BINDINGS = [
        Binding("enter", "next", "Go on", priority=True),
        Binding("s", "skip_show", "Skip show", priority=True),
        Binding("f", "toggle_feed", "Feed", priority=True),
        *READ_BACK_KEYS,
        Binding("c", "chat", "Chat", priority=True),
        Binding("l,escape,q", "leave", "Leave", key_display="l", priority=True),
        Binding("question_mark", "app.help", "Help", key_display="?", priority=True),
    ]

    def turn_told(self, yours: bool) -> None:
        """A spectator has no turn (its view is seat 0's face-up cards)."""

    def resume_at(self, so_far: list[tuple[Event, State, SeatView]]) -> int:
        """A game watched opens where it stands."""
        return len(so_far)

    def __init__(self, table: TableView, think: float, ascii: bool) -> None:
        super().__init__(table, 0, think, ascii, on_over=None, resumed=True)
        self.feed = table.feed(None)  # public facts only
        self.view = project(self.shown, None)
        self.on_over = self._game_over

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, ChatPanel):  # whose chair you watch from, over the chat
                yield Static(id="me", classes="spectator-line")
            yield widget

    # (Textual calls RoomTableScreen's and TableScreen's on_mount too, after this.)
    def on_mount(self) -> None:
        self._hand_only_for_counts()

    def _hand_only_for_counts(self) -> None:
        """No hand of one's own: the hand's rows show only a count in the
        show (the counted cards, face up for everyone), and otherwise give
        their room to the game's lines and the chat."""
        hand = self.table_view.hand
        hand.display = hand.showing is not None

    async def _say_count(self, event: ev.HandCounted, state: State) -> None:
        self.table_view.hand.display = True
        await super()._say_count(event, state)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("chat", "leave"):
            return True
        if action in ("next", "skip_show", "toggle_feed", "read_feed", "last_count"):
            return super().check_action(action, parameters)
        return False  # no seat: nothing to throw, play, cut, count or hand to a bot

    def _present(self, event: Event, state: State, view: SeatView) -> None:
        super()._present(event, state, view)
        self._show_bottom_seat(bottom_seat_line(view, self.me, self.ascii))
        self._hand_only_for_counts()

    def _show_bottom_seat(self, line: Text) -> None:
        """The bottom seat's line, redrawn only when it changed, and with
        a layout of the screen only when its height may change (it was
        empty, or it wraps now or did before): an ordinary event at a
        watched table lays out no screen."""
        widget = self.query_one("#me", Static)
        before = widget.content
        width = widget.content_size.width
        one_row = isinstance(before, Text) and before.plain != "" and width > 0 \
            and before.cell_len <= width and line.cell_len <= width
        if one_row:
            redraw_line(widget, line)
        else:
            widget.update(line)

    async def _pace(self, event: Event) -> None:
        """Where a seat waits for Enter, a spectator's screen rests a moment
        and goes on by itself (Enter hurries it): nobody waits for them."""
        if not isinstance(event, PAUSE_AFTER):
            await super()._pace(event)
            return
        if isinstance(event, (ev.HandCounted, ev.MugginsCalled)) and self._skipping():
            return
        self._continue.clear()
        self.mode = Mode.WAITING_FOR_ENTER
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._continue.wait(),
                                   max(PAUSE_AT_LEAST, PAUSE_PER_THINK * self.think))
        self._presenting_quietly(self._presenting())  # (drawn with what comes next)
        if isinstance(event, ev.GameWon):
            self._game_over(self.shown)

    def _game_over(self, state: State) -> None:
        if state.winner is not None:
            winner = shown_name(state.name(state.winner))
            self.notify(f"Table {self.table.number}: won by {winner}.", markup=False)
        if self.table.match.is_match:
            self._watch_next()
        else:
            self.action_leave()

    def _watch_next(self) -> None:
        """A match's game is over: watch its next one once it has begun (the
        table begins it at once), or leave when the match is won."""
        table = self.table
        if table.closed or table.over:
            self.action_leave()
        elif table.state is None or table.state.winner is not None:  # (not begun yet)
            self.set_timer(0.05, self._watch_next)
        else:  # (this screen follows the game just over: a new one, in its place)
            room_app = self.room_app
            room_app.pop_screen()
            room_app.spectate(table)

    def action_leave(self) -> None:
        self.room_app.stop_watching()

    def _moved_elsewhere(self) -> None:
        """The table watched is hosted by another server now: the lobby
        goes on watching it there once it is listed (a spectator has no
        seat to be taken back to)."""
        journey = self.room_app.journey
        if journey is not None:
            journey.rewatch = (self.table.number, self._this_node())
        self.notify(f"Table {self.table.number} is hosted by another server now; you go on "
                    "watching it there in a moment.", markup=False)


class BoardSpectatorScreen(BoardWords, SpectatorScreen):
    """A live event's board table watched: its words name the board ("Board
    2"), and its heading "Board 2 of 3", as its seats' do; a spectator's
    "Hand 1" told nobody which board they watched."""

    def __init__(self, table: TableView, think: float, ascii: bool,
                 board: tuple[int, int]) -> None:
        super().__init__(table, think, ascii)
        number, count = board
        self.board = board_name(number)
        self.hand_title = board_title(number, count) if count else self.board


def bottom_seat_line(view: SeatView, seat: int, ascii: bool = False) -> Text:
    """The line for the seat drawn at the bottom of a spectator's table:
    its name, score, deal and the cards it played in this count (its hand
    stays face down, as the others')."""
    text = Text()
    if not view.players:
        return text
    text.append(shown_name(view.players[seat].name, 24), style="bold")
    text.append(f"  {points(view.scores[seat], view.rules.target)}", style="bold")
    if view.dealer == seat:
        text.append("  · deals", style="italic")
    if view.phase != Phase.SHOW and view.held[seat]:
        text.append(f"  · holds {view.held[seat]}", style="dim")
    mine = [c for c, s in zip(view.pile, view.pile_seats) if s == seat]
    if mine and view.phase == Phase.PLAY:
        text.append("  · played ", style="dim")
        text.append(" ".join(c.label(ascii) for c in mine))
    text.append("   (you are watching)", style="dim italic")
    return text


class RoomHelpScreen(HelpScreen):
    """The help, and the card room's keys (an admin's too, for an admin);
    opened in the lobby, the lobby's keys first."""

    def __init__(self, admin: bool = False, lobby: bool = False) -> None:
        # In the lobby the panel takes the screen's height (no table to
        # keep in view above it): the lobby's keys and a table's in view.
        super().__init__(classes="lobby" if lobby else None)
        self.admin = admin
        self.lobby = lobby

    def help_text(self) -> str:
        """The card room's keys first (an admin's too), then the game's, then
        how a match is won (read once, not at each look for a key). In the
        lobby: the lobby's keys, an admin's, then a table's."""
        admin = ADMIN_KEYS if self.admin else ""
        room = LOBBY_KEYS + admin + "\n" + TABLE_KEYS if self.lobby else ROOM_KEYS + admin
        game = HELP_TEXT.replace(TAKE_BACK_KEY, "").replace(PALETTE_KEY, "")  # (no u, no palette)
        return room + "\n" + game + "\n" + MATCH_HELP
