"""What a cribbage player still trips on (issue 32), each point met as a
player meets it: keys pressed in Textual's Pilot at 80x24 and the screen
read, or the command run as a subprocess."""

from __future__ import annotations

import pytest

from crib3.engine import events as ev
from crib3.tui.screens.table import show_left_unseen
from games import random_game
from tui_support import screen_text

SIZE = (80, 24)


# --- 1: a game opened mid-show presents that show -------------------------------

def _past(events: list) -> list:
    """Events as a table screen's `so_far` (only the events are read)."""
    return [(event, None, None) for event in events]


def test_a_game_opened_mid_show_presents_that_show_from_its_first_count():
    events = random_game(11).events
    first_count = next(i for i, e in enumerate(events) if isinstance(e, ev.HandCounted))
    dealt = next(i for i, e in enumerate(events)
                 if isinstance(e, ev.CardsDealt) and e.hand == 2)
    throws = [e for e in events[dealt:] if isinstance(e, ev.CardDiscarded)]
    mine = next(e for e in throws if e.seat == 0)
    others = next(e for e in throws if e.seat == 1)
    # left after its second count, at its end, or at the next hand's deal:
    for cut in (first_count + 1, first_count + 2, dealt + 1):
        assert show_left_unseen(_past(events[:cut]), 0) == first_count
    # another seat (a card room's) has thrown since: still unseen by seat 0
    assert show_left_unseen(_past(events[:dealt + 1] + [others]), 0) == first_count
    # seat 0 has thrown in the next hand: it has seen the show
    assert show_left_unseen(_past(events[:dealt + 1] + [mine]), 0) == dealt + 2
    # left in the play: all at once
    assert show_left_unseen(_past(events[:first_count - 1]), 0) == first_count - 1


# --- 5: Ctrl+C says how to quit ----------------------------------------------------

async def test_ctrl_c_at_the_table_says_how_to_quit(crib3_home):
    from tui_support import make_app, screen_text, settled, wait_for

    app = make_app(seed=1)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settled(pilot)
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: "Ctrl+C does not quit" in screen_text(app))
        toast = [line.split("▌", 1)[1] for line in screen_text(app).splitlines() if "▌" in line]
        words = " ".join(" ".join(toast).split())
        assert "Ctrl+C does not quit crib3: q or Ctrl+Q quits" in words and app.is_running


async def test_ctrl_c_on_the_too_small_notice_says_how_to_quit(crib3_home):
    from tui_support import make_app, screen_text, settled, wait_for

    app = make_app(seed=1)
    async with app.run_test(size=(60, 20)) as pilot:
        await settled(pilot)
        await wait_for(pilot, lambda: "needs 80×24" in screen_text(app))
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: "Ctrl+C does not quit" in screen_text(app))
        assert "Ctrl+Q quits" in " ".join(screen_text(app).split())
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: not app.too_small)
        await pilot.resize_terminal(60, 20)             # said once, not for ever
        await wait_for(pilot, lambda: "needs 80×24" in screen_text(app))
        assert "Ctrl+C" not in screen_text(app)


# --- 6: every command takes a game as `crib3 games` names it ------------------------

def test_every_command_takes_the_game_as_games_names_it(tmp_path):
    import re

    from commands import crib3
    from crib3.engine.log import write_log

    games = tmp_path / "data" / "games"
    games.mkdir(parents=True)
    finished = [random_game(seed) for seed in (3, 4)]
    for n, game in enumerate(finished):
        write_log(games / f"2026-12-05-07141{n}-882466.jsonl", game.events)
    listed = crib3("games", home=tmp_path)
    assert listed.returncode == 0, listed
    lines = listed.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["1", "2"]
    for line, game in zip(lines, finished):
        state = game.state
        won = re.search(r"won by \S+ (\d+)-(\d+)-(\d+)", line)
        assert int(won[1]) == state.scores[state.winner] >= 121, line  # the winner's first
        assert sorted(map(int, won.groups())) == sorted(state.scores)
    name = re.search(r"\[(.+)\]", lines[1])[1]
    whole = crib3("export", str(games / name), home=tmp_path).stdout
    assert whole
    for given in (name, name.removesuffix(".jsonl"), "2", "latest"):
        for command in ("export", "review", "verify", "stats"):
            result = crib3(command, given, home=tmp_path)
            assert result.returncode == 0 and "no such file" not in result.stderr, \
                (command, given, result)
        assert crib3("export", given, home=tmp_path).stdout == whole
        for command in ("replay", "resume"):  # found: then no terminal, or no person to play
            result = crib3(command, given, home=tmp_path)
            assert "no such file" not in result.stderr and result.returncode != 0, result
            assert "full-screen terminal" in result.stderr or "finished" in result.stderr
    assert crib3("export", "1", home=tmp_path).stdout != whole      # the first in the list
    for missing in ("3", "0", "nosuch", "nosuch.jsonl"):
        result = crib3("export", missing, home=tmp_path)
        assert result.returncode == 2 and "no such file" in result.stderr, result


# --- 9: small things ------------------------------------------------------------------

