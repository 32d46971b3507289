"""A finished rated live event moves ratings once, as one result: its
people ranked by the event's score, whoever left ranked last, the computer
at its fixed ratings; a restart or a replay does not apply it twice, and
`rebuild` gives the same numbers; a profile lists the event."""

from __future__ import annotations

import json

from test_live_event import arrive, play_boards, tiny

from crib3.room import Room
from crib3.room.event_ratings import event_id, event_result, mark_rated, rate_finished
from crib3.room.identities import key_identity
from crib3.room.live_event import OVER, LiveEvent
from crib3.room.ratings import BOT_SKILLS, bot_identity
from crib3.room.records import Records
from crib3.room.results import EVENT_SCORE, Results


def rated_room(tmp_path, names, rated: bool = True):
    """A rating room, and `names` entered in ann's tiny event "club"."""
    room = Room(tmp_path / "tables", think=0, results=Results(tmp_path / "ratings"))
    people = [arrive(room, name) for name in names]
    live = LiveEvent(tiny(), "ann", 0.0)
    room.events.add(live)
    live.event.folder.mkdir(parents=True)
    if rated:
        mark_rated(live.event)
    for presence in people:
        room.events.join("club", presence)
    return room, people, live


def result_lines(tmp_path) -> list[dict]:
    path = tmp_path / "ratings" / "results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


async def test_a_rated_event_is_one_result_ranked_by_score_the_leaver_last(tmp_path):
    room, people, live = rated_room(tmp_path, ["ann", "bob", "cat", "dan"])
    room.events.start("club", people[0])
    await play_boards(room, people, live, leaver=("bob", 2))
    assert live.status == OVER
    [line] = result_lines(tmp_path)
    assert line["game"] == event_id(live)
    seats = {s["name"]: s for s in line["seats"]}
    _, ranking, _ = live.results()
    score = {s.who: round(s.percent * 10) for s in ranking if s.person}
    # Every person, by identity, at the event's score; bob left: last, however he did.
    for name in ("ann", "cat", "dan"):
        assert seats[name]["id"] == key_identity(f"key-{name}")
        assert seats[name]["score"] == score[name] and not seats[name]["left"]
    assert seats["bob"]["left"] and seats["bob"]["place"] == len(seats)
    assert all(s["place"] < len(seats) for s in line["seats"] if not s["left"])
    # The computer's entries are at its level's fixed rating; its play for bob counts for
    # nobody.
    computers = [s for s in line["seats"] if s["id"] == bot_identity("easy")]
    assert {s["name"] for s in computers} == {
        s.who for s in ranking if not s.person and not s.who.startswith("computer for ")}
    assert not any(s["name"].startswith("computer for ") for s in line["seats"])
    assert all(0 <= s["score"] <= EVENT_SCORE for s in line["seats"])
    # It moved each person's rating once, and the computer's not at all.
    book = room.results
    for name in ("ann", "bob", "cat", "dan"):
        assert book.skill(key_identity(f"key-{name}")).games == 1
    assert book.skill(bot_identity("easy")) == BOT_SKILLS[bot_identity("easy")]
    bob, ann = (book.skill(key_identity(f"key-{n}")) for n in ("bob", "ann"))
    assert bob.mu < ann.mu  # ranked last, bob lost the most


async def test_it_is_applied_once_through_a_replay_a_restart_and_a_rebuild(tmp_path):
    room, people, live = rated_room(tmp_path, ["ann", "bob", "cat"])
    room.events.start("club", people[0])
    await play_boards(room, people, live)
    before = room.results.skills()
    assert len(result_lines(tmp_path)) == 1
    # A replayed call: nothing more.
    assert rate_finished(room, live).why == "in already"
    # A restart that finds the event over: nothing more.
    room.close()
    again = Room(tmp_path / "tables", think=0, results=Results(tmp_path / "ratings"))
    again.events.find()
    assert len(result_lines(tmp_path)) == 1 and again.results.skills() == before
    # The rebuild from the results log gives the same numbers.
    assert again.results.rebuild() == 1 and again.results.skills() == before
    # And a profile lists the event: its place of how many, the score, the move.
    ann = Records(tmp_path / "ratings", None).profile(key_identity("key-ann"))
    [event] = ann.events
    assert event.event == "club" and event.of == len(result_lines(tmp_path)[0]["seats"])
    mine = next(s for s in result_lines(tmp_path)[0]["seats"] if s["name"] == "ann")
    assert (event.place, event.percent) == (mine["place"], mine["score"] / 10)
    assert event.move == ann.skill.shown - 1500
    assert event.words.startswith(f"club {event.at[:10]}: {event.place}")


async def test_an_unrated_event_or_a_room_that_rates_nothing_moves_no_rating(tmp_path):
    room, people, live = rated_room(tmp_path, ["ann", "bob", "cat"], rated=False)
    room.events.start("club", people[0])
    await play_boards(room, people, live)
    assert live.status == OVER and result_lines(tmp_path) == []
    assert rate_finished(room, live).why == "not rated"
    room.results = None
    mark_rated(live.event)
    assert rate_finished(room, live).why == "this room rates no game"


def test_an_event_not_over_has_no_result():
    assert event_result(LiveEvent(tiny(), "ann", 0.0)) is None


async def test_a_profile_lists_the_latest_events(svg_snapshot, tmp_path):
    from snapshot_support import screen_svg
    from test_record_views import DAN, dans_room, to_my_profile
    from tui_support import room_app

    from crib3.room.ratings import Placing
    from crib3.room.results import EVENT, Result

    room = dans_room(tmp_path)
    for day, (event, dan, others) in enumerate([("club", 612, (700, 455, 388)),
                                                ("friday", 333, (580, 560, 420)),
                                                ("sunday-long", 805, (190, 500, 512))]):
        placings = (Placing(DAN, "Dan", dan), Placing("ssh SHA256:amy", "Amy", others[0]),
                    Placing("ssh SHA256:bo", "Bo", others[1], left=True),
                    Placing(bot_identity("standard"), "computer (standard)", others[2]))
        assert room.results.record(Result(f"{EVENT}{event}-{day:016x}", 0,
                                          f"2026-11-2{day + 1}T21:00:00+00:00", placings,
                                          "0" * 64))
    profile = room.records.profile(DAN)
    assert [e.event for e in profile.events] == ["sunday-long", "friday", "club"]
    assert [(e.place, e.of, e.percent) for e in profile.events] == [
        (1, 4, 80.5), (3, 4, 33.3), (2, 4, 61.2)]
    assert await screen_svg(lambda: room_app(room, "Dan"), (80, 24), setup=to_my_profile) \
        == svg_snapshot
