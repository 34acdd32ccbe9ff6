"""server.render.width: every line fits, words and glued groups stay whole."""
from __future__ import annotations

import pytest

from server.render.width import NBSP, boxed, display_width, fit, glue, wrap


def test_display_width_ignores_colour_and_counts_wide_characters():
    assert display_width("\x1b[1;93mabc\x1b[0m") == 3
    assert display_width("┌──┐") == 4
    assert display_width("日本") == 4
    assert display_width("e\u0301") == 1


def test_a_line_that_fits_is_untouched():
    assert fit("  hello there", 13) == ["  hello there"]


@pytest.mark.parametrize("width", [40, 60, 80])
def test_glued_groups_are_never_split_and_lines_fit(width):
    groups = [glue(f"{i})", f"come{n}", str(10 * i)) for i, n in enumerate((4, 5, 6, 8, 9, 10) * 3, 1)]
    lines = fit("Your bets: " + "  ".join(groups), width)
    assert all(display_width(x) <= width for x in lines)
    assert NBSP not in "".join(lines)
    text = " ".join(lines)
    for g in groups:
        assert g.replace(NBSP, " ") in text


def test_continuation_lines_hang_under_the_indent():
    lines = fit("  Commands: bet roll unbet leave stop sitout autoroll", 20)
    assert lines[0].startswith("  Commands:")
    assert all(x.startswith("    ") for x in lines[1:])


def test_a_word_wider_than_the_screen_is_never_split():
    lines = fit("see " + "x" * 50, 20)
    assert lines == ["see", "x" * 50]          # whole, on a line of its own: the only line wider


def test_colour_codes_are_not_counted_or_cut():
    line = " ".join("\x1b[32mgreen\x1b[0m" for _ in range(10))
    lines = fit(line, 20)
    assert all(display_width(x) <= 20 for x in lines)
    assert all(x.count("\x1b[32m") == x.count("\x1b[0m") for x in lines)


def test_wrap_keeps_paragraphs_and_is_flush():
    lines = wrap("one two three four five six\n\nseven eight", 12)
    assert lines == ["one two", "three four", "five six", "", "seven eight"]


@pytest.mark.parametrize("unicode", [True, False])
def test_boxed_rows_are_exactly_the_width(unicode):
    rows = ["short", None, "a row long enough to wrap inside the box at forty columns wide"]
    lines = boxed("title", rows, 40, unicode)
    assert {display_width(x) for x in lines} == {40}
    assert "wrap inside" in "".join(lines) or "wrap" in "".join(lines)


def test_a_quoted_command_stays_whole_but_an_apostrophe_is_just_a_letter():
    line = "Welcome: bets from 1 to 10000. 'table' shows the layout, 'help craps' the bets."
    for width in range(40, 80):
        text = "\n".join(fit(line, width))
        assert "'help craps'" in text, width
    lines = fit("you don't pass the dice and don't ride the bet at all today", 20)
    assert all(display_width(x) <= 20 for x in lines)


def test_seconds_stay_with_their_number():
    for width in range(20, 40):
        assert "60 s" in "\n".join(fit("Your turn: 'roll' or 'hold'. After 60 s without a move you hold.", width))


def test_reflow_joins_a_hanging_continuation_but_not_items_under_a_heading():
    from server.render.width import reflow
    lines = ["Pass line: a come-out 7 wins; any other total is the point,",
             "  which must come again before a 7.",
             "At any table:",
             "  play <game> - sit down.",
             "  leave - get up."]
    assert reflow(lines) == ["Pass line: a come-out 7 wins; any other total is the point, which must come again before a 7.",
                             "At any table:", "  play <game> - sit down.", "  leave - get up."]


@pytest.mark.parametrize("width", range(20, 60))
def test_a_label_never_parts_from_its_number(width):
    line = "Settlement, spin 12: lost 23 (straight 0 -5, red -5, odd -5, straight 17 -3); net -23. 3) odd 5  12) red 5"
    text = "\n".join(fit(line, width))
    for group in ("spin 12:", "lost 23", "straight 0 -5", "red -5", "straight 17 -3);", "net -23.", "3) odd 5", "12) red 5"):
        assert group in text, (width, text)


def test_a_word_wider_than_the_screen_takes_a_line_of_its_own_whole_without_indent():
    """Issue 38 item 15 (after issue 28 item 7): a 64-digit seed at 40 columns
    is neither cut nor indented, so a copied seed is one unbroken token."""
    seed = "0123456789abcdef" * 4
    assert fit("  " + seed, 40) == [seed]
    assert fit("    commitment " + seed + " nonce 3", 40) == ["    commitment", seed, "      nonce 3"]
    assert fit("  " + seed, 80) == ["  " + seed]                  # where it fits, as it was
