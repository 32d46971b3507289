"""Issue 32 point 10: take back a move against the computer. `u` at the table
of a local game takes back your last throw (until the starter is cut) or
play (until the show), and what the computer players did after it; the log
keeps it as a `TakenBack` event, which resume, replay, review, verify and
the statistics read. Never in the card room, never a count or a muggins call."""

from __future__ import annotations

import json
import random

import pytest
from games import rules_strategy
from hypothesis import given
from hypothesis import strategies as st

from crib3.engine import (
    Discard,
    Game,
    IllegalMove,
    Phase,
    Play,
    PlayerInfo,
    Rules,
    TakeBack,
    fold,
    taken_back,
)
from crib3.engine import events as ev
from crib3.engine.log import LogError, load_log, make_header, replay, write_log
from crib3.players.easy import EasyPlayer

SIZE = (80, 24)
LOCAL = make_header(source="crib3 play")
PEOPLE = (PlayerInfo("Ann"), PlayerInfo("Bea", "easy"), PlayerInfo("Cal", "easy"))


def game_with_takebacks(seed: int, rules: Rules | None = None, chance: float = 0.3,
                        most: int = 40) -> Game:
    """A whole game, Ann (a person) and two computer players all choosing at
    random, in which Ann takes back her last throw or play whenever she may,
    with `chance` (at most `most` times)."""
    game = Game.new(PEOPLE, rules or Rules(), seed=seed, takebacks=True)
    pickers = [EasyPlayer(random.Random(seed * 31 + i)) for i in range(3)]
    coin = random.Random(seed)
    taken = 0
    while not game.over:
        if taken < most and game.view(0).can_take_back and coin.random() < chance:
            game.dispatch(TakeBack(0))
            taken += 1
            continue
        seat = game.to_act()[0]
        game.dispatch(pickers[seat].choose(game.view(seat)))
    return game


def standing(events: list) -> list:
    gone = taken_back(events)
    return [e for i, e in enumerate(events) if i not in gone]


def numbered(events):
    return list(enumerate(events, 2))


# --- the engine --------------------------------------------------------------------


@pytest.mark.slow
@given(st.integers(0, 2**32), rules_strategy)
def test_folding_a_game_with_takebacks_is_folding_it_with_the_undone_events_cut_out(seed, rules):
    game = game_with_takebacks(seed, rules)
    events = game.events
    kept = standing(events)
    assert fold(events) == fold(kept) == game.state
    # the log verifies as a local game's; the game as it stood verifies on its own
    assert replay(numbered(events), takebacks=True) == game.state
    assert replay(numbered(kept)) == game.state
    if len(kept) < len(events):
        with pytest.raises(LogError, match="take-back"):
            replay(numbered(events), takebacks=False)
    # every take-back lands on the state just before the decision it undid
    for index, event in enumerate(events):
        if isinstance(event, ev.TakenBack):
            back = max(i for i in taken_back(events[:index + 1]) if i < index
                       and isinstance(events[i], (ev.CardDiscarded, ev.CardPlayed))
                       and events[i].seat == 0 and i not in taken_back(events[:index]))
            assert fold(events[:index + 1]) == fold(events[:back])
            assert event.card == events[back].card
            assert event.throw == isinstance(events[back], ev.CardDiscarded)


def _at_discard(seed: int = 4) -> Game:
    """Seed 4: Cal deals, so Ann (left of the dealer) cuts the starter."""
    game = Game.new(PEOPLE, Rules(), seed=seed, takebacks=True)
    assert game.state.phase == Phase.DISCARD and game.state.dealer == 2
    return game


def test_a_throw_is_taken_back_until_the_starter_is_cut_and_never_after():
    game = _at_discard()
    dealt = game.view(0)
    throw = dealt.hand[0]
    game.dispatch(Discard(0, throw))
    for seat in (1, 2):
        game.dispatch(Discard(seat, game.view(seat).hand[0]))
    assert game.state.phase == Phase.CUT_STARTER and game.view(0).can_take_back
    (event,) = game.dispatch(TakeBack(0))
    assert event == ev.TakenBack(seat=0, card=throw, throw=True)
    assert game.view(0) == dealt  # the bots' throws after Ann's are undone too
    assert game.state.deck == fold(game.events[:game.events.index(event) - 3]).deck
    game.dispatch(Discard(0, dealt.hand[1]))
    for seat in (1, 2):
        game.dispatch(Discard(seat, game.view(seat).hand[0]))
    game.dispatch(game.view(0).legal[0])  # Ann cuts: the starter is face up
    assert not game.view(0).can_take_back
    with pytest.raises(IllegalMove, match="the throws stand once the starter is cut"):
        game.dispatch(TakeBack(0))


