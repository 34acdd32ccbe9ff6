"""The telnet edge's pure parts: line splitting, text hygiene, rate limits."""
from __future__ import annotations

from server.net.client import guess_prefs
from server.net.lines import LineSplitter, TooLong
from server.net.throttle import ByteBudget, ConnectionCounter, CreationLimit, LoginThrottle, TokenBucket
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


def test_token_bucket_takes_many_at_once():
    b = TokenBucket(5, now=0.0)
    assert b.take_many(8, 0.0) == 5 and b.take_many(8, 0.0) == 0
    assert not b.full(0.5) and b.take_many(8, 0.5) == 2
    assert b.full(2.0)


def test_login_throttle_grows_the_wait_after_the_free_failures():
    t = LoginThrottle(free=2, max_wait=8)
    t.fail("ip:1", 0.0)
    assert t.blocked_for("ip:1", 0.0) == 0
    t.fail("ip:1", 0.0)
    assert t.blocked_for("ip:1", 0.0) == 1.0            # 2 failures: 1 s
    t.fail("ip:1", 1.0)
    assert t.blocked_for("ip:1", 1.0) == 2.0            # then 2 s
    for at in (3.0, 7.0, 15.0):
        t.fail("ip:1", at)
    assert t.blocked_for("ip:1", 15.0) == 8.0           # capped at max_wait
    assert t.blocked_for("ip:2", 15.0) == 0             # other keys are not touched
    assert t.blocked_for("ip:1", 15.0 + 3600) == 0      # failures are forgotten after an hour
    assert len(t) == 0


def test_creation_limit_per_address_per_hour():
    c = CreationLimit(2)
    c.made("a", 0.0)
    c.made("a", 10.0)
    assert c.blocked_for("a", 20.0) == 3580.0 and c.blocked_for("b", 20.0) == 0
    assert c.blocked_for("a", 3600.5) == 0


def test_byte_budget_pauses_for_the_debt():
    b = ByteBudget(rate=1000, burst=2000, now=0.0)
    assert b.spend(1500, 0.0) == 0
    assert b.spend(1500, 0.0) == 1.0                    # 1000 bytes over: one second
    assert b.spend(0, 1.0) == 0


def test_connection_counter():
    c = ConnectionCounter(2, total=3, anonymous=2)
    assert c.admit("a") and c.admit("a") and not c.admit("a")
    assert not c.admit("b") and "logging in" in c.refusal("b")   # two not logged in yet
    c.logged_in()
    assert c.admit("b") and "full" in c.refusal("c")
    c.release("a", anonymous=False)
    assert c.admit("c") is False     # still two anonymous: a and b
    c.release("b")
    assert c.admit("a") and c.open_from("a") == 2


def test_guesses_from_mtts_and_terminal_types():
    mudlet = guess_prefs({"ttype1": "MUDLET", "ttype2": "ANSI-256COLOR", "ttype3": "MTTS 2317", "cols": 120})
    assert mudlet.color and mudlet.unicode and mudlet.width == 120
    dumb = guess_prefs({"ttype1": "dumb", "cols": 10})
    assert not dumb.color and not dumb.unicode and dumb.width == 40   # clamped
    assert guess_prefs({"ttype1": "dumb", "charset": "UTF-8"}).unicode


def test_an_overlong_line_is_not_kept_while_it_streams_in():
    s = LineSplitter(100)
    for _ in range(1000):                        # 1 MB with no line end
        assert s.feed("z" * 1000) == []
        assert sum(map(len, s._buf)) <= 100      # only its length is kept
    assert s.feed("\r\nok\r\n") == [TooLong(1_000_000), "ok"]


def test_clean_strips_every_invisible_format_character():
    import sys
    import unicodedata
    for code in range(0xA0, sys.maxunicode + 1):
        ch = chr(code)
        category = unicodedata.category(ch)
        if category == "Cf":
            assert clean(f"a{ch}b") == "ab", hex(code)
        elif category in ("Zl", "Zp"):
            assert clean(f"a{ch}b") == "a b", hex(code)
    assert clean("pay\u202eyap\u200b \u2066x\u2069") == "payyap x"
    assert clean("été ١٢ ²") == "été ١٢ ²"           # letters, digits and marks stay


def test_throttles_forget_expired_keys_when_they_grow():
    from server.net import throttle
    t, c = LoginThrottle(free=1, max_wait=1), CreationLimit(1)
    for i in range(throttle.PRUNE_AT):
        t.fail(f"ip:{i}", 0.0)
        c.made(f"ip:{i}", 0.0)
    t.fail("ip:new", 4000.0)
    c.made("ip:new", 4000.0)
    assert len(t) == 1 and len(c._made) == 1
