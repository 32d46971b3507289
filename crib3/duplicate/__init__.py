"""Duplicate cribbage among people: an event's boards (boards), a board
played in the engine (play), the field and the matchpoints (scoring), and
an event kept in the data folder (events)."""
