"""Every typed form the brief lists, the reasons for the ones that are not bets,
and amounts (whole chips, cents returned, junk and odd Unicode refused)."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.games.roulette import layout as L
from server.games.roulette.bets import Bet, check, parse, parse_noted, parse_target, stake_problem
from server.games.roulette.kinds import Kind

ACCEPTED = [
    ("bet straight 17 10", Kind.STRAIGHT, {17}, 10),
    ("bet split 17 20 5", Kind.SPLIT, {17, 20}, 5),
    ("bet split 17 18 5", Kind.SPLIT, {17, 18}, 5),
    ("bet street 13 5", Kind.STREET, {13, 14, 15}, 5),
    ("bet street 15 5", Kind.STREET, {13, 14, 15}, 5),
    ("bet street 13 14 15 5", Kind.STREET, {13, 14, 15}, 5),
    ("bet corner 17 21 5", Kind.CORNER, {17, 18, 20, 21}, 5),
    ("bet corner 21 17 5", Kind.CORNER, {17, 18, 20, 21}, 5),
    ("bet corner 18 20 5", Kind.CORNER, {17, 18, 20, 21}, 5),
    ("bet corner 17 18 20 21 5", Kind.CORNER, {17, 18, 20, 21}, 5),
    ("bet sixline 13 5", Kind.SIXLINE, set(range(13, 19)), 5),
    ("bet sixline 14 5", Kind.SIXLINE, set(range(13, 19)), 5),
    ("bet split 0 1 5", Kind.SPLIT, {0, 1}, 5),
    ("bet split 3 0 5", Kind.SPLIT, {0, 3}, 5),
    ("bet trio 0 1 2 5", Kind.TRIO, {0, 1, 2}, 5),
    ("bet trio 0 2 3 5", Kind.TRIO, {0, 2, 3}, 5),
    ("bet firstfour 5", Kind.FIRSTFOUR, {0, 1, 2, 3}, 5),
    ("bet red 10", Kind.RED, L.RED, 10),
    ("bet black 10", Kind.BLACK, L.BLACK, 10),
    ("bet odd 10", Kind.ODD, L.ODD, 10),
    ("bet even 10", Kind.EVEN, L.EVEN, 10),
    ("bet low 10", Kind.LOW, set(range(1, 19)), 10),
    ("bet high 10", Kind.HIGH, set(range(19, 37)), 10),
    ("bet dozen 2 10", Kind.DOZEN, set(range(13, 25)), 10),
    ("bet column 3 10", Kind.COLUMN, set(range(3, 37, 3)), 10),
    ("RED 10", Kind.RED, L.RED, 10),                       # case and the leading `bet` do not matter
    ("17 10", Kind.STRAIGHT, {17}, 10),                    # a bare number is a straight bet
    ("first4 $10", Kind.FIRSTFOUR, {0, 1, 2, 3}, 10),
]


@pytest.mark.parametrize("typed,kind,numbers,amount", ACCEPTED)
def test_accepted_forms(typed, kind, numbers, amount):
    assert parse(typed) == Bet(kind, frozenset(numbers), amount)
    assert parse(typed.split()) == parse(typed)


REFUSED = [
    ("split 17 22 5", "17 and 22 are not next to each other on the layout; a split is two numbers "
                      "side by side, e.g. split 17 20 or split 17 18"),
    ("split 3 4 5", "3 and 4 are not next to each other on the layout; a split is two numbers "
                    "side by side, e.g. split 3 6 or split 0 3"),
    ("split 0 4 5", "0 and 4 are not next to each other on the layout; a split is two numbers "
                    "side by side, e.g. split 0 3 or split 0 1"),
    ("split 17 17 5", "a split is two different numbers side by side, e.g. split 17 20"),
    ("split 17 5", "split takes 2 numbers: bet split 17 20 5"),
    ("corner 17 18 5", "17 and 18 are not opposite corners of a square; name a corner by two diagonal "
                       "numbers, e.g. corner 17 21, or by its four, e.g. corner 17 18 20 21"),
    ("corner 17 22 5", "17 and 22 are not opposite corners of a square; name a corner by two diagonal "
                       "numbers, e.g. corner 17 21, or by its four, e.g. corner 17 18 20 21"),
    ("corner 3 4 6 7 5", "3 4 6 7 do not meet at one corner; a corner is four numbers in a square, "
                         "e.g. corner 17 18 20 21 (or corner 17 21)"),
    ("street 0 5", "0 is in no street; with 0 bet trio 0 1 2, trio 0 2 3 or firstfour"),
    ("street 13 14 16 5", "13 14 16 are not one row; a street is a row of three, e.g. street 13 (13 14 15)"),
    ("sixline 34 5", "34 is on the last row; a six line names its first row, so bet sixline 31 for 31 to 36"),
    ("trio 1 2 3 5", "1 2 3 is not a trio; the trios are 0 1 2 and 0 2 3 (a row of three is a street, e.g. street 1)"),
    ("straight 37 5", "37 is not on the layout: the numbers are 0 to 36"),
    ("dozen 4 10", "dozen is 1, 2 or 3 (1-12, 13-24, 25-36), e.g. dozen 2"),
    ("column 0 10", "column is 1, 2 or 3 (1: 1 4 ... 34, 2: 2 5 ... 35, 3: 3 6 ... 36), e.g. column 2"),
    ("red 5 10", "red takes no numbers: bet red 10"),
    ("red", "red needs an amount: bet red 10"),
    ("roulette 10", None), ("", None),
]


@pytest.mark.parametrize("typed,reason", REFUSED)
def test_refused_forms_say_why(typed, reason):
    got = parse(typed)
    assert isinstance(got, str) and "\n" not in got
    if reason:
        assert got == reason


@pytest.mark.parametrize("typed,reason", [
    ("red 0", "a wager cannot be zero"),
    ("red -5", "a wager cannot be negative"),
    ("red 0.50", "0.50 is less than a chip: wagers are whole chips"),
    ("red 10.555", "'10.555': chips have no smaller part than cents; type whole chips, like 10"),
    ("red ten", "'ten' is not an amount: type whole chips, like 10"),
    ("red 1e3", "'1e3' is not an amount: type whole chips, like 10"),
    ("red 10,000", "'10,000' is not an amount: type whole chips, like 10"),
    ("red ¹⁰", "'¹⁰' is not an amount: type whole chips, like 10"),
    ("red ١٠", "'١٠' is not an amount: type whole chips, like 10"),
    ("red １０", "'１０' is not an amount: type whole chips, like 10"),
    ("straight ¹⁷ 10", "'¹⁷' is not a number here: type the digits 0-9"),
    ("straight ١٧ 10", "'١٧' is not a number here: type the digits 0-9"),
    ("straight ༡༧ 10", "'༡༧' is not a number here: type the digits 0-9"),
    ("dozen Ⅱ 10", "'Ⅱ' is not a number here: type the digits 0-9"),
    ("straight 17 " + "9" * 5000, "999999999999... is more chips than any table takes"),
    ("straight " + "1" * 5000 + " 5", "11111111111111111111... is not on the layout: the numbers are 0 to 36"),
    ("red \x1b[31m10", "'?[31m10' is not an amount: type whole chips, like 10"),
])
def test_amount_and_number_reasons(typed, reason):
    assert parse(typed) == reason


def test_cents_are_returned_with_a_note():
    """docs/play-roulette.md: an amount typed with cents is cut to whole chips and the player is told."""
    assert parse_noted("red 10.50") == (parse("red 10"), "0.50 returned, your wager is 10")
    assert parse_noted("red 10.5") == (parse("red 10"), "0.50 returned, your wager is 10")
    assert parse_noted("red 10.00") == (parse("red 10"), None)
    assert parse_noted("red 10.07") == (parse("red 10"), "0.07 returned, your wager is 10")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(max_size=8), max_size=6))
def test_any_text_gives_a_bet_or_a_reason(words):
    for got in (parse(words), parse(" ".join(words)), parse_target(words)):
        assert isinstance(got, (Bet, str, tuple))
        if isinstance(got, str):
            assert got and "\n" not in got


def test_limits():
    assert stake_problem(5, 5, 100) is None and stake_problem(100, 5, 100) is None
    assert stake_problem(4, 5, 100) == "the table minimum is 5 a wager"
    assert stake_problem(101, 5, 100) == "the table maximum is 100 a wager"


def test_check_a_bet_built_by_hand():
    assert check(parse("split 17 20 5")) is None
    assert check(Bet(Kind.SPLIT, frozenset({17, 22}), 5)) == "split does not cover 17 22"
    assert check(Bet(Kind.RED, L.RED, 0)) == "a wager must be at least 1 chip"
    assert check(Bet(Kind.RED, L.RED, 2.5)) == "a wager is whole chips"
    assert check(Bet(Kind.RED, L.RED, True)) == "a wager is whole chips"
    assert check("red 10") == "not a roulette bet"


def test_targets_for_unbet():
    assert parse_target("split 20 17") == (Kind.SPLIT, frozenset({17, 20}))
    assert parse_target("corner 18 20") == (Kind.CORNER, frozenset({17, 18, 20, 21}))
    assert parse_target("red") == (Kind.RED, None)
    assert parse_target("split") == (Kind.SPLIT, None)
    assert parse_target("split 17 22").startswith("17 and 22 are not next")
