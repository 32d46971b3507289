"""Textual's style conversions, kept in a card room (`textual_compat`):
every segment drawn converts a style, so each conversion is made once and
the same immutable style is handed back after, equal to a fresh one."""

from __future__ import annotations

from rich.style import Style as RichStyle
from textual.color import Color
from textual.style import Style

from crib3.tui.textual_compat import have, many_terminals_in_one_process


def test_a_style_with_its_place_is_made_once_and_is_what_textual_makes():
    many_terminals_in_one_process()
    assert have("style-conversions")
    red = Style(foreground=Color.parse("red"), bold=True)
    made = red.rich_style_with_offset(3, 4)
    assert Style(foreground=Color.parse("red"), bold=True).rich_style_with_offset(3, 4) is made
    assert made.meta == {"offset": (3, 4)} and made.bold and made.color is not None
    elsewhere = red.rich_style_with_offset(4, 3)
    assert elsewhere is not made and elsewhere.meta == {"offset": (4, 3)}
    assert Style(foreground=Color.parse("blue")).rich_style_with_offset(3, 4) != made


def test_a_rich_style_is_converted_once_and_as_textual_converts_it():
    many_terminals_in_one_process()
    converted = Style.from_rich_style(RichStyle(color="#ff0000", bgcolor="black", italic=True))
    assert Style.from_rich_style(RichStyle(color="#ff0000", bgcolor="black", italic=True)) \
        is converted
    assert converted.foreground == Color(255, 0, 0) and converted.italic
    assert Style.from_rich_style(RichStyle(color="red")) != converted
    linked = Style.from_rich_style(RichStyle(link="https://example.org"))
    assert linked.link == "https://example.org"