def test_a_play_is_taken_back_with_the_computer_players_answers():
    game = _at_discard()
    for seat in range(3):
        game.dispatch(Discard(seat, game.view(seat).hand[0]))
    game.dispatch(game.view(0).legal[0])
    before = game.view(0)
    lead = before.hand[0]
    game.dispatch(Play(0, lead))
    game.dispatch(game.view(1).legal[0])
    game.dispatch(game.view(2).legal[0])
    assert len(game.state.pile) == 3
    (event,) = game.dispatch(TakeBack(0))
    assert event == ev.TakenBack(seat=0, card=lead, throw=False)
    assert game.view(0) == before and game.state.pile == ()


def test_only_your_own_last_move_and_never_in_the_show_or_another_seats():
    game = _at_discard()
    with pytest.raises(IllegalMove, match="nothing to take back"):
        game.dispatch(TakeBack(0))  # nothing thrown yet
    game.dispatch(Discard(1, game.view(1).hand[0]))
    with pytest.raises(IllegalMove, match="nothing to take back"):
        game.dispatch(TakeBack(1))  # a computer player's move is never taken back
    # a whole game: in the show (counts, muggins) nothing is ever taken back
    game = game_with_takebacks(3, Rules(muggins=True), chance=0.0)
    state = Game.from_events(game.events, takebacks=True)
    for cut in range(len(game.events)):
        if game.events[cut].type == "HandCounted":
            at = Game.from_events(game.events[:cut], takebacks=True)
            assert not at.view(0).can_take_back
            with pytest.raises(IllegalMove):
                at.dispatch(TakeBack(0))
    assert state.state == game.state


def test_a_game_refuses_takebacks_unless_it_allows_them():
    game = Game.new(PEOPLE, Rules(), seed=4)  # as the card room's games are made
    game.dispatch(Discard(0, game.view(0).hand[0]))
    assert game.view(0).can_take_back  # the rules would allow it ...
    with pytest.raises(IllegalMove, match="only for games against the computer"):
        game.dispatch(TakeBack(0))  # ... the game does not


async def test_the_card_rooms_engine_path_refuses_a_takeback(tmp_path):
    from tui_support import room_with_tables

    room = room_with_tables(tmp_path)
    table = room.tables[1]
    feed = table.feed(0)
    feed.dispatch(Discard(0, table.game.view(0).hand[0]))
    with pytest.raises(IllegalMove):
        feed.dispatch(TakeBack(0))
    assert not any(isinstance(e, ev.TakenBack) for e in table.game.events)


# --- verify, stats, review, export: the log read honestly --------------------------


def _honest(tmp_path, name="honest.jsonl", seed=5):
    game = game_with_takebacks(seed)
    assert any(isinstance(e, ev.TakenBack) for e in game.events)
    path = tmp_path / name
    write_log(path, game.events, LOCAL)
    return path, game


def _forged(tmp_path, name, events, header=LOCAL):
    path = tmp_path / name
    write_log(path, events, header)
    return path


def test_a_damaged_headers_source_is_a_log_error_not_a_crash(tmp_path):
    """A header whose source is not a string (found by the fuzz test: a
    list) reads as any other log: no TypeError from the take-back check."""
    path = tmp_path / "odd.jsonl"
    write_log(path, game_with_takebacks(5).events, {**LOCAL, "source": []})
    with pytest.raises(LogError, match="take-back"):
        load_log(path)