async def test_the_tall_show_says_your_hand_to_a_player_called_you(crib3_home):
    from crib3.engine.state import Phase
    from crib3.tui.app import Crib3App
    from crib3.tui.settings import GameChoices
    from tui_support import press_enter_until, screen_text

    app = Crib3App(GameChoices(name="You", left="standard", right="standard", seed=7),
                   think=0.0)
    async with app.run_test(size=(120, 40)) as pilot:
        await press_enter_until(pilot, lambda s: s.waiting_for_enter and s.shown.phase
                                == Phase.SHOW and bool(s.view.shown[0]), presses=600)
        await pilot.pause()
        text = screen_text(app)
        assert "Your hand" in text and "You's" not in text, text


def test_stats_json_gives_each_players_results(tmp_path):
    import json

    from commands import crib3
    from crib3.engine.log import write_log

    games = tmp_path / "data" / "games"
    games.mkdir(parents=True)
    played = [random_game(seed) for seed in (3, 4, 5)]
    for n, game in enumerate(played):
        write_log(games / f"2026-12-05-07141{n}-882466.jsonl", game.events)
    result = crib3("stats", "--json", home=tmp_path)
    assert result.returncode == 0, result
    players = {p["name"]: p for p in json.loads(result.stdout)["players"]}
    for name, stats in players.items():
        seat = int(name[1:])
        assert stats["results"] == [game.state.winner == seat for game in played]
        assert stats["wins"] == sum(stats["results"])


async def test_with_muggins_the_prompt_asks_for_the_crib_when_the_dialog_does(crib3_home):
    """Count your own crib: the prompt under the dialog says the crib too
    (it said "Count your hand" while the dialog asked for the crib)."""
    from crib3.tui.screens.dialogs import AskCount
    from tui_support import make_app, screen_text, settled, table, wait_for

    app = make_app(seed=2, muggins=True)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3000):
            if isinstance(app.screen, AskCount):
                if app.screen.what == "crib":
                    break
                true = max(c.points for c in app.game.legal_moves(0))
                await pilot.press(*str(true), "enter")
                await wait_for(pilot, lambda: not isinstance(app.screen, AskCount)
                               or app.screen.what == "crib")
                continue
            await settled(pilot)
            if not isinstance(app.screen, AskCount):
                await pilot.press("enter")
        else:
            raise AssertionError("never asked to count a crib")
        await pilot.pause()
        assert "Count your crib" in screen_text(app)
        prompt = str(table(app).query_one("#prompt").render())
        assert prompt.endswith("Count your crib (muggins is on)"), prompt


async def test_a_score_past_the_target_is_said_as_players_say_it(crib3_home):
    """P2 wins on his crib with 122: the board stops at 121, and so do the
    words: "121 pts" in his box, "121 (122 counted)" in the lines and the
    result (the log keeps 122)."""
    from crib3.engine import Game
    from crib3.engine.state import Phase
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.game_over import GameOverScreen
    from tui_support import press_enter_until, screen_text, wait_for

    finished = random_game(1, ("human", "standard", "standard"))
    assert finished.state.scores == (85, 92, 122)
    cut = max(i for i, e in enumerate(finished.events) if getattr(e, "seat", None) == 0
              and e.type in ("CardPlayed", "CardDiscarded"))
    game = Game.from_events(finished.events[: cut + 1])
    app = Crib3App(game=game, think=0.0, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await press_enter_until(pilot, lambda s: s.waiting_for_enter
                                and s.shown.phase == Phase.OVER, presses=900)
        await pilot.pause()
        assert game.state.scores == (85, 92, 122)                  # the log's truth
        text = screen_text(app)
        assert "122 pts" not in text and "with 122" not in text, text
        assert "─ 121 pts ─" in text                  # his box, as far as the board goes
        assert "P2 has 121 (122 counted)" in text and "wins with 121 (122 counted)" in text
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "121 (122 counted) to 85 and 92" in text, text


def test_your_own_line_says_both_the_board_and_the_count():
    from crib3.tui.words import points

    assert points(125, 121) == "121 pts (125 counted)"
    assert points(125, 121, counted=False) == "121 pts"
    assert points(121, 121) == "121 pts" and points(1) == "1 pt"


async def test_the_pegging_trainer_goes_on_from_the_card_you_chose():
    """Practise the play: the next position of the same hand follows the
    card you played, not the one the game it was dealt in would have."""
    import itertools

    from crib3.engine import Play
    from crib3.study.practice import dealt_positions
    from crib3.tui.practice_app import PracticeApp
    from crib3.tui.screens.practice import PracticeScreen
    from tui_support import wait_for

    # The stand-in's own game: which card it played at the first position.
    stand_in = list(itertools.islice(dealt_positions("play", 5), 2))
    first, then = stand_in
    assert first.view.hand_number == then.view.hand_number      # the same hand goes on
    before = len(first.view.hand_plays)

    def next_of_mine(view) -> object:
        """The first card seat 0 played after the first position."""
        return next(card for seat, card, _ in view.hand_plays[before:] if seat == 0)

    its_card = next_of_mine(then.view)
    app = PracticeApp("play", dealt_positions("play", 5))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PracticeScreen))
        screen = app.screen
        await pilot.pause()
        view = screen.position.view
        assert view == first.view
        legal = [c.card for c in view.legal if isinstance(c, Play)]
        mine = next(c for c in legal if c != its_card)             # not the stand-in's card
        await pilot.press(str(view.hand.index(mine) + 1))
        await wait_for(pilot, lambda: screen.answer is not None)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.position is not None
                       and screen.position.view != view)
        after = screen.position.view
        assert after.hand_number == view.hand_number, after
        assert next_of_mine(after) == mine and mine not in after.hand


