"""Studying play: a game reviewed against the coach, practice positions,
headless games between bots (sim) and the duplicate head-to-head."""
