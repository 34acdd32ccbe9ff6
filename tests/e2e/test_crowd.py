"""Crowded rooms stay cheap (issue 16): `look` names a few and counts the
rest, `who` pages and filters, and arrivals are not announced to thousands.
A real telnet player looks around a lobby that 5,000 stand-in players share
(placed straight into the world: logging in 5,000 clients is the bench's job,
bench/bench_crowd.py)."""
from __future__ import annotations

import math
import re

from support.telnet import login

from server.render.prefs import Prefs
from server.world.rooms import CROWD


class Stand:
    """Someone in the room who only listens."""

    def __init__(self, name: str) -> None:
        self.name, self.key, self.room, self.prefs = name, name.lower(), None, Prefs()
        self.closed, self.heard = False, []
        self.gmcp = None

    def tell(self, *lines: str) -> None:
        self.heard.extend(lines)

    def hear(self, line: str) -> None:
        self.heard.append(line)


def crowd(app, n: int, room: str = "lobby", first: int = 0) -> list[Stand]:
    people = [Stand(f"Guest{i:05d}") for i in range(first, first + n)]
    for p in people:
        app.online[p.key] = p
        app.world.place(p, room)
    return people


async def test_look_names_five_and_counts_the_rest_whatever_the_crowd(casino, connect):
    ann = await connect()
    await login(ann, "ann")
    few = crowd(casino, 3)
    small = await ann.cmd("look")
    assert "Here: Guest00000, Guest00001 and Guest00002." in small
    crowd(casino, 4997, first=3)                    # 5,000 others now
    big = await ann.cmd("look")
    assert "Here: Guest00000, Guest00001, Guest00002, Guest00003, Guest00004 and 4,995 others." in big
    assert abs(len(big) - len(small)) < 80          # the reply does not grow with the room
    assert few[0].heard == []                       # looking tells nobody anything


async def test_who_pages_and_filters_in_name_order(casino, connect):
    ann = await connect()
    await login(ann, "ann")
    alone = await ann.cmd("who 2")
    assert "1 person in the casino:" in alone and "There is only 1 page." in alone
    crowd(casino, 5000)
    first = await ann.cmd("who")
    assert "5,001 people in the casino (page 1 of 251; 'who 2' for more):" in first
    assert first.index("ann") < first.index("Guest00000")            # name order, any case
    assert len(re.findall(r"^  \S", first, re.M)) == 20
    second = await ann.cmd("who 2")
    assert "Guest00019" in second and "Guest00018" not in second and "page 2 of 251" in second
    some = await ann.cmd("who guest0490")
    assert "10 people whose name starts with 'guest0490':" in some
    assert "Guest04909" in some and "Guest04910" not in some
    beyond = await ann.cmd("who 300")
    assert "5,001 people in the casino (251 pages):" in beyond and "There are only 251 pages." in beyond
    assert "Usage: who" in await ann.cmd("who a b c")


async def test_who_is_drawn_again_when_someone_comes_goes_or_moves(casino, connect):
    # A page is kept while nothing under it changes (server.world.roster.Memo):
    # every change that shows on it must draw it again.
    ann = await connect()
    await login(ann, "ann")
    people = crowd(casino, 40)
    assert "41 people in the casino" in await ann.cmd("who")
    assert "Guest00000  The Lobby" in await ann.cmd("who guest0000")
    casino.world.place(people[0], "6185")                      # moves
    assert "Guest00000  Bank Craps" in await ann.cmd("who guest0000")
    del casino.online[people[1].key]                           # goes
    assert "Guest00001" not in await ann.cmd("who guest0000")
    assert "40 people in the casino" in await ann.cmd("who")
    crowd(casino, 1, first=40)                                 # comes
    assert "41 people in the casino" in await ann.cmd("who")


async def test_arrivals_and_departures_are_news_only_in_a_room_that_is_not_crowded(casino, connect):
    ann = await connect()
    await login(ann, "ann")
    listeners = crowd(casino, CROWD - 2)              # with ann: still not crowded
    bob = await connect()
    await login(bob, "bob")
    assert "bob arrives." in listeners[0].heard
    assert "bob arrives." in await ann.read_until_prompt()
    more = crowd(casino, 100, first=CROWD)
    cat = await connect()
    await login(cat, "cat")
    assert not any("cat arrives" in line for line in listeners[0].heard + more[0].heard)
    await bob.cmd("north")
    assert not any("bob leaves" in line for line in listeners[0].heard)
    text = await ann.cmd("say hello, everyone")       # saying is still heard by all
    await casino.crier.idle()                         # told a slice at a time
    assert 'ann says, "hello, everyone"' in more[-1].heard
    assert "You say" in text


async def test_a_crowded_room_shares_a_budget_of_lines_for_speech(casino, connect):
    """In a room of 5,000 one `say` is 5,000 lines: the room's speech together
    may deliver HEARD_PER_SECOND lines a second; past it the speaker is told
    and nothing is sent. A room that is not crowded is never limited."""
    from server.world.rooms import HEARD_PER_SECOND
    ann = await connect()
    await login(ann, "ann")
    people = crowd(casino, 4999)                     # with ann: 5,000 listeners a say
    allowed = max(1, HEARD_PER_SECOND // 5000)      # a full budget lets anyone speak
    for i in range(allowed):
        assert f'You say, "round {i}"' in await ann.cmd(f"say round {i}")
    refused = await ann.cmd("say one too many")
    await casino.crier.idle()
    assert "too crowded and loud (5,000 people) to be heard" in refused
    assert sum('ann says, "round' in line for line in people[-1].heard) == allowed
    assert not any("one too many" in line for line in people[-1].heard)
    assert "too crowded" in await ann.cmd(":waves")          # emote shares the budget
    refilled = math.ceil(5000 / HEARD_PER_SECOND)             # seconds until the budget is full
    casino.manager.tick_elapsed(casino.manager.seconds(refilled))
    assert 'You say, "again"' in await ann.cmd("say again")
