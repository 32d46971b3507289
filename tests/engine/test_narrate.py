"""The game in words reads as English whatever the names: a player called
"You" (the default name) is spoken to in the second person, everyone else
by name in the third."""

from __future__ import annotations

import random

from crib3.engine import Game, PlayerInfo, Rules, State, apply
from crib3.engine import events as ev
from crib3.players.easy import EasyPlayer
from crib3.saved.games import transcript
from crib3.words.narrate import describe


def played(names=("You", "Ann", "Bea"), seed=5, rules=None) -> Game:
    game = Game.new([PlayerInfo(names[0], "human"), PlayerInfo(names[1], "easy"),
                     PlayerInfo(names[2], "easy")], rules or Rules(), seed=seed)
    pickers = [EasyPlayer(random.Random(seed + i)) for i in range(3)]
    while not game.over:
        seat = game.to_act()[0]
        game.dispatch(pickers[seat].choose(game.view(seat)))
    return game


def told(game: Game) -> list[tuple[ev.Event, str]]:
    state, lines = State(), []
    for event in game.events:
        state = apply(state, event)
        line = describe(event, state)
        if line:
            lines.append((event, line))
    return lines


def test_the_default_name_you_is_spoken_to_in_the_second_person():
    game = played()
    lines = told(game)
    text = "\n".join(line for _, line in lines)
    for wrong in ("You cuts", "You is", "You's", "You throws", "You plays", "You shuffles",
                  "You wins", "You deals", "you leads", "You takes", "you lets"):
        assert wrong not in text, wrong
    for event, line in lines:
        if isinstance(event, ev.DealerChosen) and event.seat == 0:
            assert line == "You cut lowest and deal first."
        if isinstance(event, ev.CardsDealt) and event.dealer == 0:
            assert line == "Five cards each, and one to your crib."
        if isinstance(event, ev.CardDiscarded) and event.seat == 0:
            assert line.startswith("You throw ")
        if isinstance(event, ev.HandCounted) and event.seat == 0:
            assert line.startswith("Your crib " if event.crib else "Your hand ")
        if isinstance(event, ev.CardPlayed) and event.seat == 1:
            assert line.startswith("Ann plays ")
    assert any(isinstance(e, ev.CardDiscarded) and e.seat == 0 for e, _ in lines)


def test_a_player_named_you_reads_right_in_a_transcript():
    game = played()
    text = transcript(game.events)
    assert "You are dealt" in text and "You is dealt" not in text
    assert "You cuts" not in text and "You's" not in text
    assert "Ann is dealt" in text


def test_other_seats_keep_their_names_in_the_third_person():
    game = played(names=("Zed", "Ann", "Bea"))
    text = "\n".join(line for _, line in told(game))
    assert "you" not in text.lower()
    assert "Zed plays" in text and "Zed is dealt" in transcript(game.events)


async def test_the_table_says_you_deal_to_a_player_called_you(crib3_home):
    from tui_support import screen_text, settled, wait_for

    from crib3.tui.app import Crib3App
    from crib3.tui.settings import GameChoices

    app = Crib3App(GameChoices(name="You", seed=640302948), think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await wait_for(pilot, lambda: "deal first" in screen_text(app))
        text = screen_text(app)
        assert "You deal first" in text and "You deals" not in text
        assert "You cut lowest and deal first." in text
