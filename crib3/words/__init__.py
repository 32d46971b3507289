"""The game in words: scores as a player says them (speech), and one sentence
an event for the feed and the transcripts (narrate)."""