def test_verify_accepts_an_honest_takeback_and_refuses_forged_ones(tmp_path):
    from commands import crib3

    path, game = _honest(tmp_path)
    result = crib3("verify", str(path))
    assert result.returncode == 0 and "valid" in result.stdout, result.stderr

    events = game.events
    first = next(i for i, e in enumerate(events) if isinstance(e, ev.TakenBack))
    take = events[first]
    forged = {
        # the same game, but written by the card room
        "room": _forged(tmp_path, "room.jsonl", events, make_header(source="crib3 serve")),
        # another seat's move taken back
        "other seat": _forged(tmp_path, "other.jsonl", events[:first] + [
            ev.TakenBack(seat=1, card=take.card, throw=take.throw)]),
        # another card than the one thrown or played
        "other card": _forged(tmp_path, "card.jsonl", events[:first] + [
            ev.TakenBack(seat=0, card=next(c for c in fold(events[:first]).hands[0]),
                         throw=take.throw)]),
    }
    # a throw taken back after the starter was cut (past the cut)
    cut = next(i for i, e in enumerate(events) if isinstance(e, ev.StarterCut))
    throw = next(e for e in events[:cut] if isinstance(e, ev.CardDiscarded) and e.seat == 0)
    forged["past the cut"] = _forged(tmp_path, "cut.jsonl", events[:cut + 1] + [
        ev.TakenBack(seat=0, card=throw.card, throw=True)])
    # a count in the show (muggins) taken back
    muggins = game_with_takebacks(8, Rules(muggins=True), chance=0.0).events
    count = next(i for i, e in enumerate(muggins) if isinstance(e, ev.HandCounted)
                 and e.seat == 0)
    forged["muggins claim"] = _forged(tmp_path, "muggins.jsonl", muggins[:count + 1] + [
        ev.TakenBack(seat=0, card=None, throw=False)])
    for what, forgery in forged.items():
        result = crib3("verify", str(forgery))
        assert result.returncode != 0, what
        assert "TakenBack" in result.stderr or "take-back" in result.stderr \
            or "take back" in result.stderr, (what, result.stderr)


def test_stats_count_games_with_takebacks_apart(tmp_path):
    from commands import crib3

    from crib3.saved.games import stats_from_files

    path, game = _honest(tmp_path, "a.jsonl")
    plain = game_with_takebacks(6, chance=0.0)
    write_log(tmp_path / "b.jsonl", plain.events, LOCAL)
    stats, problems = stats_from_files([path, tmp_path / "b.jsonl"])
    assert not problems
    ann = next(s for s in stats if s.name == "Ann")
    assert (ann.games, ann.finished, ann.takeback_games) == (2, 1, 1)
    assert ann.wins == (plain.winner == 0)  # the game with take-backs is not a result
    result = crib3("stats", str(path), str(tmp_path / "b.jsonl"))
    assert result.returncode == 0, result.stderr
    assert "games with take-backs (u): Ann 1" in result.stdout
    data = json.loads(crib3("stats", "--json", str(path)).stdout)
    assert next(p for p in data["players"] if p["name"] == "Ann")["takeback_games"] == 1


def test_stats_count_the_computers_results_and_the_persons_takebacks_on_their_own_line(
        tmp_path):
    """After a game with a take-back, `crib3 stats` showed nobody's win or
    skunk, the computer players' included: theirs count as ever, and the
    person's games with take-backs have their own line, results and all."""
    from dataclasses import asdict

    from commands import crib3

    from crib3.saved.games import stats_from_files

    path, game = _honest(tmp_path, "a.jsonl")
    plain = game_with_takebacks(6, chance=0.0)
    write_log(tmp_path / "b.jsonl", plain.events, LOCAL)
    stats, problems = stats_from_files([path, tmp_path / "b.jsonl"])
    assert not problems
    winners = (game.state.winner, plain.state.winner)
    for seat in (1, 2):                                   # the computer players: as ever
        bot = next(s for s in stats if s.level != "human" and s.name == game.state.players[
            seat].name)
        assert (bot.games, bot.finished) == (2, 2)
        assert bot.wins == sum(w == seat for w in winners)
        assert bot.takebacks is None
    ann = next(s for s in stats if s.name == "Ann")
    assert ann.takebacks is not None and ann.takebacks.level == "human"
    assert (ann.takebacks.games, ann.takebacks.finished) == (1, 1)
    assert ann.takebacks.wins == (game.state.winner == 0)
    result = crib3("stats", str(path), str(tmp_path / "b.jsonl"))
    assert result.returncode == 0, result.stderr
    rows = result.stdout.splitlines()
    at = next(i for i, row in enumerate(rows) if row.startswith("Ann (human)"))
    line = rows[at + 1].split()                           # Ann's take-backs, under her line
    assert line[:4] == ["take-backs", "1", str(int(game.state.winner == 0)),
                        "100%" if game.state.winner == 0 else "0%"], rows[at + 1]
    assert asdict(ann)["takebacks"]["finished"] == 1       # (what --json prints)


