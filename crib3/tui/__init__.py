"""The terminal game: a Textual app over the engine."""
