"""An opponent's place at the table: name, level, score, role, cards."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from crib3.cards import Card
from crib3.engine import SeatView
from crib3.engine.state import Phase
from crib3.names import shown_name
from crib3.tui.widgets.cards import backs, card_label, cards_label
from crib3.tui.widgets.shared_render import SharedStatic


class SeatPanel(SharedStatic, Static):
    """One opponent, drawn from the human seat's view: face-down cards until
    the show, the cards it has played in this count, and its go."""

    DEFAULT_CSS = """
    SeatPanel {
        height: 1fr; width: 1fr; border: round $secondary; padding: 0 1;
        border-title-color: $text; border-subtitle-color: $text;
    }
    SeatPanel.to-act { border: heavy $accent; }
    """

    # No repaint of their own: `_redraw` repaints what changed (a new view
    # comes with every event, most of them change nothing of this seat's).
    view: reactive[SeatView | None] = reactive(None, repaint=False)
    thinking: reactive[bool] = reactive(False, repaint=False)
    # Replay with every hand face up: the cards this seat holds.
    revealed: reactive[tuple[Card, ...] | None] = reactive(None, repaint=False)

    def __init__(self, seat: int, ascii: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        self.seat = seat
        self.ascii = ascii
        self._last_body: Text | None = None
        self._last_titles: tuple[Text, int] | None = None
        # Who plays this seat now, where the game's player kind no longer
        # says it: a card-room seat given to a computer player (the game
        # still lists the person who sat there).
        self.played_by: str | None = None

    def watch_view(self) -> None:
        self._redraw()

    def watch_thinking(self) -> None:
        self._redraw()

    def watch_revealed(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        view = self.view
        if view is None or not view.players:
            return
        seat = self.seat
        player = view.players[seat]
        # A Text: the title is literal, whatever the name holds ("[/]").
        kind = self.played_by or player.kind
        title = Text(f"{shown_name(player.name, 14)} · {shown_name(kind, 8)}")
        if (title, view.scores[seat]) != self._last_titles:  # a title set is a repaint
            self._last_titles = (title, view.scores[seat])
            self.border_title = title
            self.border_subtitle = f"{view.scores[seat]} pts"
        self.set_class(seat in view.to_act, "to-act")
        body = self._body(view)
        if body != self._last_body:  # unchanged text: no redraw
            self._last_body = body
            self.update(body, layout=False)  # a fixed size: no layout

    def _body(self, view: SeatView) -> Text:
        seat = self.seat
        roles = []
        if view.dealer == seat:
            roles.append("dealer · crib")
        if view.phase == Phase.PLAY and view.turn == seat:
            roles.append("to play")
        if self.thinking:
            roles.append("thinking…")
        line1 = Text()
        shown = view.shown[seat] if view.phase == Phase.SHOW else None
        if shown:
            line1.append_text(cards_label(shown, self.ascii))
        elif self.revealed is not None:
            line1.append_text(cards_label(self.revealed, self.ascii))
        elif view.phase == Phase.DISCARD:
            line1.append_text(backs(view.held[seat], self.ascii))
            line1.append("  threw" if view.discarded[seat] else "", style="dim")
        else:
            line1.append_text(backs(view.held[seat], self.ascii))
        line2 = Text(" · ".join(roles), style="italic")
        # The cards of the count belong to the play: gone when the show starts.
        played = [c for c, s in zip(view.pile, view.pile_seats) if s == seat] \
            if view.phase == Phase.PLAY else []
        line3 = Text()
        if played:
            line3.append("played ", style="dim")
            for i, c in enumerate(played):
                if i:
                    line3.append(" ")
                line3.append_text(card_label(c, self.ascii))
        if view.phase == Phase.PLAY and view.gone[seat]:
            line3.append("  go", style="bold yellow")
        return Text("\n").join([line1, line2, line3])