def test_review_reviews_the_decisions_that_stood(tmp_path):
    from crib3.study.review import format_review, review_events

    path, game = _honest(tmp_path)
    events = game.events
    review = review_events(events, 0)
    gone = taken_back(events)
    assert review.taken_back == sum(
        1 for i in gone if isinstance(events[i], (ev.CardDiscarded, ev.CardPlayed))
        and events[i].seat == 0)
    assert review.taken_back > 0
    assert all(d.index not in gone for d in review.decisions)
    kept = review_events(standing(events), 0)
    assert [(d.kind, d.taken, d.cost) for d in review.decisions] == \
        [(d.kind, d.taken, d.cost) for d in kept.decisions]
    assert "Taken back and chosen again" in format_review(review, ["Ann", "Bea", "Cal"])


def test_the_transcript_says_the_takeback(tmp_path):
    from commands import crib3

    path, game = _honest(tmp_path)
    result = crib3("export", str(path))
    assert result.returncode == 0, result.stderr
    assert "Ann takes back the " in result.stdout and ", and what followed it." in result.stdout


# --- at the table, at 80x24 ----------------------------------------------------------


def _footer(app) -> str:
    from tui_support import screen_text

    return screen_text(app).splitlines()[-1]


async def _to_my_throw(pilot):
    from tui_support import press_enter_until

    from crib3.tui.words import Mode

    return await press_enter_until(
        pilot, lambda screen: screen.mode == Mode.YOUR_TURN and screen.view.phase == Phase.DISCARD)


def _logged(app) -> list:
    return load_log(app.log_path).events


async def test_u_with_nothing_to_take_back_says_why(crib3_home):
    """Before your throw, and after the cut, u says the rule in one line
    (it used to do nothing at all) and changes nothing."""
    from tui_support import make_app, settled

    from crib3.tui.screens.table import NOTHING_TO_TAKE_BACK

    app = make_app(seed=4)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _to_my_throw(pilot)
        dealt = screen.view.hand
        await pilot.press("u")
        screen = await settled(pilot)
        assert screen.view.hand == dealt
        assert any(n.message == NOTHING_TO_TAKE_BACK for n in app._notifications)
        assert not [e for e in app.game.events if isinstance(e, ev.TakenBack)]


async def test_throw_u_throw_another_card_and_the_game_goes_on(crib3_home):
    from tui_support import make_app, press_enter_until, screen_text, settled

    app = make_app(seed=4)  # Cal deals: Ann cuts, so her throw waits for her cut
    async with app.run_test(size=SIZE) as pilot:
        screen = await _to_my_throw(pilot)
        dealt = screen.view.hand
        assert "Take back" not in _footer(app)
        await pilot.press("1")
        screen = await settled(pilot)
        assert screen.view.phase == Phase.CUT_STARTER and screen.view.hand == dealt[1:]
        assert "u Take back" in _footer(app)
        await pilot.press("u")
        screen = await settled(pilot)
        assert screen.view.phase == Phase.DISCARD and screen.view.hand == dealt
        assert "Ann takes back the throw of" in screen_text(app)
        assert "Take back" not in _footer(app)  # nothing left to take back
        await pilot.press("2")
        screen = await settled(pilot)
        assert screen.view.my_discard == dealt[1]
        await pilot.press("enter")  # the cut
        screen = await press_enter_until(pilot, lambda s: s.view.hand_number == 2)
        events = _logged(app)  # saved as it happened: the take-back is in the log
        (taken,) = [e for e in events if isinstance(e, ev.TakenBack)]
        assert taken == ev.TakenBack(seat=0, card=dealt[0], throw=True)
        thrown = [e.card for e in events if isinstance(e, ev.CardDiscarded) and e.seat == 0]
        assert thrown[:2] == [dealt[0], dealt[1]]
        assert fold(standing(events)) == app.game.state


