"""Issue 32, point 16: in the card room, where people look away between
turns, the terminal's bell rings and the window's title says so when your
turn comes, or when someone at the table says your name in chat; `m` turns
it off. Checked in the bytes a real SSH client receives from the room."""

from __future__ import annotations

import asyncio
import re

from ssh_support import Client, plain, seat_three, serving, until

from crib3.tui.attention import new_lines, says_name

TITLE = re.compile(r"\x1b\]0;([^\x07\x1b]*)\x07")


def bells(client: Client, since: int = 0) -> int:
    """Bells received since byte `since` (a title's own BEL ends it, and is
    no bell: `plain` takes titles out first)."""
    return plain(bytes(client.terminal.received[since:])).count("\x07")


def titles(client: Client, since: int = 0) -> list[str]:
    return TITLE.findall(bytes(client.terminal.received[since:]).decode("utf-8", "replace"))


async def say(client: Client, text: str) -> None:
    mark = len(client.terminal.received)
    client.press("c")
    await until(lambda: "Enter: say it" in plain(bytes(client.terminal.received[mark:])),
                what="the chat prompt")
    client.press(text + "\r")


async def test_your_turn_and_your_name_ring_the_bell_and_m_turns_it_off(tmp_path, room_workers):
    async with serving(tmp_path, workers=room_workers) as server:
        clients, table = await seat_three(server.port, server.room)
        ann, bob, cat = clients
        # The cut for the deal waits for Enter; then everyone throws to the crib.
        await ann.shows("Enter: go on")
        assert bells(ann) == 0 and not any("your turn" in t for t in titles(ann))
        bob.press("m")  # bob turns it off
        await bob.shows("The bell for your turn is off")
        marks = {c: len(c.terminal.received) for c in clients}
        for client in clients:
            client.press("\r")
        await until(lambda: all(s.phase.name == "DISCARD" for s in [table.game.state]),
                    what="the deal")
        await until(lambda: bells(ann, marks[ann]) == 1 and bells(cat, marks[cat]) == 1,
                    what="ann's and cat's bells")
        assert "▶ your turn · crib3" in titles(ann, marks[ann])
        # (the bell rings as the turn comes; the prompt that takes "1" is
        # drawn once the deal's pauses are over: a key before it is dropped)
        await cat.shows("Throw one card")
        cat.press("1")  # cat throws: ann's turn to throw goes on, rung for once
        await until(lambda: 2 not in table.game.to_act(), what="cat's throw")
        await asyncio.sleep(0.3)
        assert bells(ann, marks[ann]) == 1
        assert titles(ann, marks[ann])[-1] == "▶ your turn · crib3"  # still her turn
        assert bells(bob, marks[bob]) == 0 and titles(bob, marks[bob]) == []

        # Your name in chat: said by someone else at the table, as a word.
        marks = {c: len(c.terminal.received) for c in clients}
        await say(cat, "ANN, your throw")
        await until(lambda: bells(ann, marks[ann]) == 1, what="ann's bell for her name")
        assert "▶ cat said your name · crib3" in titles(ann, marks[ann])
        await say(ann, "coming, bob")  # bob's name, but his bell is off; not ann's own line
        await ann.shows("coming, bob")
        await asyncio.sleep(0.3)
        assert bells(bob, marks[bob]) == 0 and bells(ann, marks[ann]) == 1
        assert bells(cat, marks[cat]) == 0  # nobody said cat (not "ANN", nor ann's line)
        for client in clients:
            client.close()


def test_a_name_is_heard_as_a_word_in_any_case():
    assert says_name("ANN, your throw", "ann") and says_name("over to you ann!", "Ann")
    assert not says_name("planning ahead", "ann") and not says_name("anne?", "ann")


def test_new_lines_are_the_ones_past_what_was_heard():
    assert new_lines([], ["a"]) == ["a"]
    assert new_lines(["a", "b"], ["a", "b", "c"]) == ["c"]
    assert new_lines(["a", "b", "c"], ["b", "c", "d"]) == ["d"]  # the window slid
    assert new_lines(["a"], ["a"]) == []