def test_practice_from_games_with_only_costly_plays_suggests_the_pegging_trainer(tmp_path):
    """A saved hand whose discard was the coach's and whose plays were not:
    the discard trainer has nothing, and says where the costly plays are."""
    from commands import assert_clean_failure, crib3
    from crib3.engine.log import write_log
    from crib3.study.review import review_events

    events = random_game(7, ("human", "easy", "easy")).events
    events = events[: next(i for i, e in enumerate(events) if e.type == "HandEnded") + 1]
    decisions = review_events(events, 0).decisions
    assert all(d.matched for d in decisions if d.kind == "discard")
    assert any(not d.matched for d in decisions if d.kind == "play")
    games = tmp_path / "data" / "games"
    games.mkdir(parents=True)
    write_log(games / "2026-12-05-071410-882466.jsonl", events)
    result = crib3("practice", "--from-games", home=tmp_path)
    assert_clean_failure(result, 2)
    assert "no costly discards" in result.stderr
    assert "crib3 practice --from-games --pegging" in result.stderr


async def test_replay_n_past_the_last_costly_decision_says_so():
    from crib3.engine.log import load_log
    from crib3.saved.replay import Replay
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.replay import ReplayScreen
    from test_replay_review import SAMPLE, coach_ready
    from tui_support import screen_text, wait_for

    app = Crib3App(replay=Replay(load_log(SAMPLE).events), autosave=False)
    app.replay_coach = True
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await coach_ready(pilot)
        assert isinstance(screen, ReplayScreen)
        last = screen._costly()[-1]
        screen.show(last)
        await pilot.pause()
        await pilot.press("n")
        await wait_for(pilot, lambda: "No costly decision after" in screen_text(app))
        assert screen.index == last
        assert "in all at 1+" in screen_text(app)


def test_a_few_deal_sets_get_an_honest_interval_and_a_warning():
    """Five deal sets in which the lone level won exactly one game of three
    each time: the interval was 33.3% to 33.3%."""
    from crib3.engine import Rules
    from crib3.study import duplicate

    sets = [duplicate.DealSet(n, (True, False, False, True, True, False), (1.0,) * 6)
            for n in range(5)]
    summary = duplicate.DuplicateSummary("expert", "standard", Rules(), 1, sets=sets, wanted=5)
    value, low, high = summary.alone_share(True)
    assert value == 1 / 3 and low < 1 / 3 - 0.1 and high > 1 / 3 + 0.1
    # Wilson's over the 15 games alone, at least: never narrower than that
    w_low, w_high = duplicate.wilson(5, 15)
    assert low <= w_low and high >= w_high and 0 < w_low < 1 / 3 < w_high < 1
    data = summary.to_json()
    assert data["few_deal_sets"] and all(
        0 <= data[key]["ci95"][0] < data[key]["ci95"][1] <= 1
        for key in ("a_share", "a_alone_vs_two_b", "b_alone_vs_two_a"))
    text = duplicate.format_summary(summary)
    assert "only 5 deal sets: the intervals are rough" in text
    assert "33.3% to 33.3%" not in text
    # a t interval, not a normal one, over a few sets: wider by t/z
    values = [0.0, 1.0, 1.0, 0.0, 1.0]
    _, n_low, n_high = duplicate.mean_interval(values)
    _, t_low, t_high = duplicate.t_interval(values)
    assert (t_high - t_low) / (n_high - n_low) == pytest.approx(2.776 / duplicate.Z95)
    assert duplicate.t_quantile(200) == pytest.approx(1.972, abs=1e-3)


def test_sim_duplicate_with_few_sets_warns():
    from commands import crib3

    result = crib3("sim", "--duplicate", "standard,easy", "--games", "2", "--seed", "5",
                   "--jobs", "1")
    assert result.returncode == 0 and "only 2 deal sets: the intervals are rough" in result.stdout


# --- 4: the table's keys work with the coach open ------------------------------------