async def test_u_in_the_play_takes_back_your_card_and_the_bots_answers(crib3_home):
    from tui_support import make_app, press_enter_until, settled, wait_for

    from crib3.tui.words import Mode

    app = make_app(seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await _to_my_throw(pilot)
        await pilot.press("1")
        await settled(pilot)
        await pilot.press("enter")  # Ann cuts; she leads (left of the dealer)
        screen = await press_enter_until(
            pilot, lambda screen: screen.mode == Mode.YOUR_TURN and screen.view.phase == Phase.PLAY)
        before = screen.view
        await pilot.press("1")
        await wait_for(pilot, lambda: sum(isinstance(e, ev.CardPlayed)
                                          for e in app.game.events) >= 3)
        screen = await settled(pilot)
        played = [e for e in app.game.events if isinstance(e, ev.CardPlayed)]
        assert played[0].seat == 0 and {e.seat for e in played} >= {1, 2}
        assert "u Take back" in _footer(app)
        await pilot.press("u")
        screen = await settled(pilot)
        assert screen.view.hand == before.hand and screen.view.pile == () \
            and screen.view.my_turn and screen.view.scores == before.scores
        assert app.game.state == fold(app.game.events[:app.game.events.index(played[0])])
        assert isinstance(_logged(app)[-1], ev.TakenBack)
        back = len(app.game.events)
        await pilot.press("2")  # another card this time, and the play goes on
        await wait_for(pilot, lambda: len(app.game.events) > back + 1)
        assert app.game.events[back] == ev.CardPlayed(
            seat=0, points=0, scores=before.scores, card=before.hand[1],
            count=before.hand[1].value, items=())


async def test_a_take_back_stops_a_computer_player_thinking(crib3_home):
    """With the bots pacing (think > 0), u while one thinks: its move never
    lands after the take-back."""
    from tui_support import settled, wait_for

    from crib3.tui.app import Crib3App
    from crib3.tui.settings import GameChoices

    choices = GameChoices(name="Ann", left="easy", right="easy", seed=5)  # Bea deals
    app = Crib3App(choices, think=0.3)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _to_my_throw(pilot)
        await pilot.press("1")
        await wait_for(pilot, lambda: screen.check_action("take_back", ()))
        await pilot.press("u")
        screen = await settled(pilot)
        events = app.game.events
        assert isinstance(events[-1], ev.TakenBack) and screen.view.phase == Phase.DISCARD
        await pilot.pause(1.0)  # longer than any thought: nothing lands meanwhile
        assert isinstance(app.game.events[-1], ev.TakenBack) and len(app.game.events) == \
            len(events)


async def test_resume_of_a_game_left_after_a_takeback_lands_where_it_stood(crib3_home):
    from tui_support import make_app, settled

    from crib3.engine import Game
    from crib3.tui.app import Crib3App

    app = make_app(seed=4)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _to_my_throw(pilot)
        dealt = screen.view.hand
        await pilot.press("1")
        await settled(pilot)
        await pilot.press("u")
        await settled(pilot)
        path = app.log_path
    size = path.stat().st_size
    loaded = load_log(path)
    assert isinstance(loaded.events[-1], ev.TakenBack)
    again = Crib3App(game=Game.from_events(loaded.events, takebacks=True), resume_path=path,
                     think=0.0)
    async with again.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        assert screen.view.phase == Phase.DISCARD and screen.view.hand == dealt
        await pilot.press("3")
        screen = await settled(pilot)
        assert "u Take back" in _footer(again)
    with open(path, "rb") as f:
        head = f.read(size)
    assert head == open(path, "rb").read()[:size]  # appended to, never rewritten
    events = load_log(path).events
    assert events[:len(loaded.events)] == loaded.events
    assert [e.card for e in events if isinstance(e, ev.CardDiscarded) and e.seat == 0][-1] \
        == dealt[2]


async def test_replay_steps_through_a_takeback(tmp_path):
    from tui_support import screen_text, wait_for

    from crib3.saved.replay import Replay
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.replay import ReplayScreen

    path, game = _honest(tmp_path)
    events = load_log(path).events
    first = next(i for i, e in enumerate(events) if isinstance(e, ev.TakenBack))
    app = Crib3App(replay=Replay(events), autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("g")
        await pilot.press(*str(first + 1), "enter")
        await wait_for(pilot, lambda: f"event {first + 1}/" in screen_text(app))
        assert "Ann takes back the " in screen_text(app)
        assert app.screen.replay.states[first] == fold(standing(events[:first + 1]))
        await pilot.press("left")
        await wait_for(pilot, lambda: f"event {first}/" in screen_text(app))
        await pilot.press("right", "right")
        await wait_for(pilot, lambda: f"event {first + 2}/" in screen_text(app))


async def test_the_card_room_does_not_offer_u(tmp_path):
    from tui_support import room_app, room_with_tables, settled, wait_for

    from crib3.tui.screens.room_table import RoomTableScreen

    room = room_with_tables(tmp_path)
    table = room.tables[1]
    app = room_app(room, "Ann")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RoomTableScreen))
        screen = await settled(pilot)
        await wait_for(pilot, lambda: screen.view.phase == Phase.DISCARD and
                       screen.view.my_turn)
        await pilot.press("1")
        await wait_for(pilot, lambda: screen.view.can_take_back)  # the rules would allow it
        assert not screen.check_action("take_back", ())
        assert "Take back" not in _footer(app)
        await pilot.press("u")
        await pilot.pause()
        assert not any(isinstance(e, ev.TakenBack) for e in table.game.events)


