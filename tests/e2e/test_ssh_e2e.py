"""`crib3 serve` with the real OpenSSH client, three players in three tmux
terminals, by key presses alone."""

from __future__ import annotations

import json
import subprocess
import time

import pytest
from ssh_support import needs_openssh, openssh_key, openssh_keys, openssh_room, ssh

from crib3.cards import parse_card

pytestmark = [needs_openssh, pytest.mark.slow]

NAMES = ("ann", "bob", "cat")


@pytest.fixture
def card_room(tmp_path, room_workers):
    """`crib3 serve` on a free port with three players' keys authorized."""
    keys, authorized = openssh_keys(tmp_path, NAMES)
    with openssh_room(tmp_path, "--authorized-keys", str(authorized),
                      "--workers", str(room_workers)) as (port, terminals):
        yield port, keys, terminals, tmp_path


def test_three_openssh_clients_sit_at_one_table_and_play_a_hand(card_room):
    port, keys, terminals, home = card_room
    for name in NAMES:
        terminals.open(name, ssh(port, name, keys[name]))
    terminals.wait_for("ann", "Open a table")
    terminals.keys("ann", "o")
    terminals.wait_for("ann", "Second seat")
    terminals.keys("ann", "Enter")
    terminals.wait_for("ann", "Seat 1  ann  owner  (you)")
    for name in ("bob", "cat"):
        terminals.wait_for(name, "waiting")  # the table, in their lobby
        terminals.keys(name, "Enter")
        terminals.wait_for(name, "Waiting for ann to start")
    terminals.wait_for("ann", "Seat 3  cat")
    terminals.keys("ann", "Enter")

    for name in NAMES:  # the cut for the deal, on every screen
        terminals.wait_for(name, "deals first")
        terminals.keys(name, "Enter")
    screens = {name: terminals.wait_for(name, "Throw one card") for name in NAMES}

    log = home / "home" / "data" / "tables" / "table-1.jsonl"
    events = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    dealt = next(e for e in events if e["type"] == "CardsDealt")
    players = next(e for e in events if e["type"] == "GameStarted")["players"]
    seat_of = {p["name"]: i for i, p in enumerate(players)}
    for name, screen in screens.items():
        mine = [parse_card(c) for c in dealt["hands"][seat_of[name]]]
        others = [parse_card(c) for i, hand in enumerate(dealt["hands"])
                  if i != seat_of[name] for c in hand]
        for card in mine:  # each screen shows its own hand...
            assert card.label() in screen, (name, card, screen)
        for card in others:  # ...and nobody else's
            assert card.label() not in screen, (name, card, screen)

    # Play the hand to its end by key presses: Enter throws, cuts, plays the
    # highlighted card and steps through the show.
    deadline = time.monotonic() + 90
    while '"HandEnded"' not in log.read_text():
        assert time.monotonic() < deadline, {n: terminals.screen(n) for n in NAMES}
        for name in NAMES:
            terminals.keys(name, "Enter")
        time.sleep(0.25)
    for name in NAMES:  # every screen goes through the show to the next deal
        deadline = time.monotonic() + 60
        while "Hand 2" not in terminals.screen(name):
            assert time.monotonic() < deadline, terminals.screen(name)
            terminals.keys(name, "Enter")
            time.sleep(0.3)


def test_without_an_authorized_key_nobody_gets_in(card_room):
    port, keys, terminals, home = card_room
    result = subprocess.run(ssh(port, "eve", None).replace("ssh -t", "ssh -T").split(),
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 255 and "Permission denied" in result.stderr
    stranger = openssh_key(home / "id_eve")
    result = subprocess.run(ssh(port, "eve", stranger).replace("ssh -t", "ssh -T").split(),
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 255 and "Permission denied" in result.stderr
