"""Saved games read back: the list, transcripts and statistics (games), the
listing read from a log's ends, the caches of what is derived from logs,
progress over recent games, and stepping through one (replay)."""
