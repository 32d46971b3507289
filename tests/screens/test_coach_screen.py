"""The coach at the table: its numbers say what they are, the help explains
its columns, the table's keys work with it open, it sits in the room the
table leaves at every size, and a click on an option highlights its card."""

from __future__ import annotations

import pytest

SIZE = (80, 24)


async def highlight_the_coachs_best(pilot, screen) -> None:
    """Move the hand's highlight (→) to the coach's best option: where the
    coach puts it as it opens."""
    from crib3.players.coach import advise

    best, hand = advise(screen.view).best, screen.table_view.hand
    for _ in range(len(hand.cards())):
        if hand.selected == best:
            return
        await pilot.press("right")
    assert hand.selected == best


async def test_the_card_keys_work_with_the_coach_open(crib3_home):
    from tui_support import make_app, press_enter_until, screen_text, settled, wait_for

    from crib3.engine.state import Phase
    from crib3.tui.screens.dialogs import CoachScreen, ConfirmQuit
    from crib3.tui.words import Mode

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
        await highlight_the_coachs_best(pilot, screen)  # (where the coach opens)
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
    from tui_support import make_app, screen_text, settled, wait_for

    from crib3.tui.screens.dialogs import HelpScreen

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
    from textual.geometry import Region
    from tui_support import make_app, press_enter_until, wait_for

    from crib3.engine.state import Phase
    from crib3.tui.screens.dialogs import CoachRow, CoachScreen
    from crib3.tui.widgets.center import TableCenter
    from crib3.tui.words import Mode

    app = make_app(seed=7)
    async with app.run_test(size=size) as pilot:
        for phase in (Phase.DISCARD, Phase.PLAY):
            screen = await press_enter_until(pilot, lambda s, phase=phase: s.mode == Mode.YOUR_TURN
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
            await wait_for(pilot, lambda screen=screen: app.screen is screen)
            await pilot.pause()
            assert _layout(screen) == before                  # the table as it was
            await pilot.press("h")                # and closed with a card's key, as a player may
            await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
            await pilot.pause()
            said_before = len(screen.narration)
            await pilot.press("1")                      # throw, or play, the first card
            await wait_for(pilot, lambda screen=screen, said_before=said_before: (
                app.screen is screen and len(screen.narration) > said_before))
            await pilot.pause()
            feed = screen.query_one("#feed")
            # the lines said as it closed are wrapped to the feed's width, not a letter a row
            shown = " ".join(" ".join(strip.text.split()) for strip in feed.lines)
            for line in screen.narration[said_before:]:
                assert " ".join(line.split()) in shown, (line, shown[-200:])


async def test_a_click_on_a_coach_option_highlights_its_card(crib3_home):
    from tui_support import make_app, press_enter_until, wait_for

    from crib3.engine.state import Phase
    from crib3.tui.screens.dialogs import CoachRow, CoachScreen
    from crib3.tui.words import Mode

    app = make_app(seed=7)
    async with app.run_test(size=SIZE) as pilot:
        for phase in (Phase.DISCARD, Phase.PLAY):
            screen = await press_enter_until(pilot, lambda s, phase=phase: s.mode == Mode.YOUR_TURN
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
            await wait_for(pilot, lambda before=before: any(
                getattr(e, "seat", None) == 0 and e.type in ("CardDiscarded", "CardPlayed")
                for e in app.game.events[before:]))
            mine = next(e for e in app.game.events[before:]
                        if getattr(e, "seat", None) == 0 and e.type in ("CardDiscarded",
                                                                         "CardPlayed"))
            assert getattr(mine, "card", last.card) == last.card


async def test_the_coachs_arrows_choose_an_option_and_enter_takes_it(crib3_home):
    """Enter, h, Enter threw the card highlighted in the hand (the coach's
    worst option) while the coach's ▶ said another, and ←/→ did nothing:
    the coach opens on its best option with that card highlighted in the
    hand, ↑/↓ and ←/→ move both together, and Enter takes the option the
    ▶ is on. At 80x24 the panel leaves the hand's five cards whole."""
    from tui_support import make_app, press_enter_until, wait_for

    from crib3.engine.state import Phase
    from crib3.tui.screens.dialogs import CoachRow, CoachScreen
    from crib3.tui.words import Mode

    def marked(coach: CoachScreen) -> list[object]:
        return [row.card for row in coach.query(CoachRow).filter(".option")
                if str(row.render()).startswith("▶")]

    app = make_app(seed=7)
    async with app.run_test(size=SIZE) as pilot:
        for phase, keys in ((Phase.DISCARD, ("down", "down", "up")), (Phase.PLAY, ("down",))):
            screen = await press_enter_until(pilot, lambda s, phase=phase: s.mode == Mode.YOUR_TURN
                                             and s.view.phase == phase)
            hand = screen.table_view.hand
            await pilot.press("h")
            await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
            await pilot.pause()
            coach = app.screen
            assert isinstance(coach, CoachScreen)
            options = coach.options
            assert hand.selected == options[0] and marked(coach) == [options[0]]
            if phase == Phase.DISCARD:                  # the hand's five cards whole
                cards = hand.content_region
                assert coach.query_one("Vertical").region.x >= cards.x + 5 * 6 - 1
            for key in keys:
                at = options.index(hand.selected)
                await pilot.press(key)
                step = 1 if key == "down" else -1
                want = options[max(0, min(len(options) - 1, at + step))]
                assert hand.selected == want and marked(coach) == [want], (key, hand.selected)
            if len(options) > 1:
                held = [c for c in hand.cards() if c in options]
                before = held.index(hand.selected)
                await pilot.press("right")              # the next card in the hand
                assert hand.selected == held[(before + 1) % len(held)]
                assert marked(coach) == [hand.selected]
                await pilot.press("left")
                assert hand.selected == held[before] and marked(coach) == [hand.selected]
            chosen = hand.selected
            before_events = len(app.game.events)
            await pilot.press("enter")                    # the option the ▶ is on
            await wait_for(pilot, lambda n=before_events: any(
                getattr(e, "seat", None) == 0 and e.type in ("CardDiscarded", "CardPlayed")
                for e in app.game.events[n:]))
            mine = next(e for e in app.game.events[before_events:]
                        if getattr(e, "seat", None) == 0 and e.type in ("CardDiscarded",
                                                                         "CardPlayed"))
            assert getattr(mine, "card", None) == chosen
