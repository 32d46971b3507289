"""The words the card room's lobby shows of a table: who sits where, how
the game stands, its rules.

Pure functions of the room's model (`crib3.room`), kept with the lobby
screens because they are what people read there; the model itself holds
no words but its refusals (`RoomError`). Each returns plain text, to be
shown as such: a name may look like markup.
"""

from __future__ import annotations

from crib3.common.names import MAX_LENGTH, shown_name
from crib3.engine import Rules
from crib3.room.contract import ListedTable


def seats_line(table: ListedTable) -> str:
    """One line for the lobby: each seat's person or computer player, and
    who is away."""
    parts = []
    for index, seat in enumerate(table.seats):
        if seat.name is None:
            label = "· free ·" if table.state is None else \
                f"{shown_name(table.state.players[index].name, MAX_LENGTH)} ({seat.level})"
        else:
            label = shown_name(seat.name, MAX_LENGTH)
            if seat.replaced:
                label += f" ({seat.level})"
            elif table.started and index not in table.online:
                label += " (away)"
        parts.append(label)
    return ", ".join(parts)


def standing(table: ListedTable) -> str:
    """How the table's game stands: waiting, the hand and the scores, or
    won; at a match, which game, and the games won so far before it
    ("game 2 (1-0-0), hand 3: 12-30-5")."""
    state = table.state
    if state is None:
        return "waiting"
    if state.winner is not None:
        return f"won by {shown_name(state.name(state.winner), MAX_LENGTH)}"
    hand = f"hand {max(1, state.hand_number)}: " + "-".join(str(s) for s in state.scores)
    match = table.match
    if not match.is_match:
        return hand
    won = "-".join(str(w) for w in match.wins())
    return f"game {len(match.games) + 1} ({won}), {hand}"


def rules_line(rules: Rules, rated: bool = False, best_of: int = 1) -> str:
    """The rules in a few words: "121 muggins skunks", "rated" when the
    game moves ratings (a casual table says nothing more: in a room that
    rates nothing, every table is), and "best of 3" for a match."""
    words = [str(rules.target)]
    if rules.muggins:
        words.append("muggins")
    if rules.skunks:
        words.append("skunks")
    if rated:
        words.append("rated")
    if best_of > 1:
        words.append(f"best of {best_of}")
    return " ".join(words)


def queue_line(rating: int, waited: float, wait: float, level: str, level_rating: int) -> str:
    """What the lobby says to someone in the play-now queue: whom it looks
    for and how long it has been; past `wait` seconds, the computer at
    their level (`level`, rated `level_rating`) as the other way."""
    seconds = max(0, int(waited))
    clock = f"{seconds // 60}:{seconds % 60:02d}"
    if waited < wait:
        return f"Looking for two players near {rating}… {clock}, Esc to leave"
    return (f"Nobody near {rating} yet… {clock}: c plays the computer ({level}, "
            f"{level_rating}) now, or wait on; Esc to leave")
