"""How long a count of the show stays on a screen before the game goes on
by itself: the default of a game at one's own keyboard ("After a count" on
the new-game screen) and of the card room (`crib3 serve --show-pace`).
Apart, and in `common`, so that the room and the screens share one number
without either importing the other."""

SHOW_PACE = 2.0  # seconds; 0 in a setting means "until Enter"
