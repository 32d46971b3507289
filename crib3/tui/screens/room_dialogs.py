"""The card room's small dialogs: a line of chat to say, an admin's
question, whose session to end (or whom to ban or mute, how long, and which
ban or mute to lift, the message of the day), and an invite link for a friend. Apart from
the screens that open them (the lobby, a seat, a spectator) so that those
import them, not each other."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from crib3.common.names import shown_name
from crib3.room.chat import MAX_CHARS, steady
from crib3.room.moderation import DURATIONS, MOTD_CHARS, Sanction
from crib3.tui.ascii import app_is_ascii, in_words
from crib3.tui.screens.dialogs import Dialog


class ChatPrompt(ModalScreen["str | None"]):
    """One line to say at a table: Enter says it, Esc says nothing. At the
    bottom of the screen and see-through, so the table stays in sight (not
    a `Dialog`: those sit in the middle, over the table)."""

    SCOPED_CSS = False  # the rules below are for the screen itself
    # App-level CSS, with the id: the app's `Screen { background: ... }`
    # would otherwise make it opaque and hide the table.
    CSS = """
    #chat-prompt { align: center bottom; background: $background 0%; }
    #chat-prompt > Vertical { width: 100%; height: auto; background: $surface; }
    #chat-prompt .hint { color: $text-muted; padding: 0 1; }
    """
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", priority=True)]

    def __init__(self, number: int) -> None:
        super().__init__(id="chat-prompt")
        self.number = number

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Say at table {self.number} (Enter: say it · Esc: cancel)",
                         classes="hint")
            yield Input(max_length=MAX_CHARS, placeholder="a line for everyone at the table",
                        id="say")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        """What is typed is shown as it will be said: a skin-tone modifier
        or a variation selector, drawn by the terminal at another width
        than Rich counts, would push the prompt's row out of line."""
        typed = event.input  # (its value now: more may have been typed since)
        shown = steady(typed.value)
        if shown != typed.value:
            cursor = len(steady(typed.value[:typed.cursor_position]))
            typed.value = shown
            typed.cursor_position = cursor

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)


class ConfirmAdmin(Dialog[bool]):
    """An admin's action, asked first: y does it, n or Esc does not."""

    BINDINGS = [
        Binding("y", "dismiss(True)", "Yes", priority=True),
        Binding("n,escape", "dismiss(False)", "No", priority=True),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, classes="title", markup=False)  # it holds names
            yield Static("y: yes    n: no", classes="hint")


class PickPerson(Dialog["str | None"]):
    """The admin picks whose session to end (or whom to ban or mute):
    Enter picks, Esc cancels."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", priority=True)]

    def __init__(self, names: Sequence[str], question: str = "Remove whose session?",
                 verb: str = "remove") -> None:
        super().__init__()
        self.names = list(names)
        self.question = question
        self.verb = verb

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, classes="title")
            yield OptionList(*(Option(Text(shown_name(n, 20)), id=str(i))
                               for i, n in enumerate(self.names)), id="people")
            yield Static(in_words(f"↑/↓ choose · Enter {self.verb} · Esc cancel",
                                  app_is_ascii(self)),
                         classes="hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.names[int(event.option.id or 0)])


class PickDuration(Dialog["float | bool | None"]):
    """How long the admin bans (or mutes) someone: Enter picks, Esc
    cancels. Dismissed with seconds, True for good, False cancelled (None
    cannot say both "for good" and "cancelled")."""

    BINDINGS = [Binding("escape", "dismiss(False)", "Cancel", priority=True)]

    def __init__(self, what: str, name: str) -> None:
        super().__init__()
        self.what = what
        self.name_ = name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"{self.what.capitalize()} {shown_name(self.name_)} for how long?"),
                         classes="title")
            yield OptionList(*(Option(label, id=str(i))
                               for i, (label, _) in enumerate(DURATIONS)), id="durations")
            yield Static(in_words("↑/↓ choose · Enter pick · Esc cancel", app_is_ascii(self)),
                         classes="hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        seconds = DURATIONS[int(event.option.id or 0)][1]
        self.dismiss(True if seconds is None else seconds)


class PickSanction(Dialog["int | None"]):
    """The admin picks a ban or a mute in force to lift (its index):
    Enter picks, Esc cancels."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", priority=True)]

    def __init__(self, sanctions: Sequence[Sanction]) -> None:
        super().__init__()
        self.sanctions = list(sanctions)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Lift which ban or mute?", classes="title")
            yield OptionList(*(Option(Text(f"{s.what} {shown_name(s.name, 20)} "
                                           f"{s.until_words()}"), id=str(i))
                               for i, s in enumerate(self.sanctions)), id="sanctions")
            yield Static(in_words("↑/↓ choose · Enter lift · Esc cancel", app_is_ascii(self)),
                         classes="hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))


class MotdPrompt(Dialog["str | None"]):
    """The admin writes the lobby's message of the day: Enter keeps it
    (empty: none), Esc leaves it as it was."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", priority=True)]

    def __init__(self, motd: str) -> None:
        super().__init__()
        self.motd = motd

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("The message of the day, for everyone in the lobby:", classes="title")
            yield Input(self.motd, max_length=MOTD_CHARS, id="motd",
                        placeholder="empty: no message")
            yield Static(in_words("Enter: keep it · Esc: cancel", app_is_ascii(self)),
                         classes="hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)


class InviteLink(Dialog[None]):
    """A link that seats a friend from a browser (the card room's web door):
    made when the dialog opens, good once, for a day. Without a web door it
    says how the host opens one. Enter or Esc closes it."""

    BINDINGS = [Binding("enter,escape,i", "dismiss(None)", "Close", priority=True)]

    def __init__(self, made_by: str, table: int | None) -> None:
        super().__init__()
        self.made_by = made_by
        self.table = table

    def compose(self) -> ComposeResult:
        from crib3.common.paths import data_dir
        from crib3.room.invites import INVITE_HOURS, InviteBook, InviteRefused

        book = InviteBook(data_dir() / "web")
        with Vertical():
            if book.door_url() is None:
                yield Static("No web door is open here.", classes="title")
                yield Static("The host can open one with crib3 serve --web PORT; then this "
                             "key makes a link that seats a friend from a browser.",
                             classes="hint")
            else:
                try:
                    link = book.link(book.invite(self.made_by, table=self.table))
                except InviteRefused as exc:
                    yield Static(str(exc), classes="title", markup=False)
                else:
                    where = f" at table {self.table}" if self.table is not None else ""
                    yield Static(f"A seat{where} for a friend, from a browser:", classes="title")
                    yield Static(Text(link or "", style="bold"), id="link")
                    yield Static(f"Send them this link: it works once, for "
                                 f"{INVITE_HOURS:.0f} hours, and they choose their name.",
                                 classes="hint")
            yield Static("Enter: close", classes="hint")
