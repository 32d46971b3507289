"""Cards: parsing every accepted spelling, printing, and clear errors."""

import pytest

from crib3.cards import DECK, card, format_cards, parse_card, parse_cards


def test_deck_has_52_distinct_cards_sorted_by_rank_then_suit():
    assert len(set(DECK)) == 52
    assert list(DECK) == sorted(DECK)
    assert [c.index for c in DECK] == list(range(52))


@pytest.mark.parametrize("text, code", [
    ("10H", "10H"), ("th", "10H"), ("T♥", "10H"), ("10♥", "10H"), ("as", "AS"),
    ("A♠", "AS"), ("qd", "QD"), ("Q♦", "QD"), ("kc", "KC"), ("K♣", "KC"), ("5h", "5H"),
    ("  jd ", "JD"), ("1S", "AS"),
])
def test_parse_card_accepts_every_spelling(text, code):
    assert str(parse_card(text)) == code


def test_parse_cards_splits_on_spaces_and_commas():
    assert [str(c) for c in parse_cards("5H 5C,5S  JD")] == ["5H", "5C", "5S", "JD"]
    assert parse_cards("") == []


@pytest.mark.parametrize("bad", ["ZZ", "11H", "5X", "H", "", "10", "♥5", "0S"])
def test_bad_card_raises_value_error_naming_the_token(bad):
    with pytest.raises(ValueError) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value)


def test_parse_cards_names_the_first_bad_token():
    with pytest.raises(ValueError, match="'XY'"):
        parse_cards("5H XY 7C")


def test_str_round_trips_for_every_card():
    for c in DECK:
        assert parse_card(str(c)) is c
        assert parse_card(c.label()) is c
        assert parse_card(c.label().lower()) is c


def test_labels_and_values():
    ten_hearts = card(10, 1)
    assert ten_hearts.label() == "10♥" and ten_hearts.label(ascii=True) == "10H"
    assert ten_hearts.is_red and not card(1, 0).is_red
    assert [c.value for c in parse_cards("AS 9H 10D JC QS KH")] == [1, 9, 10, 10, 10, 10]
    assert format_cards(parse_cards("AS KH"), ascii=True) == "AS KH"
    assert parse_card("QS").name == "queen of spades"


def test_cards_survive_pickling_as_the_same_object():
    import pickle

    assert pickle.loads(pickle.dumps(DECK[17])) is DECK[17]
