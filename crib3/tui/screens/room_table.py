"""The card room's table (`RoomTableScreen`): the table screen, driven by
the room's game, with the comings and goings of the people at it, its
chat, and the keys to give an absent person's seat to a computer player,
to leave, and (for the owner) to close the table, asked first
(`ConfirmCloseTable`); and the result after it (`RoomGameOverScreen`).

The game reaches it only through its seat's feed; the room tells it when
the table changed, and it says so in toasts.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, cast
from weakref import WeakKeyDictionary

from textual.app import ComposeResult
from textual.binding import Binding

from crib3.common.names import shown_name
from crib3.common.pace import SHOW_PACE
from crib3.engine import events as ev
from crib3.engine.state import Phase
from crib3.room import SEATS, RoomError
from crib3.tui.screens.dialogs import ConfirmQuit
from crib3.tui.screens.game_over import GameOverScreen
from crib3.tui.screens.new_owner import tell_new_owner
from crib3.tui.screens.room_dialogs import ChatPrompt, InviteLink
from crib3.tui.screens.table import TableScreen, show_left_unseen
from crib3.tui.settings import AutoMoves
from crib3.tui.widgets.chat import ChatPanel
from crib3.tui.widgets.footer import TidyFooter

if TYPE_CHECKING:
    from collections.abc import Callable

    from crib3.engine import Event, SeatView, State
    from crib3.room.chat import ChatLine
    from crib3.room.contract import TableView
    from crib3.room.match import Match
    from crib3.tui.room_app import CardRoomApp


# How many of each table's game events each person's screen had presented
# (by name), kept by the process that draws their screen: where a reconnect
# goes on presenting a show (see `RoomTableScreen.resume_at`).
_SHOWN_TO: WeakKeyDictionary[object, dict[str, int]] = WeakKeyDictionary()


class ConfirmCloseTable(ConfirmQuit):
    """Asks before a table under way is closed for everyone (or before the
    others are asked to agree to it, or before agreeing: `note`)."""

    BINDINGS = [
        Binding("y", "dismiss(True)", "Close it", priority=True),
        Binding("n,escape", "dismiss(False)", "Keep playing", priority=True),
    ]
    QUESTION = "Close this table for everyone?"
    HINT = ("Its game is kept; the others at it can bring it back from the lobby.\n"
            "y: close it    n: keep playing")


class RoomTableScreen(TableScreen):
    """The table at a card room: the same table, driven by the room's game
    (its computer players are the table's), with the comings and goings of
    the people at it; for everyone here a key that gives the seat of a
    person gone too long to a computer player, and one to leave (the seat
    waits); for the owner, one that closes the table."""

    BINDINGS = [
        *TableScreen.BINDINGS,
        Binding("b", "replace", "Bot for the absent", priority=True),
        Binding("c", "chat", "Chat", priority=True),
        Binding("l", "leave_table", "Leave", priority=True),
        Binding("x", "close_table", "Close", priority=True),
        Binding("i", "invite", "Invite", show=False, priority=True),
        Binding("m", "app.toggle_bell", "Bell", show=False, priority=True),
    ]

    def __init__(self, table: TableView, seat: int, think: float, ascii: bool,
                 on_over: Callable[[State], None] | None, resumed: bool,
                 show_pace: float = SHOW_PACE) -> None:
        """`show_pace`: the room's seconds a count of the show stays (0:
        until Enter); the other moves as at one's own keyboard."""
        assert table.game is not None
        # (The game is a worker's `ReplicaGame` there: the table screen asks
        # it only whether it is over, and plays through `self.feed`, below.)
        super().__init__(table.game, seat, None, think, ascii,  # type: ignore[arg-type]  # see above
                         on_over=on_over, resumed=resumed,
                         auto=dataclasses.replace(AutoMoves(), continue_after=show_pace or None))
        self.table = table
        self.feed = table.feed(seat)  # the table's own (a replica's, in a session worker)
        self._away: set[int] = self._absent()
        self._owner = table.owner
        self._may_replace: set[int] = set()
        self._room_keys: tuple[object, ...] | None = None  # see `_room_keys_now`
        self._asked: set[str] = set(table.close_asked)  # whose asks to close were told
        self._chat_heard = list(table.chat.lines)  # the lines looked at for your name

    def resume_at(self, so_far: list[tuple[Event, State, SeatView]]) -> int:
        """A card-room table opens where it stands, all at once, but for a
        show left part seen: the room's game deals on after a show whatever
        each screen is presenting, so its log cannot tell how far a person
        had seen it; the process that drew their screen remembers
        (`_SHOWN_TO`), and a reconnect (or a return from the lobby) goes on
        presenting the show from the hand that was being counted. Without
        that memory (the server restarted) it opens where it stands."""
        shown = _SHOWN_TO.get(self.table, {}).get(self._who())
        first = show_left_unseen(so_far, self.me)  # the show's first count, if unseen
        if shown is None or first >= len(so_far) or shown >= len(so_far):
            return len(so_far)
        at = max(first, shown)
        if at > first and isinstance(so_far[at - 1][0], ev.HandCounted):
            at -= 1  # the count on screen when the connection went: said again
        return at

    def _present(self, event: Event, state: State, view: SeatView) -> None:
        super()._present(event, state, view)
        _SHOWN_TO.setdefault(self.table, {})[self._who()] = self.presented

    def _who(self) -> str:
        return self.room_app.presence.name.lower()

    @property
    def room_app(self) -> CardRoomApp:
        """The card room's app this screen is one of."""
        return cast("CardRoomApp", self.app)

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, TidyFooter):  # the table's chat, just above the keys
                yield ChatPanel(id="chat")
            yield widget

    # (Textual also calls TableScreen's on_mount and on_unmount, after these.)
    def on_mount(self) -> None:
        self.table.listeners.append(self._table_changed)
        self.table.chat.listeners.append(self._chat_changed)
        # Once patience runs out: b. It ticks only while someone is away (an
        # idle session wakes its server process for nothing otherwise).
        self._patience = self.set_interval(min(1.0, max(self.table.room.patience, 0.1)),
                                           self._patience_check, pause=not self._others_away())
        self._show_chat()
        self._room_keys = self._room_keys_now()  # (the footer is told the keys as it mounts)
        self.call_after_refresh(self._title_replaced_seats)  # once the seats are placed
        if self.table.closed:  # (closed or moved as the screen came: its listeners were told)
            self.call_later(self._tell_comings_and_goings)

    def on_unmount(self) -> None:
        if self._table_changed in self.table.listeners:
            self.table.listeners.remove(self._table_changed)
        if self._chat_changed in self.table.chat.listeners:
            self.table.chat.listeners.remove(self._chat_changed)

    def _chat_changed(self) -> None:
        self.call_later(self._show_chat)  # called from the session of whoever spoke

    def _show_chat(self) -> None:
        if self.is_attached:
            self.query_one(ChatPanel).show(self.table.chat.lines, self.table.watcher_names())
            self._listen_for_my_name()

    def _listen_for_my_name(self) -> None:
        """Someone else at the table said your name: the bell (see
        crib3/tui/attention.py)."""
        from crib3.tui.attention import new_lines, says_name

        lines = list(self.table.chat.lines)
        heard, self._chat_heard = self._chat_heard, lines
        mine = self.room_app.presence.name  # (a spectator's too)
        for line in cast("list[ChatLine]", new_lines(heard, lines)):  # (a slice of `lines`)
            if line.name.casefold() != mine.casefold() and says_name(line.text, mine):
                self.room_app.attention.name_said(line.name)
                return

    def turn_told(self, yours: bool) -> None:
        """Your turn: the bell, once a turn (the throw to the crib is one
        turn however many throws arrive meanwhile)."""
        shown = self.shown
        key = (shown.hand_number, shown.phase) if shown.phase == Phase.DISCARD else self.presented
        self.room_app.attention.turn(key, yours)

    def action_chat(self) -> None:
        self.app.push_screen(ChatPrompt(self.table.number), self._said)

    def action_invite(self) -> None:
        """A link for a friend (to watch, or to sit where a seat is free)."""
        self.app.push_screen(InviteLink(self.room_app.presence.name,
                                        self.table.number))

    def _said(self, text: str | None) -> None:
        if not text:
            return
        try:
            self.table.say(self.room_app.presence, text)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)

    def _absent(self) -> set[int]:
        return {s for s in range(SEATS) if self.table.away(s) is not None}

    def _others_away(self) -> bool:
        """Someone else's seat waits for them (whom patience may run out on)."""
        return bool(self._absent() - {self.me})

    def _table_changed(self) -> None:
        self.call_later(self._tell_comings_and_goings)

    def _patience_check(self) -> None:
        """Say once, when someone has been away the room's patience, who may
        give their seat to a computer player, and how."""
        if not self.is_attached or self.table.closed:
            return
        ready = {s for s in range(SEATS) if self.table.replaceable(s)}
        for seat in sorted(ready - self._may_replace):
            person = self.table.seats[seat]
            self.notify(f"{shown_name(person.name)} has been away a while: anyone at the table "
                        f"may press b to give their seat to the {person.level} computer player.",
                        markup=False)
        if ready != self._may_replace:
            self._may_replace = ready
            self.keys_may_have_changed()

    def _moved_elsewhere(self) -> None:
        """The table is hosted by another server now (crib3 serve --cluster):
        the lobby this screen goes back to takes its person to their seat
        once the table is listed there (`LobbyScreen._rejoin`)."""
        journey = self.room_app.journey
        if journey is not None:
            journey.rejoin = (self.table.number, self._this_node())
        self.notify(f"Table {self.table.number} is hosted by another server now; you are "
                    "taken back to your seat there in a moment.", markup=False)

    def _this_node(self) -> str:
        """This server's name in its cluster ("" for a room of one server)."""
        cluster = self.table.room.cluster
        return "" if cluster is None else cluster.node_name

    def _tell_comings_and_goings(self) -> None:
        if not self.is_attached:
            return
        self._show_chat()  # who is watching
        table = self.table
        if table.closed:
            mine = table.seats[self.me].name
            if table.moved:  # (crib3 serve --cluster) another server hosts it
                self._moved_elsewhere()
            elif table.closed_by is not None and mine in table.close_asked:
                self.notify(f"Everyone agreed: table {table.number} is closed; its game is "
                            "saved.", markup=False)
            elif table.closed_by is not None and table.closed_by != mine:
                self.notify(f"{shown_name(table.closed_by)} closed table {table.number}; "
                            "its game is saved. r in the lobby brings it back.", markup=False)
            elif table.closed_by is None:  # an admin closed it (or the room is closing)
                self.notify(f"Table {table.number} was closed; it is saved.", markup=False)
            self.room_app.back_to_lobby()  # (over any dialog, too)
            return
        self._owner = tell_new_owner(self, table, self.me, self._owner)
        self._tell_asks_to_close()
        away = self._absent() - {self.me}  # (this screen's person is told as they leave)
        for seat in away - self._away:
            name = self.table.seats[seat].name or ""
            # Still signed in: back in the lobby by choice. Else gone from the
            # room: they quit, or their connection dropped (the seat waits
            # either way). The room's people are in the same change (one
            # delta), and this runs after it (`_table_changed`).
            where = "table" if name.lower() in self.table.room.people else "room"
            self.notify(f"{shown_name(name)} has left the {where}; their seat waits.",
                        markup=False)
        for seat in self._away - away:
            person = self.table.seats[seat]
            if person.replaced:
                self.notify(f"The {person.level} computer player now plays for "
                            f"{shown_name(person.name)}.", markup=False)
            else:
                self.notify(f"{shown_name(person.name)} is back.", markup=False)
        self._away = away
        if self._others_away():
            self._patience.resume()
        else:
            self._patience.pause()
            self._patience_check()  # (nobody may be replaced now: said again next time)
        self._title_replaced_seats()
        keys = self._room_keys_now()
        if keys != self._room_keys:  # (most changes are a move or a score: no key changes)
            self._room_keys = keys
            self.keys_may_have_changed()

    def _tell_asks_to_close(self) -> None:
        """Someone asked to close the game (an owner who did not start it):
        everyone else seated is told, once, that x agrees."""
        me = self.table.seats[self.me].name
        for name in self.table.close_asked:
            if name not in self._asked and name != me and me not in self.table.close_asked:
                self.notify(f"{shown_name(name)} asks to close table {self.table.number} for "
                            "good: x agrees (it closes when everyone here has).", markup=False)
        self._asked = set(self.table.close_asked)

    def _room_keys_now(self) -> tuple[object, ...]:
        """What the room's keys (b, l, x) depend on (see `check_action`):
        the footer is told the keys again only when it changed."""
        table = self.table
        return (tuple(s for s in range(SEATS) if table.replaceable(s)), self._mine(),
                table.over, self._may_agree())

    def _title_replaced_seats(self) -> None:
        """A seat given to a computer player is titled with its level, not
        "human" (the game still lists the person who sat there)."""
        for seat, person in enumerate(self.table.seats):
            if person.replaced and seat != self.me:
                self.table_view.played_by(seat, person.level)

    def _mine(self) -> bool:
        """This screen's person owns the table."""
        return self.table.seats[self.me].name == self.table.owner

    def _may_agree(self) -> bool:
        """Someone asked to close the game, and this person has not yet agreed."""
        asked = self.table.close_asked
        return bool(asked) and self.table.seats[self.me].name not in asked

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replace":
            return any(self.table.replaceable(s) for s in range(SEATS))
        if action == "close_table":
            return (self._mine() or self._may_agree()) and not self.table.over
        if action == "leave_table":
            return not self.table.over
        return super().check_action(action, parameters)

    def action_replace(self) -> None:
        name = self.table.seats[self.me].name
        for seat in range(SEATS):
            if self.table.replaceable(seat) and name is not None:
                try:
                    self.table.replace(seat, name)
                except RoomError as exc:
                    self.notify(str(exc), severity="warning", markup=False)
                return

    def action_leave_table(self) -> None:
        """Back to the lobby; the seat waits (and, after the room's
        patience, the others may give it to a computer player)."""
        self.notify(f"You left table {self.table.number}; your seat waits for you: sit at "
                    "it again from the lobby.", markup=False)
        self.room_app.back_to_lobby()

    def action_close_table(self) -> None:
        table, me = self.table, self.table.seats[self.me].name or ""
        if self._may_agree():
            note = f"{shown_name(table.close_asked[0])} asked to; it closes when everyone has."
        elif not self._mine():
            return
        elif table.started_by != me and any(
                s.person and s.name != me for s in table.seats):
            note = (f"{shown_name(table.started_by or 'Whoever started it')} started this game: "
                    "the others here are asked to agree first.")
        else:
            note = None
        self.app.push_screen(ConfirmCloseTable(note), self._close_confirmed)

    def _close_confirmed(self, yes: bool | None) -> None:
        if not yes:
            return
        agreeing = self._may_agree()  # (then the table's closing says it, to everyone)
        try:
            closed = self.table.close_by(self.table.seats[self.me].name or "")
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        if closed and not agreeing:
            self.notify(f"You closed table {self.table.number}; its game is saved.",
                        markup=False)
        elif not closed:
            self.notify(f"The others at table {self.table.number} are asked to agree; it "
                        "closes when they all have.", markup=False)


