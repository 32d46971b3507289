"""The no-leak checks' own rule for toasts (`ssh_support.Recorder`): a
toast stays its timeout, over a hand or two of a game played as fast as
keys go, so the card it names may be hidden by then; what the screen had
seen when it was raised is no leak, and anything else still is."""

from __future__ import annotations

from games import random_game
from ssh_support import Recorder
from test_ssh import hidden_from, seen_by
from textual.notifications import Notification

from crib3.engine import State, apply


def test_a_toast_naming_ones_own_card_of_two_hands_ago_is_no_leak_and_the_check_still_fails(
        monkeypatch):
    events = list(random_game(7).events)
    states = [State()]
    for event in events:
        states.append(apply(states[-1], event))
    # A card of seat 0's in hand 1, hidden from seat 0 at a point of hand 3
    # (dealt to another seat, or in the deck) that the toast is still on at.
    raised = next(i for i, s in enumerate(states) if s.hand_number == 1 and s.hands[0])
    card, shown = next((c, i) for c in states[raised].hands[0]
                       for i, s in enumerate(states)
                       if s.hand_number == 3 and s.hands[1] and c in hidden_from(s, 0))
    said = f"{card.label()} is not in your hand"
    seen = {c for s in states[raised:shown + 1] for c in seen_by(s, 0)}
    other = next(c for c in states[shown].hands[1] if c not in seen)  # never seen by seat 0

    def hidden(recorder: Recorder) -> set:
        return recorder.hidden(states, shown, lambda s: hidden_from(s, 0),
                               lambda s: seen_by(s, 0), "ann")

    recorder = Recorder(monkeypatch)
    recorder.toasted("ann", said, raised, until=100.0)
    recorder.wrote("ann", shown, said, now=99.0)
    assert card in hidden_from(states[shown], 0)  # (what the check took for a leak)
    assert card not in hidden(recorder)  # her own card, in a toast still up: no leak
    assert other in hidden(recorder)  # and the check can fail: bob's card is hidden still
    # Gone once its timeout (and the grace for its timer) is past ...
    late = Recorder(monkeypatch)
    late.toasted("ann", said, raised, until=100.0)
    late.wrote("ann", shown, said, now=100.0 + Recorder.GRACE + 0.1)
    assert card in hidden(late)
    # ... unless Textual still shows it (its timer late: a busy machine),
    # and only that one toast: the same words raised again later are not it
    slow = Recorder(monkeypatch)
    slow.toasted("ann", said, raised, until=100.0)
    up = Notification(said)
    slow.toast_up("ann", up)
    slow.wrote("ann", shown, said, now=130.0, on=[up])
    assert card not in hidden(slow)
    again = Recorder(monkeypatch)
    again.toasted("ann", said, raised, until=100.0)
    again.toast_up("ann", Notification(said))
    again.toasted("ann", said, shown, until=200.0)
    later = Notification(said)
    again.toast_up("ann", later)
    again.wrote("ann", shown, said, now=130.0, on=[later])
    assert card in hidden(again)
    # Nobody else's toasts count for ann
    theirs = Recorder(monkeypatch)
    theirs.toasted("bob", said, raised, until=100.0)
    theirs.wrote("ann", shown, said, now=99.0)
    assert card in hidden(theirs)
