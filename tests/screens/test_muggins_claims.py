"""Muggins claims at the table (80x24): a claim too high is refused and said,
under the strict rule its excess goes to the next player, and you count
again; the new-game screen offers the rules."""

from __future__ import annotations

from tui_support import make_app, screen_text, settled, table, wait_for

from crib3.engine.events import STRICT, ClaimRefused
from crib3.tui.screens.dialogs import AskCount, AskMuggins
from crib3.tui.screens.game_over import GameOverScreen
from crib3.tui.screens.looking_back import summary_lines


async def to_your_count(pilot) -> None:
    """Enter, again and again, until you are asked to count."""
    app = pilot.app
    for _ in range(3000):
        if isinstance(app.screen, AskCount):
            return
        assert not isinstance(app.screen, (GameOverScreen, AskMuggins))
        await settled(pilot)
        if not isinstance(app.screen, AskCount):
            await pilot.press("enter")
    raise AssertionError("never asked to count")


async def test_a_claim_too_high_costs_the_excess_under_the_strict_rule(crib3_home):
    app = make_app(seed=2, muggins=True, muggins_rule=STRICT)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await to_your_count(pilot)
        game = app.game
        holds = max(c.points for c in game.legal_moves(0))
        taker = 1
        before = game.state.scores
        await pilot.press(*str(holds + 2), "enter")
        await wait_for(pilot, lambda: any(isinstance(e, ClaimRefused) for e in game.events))
        refused = [e for e in game.events if isinstance(e, ClaimRefused)][-1]
        assert (refused.claimed, refused.holds, refused.points) == (holds + 2, holds, 2)
        assert game.state.scores[taker] == before[taker] + 2
        await wait_for(pilot, lambda: isinstance(app.screen, AskCount))  # count again
        text = screen_text(app)
        assert "Count your" in text and "too much and they take the excess" in text
        assert f"Ann claims {holds + 2}; the hand holds {holds}: refused. Bea takes the 2 over" \
            in text
        await pilot.press(*str(holds), "enter")  # the honest count stands
        await wait_for(pilot, lambda: game.state.shown[0] is not None
                       or game.state.crib_shown is not None)
        counted = [e for e in game.events if e.type == "HandCounted" and e.seat == 0][-1]
        assert counted.points == holds and counted.missed == 0
        # the show at a glance, after it, lists the refused claim where it came
        await wait_for(pilot, lambda: counted in table(app).show_counts)
        items = table(app).show_counts
        assert items.index(refused) < items.index(counted)
        lines = [str(t) for t in summary_lines(items, table(app).view, 76)]
        assert f"  Ann claims {holds + 2}, refused; Bea takes 2" in lines


async def test_the_new_game_screen_offers_the_muggins_rules_and_remembers_them(crib3_home):
    from crib3.engine import Rules
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.new_game import NewGameScreen, OptionRow
    from crib3.tui.settings import load_choices

    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        row = app.screen.query_one("#muggins", OptionRow)
        row.focus()
        seen = {}
        for _ in range(len(row.options)):
            await pilot.press("right")
            await pilot.pause()
            line = next(t for t in screen_text(app).splitlines() if "Muggins" in t)
            seen[row.value] = line
        assert list(seen) == ["friendly", "strict", "friendly+", "strict+", "off"]
        assert "too high costs points" in seen["strict"]
        assert "hands, pegging; too high: again" in seen["friendly+"]
        for line in seen.values():  # each fits its box at 80 columns
            assert line.rstrip().endswith(("│", "▶")), line
        await pilot.press("left")  # strict+
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.game is not None)
        assert app.game.state.rules == Rules(muggins=True, muggins_rule=STRICT,
                                             pegging_claims=True)
    remembered = load_choices()
    assert (remembered.muggins, remembered.muggins_rule, remembered.pegging_claims) \
        == (True, STRICT, True)


def test_how_to_play_states_each_muggins_rule():
    import re

    from crib3.engine.events import MUGGINS_RULES
    from crib3.tui.screens.rules import RULES_TEXT

    said = re.sub(r"\s+", " ", RULES_TEXT)
    assert "friendly, it costs nothing" in said
    assert "strict, the excess goes to the opponent on your left" in said
    assert "Pegging claims (muggins friendly+ or strict+)" in said
    assert "Every claim is kept in the saved game" in said
    assert all(rule in said for rule in MUGGINS_RULES)


async def test_pegging_claims_ask_what_each_card_scores(crib3_home):
    from crib3.engine.events import CardPlayed, MugginsCalled
    from crib3.tui.screens.dialogs import AskPegging

    app = make_app(seed=2, muggins=True, pegging_claims=True)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(300):
            if isinstance(app.screen, AskPegging):
                break
            await settled(pilot)
            if not isinstance(app.screen, AskPegging):
                await pilot.press("enter")
        assert isinstance(app.screen, AskPegging)
        game = app.game
        assert "What does" in screen_text(app) and "(the count:" in screen_text(app)
        await pilot.press("9", "enter")  # more than any first card makes: refused
        await wait_for(pilot, lambda: any(isinstance(e, ClaimRefused) for e in game.events))
        refused = [e for e in game.events if isinstance(e, ClaimRefused)][0]
        assert refused.card is not None and refused.claimed == 9 and refused.points == 0
        assert refused.card in game.state.hands[0]  # still in hand: play again
        # Enter alone from here: each card claimed as nothing, to the show
        for _ in range(300):
            if isinstance(app.screen, AskCount):
                break
            await settled(pilot)
            if not isinstance(app.screen, AskCount):
                await pilot.press("enter")
        assert isinstance(app.screen, AskCount)
    mine = [e for e in game.events if isinstance(e, CardPlayed) and e.seat == 0]
    assert len(mine) == 4 and all(e.points == 0 for e in mine)
    missed = [e.missed for e in mine if e.missed]
    called = [e.points for e in game.events if isinstance(e, MugginsCalled) and e.victim == 0]
    assert missed and called == missed  # the computer player on the left took each one


