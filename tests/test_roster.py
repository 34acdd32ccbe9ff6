"""The online map keeps its name-ordered roster through every change."""
from __future__ import annotations

from server.world.roster import Memo, Online


class S:
    def __init__(self, name: str) -> None:
        self.name = name


def test_set_replace_pop_and_del_keep_the_roster_in_step():
    online = Online()
    for name in ("cat", "Ann", "bob", "Anna"):
        online[name.lower()] = S(name)
    assert [k for _, k in online.names] == ["ann", "anna", "bob", "cat"]
    online["bob"] = S("bob")                      # a takeover: same key, new session
    online.remove("cat")
    del online["ann"]
    assert online.remove("nobody") is None
    assert online.names == [("anna", "anna"), ("bob", "bob")] and set(online) == {"anna", "bob"}


def test_pages_and_prefixes():
    online = Online()
    for i in range(45):
        online[f"p{i:02d}"] = S(f"P{i:02d}")
    page, total = online.page("", 3, 20)
    assert total == 45 and [s.name for s in page] == ["P40", "P41", "P42", "P43", "P44"]
    page, total = online.page("p1", 1, 20)
    assert total == 10 and page[0].name == "P10"
    assert online.page("p1", 2, 20) == ([], 10)
    assert online.page("zz", 1, 20) == ([], 0)


def test_a_memo_keeps_views_while_their_state_holds():
    memo = Memo()
    memo.keep((1, 1), "page 1", ("a",))
    memo.keep((1, 1), "page 2", ("b",))
    assert memo.get((1, 1), "page 1") == ("a",) and memo.get((1, 1), "page 2") == ("b",)
    assert memo.get((2, 1), "page 1") is None                  # the state moved on
    memo.keep((2, 1), "page 1", ("c",))
    assert memo.get((2, 1), "page 2") is None                  # drawn in the old state: forgotten
    for i in range(Memo.LIMIT + 5):
        memo.keep((2, 1), i, (str(i),))
    assert memo.get((2, 1), Memo.LIMIT + 4) == (str(Memo.LIMIT + 4),)
    assert memo.get((2, 1), 0) is None                         # bounded: kept at most LIMIT


def test_the_roster_counts_its_changes():
    online = Online()
    online["ann"] = S("Ann")
    v = online.version
    online["bob"] = S("Bob")
    assert online.version > v
    v = online.version
    del online["ann"]
    assert online.version > v
