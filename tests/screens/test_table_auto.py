"""What the table does without a key (the new-game screen's "Play for me"
and "After a count"): a go said when no card can be played, your only
playable card played, a count in the show followed by the next after a
while; and the keys as before for those who choose them."""

from __future__ import annotations

import json

from tui_support import screen_text, table, wait_for

from crib3.engine import Play, legal_moves
from crib3.engine import events as ev
from crib3.engine.state import Phase
from crib3.tui.app import Crib3App
from crib3.tui.screens.new_game import NewGameScreen
from crib3.tui.settings import AutoMoves, GameChoices, load_choices
from crib3.tui.words import IDLE, Mode

# The presses one hand needs, by Enter alone (seed 7: from the first throw
# to the next hand's): with the defaults; and as it was before anything was
# played for you, Enter at every count and for every card, a forced one too.
PRESSES_A_HAND = 5
PRESSES_BEFORE = 10
PRESSES = 400  # more than a whole game's: a wait for a state never reached ends


def ann(**auto: object) -> Crib3App:
    """Ann's game from seed 7 against two standard bots that move at once."""
    return Crib3App(GameChoices(name="Ann", seed=7, **auto), think=0.0)  # type: ignore[arg-type]


def key_needed(app: Crib3App) -> bool:
    """The game waits for a key: a panel or dialog over the table, the
    person's turn, or a pause that waits for Enter; not a pause that goes
    on by itself, nor a forced card about to be played."""
    screen = table(app)
    if app.screen is not screen:
        return True
    return (screen.mode in IDLE or screen.waiting_for_enter) and not screen.acting_by_itself


async def one_hand_by_enter(pilot, choices_at_a_press=None) -> int:
    """Enter until hand 2's throw is asked, from hand 1's; the presses."""
    app = pilot.app
    await wait_for(pilot, lambda: key_needed(app))
    for _ in range(PRESSES):  # the cut for deal, once a game
        if table(app).mode == Mode.YOUR_TURN and table(app).view.phase == Phase.DISCARD:
            break
        await pilot.press("enter")
        await wait_for(pilot, lambda: key_needed(app))
    else:
        raise AssertionError(f"the first throw never asked in {PRESSES} presses")
    presses = 0
    while True:
        assert presses < PRESSES, ("hand 2's throw never asked", table(app).mode,
                                   table(app).view.phase, table(app).view.hand_number)
        screen = table(app)
        if app.screen is screen and screen.mode == Mode.YOUR_TURN and \
                screen.view.phase == Phase.DISCARD and screen.view.hand_number == 2:
            return presses
        if choices_at_a_press is not None and app.screen is screen:
            choices_at_a_press(screen)
        await pilot.press("enter")
        presses += 1
        await wait_for(pilot, lambda: key_needed(app))


def asked_only_with_a_choice(screen) -> None:
    """Asked to play, the person has two cards or more to choose from."""
    if screen.mode == Mode.YOUR_TURN and screen.view.phase == Phase.PLAY:
        plays = [c for c in screen.view.legal if isinstance(c, Play)]
        assert len(plays) >= 2, plays



async def to_a_count_going_on(pilot, app) -> None:
    """Enter, as often as the table asks for it, until a count in the show
    is on its way to the next by itself."""
    await wait_for(pilot, lambda: key_needed(app) or table(app).going_on_by_itself)
    for _ in range(PRESSES):
        if table(app).going_on_by_itself:
            return
        await pilot.press("enter")
        await wait_for(pilot, lambda: key_needed(app) or table(app).going_on_by_itself)
    raise AssertionError(f"no count went on by itself in {PRESSES} presses")

async def test_a_hand_takes_few_presses_with_the_defaults(crib3_home):
    """Counted with every default but the pace after a count, shortened
    here: the presses do not depend on it (the count goes on by itself at
    any pace). Only Ann's forced cards are played for her: each of her
    plays with a choice took a press."""
    defaults = GameChoices()
    assert defaults.auto_go and defaults.auto_play and defaults.auto_continue > 0
    app = ann(auto_continue=0.05)
    choices_at_a_play = []  # for each of Ann's plays, how many cards she could play

    def watch(event, state) -> None:
        if isinstance(event, ev.CardPlayed) and event.seat == 0:
            choices_at_a_play.append(len(before[0]))
        before[0] = [c for c in legal_moves(state, 0) if isinstance(c, Play)]

    before: list[list[Play]] = [[]]
    presses_to_play = []

    def at_a_press(screen) -> None:
        asked_only_with_a_choice(screen)
        if screen.mode == Mode.YOUR_TURN and screen.view.phase == Phase.PLAY:
            presses_to_play.append(screen.view.hand_number)

    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.game is not None)
        app.game.subscribe(watch)
        presses = await one_hand_by_enter(pilot, at_a_press)
    assert presses <= PRESSES_A_HAND, presses
    assert len(choices_at_a_play) == 4 and 1 in choices_at_a_play, choices_at_a_play
    assert len(presses_to_play) == sum(1 for n in choices_at_a_play if n >= 2)


