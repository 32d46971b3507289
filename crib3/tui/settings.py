"""The new-game choices, remembered between games in a small JSON file."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING

from crib3.common.levels import BOT_LEVELS
from crib3.common.names import check_name
from crib3.common.pace import SHOW_PACE
from crib3.common.paths import config_dir

if TYPE_CHECKING:
    from crib3.engine import Rules

SETTINGS_FILE = "settings.json"
MAX_THINK = 60.0  # a pace from the file beyond this is taken for a mistake
MAX_CONTINUE = 60.0  # ... and so is a wait after a count beyond this
# The muggins rules by name (`crib3.engine.events.MUGGINS_RULES`, which a
# test holds equal), here so that the first screen need not load the engine.
MUGGINS_RULE_NAMES = ("friendly", "strict")
AUTO_CONTINUE = SHOW_PACE  # seconds after a count in the show, unless chosen otherwise


@dataclass(frozen=True)
class AutoMoves:
    """What the table does for you that needs no decision of yours: the go
    when no card can be played (`go`), your only playable card played
    (`forced_card`), and a count in the show followed by the next after
    `continue_after` seconds (None: it waits for Enter, which always goes
    on at once). The defaults are what most players want: a go and a
    forced card are no choice at all, and a count is said phrase by phrase
    before its pause, while the whole show waits for Enter at a glance
    after its last count, so nothing goes by unseen."""

    go: bool = True
    forced_card: bool = True
    continue_after: float | None = AUTO_CONTINUE


@dataclass
class GameChoices:
    """What the new-game screen asks, with sensible first-time answers."""

    name: str = "You"
    left: str = "standard"  # the opponent on your left (seat 1)
    right: str = "standard"  # the opponent after them (seat 2)
    skunks: bool = False
    muggins: bool = False
    muggins_rule: str = MUGGINS_RULE_NAMES[0]  # what an over-claim costs, with muggins on
    pegging_claims: bool = False  # with muggins on: you claim your pegging too
    short: bool = False
    seed: int | None = None
    think: float = 0.6  # seconds a computer player takes over a move (`--think`)
    auto_go: bool = AutoMoves.go
    auto_play: bool = AutoMoves.forced_card  # your only playable card
    auto_continue: float = AUTO_CONTINUE  # seconds after a count in the show; 0: wait for Enter
    theme: str = ""  # the theme last chosen (Ctrl+P), "" for Textual's own default

    def rules(self) -> Rules:
        from crib3.engine import Rules

        return Rules(target=61 if self.short else 121, skunks=self.skunks,
                     muggins=self.muggins, muggins_rule=self.muggins_rule,
                     pegging_claims=self.muggins and self.pegging_claims)

    def levels(self) -> tuple[str, str]:
        return (self.left, self.right)

    def auto_moves(self) -> AutoMoves:
        return AutoMoves(go=self.auto_go, forced_card=self.auto_play,
                         continue_after=self.auto_continue or None)


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILE


def load_choices() -> GameChoices:
    """The last choices, or the defaults when there are none (or the file is
    unreadable: a bad settings file must never stop a game)."""
    try:
        data = json.loads(settings_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return GameChoices()
    choices = GameChoices()
    if not isinstance(data, dict):
        return choices
    for f in fields(GameChoices):
        value = data.get(f.name)
        default = getattr(choices, f.name)
        if f.name == "seed":
            if value is None or type(value) is int:
                choices.seed = value
        elif f.name == "think":  # any number of seconds `--think` would take
            if (type(value) is int or type(value) is float) and 0 <= value <= MAX_THINK:
                choices.think = float(value)
        elif f.name == "auto_continue":  # seconds, or 0 for Enter
            if (type(value) is int or type(value) is float) and 0 <= value <= MAX_CONTINUE:
                choices.auto_continue = float(value)
        elif type(value) is type(default):
            setattr(choices, f.name, value)
    if choices.left not in BOT_LEVELS:
        choices.left = "standard"
    if choices.right not in BOT_LEVELS:
        choices.right = "standard"
    if choices.muggins_rule not in MUGGINS_RULE_NAMES:
        choices.muggins_rule = GameChoices.muggins_rule
    try:  # a name the new-game screen would refuse is not taken from a file either
        choices.name = check_name(choices.name)
    except ValueError:
        choices.name = GameChoices.name
    return choices


def save_choices(choices: GameChoices) -> None:
    """Remember the choices; a read-only home only loses the memory."""
    path = settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(asdict(choices), indent=2) + "\n", encoding="utf-8")
    except OSError:
        pass