async def test_the_card_keys_work_with_the_coach_open(crib3_home):
    from crib3.engine.state import Phase
    from crib3.tui.screens.dialogs import CoachScreen, ConfirmQuit
    from crib3.tui.words import Mode
    from tui_support import make_app, press_enter_until, screen_text, settled, wait_for

    app = make_app(seed=7)
    async with app.run_test(size=SIZE) as pilot:
        screen = await press_enter_until(pilot, lambda s: s.mode == Mode.YOUR_TURN
                                         and s.view.phase == Phase.DISCARD)
        hand = screen.view.hand
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "1-5 Throw" in text and "1-5 or Enter: throw" in text  # the footer, the panel
        await pilot.press("3")                                  # as the footer says: throws
        await wait_for(pilot, lambda: app.game.state.discards[0] == hand[2])
        screen = await press_enter_until(pilot, lambda s: s.mode == Mode.YOUR_TURN
                                         and s.view.phase == Phase.PLAY)
        before = len(app.game.events)
        card = screen.table_view.hand.selected
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
        await pilot.press("enter")                              # the highlighted card
        await wait_for(pilot, lambda: any(e.type == "CardPlayed" and e.seat == 0
                                          for e in app.game.events[before:]))
        assert next(e for e in app.game.events[before:]
                    if e.type == "CardPlayed" and e.seat == 0).card == card
        await settled(pilot)
        await press_enter_until(pilot, lambda s: s.mode == Mode.YOUR_TURN
                                and s.view.phase in (Phase.DISCARD, Phase.PLAY))
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
        await pilot.press("q")                                  # asks to quit
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmQuit))


# --- 3: the coach's numbers say what they are ----------------------------------------

def test_near_the_end_a_discards_net_is_its_columns_and_the_chance_is_a_chance():
    from logfiles import ASSETS

    from crib3.engine.log import load_log
    from crib3.players.coach import advise
    from crib3.study.review import review_events

    events = load_log(ASSETS / "easy-121.jsonl").events
    late = [d for seat in range(3) for d in review_events(events, seat).decisions
            if d.kind == "discard"]
    seen = 0
    for decision in late:
        advice = advise(decision.view)
        for option, (numbers, why) in zip(advice.discards, advice.rows()):
            net = float(numbers.split(" net ")[1])
            assert net == pytest.approx(option.hand + option.crib + option.play, abs=0.006)
            if option.out is not None:
                seen += 1
                assert f"you count out first {option.out:.0%}" in why
                assert abs(option.net - net) > 0.01 or option.out < 0.001
    assert seen, "no discard near the end in the sample"


