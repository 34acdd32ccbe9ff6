"""Accounts over real telnet: create, connect, wrong password, throttling, takeover."""
from __future__ import annotations

import pytest
from support.telnet import login, plain

pytestmark = pytest.mark.both_stores      # the same play, on SQLite and on PostgreSQL


async def test_create_then_connect_keeps_chips_and_lands_in_lobby(casino, connect):
    a = await connect()
    out = plain(await login(a, "alice"))
    assert "Welcome, alice! Your account is ready with 1000 chips." in out
    assert "Lobby" in out and "Exits:" in out
    await a.send("quit")
    assert "Goodbye" in await a.read_until_closed()

    b = await connect()
    out = plain(await login(b, "ALICE", create=False))
    assert "You have 1000 chips." in out
    assert "Wrong" not in out

async def test_create_refuses_taken_names_and_bad_input(casino, connect):
    a = await connect()
    await login(a, "bob")
    b = await connect()
    await b.read_until_prompt()
    assert "taken" in await b.cmd("create BOB anotherpass")
    assert "3-20 letters" in await b.cmd("create b! secret123")
    assert "at least 6" in await b.cmd("create carol abc")
    assert "Usage: create" in await b.cmd("create carol")

async def test_wrong_password_is_refused_and_throttled(casino, connect):
    a = await connect()
    await login(a, "dave")
    b = await connect()
    await b.read_until_prompt()
    limit = casino.config.settings.limits.failed_logins_per_minute
    for _ in range(limit):
        assert "Wrong name or password." in await b.cmd("connect dave nottheone")
    out = await b.cmd("connect dave secret123")
    assert "Too many failed logins" in out
    assert "You have" not in out

async def test_name_then_password_prompt_turns_echo_off(casino, connect):
    a = await connect()
    await login(a, "erin")
    await a.close()
    b = await connect()
    await b.read_until_prompt()
    out = await b.cmd("erin")
    assert "Password:" in out and b.echo_off
    out = plain(await b.cmd("secret123"))
    assert not b.echo_off
    assert "You have 1000 chips." in out

async def test_new_name_prompts_for_password_twice(casino, connect):
    a = await connect()
    await a.read_until_prompt()
    assert "Choose a password" in await a.cmd("frank")
    assert a.echo_off
    assert "again" in await a.cmd("hunter22")
    out = plain(await a.cmd("hunter22"))
    assert "Welcome, frank!" in out and not a.echo_off

async def test_second_login_takes_over_the_first(casino, connect):
    a = await connect()
    await login(a, "gina")
    assert "Bank Craps" in plain(await a.cmd("north"))
    b = await connect()
    out = plain(await login(b, "gina", create=False))
    assert "You took over your earlier connection." in out
    assert "Bank Craps" in out           # the new session keeps the room
    assert "connected from elsewhere" in await a.read_until_closed()
    assert len(casino.online) == 1

async def test_login_deadline_counts_ticks(casino, connect):
    a = await connect()
    await a.read_until_prompt()
    casino.manager.tick_elapsed(casino.manager.seconds(casino.config.settings.limits.login_timeout) - 1)
    assert "Name" in await a.cmd("")     # still connected one tick before the deadline
    casino.manager.tick_elapsed(casino.manager.seconds(casino.config.settings.limits.login_timeout))
    assert "too long to log in" in await a.read_until_closed()

async def test_idle_timeout_counts_ticks(casino, connect):
    a = await connect()
    await login(a, "hank")
    casino.manager.tick_elapsed(casino.manager.seconds(casino.config.settings.limits.idle_timeout))
    assert "idle too long" in await a.read_until_closed()

async def test_input_moves_the_idle_deadline_and_the_login_deadline_ends_at_login(casino, connect):
    clock = casino.manager
    login_ticks = clock.seconds(casino.config.settings.limits.login_timeout)
    idle_ticks = clock.seconds(casino.config.settings.limits.idle_timeout)
    a = await connect()
    await a.read_until_prompt()
    clock.tick_elapsed(login_ticks - 1)
    assert "Welcome, iris!" in plain(await a.cmd("create iris secret123"))
    clock.tick_elapsed(1)                      # the login deadline has passed: logged in, she stays
    assert "Exits:" in plain(await a.cmd("look"))
    clock.tick_elapsed(idle_ticks - 1)
    assert "Exits:" in plain(await a.cmd("look"))      # input: the idle timeout starts again
    clock.tick_elapsed(idle_ticks - 1)
    assert "Exits:" in plain(await a.cmd("look"))
    clock.tick_elapsed(idle_ticks)
    assert "idle too long" in await a.read_until_closed()
    assert casino.session_clock._due == {}     # nobody left waiting for a deadline