async def test_with_nothing_played_for_you_every_key_is_as_before(crib3_home):
    """A go said for you (as ever), no card played and the counts waiting
    for Enter: every press as before."""
    app = ann(auto_go=True, auto_play=False, auto_continue=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        presses = await one_hand_by_enter(pilot)
    assert presses == PRESSES_BEFORE, presses


async def test_without_auto_go_enter_says_go(crib3_home):
    """With "nothing" played for you, the table stops where you cannot
    play and says so; Enter says the go (it is shown only then)."""
    app = ann(auto_go=False, auto_play=False, auto_continue=0.0)
    gos = []

    def at_a_press(screen) -> None:
        if screen.mode == Mode.YOUR_GO:
            assert not [c for c in screen.view.legal if isinstance(c, Play)]
            text = screen_text(app)
            assert "No card you can play" in text and "Enter says go" in text
            gos.append(screen.presented)

    async with app.run_test(size=(80, 24)) as pilot:
        presses = await one_hand_by_enter(pilot, at_a_press)
    assert len(gos) == 2, gos                     # seed 7: Ann cannot play twice in hand 1
    assert presses == PRESSES_BEFORE + 2


async def test_a_count_goes_on_by_itself_and_enter_goes_on_sooner(crib3_home):
    """After a count the table waits the chosen time, then goes on; Enter
    goes on at once."""
    app = ann(auto_continue=30.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_a_count_going_on(pilot, app)
        screen = table(app)
        assert screen.shown.phase == Phase.SHOW and screen.mode == Mode.WAITING_FOR_ENTER
        counted = screen.presented
        await pilot.press("enter")                # long before 30 s
        await wait_for(pilot, lambda: screen.presented > counted)
    app = ann(auto_continue=0.05)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_a_count_going_on(pilot, app)
        screen = table(app)
        counted = screen.presented
        await wait_for(pilot, lambda: screen.presented > counted)  # no key pressed


async def test_the_new_game_screen_offers_and_remembers_them(crib3_home):
    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        text = screen_text(app)
        assert "Play for me    ◀ go + card ▶" in text and "After a count  ◀ 2 s" in text
        app.screen.query_one("#for-me").focus()
        await pilot.press("right")                        # go + card -> go
        await pilot.press("down", "left")                 # 2 s -> Enter
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.game is not None)
        assert table(app).auto == AutoMoves(go=True, forced_card=False, continue_after=None)
    saved = json.loads((crib3_home / "config" / "settings.json").read_text())
    assert (saved["auto_go"], saved["auto_play"], saved["auto_continue"]) == (True, False, 0.0)
    again = Crib3App(think=0.0)
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, NewGameScreen))
        text = screen_text(again)
        assert "Play for me    ◀ go        ▶" in text and "After a count  ◀ Enter" in text


def test_settings_from_a_file_are_taken_only_when_they_make_sense(crib3_home):
    path = crib3_home / "config" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"auto_go": False, "auto_play": "yes", "auto_continue": 3}))
    choices = load_choices()
    assert (choices.auto_go, choices.auto_play, choices.auto_continue) == (False, True, 3.0)
    for wrong in (-1, 1e9, "2", None, True):
        path.write_text(json.dumps({"auto_continue": wrong}))
        assert load_choices().auto_continue == GameChoices().auto_continue, wrong


async def test_a_count_waits_for_enter_while_the_person_reads_over_the_table(crib3_home):
    """The help opened at a count: the table does not go on under it, but
    waits for Enter once it is closed. (Its pause is long, so that the
    help opens while the count would still go on, on a busy machine too.)"""
    app = ann(auto_continue=5.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_a_count_going_on(pilot, app)
        screen = table(app)
        counted = screen.presented
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: app.screen is not screen and not screen.going_on_by_itself)
        assert screen.presented == counted and screen.mode == Mode.WAITING_FOR_ENTER
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        assert screen.presented == counted and key_needed(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.presented > counted)