async def test_the_help_explains_the_coachs_columns_a_line_each(crib3_home):
    from crib3.tui.screens.dialogs import HelpScreen
    from tui_support import make_app, screen_text, settled, wait_for

    app = make_app(seed=1)
    async with app.run_test(size=(80, 70)) as pilot:
        await settled(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        from crib3.tui.screens.dialogs import HELP_TEXT

        panel = [line.split("█")[1].strip() for line in screen_text(app).splitlines()
                 if line.count("█") >= 2]
        for column in ("hand", "crib", "net", "now", "expect", "margin"):
            said = next(line.strip() for line in HELP_TEXT.splitlines()
                        if line.strip().startswith(f"{column}  "))
            assert said in panel, (said, panel)                   # whole, on a line of its own
        assert "chances as chances" in "\n".join(panel)


# --- 7: nothing a player needs is cut at 80x24 ---------------------------------------

async def test_a_five_letter_name_is_whole_in_the_cut_for_deal(crib3_home):
    from crib3.tui.app import Crib3App
    from crib3.tui.settings import GameChoices
    from tui_support import screen_text, settled

    app = Crib3App(GameChoices(name="Nina", left="expert", right="standard", seed=7),
                   think=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        text = screen_text(app)
        assert "Nina 6♠" in text and "Ni…" not in text, text


def test_a_long_count_keeps_every_phrase_in_the_show_panels_two_rows():
    """5♥ 10♦ J♥ J♦ with 10♠ at 80x24: two rows of 37 beside the cards kept
    only the last two lines, losing "fifteen two, four, six"."""
    from crib3.cards import parse_card, parse_cards
    from crib3.scoring import score_hand
    from crib3.tui.widgets.hand import _packed
    from crib3.words.speech import hand_phrases

    score = score_hand(parse_cards("5H 10D JH JD"), parse_card("10S"))
    said = tuple(phrase for phrase, _ in hand_phrases(score))
    rows = [row.plain for row in _packed(said, 37, 2)]
    assert rows == ["fifteen two, four, six, eight", "and a pair is ten, twelve"]
    assert [row.plain for row in _packed(said[:2], 37, 2)] == ["fifteen two", "fifteen four"]


# --- 7: the statistics, the replay's and the practice's coach whole at 80x24 ----------

def _within(app, widget) -> bool:
    """The widget is drawn whole on the screen: its region inside it."""
    region, size = widget.region, app.size
    return region.x >= 0 and region.right <= size.width and region.bottom <= size.height


async def test_the_statistics_fit_80_columns_whole(crib3_home):
    """The table's header (78 columns), the note under it and each person's
    line of points given up were cut at the right edge: now the table is
    drawn in 74 and the rest wrapped, every line whole in the panel."""
    import shutil

    from logfiles import ASSETS

    from crib3.engine.log import write_log
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.stats import StatsScreen
    from games import random_game
    from tui_support import screen_text, wait_for

    folder = crib3_home / "data" / "games"
    folder.mkdir(parents=True, exist_ok=True)
    for log in ASSETS.glob("*.jsonl"):                    # people reviewed, and bots
        shutil.copy(log, folder / log.name)
    for seed, kinds in enumerate([("expert", "standard", "expert"), ("standard",) * 3]):
        write_log(folder / f"g{seed}.jsonl", random_game(seed, kinds).events)
    app = Crib3App(think=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen)
                       and "discard" in screen_text(app), timeout=60)
        await pilot.pause()
        screen = app.screen
        panel = screen.query_one("Vertical")
        assert _within(app, panel), panel.region
        text = screen_text(app)
        assert "…" not in text
        body = screen.query_one("#body")
        assert body.max_scroll_y > 0                       # taller than the panel: it scrolls
        said = "\n".join(str(screen.query_one(f"#{part}").render())
                         for part in ("head", "table", "progress"))
        lines = [line for line in said.splitlines() if line.strip()]
        assert any("peg/hand" in line for line in lines) and any("discard" in line for line in lines)
        seen = ""
        for _ in range(len(lines)):           # scrolled through: each line whole on a row
            seen += screen_text(app)
            body.scroll_down(animate=False)
            await pilot.pause()
        rows = [row.strip(" █▌▐▎▊") for row in seen.splitlines()]
        for line in lines:
            assert line.strip() in rows, (line, rows)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _under_the_table(app) -> str:
    """The rows between the hand's box and the footer, as one line."""
    rows = screen_text(app).splitlines()
    bottom = max(i for i, row in enumerate(rows) if row.startswith(("╰", "┗")))
    return _flat("\n".join(rows[bottom + 1:-1]))


async def test_the_replays_coach_and_status_line_are_whole_at_80x24():
    """Every costly decision of the sample: the coach's reason (cut with a
    "…" before) and the status line (cut after "47 costly at 1+ (P0, P1,")
    are whole on the screen."""
    from crib3.engine.log import load_log
    from crib3.saved.replay import Replay
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.review_words import option_label
    from logfiles import ASSETS
    from test_replay_review import coach_ready

    app = Crib3App(replay=Replay(load_log(ASSETS / "easy-121.jsonl").events), autosave=False)
    app.replay_coach = True
    async with app.run_test(size=SIZE) as pilot:
        screen = await coach_ready(pilot)
        costly = screen._costly()
        assert len(costly) > 20
        long_reasons = 0
        for index in costly:
            screen.show(index)
            await pilot.pause()
            decision = screen.decisions[index]
            shown = _under_the_table(app)
            assert "…" not in shown
            assert f"({_flat(decision.best.reason)})" in shown, (decision.best.reason, shown)
            long_reasons += len(decision.best.reason) > 30
            assert f"1. {option_label(decision.best.option)} " in shown   # the ranking's best
            status = _flat(str(screen.query_one("#status").render()))
            assert status.endswith("· n p t") and status in shown, status
            assert screen.screen.virtual_size.height <= SIZE[1]          # nothing scrolled off
        assert long_reasons > 10


async def test_the_practices_coach_is_whole_at_80x24():
    """The trainer's answer: the coach's reason (cut with a "…" before) is
    whole under the table, for every card of the first positions."""
    import itertools

    from crib3.study.practice import dealt_positions
    from crib3.tui.practice_app import PracticeApp
    from crib3.tui.screens.practice import PracticeScreen
    from tui_support import wait_for

    for kind in ("discard", "play"):
        positions = list(itertools.islice(dealt_positions(kind, 3), 3))
        for number in range(1, 4):
            app = PracticeApp(kind, iter(positions))
            async with app.run_test(size=SIZE) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, PracticeScreen))
                screen = app.screen
                await pilot.pause()
                await pilot.press(str(number))
                await wait_for(pilot, lambda: screen.answer is not None)
                await pilot.pause()
                shown = _under_the_table(app)
                assert "…" not in shown
                assert f"({_flat(screen.answer.best.reason)})" in shown, shown
                assert "points given up" in shown


# --- 13: the coach takes the room the table leaves -------------------------------------

def _layout(screen) -> dict:
    """Where each part of the table is, and whether it is drawn."""
    parts = [*screen.query("SeatPanel"), *(screen.query_one(f"#{name}") for name in (
        "center", "feed", "hand", "board", "announce", "prompt", "recent"))]
    return {part.id: (part.region, part.display) for part in parts}


