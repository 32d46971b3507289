"""Playing cards: the 52 cards of a standard deck, parsing and display.

There are exactly 52 `Card` objects, made once at import and shared: code may
compare cards with `is`, use them as dict keys, and sort them (by rank, then
suit). That keeps the engine's hot paths free of allocation and lets the
scorer carry per-card constants (`value`, `rank_bit`) as plain attributes.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)
JACK = 11

_RANK_ALIASES = {name: i + 1 for i, name in enumerate(RANKS)}
_RANK_ALIASES["T"] = 10
_RANK_ALIASES["1"] = 1  # some logs and people write the ace as 1
_SUIT_ALIASES = {letter: i for i, letter in enumerate(SUITS)}
_SUIT_ALIASES.update({sym: i for i, sym in enumerate(SUIT_SYMBOLS)})
_SUIT_ALIASES.update({sym: i for i, sym in enumerate("♤♡♢♧")})


class Card:
    """One playing card. Never construct one: use `card(rank, suit)`,
    `parse_card(text)`, or the tuple `DECK`."""

    __slots__ = ("index", "rank", "suit", "value", "rank_bit", "code")

    index: int  # 0..51, rank-major: (rank - 1) * 4 + suit
    rank: int  # 1 (ace) .. 13 (king)
    suit: int  # 0..3 for S H D C
    value: int  # counting value: ace 1, face cards 10
    rank_bit: int  # 1 << 3 * (rank - 1): summed, a key for a multiset of ranks
    code: str  # "10H", as written in logs and on the command line

    def __init__(self, rank: int, suit: int) -> None:
        self.rank = rank
        self.suit = suit
        self.index = (rank - 1) * 4 + suit
        self.value = min(rank, 10)
        self.rank_bit = 1 << (3 * (rank - 1))
        self.code = RANKS[rank - 1] + SUITS[suit]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and other.index == self.index)

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # Unpickling (multiprocessing in `crib3 sim`) must give back the shared card.
        return (card_at, (self.index,))

    def label(self, ascii: bool = False) -> str:
        """The card for a screen: "10♥", or "10H" when `ascii`."""
        return self.code if ascii else RANKS[self.rank - 1] + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """The card in words: "ten of hearts"."""
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[self.suit]}"

    @property
    def is_red(self) -> bool:
        return self.suit in (1, 2)


DECK: tuple[Card, ...] = tuple(Card(r, s) for r in range(1, 14) for s in range(4))
CARDS_BY_CODE: dict[str, Card] = {c.code: c for c in DECK}


def card_at(index: int) -> Card:
    """The card with this index (0..51)."""
    return DECK[index]


def card(rank: int, suit: int) -> Card:
    """The card of this rank (1..13) and suit (0..3 for S H D C)."""
    if not (1 <= rank <= 13 and 0 <= suit <= 3):
        raise ValueError(f"no card has rank {rank} and suit {suit}")
    return DECK[(rank - 1) * 4 + suit]


def parse_card(text: str) -> Card:
    """One card from text such as "10H", "th", "A♠", "q♦".

    Raises ValueError naming the token when it is not a card.
    """
    token = text.strip()
    found = CARDS_BY_CODE.get(token)
    if found is not None:
        return found
    upper = token.upper()
    if len(upper) >= 2:
        rank = _RANK_ALIASES.get(upper[:-1])
        suit = _SUIT_ALIASES.get(upper[-1])
        if rank is not None and suit is not None:
            return DECK[(rank - 1) * 4 + suit]
    raise ValueError(
        f"not a card: {text!r} (write a rank A 2-10 T J Q K and a suit S H D C"
        " or ♠ ♥ ♦ ♣, like 10H)"
    )


def parse_cards(text: str) -> list[Card]:
    """The cards in a string like "5H 5C 5S JD" (spaces or commas between).

    Raises ValueError naming the first bad token.
    """
    return [parse_card(token) for token in text.replace(",", " ").split()]


def format_cards(cards: Iterable[Card], ascii: bool = False) -> str:
    """Cards for a person, separated by spaces."""
    return " ".join(c.label(ascii) for c in cards)
