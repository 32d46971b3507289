"""A refused move is answered in the game's words, never the engine's
("seat 0 cannot play 10D: it is seat 1's turn"), wherever the screen's view
is behind the game: a card room's table takes a move at once and shows it
once its events come back (on a cluster, once they are stored), so a second
key meanwhile is refused by a state the screen does not show yet."""

from __future__ import annotations

import asyncio
import re

import pytest
from games import random_game
from tui_support import settled, table_app, wait_for

from crib3.cards import parse_card
from crib3.engine import Count, CutStarter, Discard, Muggins, Play, PlayerInfo, Rules, TakeBack
from crib3.engine.rules import IllegalMove, legal_moves, play_turn, step, to_act
from crib3.engine.state import Phase
from crib3.engine.views import project
from crib3.tui.words import Mode, refusal

ENGINE_WORDS = re.compile(r"\bseats? \d|\b(10|[2-9AJQK])[CDHS]\b")


def test_every_refusal_along_a_game_is_said_in_the_games_words():
    """Every seat's every kind of move, at every step of a whole game
    (muggins on), refused by the state after an event the seat's screen
    has not shown yet: what the player reads names no seat and no card code."""
    states = []
    game = random_game(11, rules=Rules(muggins=True),
                       on_event=lambda event, state: states.append(state))
    assert game.over
    said: dict[str, str | None] = {}
    for before, now in zip(states, states[1:]):
        for seat in range(3):
            shown = project(before, seat)
            cards = list(before.hands[seat]) + [parse_card("10D")]
            moves = [*(Play(seat, c) for c in cards), *(Discard(seat, c) for c in cards),
                     Count(seat, 5), Muggins(seat, True), TakeBack(seat), CutStarter(seat, 20)]
            for move in moves:
                try:
                    step(now, move)
                except IllegalMove as exc:
                    words = refusal(move, shown, str(exc))
                    said[str(exc)] = words
                    assert words is None or not ENGINE_WORDS.search(words), (str(exc), words)
    assert len(said) > 50  # (the check met many refusals)
    assert any(w and w.startswith("Not yet: wait for P") for w in said.values())


def test_a_play_overtaken_by_the_seats_own_move_says_whose_turn_it_is():
    """The screen still shows Ann's turn; her first card is on its way, so
    the game waits for the next seat: that is what a second card is told."""
    states = []
    random_game(5, on_event=lambda event, state: states.append(state))
    state = next(s for s in states if s.phase == Phase.PLAY and to_act(s) == (0,)
                 and len(s.hands[0]) >= 2 and play_turn(step(s, legal_moves(s, 0)[0])[1]) != 0)
    first = legal_moves(state, 0)[0]
    _, after = step(state, first)
    second = next(c for c in state.hands[0] if c != first.card)
    turn = play_turn(after)
    with pytest.raises(IllegalMove) as refused:
        step(after, Play(0, second))
    reason = str(refused.value)
    assert reason == f"seat 0 cannot play {second}: it is seat {turn}'s turn"
    words = refusal(Play(0, second), project(state, 0), reason)
    assert words == f"Not yet: wait for {state.players[turn].name} to play"


def test_the_same_card_again_while_it_is_on_its_way_is_not_said_to_be_out_of_hand():
    """Ann plays a card, the others cannot go, so the turn comes back to
    her before her screen shows the play: Enter again on that card is
    refused as not in her hand, where her screen still shows it. Nothing is
    said (the play comes next), not "Q♥ is not in your hand", which would
    stay up into the next hands, when Q♥ may be someone else's."""
    states = []
    random_game(1, on_event=lambda event, state: states.append(state))
    state, play = next((s, m) for s in states if s.phase == Phase.PLAY and to_act(s) == (0,)
                       for m in legal_moves(s, 0) if isinstance(m, Play)
                       and to_act(step(s, m)[1]) == (0,) and step(s, m)[1].phase == Phase.PLAY)
    with pytest.raises(IllegalMove) as refused:
        step(step(state, play)[1], play)
    reason = str(refused.value)
    assert reason.endswith("it is not in their hand")
    assert play.card in project(state, 0).hand  # (as her screen shows it)
    assert refusal(play, project(state, 0), reason) is None
    # (a card she does not hold is still told so)
    other = next(c for c in states[-1].deck if c not in state.hands[0])
    assert refusal(Play(0, other), project(state, 0),
                   f"seat 0 cannot play {other}: it is not in their hand") \
        == f"{other.label()} is not in your hand"


class HeldStream:
    """A table's stream that stores an event only when let (`open`): the
    screen of a cluster's table while its first move is still on its way."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.open.set()
        self.lease = type("Lease", (), {"table": "1"})()

    async def append(self, event) -> None:
        await self.open.wait()


async def test_a_second_card_while_the_first_is_on_its_way_is_told_in_the_games_words():
    """A cluster's table (its game an `AckedGame`): Ann plays a card, and
    while it is stored (held here) presses another; she reads no engine
    words ("seat 0 cannot play ..."), at most whose turn it is."""
    from crib3.cluster.acked import AckedGame

    stream = HeldStream()
    game = AckedGame(stream, lambda: None)
    game.begin([PlayerInfo("Ann"), PlayerInfo("Bea", "easy"), PlayerInfo("Cal", "easy")],
               Rules(), seed=7)
    app = table_app(game, 0, {})  # (the test moves the others, when it likes)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(400):  # on to a play of Ann's with two cards in hand, moving the others
            screen = await settled(pilot)
            if screen.mode == Mode.YOUR_TURN and screen.view.phase == Phase.PLAY \
                    and len(screen.view.hand) >= 2 and game.to_act() == (0,):
                break
            if game.to_act() and game.to_act()[0] != 0:
                game.dispatch(game.legal_moves(game.to_act()[0])[0])
                continue
            await pilot.press("1" if screen.mode == Mode.YOUR_TURN else "enter")
        else:
            raise AssertionError("Ann's play never came")
        stream.open.clear()  # her card taken, not yet stored
        app._notifications.clear()
        cards = screen.table_view.hand.cards()
        legal = [n for n, card in enumerate(cards, start=1) if Play(0, card) in screen.view.legal]
        await pilot.press(str(legal[0]))
        await wait_for(pilot, lambda: game.to_act() != (0,), timeout=5)
        assert screen.view.my_turn  # (the screen still shows her turn)
        [next_seat] = game.to_act()
        await pilot.press(str(len(cards)))  # (another card)
        await pilot.pause()
        said = " ".join(str(n.message) for n in app._notifications)
        assert not ENGINE_WORDS.search(said), said
        assert said == f"Not yet: wait for {('Ann', 'Bea', 'Cal')[next_seat]} to play", said
        stream.open.set()
