"""Ratings for three-handed cribbage: a game's finishing order moves each
player's skill, by openskill's Weng-Lin PlackettLuce model (made for
free-for-all games of more than two players).

Everything here is a pure function: a rating is a fold of results, in
order, as a game is a fold of its events (`fold`), so the same results in
the same order always give the same numbers, and `crib3 ratings rebuild`
can recompute every rating from the results log alone.

A skill is a belief: a mean (`mu`) and how unsure it is (`sigma`). It is
shown on a familiar scale, around 1500, with a deviation on the scale of
Glicko's (a newcomer's is 350), and marked provisional ("?", as lichess
marks it) while that deviation is wide.

The computer players have fixed ratings in the same pool (`BOT_SKILLS`):
a game against them moves the people's ratings as a game against people
of that strength would, and never theirs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

# openskill's own defaults, written down: a stored rating means these.
MU, SIGMA = 25.0, 25.0 / 3.0
CENTRE = 1500.0  # the shown rating of `MU`
SCALE = 350.0 / SIGMA  # shown points a unit of mu: a newcomer's deviation is 350, as Glicko's
# Wider than this (in shown points): "?". Lichess's is 110 in Glicko's
# points; cribbage is luckier than chess, and openskill's deviation narrows
# more slowly: 230 is about 20 games among people, 10 against the computer.
PROVISIONAL_DEVIATION = 230
# The same line in openskill's units, for a store's queries: a sigma above
# it is shown "?" (as `Skill.provisional` says it, rounding and all).
PROVISIONAL_SIGMA = (PROVISIONAL_DEVIATION + 0.5) / SCALE
BOT_PREFIX = "computer "  # a computer level's identity: "computer standard"

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True, slots=True)
class Skill:
    """One identity's rating: openskill's belief, and how many rated games made it."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> int:
        """The rating on the familiar scale (about 1500 for a newcomer)."""
        return round(CENTRE + (self.mu - MU) * SCALE)

    @property
    def deviation(self) -> int:
        """How unsure the rating is, in shown points (350 for a newcomer)."""
        return round(self.sigma * SCALE)

    @property
    def provisional(self) -> bool:
        """Too few games to trust yet: the rating is shown with a "?"."""
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def label(self) -> str:
        """As a list shows it: "1512?" while provisional, else "1512"."""
        return f"{self.shown}{'?' * self.provisional}"


NEWCOMER = Skill()


def bot_identity(level: str) -> str:
    """The identity a computer level is rated under."""
    return BOT_PREFIX + level


BOT_DEVIATION = 60.0  # the computer levels' fixed ratings are known about this well


def from_win_share(share: float, against: Skill) -> Skill:
    """The skill of a player who wins `share` of its games against two
    players of skill `against`: PlackettLuce's chance of a win is
    e^(mu/c) / sum e^(mu/c) over the three (c: their spread, openskill's
    `beta` and `sigma` together), so share = e^d / (e^d + 2), d the
    difference of mu over c."""
    if not 0 < share < 1:
        raise ValueError(f"a win share is between 0 and 1, not {share}")
    sigma = BOT_DEVIATION / SCALE
    c = math.sqrt(3 * (sigma**2 + _MODEL.beta**2))
    difference = math.log(2 * share / (1 - share)) * c
    return Skill(against.mu + difference, sigma)


# The computer levels' fixed ratings: the standard player is the scale's
# centre; the others from the share of games each wins against two of the
# level below or above it in `crib3 sim` (seats rotating; the runs and their
# intervals are in assets/measurements/ratings.md). Fixed: a game never
# moves them.
STANDARD = Skill(MU, BOT_DEVIATION / SCALE)
EXPERT_SHARE = 0.459  # the expert's wins against two standard players
STANDARD_OVER_EASY = 0.875  # the standard player's wins against two easy ones


def calibrated(expert_share: float, standard_over_easy: float) -> dict[str, Skill]:
    """The computer levels' ratings from two win shares: the expert's
    against two standard players, and the standard player's against two
    easy ones (`crib3 ratings calibrate` measures them anew)."""
    return {
        bot_identity("easy"): Skill(2 * MU - from_win_share(standard_over_easy, STANDARD).mu,
                                    STANDARD.sigma),
        bot_identity("standard"): STANDARD,
        bot_identity("expert"): from_win_share(expert_share, STANDARD),
    }


BOT_SKILLS: dict[str, Skill] = calibrated(EXPERT_SHARE, STANDARD_OVER_EASY)


@dataclass(frozen=True, slots=True)
class Placing:
    """One seat of a finished game, as a result records it."""

    identity: str  # whose rating it moves (see `crib3.room.identities`)
    name: str  # as they were called at the table (shown in lists, never trusted)
    score: int
    left: bool = False  # their person left and the computer finished the game
    best: int = 0  # their best hand's count in the game (their profile's "best hand")


def places(placings: Sequence[Placing]) -> list[int]:
    """Each seat's place, 1 the best: by final score, equal scores sharing
    a place; a seat whose person left is last, whatever the computer
    scored for it (shared with any other seat that was left)."""
    def key(p: Placing) -> tuple[bool, int]:
        return (True, 0) if p.left else (False, -p.score)

    return [1 + sum(1 for other in placings if key(other) < key(p)) for p in placings]


def rate(skills: Mapping[str, Skill], placings: Sequence[Placing],
         fixed: Mapping[str, Skill] = BOT_SKILLS) -> dict[str, Skill]:
    """The new skills of a game's players (those in `fixed` excepted: they
    never move), from their skills before (`skills`, a newcomer's when
    absent) and the game's placings. Fewer than two players: nothing moves."""
    if len(placings) < 2:
        return {}
    before = [fixed.get(p.identity) or skills.get(p.identity, NEWCOMER) for p in placings]
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    after = _MODEL.rate(teams, ranks=[float(place) for place in places(placings)])
    moved: dict[str, Skill] = {}
    for placing, old, [new] in zip(placings, before, after):
        if placing.identity not in fixed:
            moved[placing.identity] = Skill(new.mu, new.sigma, old.games + 1)
    return moved


def fold(games: Iterable[Sequence[Placing]],
         fixed: Mapping[str, Skill] = BOT_SKILLS) -> dict[str, Skill]:
    """Every identity's skill after `games`, in order (the computer levels'
    fixed ones left out)."""
    skills: dict[str, Skill] = {}
    for placings in games:
        skills.update(rate(skills, placings, fixed))
    return skills


def skill_of(identity: str, skills: Mapping[str, Skill],
             fixed: Mapping[str, Skill] = BOT_SKILLS) -> Skill:
    """`identity`'s skill: fixed for a computer level, a newcomer's when unrated."""
    return fixed.get(identity) or skills.get(identity, NEWCOMER)


__all__ = ["BOT_SKILLS", "NEWCOMER", "Placing", "Skill", "bot_identity", "fold", "places",
           "rate", "skill_of"]