@pytest.mark.parametrize("size", [(200, 60), (120, 40)], ids=["200x60", "120x40"])
async def test_the_coach_sits_in_the_middles_free_room_at_200x60(crib3_home, size):
    """At 200x60 the coach covered Cal's box and the feed while 88 columns
    of the middle stood empty: it sits there now, under the pile, clear of
    every seat's box, the feed and your hand. At 120x40 the middle has no
    such room (34 columns, 4 rows free): the coach takes the feed's column,
    the feed giving way (its latest lines are those under the table) and
    the table 80 columns wide, as at 80x24; all back when it closes."""
    from crib3.engine.state import Phase
    from textual.geometry import Region
    from crib3.tui.screens.dialogs import CoachRow, CoachScreen
    from crib3.tui.widgets.center import TableCenter
    from crib3.tui.words import Mode
    from tui_support import make_app, press_enter_until, wait_for

    app = make_app(seed=7)
    async with app.run_test(size=size) as pilot:
        for phase in (Phase.DISCARD, Phase.PLAY):
            screen = await press_enter_until(pilot, lambda s: s.mode == Mode.YOUR_TURN
                                             and s.view.phase == phase)
            await pilot.pause()
            before = _layout(screen)
            await pilot.press("h")
            await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
            await pilot.pause()
            coach = app.screen
            panel = coach.query_one("Vertical").region
            center = screen.query_one(TableCenter)
            if size == (200, 60):
                assert coach.placed == "middle"
                assert center.region.contains_region(panel), (panel, center.region)
                assert panel.y > center.region.y + center.drawn_rows           # under the pile
                assert panel.height >= 10 and panel.width >= 50
            else:
                assert coach.placed == "beside"
                assert panel.width >= 40 and panel.right == size[0]
                # the feed's latest line is read under the table
                recent = str(screen.query_one("#recent").render())
                assert screen.narration[-1].split()[-1] in recent, (screen.narration[-1], recent)
                assert center.region.width >= 28                     # as at 80x24: the pile whole
            covered = [*screen.query("SeatPanel"), screen.query_one("#feed"),
                       screen.query_one("#hand"), screen.query_one("#board"),
                       screen.query_one("#prompt"), screen.query_one("#recent")]
            for widget in covered:
                assert not panel.overlaps(widget.region), (widget, widget.region, panel)
            pile = Region(*center.region.offset, center.region.width, center.drawn_rows)
            assert not panel.overlaps(pile), (pile, panel)
            # the coach's rows whole: none scrolled out of the panel
            inside = coach.query_one("Vertical").content_region
            for row in coach.query(CoachRow):
                assert inside.contains_region(row.region), (row.content, row.region, inside)
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen)
            await pilot.pause()
            assert _layout(screen) == before                  # the table as it was
            await pilot.press("h")                # and closed with a card's key, as a player may
            await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
            await pilot.pause()
            said_before = len(screen.narration)
            await pilot.press("1")                      # throw, or play, the first card
            await wait_for(pilot, lambda: app.screen is screen
                           and len(screen.narration) > said_before)
            await pilot.pause()
            feed = screen.query_one("#feed")
            # the lines said as it closed are wrapped to the feed's width, not a letter a row
            shown = " ".join(" ".join(strip.text.split()) for strip in feed.lines)
            for line in screen.narration[said_before:]:
                assert " ".join(line.split()) in shown, (line, shown[-200:])


# --- 14: a click on the coach's option highlights its card ------------------------------

async def test_a_click_on_a_coach_option_highlights_its_card(crib3_home):
    from crib3.engine.state import Phase
    from crib3.tui.screens.dialogs import CoachRow, CoachScreen
    from crib3.tui.words import Mode
    from tui_support import make_app, press_enter_until, wait_for

    app = make_app(seed=7)
    async with app.run_test(size=SIZE) as pilot:
        for phase in (Phase.DISCARD, Phase.PLAY):
            screen = await press_enter_until(pilot, lambda s: s.mode == Mode.YOUR_TURN
                                             and s.view.phase == phase)
            hand = screen.table_view.hand
            await pilot.press("h")
            await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
            await pilot.pause()
            coach = app.screen
            rows = list(coach.query(CoachRow))
            last = next(row for row in reversed(rows)       # an option's numbers, not
                        if row.has_class("option") and row.card != hand.selected)  # the card lit
            await pilot.click(last, offset=(4, 0))
            assert hand.selected == last.card             # highlighted, as ←/→ would
            assert app.screen is coach and last.has_class("picked")
            why = next(row for row in rows                # another option's why, too
                       if row.has_class("why") and row.card != last.card)
            await pilot.click(why, offset=(6, 0))
            assert hand.selected == why.card and not last.has_class("picked")
            await pilot.click(last, offset=(4, 0))
            before = len(app.game.events)
            await pilot.press("enter")                    # and Enter throws or plays it
            await wait_for(pilot, lambda: any(getattr(e, "seat", None) == 0 and e.type in (
                "CardDiscarded", "CardPlayed") for e in app.game.events[before:]))
            mine = next(e for e in app.game.events[before:]
                        if getattr(e, "seat", None) == 0 and e.type in ("CardDiscarded",
                                                                         "CardPlayed"))
            assert getattr(mine, "card", last.card) == last.card
# --- 8: each score under the card that made it, at every size ------------------------

def _centre(app) -> list[str]:
    """The middle of the table (between the seat boxes) as text rows."""
    from crib3.tui.widgets.center import TableCenter
    from tui_support import screen_text

    centre = app.screen.query_one(TableCenter).content_region
    rows = screen_text(app).splitlines()[centre.y:centre.y + centre.height]
    return [row[centre.x:centre.x + centre.width].ljust(centre.width) for row in rows]