class RoomGameOverScreen(GameOverScreen):
    """The result, at a card room: n or Enter goes back to the lobby. Between
    two games of a match it says how the match stands and n or Enter goes
    on to the next game (dismissing with "next")."""

    BINDINGS = [Binding("n,enter", "dismiss('new')", "Lobby"),
                Binding("n,enter", "dismiss('next')", "Next game")]

    def __init__(self, state: State, me: int, match: Match | None = None) -> None:
        """`match`: the table's match, this game counted in (None: a single game)."""
        self.goes_on = match is not None and match.is_match and not match.over
        line = None
        if match is not None and match.is_match:
            line = match_words(match, [shown_name(p.name, 24) for p in state.players], me)
        super().__init__(state, me, again="next game" if self.goes_on else "back to the lobby",
                         match_line=line)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """n or Enter: the next game while the match goes on, else the lobby."""
        if action == "dismiss" and parameters in (("new",), ("next",)):
            return (parameters == ("next",)) == self.goes_on
        return super().check_action(action, parameters)


def match_words(match: Match, names: list[str], me: int) -> str:
    """The match after a game, in a sentence: its score in games, then
    either who won it or what it takes to win (`crib3.room.match`)."""
    wins = match.wins()
    tally = ", ".join(f"{name} {won}" for name, won in zip(names, wins))
    head = f"Match, best of {match.best_of}, games won: {tally}."
    if match.winner is not None:
        won = "You win the match!" if match.winner == me else \
            f"{names[match.winner]} wins the match."
        return f"{head} {won}"
    if match.extra:
        return f"{head} Nobody has {match.needed} yet: the match goes on."
    return f"{head} The first to win {match.needed} wins it."