async def test_the_card_rooms_help_does_not_list_u(tmp_path):
    from tui_support import room_app, room_with_tables, screen_text, wait_for

    from crib3.tui.screens.dialogs import HelpScreen
    from crib3.tui.screens.room_table import RoomTableScreen

    assert "u          take back" in HelpScreen().help_text()  # at your own keyboard
    room = room_with_tables(tmp_path)
    app = room_app(room, "Ann")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RoomTableScreen))
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await wait_for(pilot, lambda: "the coach, beside the table" in screen_text(app))
        assert "take back" not in screen_text(app)
        assert "take back" not in app.screen.help_text()


async def test_the_footer_offers_u_while_a_computer_player_thinks(crib3_home):
    """u is offered from the moment your card is on the table, not only once
    it is your turn again: the footer follows the view, not just the mode."""
    from tui_support import wait_for

    from crib3.tui.app import Crib3App
    from crib3.tui.settings import GameChoices
    from crib3.tui.words import Mode

    choices = GameChoices(name="Ann", left="easy", right="easy", seed=5)
    app = Crib3App(choices, think=0.5)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _to_my_throw(pilot)
        await pilot.press("1")
        await wait_for(pilot, lambda: screen.view.can_take_back)
        await wait_for(pilot, lambda: "u Take back" in _footer(app))
        assert screen.mode == Mode.PRESENTING  # the computer players still throwing


def test_the_list_of_games_shows_the_scores_that_stood(tmp_path):
    """`crib3 games` reads only a log's end: a take-back there makes the
    last scores written (a go, a pair taken back) not the game's."""
    from crib3.saved.listing import glance

    checked = 0
    for seed in (5, 7, 9):
        events = game_with_takebacks(seed, chance=0.5).events
        for index, event in enumerate(events):
            if isinstance(event, ev.TakenBack) or index == len(events) - 1:
                path = tmp_path / f"g{seed}-{index}.jsonl"
                write_log(path, events[:index + 1], LOCAL)
                seen = glance(path)
                assert not seen.problem and seen.scores == fold(events[:index + 1]).scores
                checked += 1
    assert checked > 20
    undone = [i for i, e in enumerate(events) if isinstance(e, ev.TakenBack)
              and fold(events[:i]).scores != fold(events[:i + 1]).scores]
    assert undone  # some take-back here did take points back
