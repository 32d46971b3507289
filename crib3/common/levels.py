"""Who can sit in a seat. A leaf module (imports nothing), so the first
screen can list the levels without loading the engine."""

HUMAN = "human"
BOT_LEVELS = ("easy", "standard", "expert")
PLAYER_KINDS = (HUMAN, *BOT_LEVELS)
# Levels for `crib3 sim` alone, never offered in the game's menus: the old
# expert the new one is measured against (see `crib3.players.expert`).
SIM_ONLY_LEVELS = ("expert-2026-12",)

# Names for the computer players, in the order they are given out.
BOT_NAMES = ("Bea", "Cal", "Dot", "Eli", "Fay", "Gus")


def bot_names(taken: list[str] | tuple[str, ...], count: int) -> list[str]:
    """`count` computer players' names, none the same as a person's here."""
    lowered = {name.strip().lower() for name in taken}
    return [n for n in BOT_NAMES if n.lower() not in lowered][:count]
