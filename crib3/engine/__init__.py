"""The rules engine: events, state, rules, views, the Game and its log.

Imports nothing from the screens or the network. The layers, lowest first:
`events` and `commands` (facts and requests), `state` (the pure fold),
`rules` (what is legal and what follows), `views` (what a seat may see),
`game` (dispatch and subscribe), `feed` (one seat's redacted side of a
game), `codec` and `log` (the file format).
"""

from crib3.common.levels import BOT_LEVELS, HUMAN
from crib3.engine.commands import (
    Command,
    Count,
    CutStarter,
    Discard,
    DrawCutCard,
    Muggins,
    Play,
    Shuffle,
    TakeBack,
)
from crib3.engine.events import (
    EVENT_TYPES,
    Event,
    PlayerInfo,
    Rules,
    ScoringEvent,
)
from crib3.engine.feed import SeatFeed, seat_view
from crib3.engine.game import Game
from crib3.engine.rules import IllegalMove, decide, legal_moves, next_automatic, to_act
from crib3.engine.state import Phase, State, apply, fold, taken_back
from crib3.engine.views import SeatView, project, redact

__all__ = [
    "BOT_LEVELS", "EVENT_TYPES", "HUMAN", "Command", "Count", "CutStarter", "Discard",
    "DrawCutCard", "Event", "Game", "IllegalMove", "Muggins", "Phase", "Play", "PlayerInfo",
    "Rules", "ScoringEvent", "SeatFeed", "SeatView", "Shuffle", "State", "TakeBack", "apply",
    "decide", "fold", "legal_moves", "next_automatic", "project", "redact", "seat_view",
    "taken_back", "to_act",
]
