"""The telnet edge's pure parts: line splitting, text hygiene, rate limits."""
from __future__ import annotations

from server.net.client import guess_prefs
from server.net.lines import LineSplitter, TooLong
from server.net.throttle import ConnectionCounter, FailureThrottle, TokenBucket
from server.render.text import clean


def test_line_ends_of_every_kind():
    s = LineSplitter(100)
    assert s.feed("a\r\nb\nc\r\x00d\re") == ["a", "b", "c", "d"]
    assert s.feed("\n") == ["e"]                 # LF ends the pending "e"


def test_cr_and_lf_in_different_segments_make_one_line():
    s = LineSplitter(100)
    assert s.feed("look\r") == ["look"]
    assert s.feed("\nsay hi\r") == ["say hi"]    # no empty line from the late LF
    assert s.feed("\x00who\r\n") == ["who"]      # nor from a late NUL


def test_an_empty_line_is_still_a_line():
    assert LineSplitter(10).feed("\r\n\r\n") == ["", ""]


def test_overlong_line_is_dropped_whole_and_reported_once():
    s = LineSplitter(10)
    assert s.feed("x" * 8) == []
    assert s.feed("y" * 50) == []                # over the cap: the buffer is dropped
    out = s.feed("zz\r\nok\r\n")
    assert isinstance(out[0], TooLong) and out[0].length == 60 and out[1:] == ["ok"]


def test_clean_strips_escapes_and_controls():
    assert clean("\x1b[31mred\x1b[0m") == "red"
    assert clean("a\x1b]0;title\x07b") == "ab"
    assert clean("tab\there\x00\x08\x7f\x9b") == "tab here"
    assert clean("café ✓") == "café ✓"


def test_token_bucket_allows_a_burst_then_the_rate():
    b = TokenBucket(3, now=0.0)
    assert [b.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert b.take(0.34) and not b.take(0.34)


def test_failure_throttle_blocks_after_the_limit_for_the_window():
    t = FailureThrottle(limit=2, window=60)
    t.fail("ip:1", 0.0)
    assert t.blocked_for("ip:1", 1.0) == 0
    t.fail("ip:1", 1.0)
    assert t.blocked_for("ip:1", 2.0) == 58.0
    assert t.blocked_for("ip:1", 60.5) == 0     # the first failure aged out
    assert t.blocked_for("ip:2", 2.0) == 0


def test_connection_counter():
    c = ConnectionCounter(2)
    assert c.admit("a") and c.admit("a") and not c.admit("a") and c.admit("b")
    c.release("a")
    assert c.admit("a")


def test_guesses_from_mtts_and_terminal_types():
    mudlet = guess_prefs({"ttype1": "MUDLET", "ttype2": "ANSI-256COLOR", "ttype3": "MTTS 2317", "cols": 120})
    assert mudlet.color and mudlet.unicode and mudlet.width == 120
    dumb = guess_prefs({"ttype1": "dumb", "cols": 10})
    assert not dumb.color and not dumb.unicode and dumb.width == 40   # clamped
    assert guess_prefs({"ttype1": "dumb", "charset": "UTF-8"}).unicode