PILES = [("10S AS 3C 4D 2H 5H", False),    # runs of 4 and 5 on overlapped cards
         ("5S 5H 5D 6C", True),            # a pair, fifteen and pair royal, a go
         ("5S 5H 5D 5C", False),           # pair, pair royal, double pair royal
         ("3C 7S 5H 6D", False)]           # a fifteen, then a run (the cards of hand 4)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_each_score_on_the_pile_is_labelled_under_the_card_that_made_it(size):
    """Every card of the pile on screen that scored has its label (in
    full, or as short as the room under it needs: "run +4", "+4")
    starting at its own left edge; no label starts anywhere else, none
    is missing."""
    from crib3.cards import parse_cards
    from crib3.engine.state import Phase
    from crib3.scoring import score_play
    from crib3.tui.words import go_label, pile_labels
    from tui_support import make_app, press_enter_until

    app = make_app(7, autosave=False)
    async with app.run_test(size=size) as pilot:
        screen = await press_enter_until(pilot, lambda s: s.view.phase == Phase.PLAY)
        for pile, go in PILES:
            cards = tuple(parse_cards(pile))
            view = screen.view._replace(pile=cards, pile_seats=tuple(i % 3 for i in
                                                                     range(len(cards))),
                                        count=sum(c.value for c in cards), count_over=go)
            screen.table_view.show(view)
            await pilot.pause()
            rows = _centre(app)
            top = next(i for i, row in enumerate(rows) if "count" in row)   # the faces' top
            bottom = next(i for i in range(top, len(rows)) if "└" in rows[i][:3] or
                          "└" in rows[i][:2])                            # their bottom edge
            labels = [list(row) for row in rows[bottom + 1:]]
            assert labels, rows
            ranks = rows[top + 1]
            seen = 0
            for i, card in enumerate(cards):
                x = ranks.find(f"│{card.label()}")
                forms = pile_labels(score_play(cards[:i + 1]),
                                    go_label(1) if go and i == len(cards) - 1 else "")
                if x < 0:   # a card given way to "…": its label with it
                    continue
                if not forms:
                    continue
                found = [(r, form) for r, row in enumerate(labels) for form in forms
                         if "".join(row[x:]).startswith(form) and
                         "".join(row[x + len(form):x + len(form) + 1]) in (" ", "")]
                assert found, (pile, card, forms, "\n".join(rows))
                r, form = found[0]
                labels[r][x:x + len(form)] = " " * len(form)
                seen += 1
            assert seen >= 2, (pile, "\n".join(rows))
            left = "".join("".join(row) for row in labels)
            assert not left.strip(" ┌┐└┘─│╶╴╷╵├┤"), (pile, "\n".join(rows))  # nothing else


# --- 2: the feed can be read back, and the last count seen again ----------------------

def _at_my_play_after_a_count(screen) -> bool:
    from crib3.engine.state import Phase
    from crib3.tui.words import Mode

    view = screen.view
    return screen.mode == Mode.YOUR_TURN and view.phase == Phase.PLAY and bool(view.pile) \
        and bool(view.hand_plays) and view.hand_plays[-1][2] >= 1


