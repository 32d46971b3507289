"""Who can sit in a seat. A leaf module (imports nothing), so the first
screen can list the levels without loading the engine."""

HUMAN = "human"
BOT_LEVELS = ("easy", "standard", "expert")
PLAYER_KINDS = (HUMAN, *BOT_LEVELS)