async def test_the_replay_shows_a_refused_claim(crib3_home):
    import random

    from crib3.engine import Count, Game, PlayerInfo, Rules
    from crib3.saved.replay import Replay
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.replay import ReplayScreen

    game = Game.new([PlayerInfo("Ann"), PlayerInfo("Bea", "easy"), PlayerInfo("Cal", "easy")],
                    Rules(target=61, muggins=True, muggins_rule=STRICT), seed=11)
    rng = random.Random(11)
    while not any(isinstance(e, ClaimRefused) for e in game.events):
        seat = game.to_act()[0]
        view = game.view(seat)
        command = rng.choice(view.legal)
        if isinstance(command, Count):
            command = Count(seat, max(c.points for c in view.legal if isinstance(c, Count)) + 3)
        game.dispatch(command)
    at = next(i for i, e in enumerate(game.events) if isinstance(e, ClaimRefused))
    refused = game.events[at]
    app = Crib3App(replay=Replay(game.events), autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        app.screen.show(at)
        await pilot.pause()
        await wait_for(pilot, lambda: f"Ann claims {refused.claimed}; the hand holds "
                       f"{refused.holds}: refused. Bea takes the 3 over" in screen_text(app))


def test_review_shows_each_refused_claim_and_its_cost():
    from games import claimed_game

    from crib3.engine import Rules
    from crib3.engine.events import FRIENDLY
    from crib3.study.review import review_events
    from crib3.tui.screens.review_words import taken_words

    for rule in (FRIENDLY, STRICT):
        rules = Rules(target=61, muggins=True, muggins_rule=rule, pegging_claims=True)
        refused: list[ClaimRefused] = []
        for seed in range(20):
            game, _ = claimed_game(seed, ("human", "standard", "standard"), rules)
            refused = [e for e in game.events if isinstance(e, ClaimRefused) and e.seat == 0
                       and e.card is None]
            if refused:
                break
        review = review_events(game.events, 0)
        claims = [d for d in review.decisions if d.kind == "claim"]
        assert [d.taken for d in claims] == [str(e.claimed) for e in refused] and claims
        assert taken_words(claims[0]) == f"claimed {refused[0].claimed}, refused"
        excess = sum(e.claimed - e.holds for e in refused) if rule == STRICT else 0
        assert sum(d.cost for d in claims) == excess


def test_the_prompt_asks_for_the_call_on_a_short_pegging_claim():
    from helpers import hand_set_up, plays

    from crib3.cards import parse_card
    from crib3.engine import Play, PlayerInfo, Rules
    from crib3.engine.feed import seat_view
    from crib3.engine.rules import step
    from crib3.tui.screens.dialogs import AskMuggins, asked_in_show
    from crib3.tui.words import Mode, prompt

    players = tuple(PlayerInfo(f"P{i}", k) for i, k in enumerate(("human", "standard", "human")))
    _, state = hand_set_up(2, {0: "4S 4C 10D QC", 1: "4H JD 10C 8H", 2: "4D AC 3D 9D"},
                           starter="5S", players=players,
                           rules=Rules(muggins=True, pegging_claims=True))
    _, state = step(state, Play(0, parse_card("4S"), 0))
    _, state = plays(state, "1:4H")
    _, state = step(state, Play(2, parse_card("4D"), 0))
    view = seat_view(state, 0)
    assert prompt(Mode.YOUR_TURN, view.phase, view) == \
        "Call muggins on a short claim? (muggins is on)"
    asked = asked_in_show(view)
    assert isinstance(asked, AskMuggins) and asked.points == 6


def test_a_game_opened_after_a_refused_count_presents_its_show_from_the_first_count():
    from games import claimed_game

    from crib3.engine import Rules
    from crib3.engine import events as ev
    from crib3.tui.screens.table import show_left_unseen

    def refused_after_a_count(events: list) -> int | None:
        """A refused count that follows another count of its show."""
        for i, e in enumerate(events):
            if isinstance(e, ClaimRefused) and e.card is None \
                    and isinstance(events[i - 1], (ev.HandCounted, ev.MugginsCalled)):
                return i
        return None

    rules = Rules(target=61, muggins=True)
    for seed in range(40):
        events = claimed_game(seed, ("human", "standard", "standard"), rules)[0].events
        at = refused_after_a_count(events)
        if at is not None:
            break
    assert at is not None
    first_count = max(i for i, e in enumerate(events[:at]) if isinstance(e, ev.CardPlayed))
    while not isinstance(events[first_count], ev.HandCounted):
        first_count += 1  # (past the last card and its go: the show's first count)
    past = [(e, None, None) for e in events[:at + 1]]
    assert show_left_unseen(past, 0) == first_count