async def test_at_80x24_the_feed_is_read_back_by_its_keys_and_the_card_keys_still_play():
    from crib3.tui.widgets.feed import Feed
    from tui_support import make_app, press_enter_until, screen_text, wait_for

    app = make_app(7, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await press_enter_until(pilot, _at_my_play_after_a_count, presses=600)
        feed = screen.query_one("#feed", Feed)
        said = screen.narration
        assert not feed.display                                    # the three last lines
        await pilot.press("pageup")                                # opens it, a page back
        await wait_for(pilot, lambda: feed.display and feed.reading)
        await pilot.pause()
        text = screen_text(app)
        assert said[-1] not in text and any(line in text for line in said[-6:-3]), text
        await pilot.press("up", "up")
        await pilot.pause()
        assert screen_text(app) != text                            # a line at a time
        await pilot.press("home")
        await pilot.pause()
        assert "A new game to 121: Ann, Bea and Cal." in screen_text(app)  # the whole game
        before = len(app.game.events)
        await pilot.press("1")                                     # the card keys play on
        await wait_for(pilot, lambda: any(e.type == "CardPlayed" and e.seat == 0
                                          for e in app.game.events[before:]))
        await pilot.pause()
        assert feed.reading and "A new game to 121" in screen_text(app)  # not pulled down
        await pilot.press("end")
        await pilot.pause()
        assert not feed.reading and said[-1][:60] in screen_text(app)


async def test_p_shows_the_last_counts_cards_until_any_key():
    from crib3.cards import Card
    from crib3.scoring import score_play
    from crib3.tui.screens.looking_back import LastCountScreen
    from crib3.tui.screens.table import TableScreen
    from crib3.tui.words import pile_label
    from tui_support import make_app, press_enter_until, screen_text, wait_for

    app = make_app(7, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await press_enter_until(pilot, _at_my_play_after_a_count, presses=600)
        plays = screen.view.hand_plays
        number = plays[-1][2] - 1                                  # the count cleared
        cards: list[Card] = [card for _, card, n in plays if n == number]
        assert len(cards) >= 2 and all(c not in screen.view.pile for c in cards)
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, LastCountScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "The last count" in text, text
        running = 0
        for i, card in enumerate(cards):
            running += card.value
            row = next(row for row in text.splitlines() if f" {card.label()} " in row)
            assert f" {running} " in row + " ", row                  # the count after it
            said = pile_label(score_play(cards[:i + 1]))
            assert said in row, (said, row)                          # what it scored
        assert "31 +2" in text or "go +1" in text                    # how it ended
        held = len(screen.view.hand)
        await pilot.press("3")                                       # any key: back
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        assert len(screen.view.hand) == held                         # and nothing played


# --- 11: the show at a glance ------------------------------------------------------------

async def _the_shows_panel(pilot, skip: bool = False):
    from crib3.engine.state import Phase
    from crib3.tui.screens.looking_back import ShowSummaryScreen
    from tui_support import settled

    app = pilot.app
    skipped = False
    for _ in range(800):
        if isinstance(app.screen, ShowSummaryScreen):
            return app.screen
        screen = await settled(pilot)
        if isinstance(app.screen, ShowSummaryScreen):
            return app.screen
        if skip and not skipped and screen.waiting_for_enter and screen.shown.phase == Phase.SHOW:
            await pilot.press("s")
            skipped = True
            continue
        await pilot.press("enter")
    raise AssertionError("no show panel")


def _shown_in_panel(app, counts) -> None:
    """Every count of the show in the panel, its cards, total and what made
    it, whole (a breakdown wrapped over lines is read back joined)."""
    from crib3.tui.screens.looking_back import breakdown
    from tui_support import screen_text

    text = screen_text(app)
    inside = [row.split("█")[1].strip() for row in text.splitlines() if row.count("█") >= 2]
    joined = " ".join(inside)
    assert len(counts) == 4, counts                                  # three hands and the crib
    for count in counts:
        cards = " ".join(c.label() for c in count.cards)
        row = next((row for row in inside if cards in row), None)
        assert row is not None, (cards, inside)
        assert row.split(cards)[1].split()[0] == str(count.points + count.missed), row
        assert ("crib" if count.crib else "hand") in row.split(cards)[0], row
        for part in breakdown(count.items):
            assert part in joined, (part, inside)                   # nothing cut
    assert "fifteen" in joined


@pytest.mark.parametrize("skip", [False, True])
async def test_after_the_show_one_panel_lists_every_hand_and_the_crib_until_enter(skip):
    from crib3.engine import events as ev
    from crib3.tui.screens.looking_back import ShowSummaryScreen
    from tui_support import make_app, wait_for

    app = make_app(7, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        panel = await _the_shows_panel(pilot, skip)
        await pilot.pause()
        counts = [e for e in app.game.events if isinstance(e, ev.HandCounted) and
                  e.starter == panel.counts[0].starter]
        _shown_in_panel(app, counts)
        assert [c.seat for c in panel.counts] == [c.seat for c in counts]   # show order
        await pilot.pause(0.05)
        assert isinstance(app.screen, ShowSummaryScreen)            # until Enter
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ShowSummaryScreen))
        await wait_for(pilot, lambda: any(isinstance(e, ev.CardsDealt) and e.hand == 2
                                          for e in app.game.events))  # the next deal


def test_a_hands_breakdown_is_said_as_players_sum_it_up():
    from crib3.cards import parse_card, parse_cards
    from crib3.scoring import score_hand
    from crib3.tui.screens.looking_back import breakdown

    score = score_hand(parse_cards("5H 5C 6D 4S"), parse_card("JH"))
    assert breakdown(score.items) == ["fifteens 4 for 8", "pair 2", "2 runs of 3 for 6"]
    score = score_hand(parse_cards("5H 6H 7H JH"), parse_card("8C"))
    assert breakdown(score.items) == ["fifteens 2 for 4", "run of 4 for 4", "flush 4"]
    score = score_hand(parse_cards("2H 4C 8D QS"), parse_card("KH"))
    assert breakdown(score.items) == []


async def test_the_show_panel_at_a_card_room_seat(tmp_path):
    from crib3.engine import Rules
    from crib3.engine import events as ev
    from crib3.room import Room
    from crib3.tui.screens.room_table import RoomTableScreen
    from tui_support import room_app, wait_for

    room = Room(tmp_path / "tables", think=0.0)
    ann = room.sign_in("Ann", None, lambda r: None)
    table = room.open_table(ann, Rules(), ("standard", "standard"))
    table.start("Ann")
    app = room_app(room, "Ann")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RoomTableScreen))
        panel = await _the_shows_panel(pilot)
        await pilot.pause()
        counts = [e for e in table.game.events if isinstance(e, ev.HandCounted) and
                  e.starter == panel.counts[0].starter]
        _shown_in_panel(app, counts)
