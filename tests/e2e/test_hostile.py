"""Hostile clients over real telnet: floods, clients that never read, caps, deadlines.

Each test states what one hostile client may cost everyone else and checks it
on the real server: a player's reply time under a line flood, a cut-off for
output nobody reads (a disconnect for the bets), the connection caps, and a
login deadline that input does not extend. `make bench` (bench_hostile) runs
the full-size flood.
"""
from __future__ import annotations

import asyncio
import socket
import time
import zlib

from support.telnet import Client, login, plain

import server.net.telnet as telnet_edge
from server.net import lifecycle
from server.net.telnetlib3_adapter import reader_buffered
from server.ledger import check

IAC, DO, SB, SE, NOP = 255, 253, 250, 240, 241
MCCP3 = 87


async def until(condition, timeout: float = 10.0) -> None:
    """Poll a server-side condition: a guard against a hang, not game time."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.01)


async def raw(port: int, rcvbuf: int | None = None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return await asyncio.open_connection(sock=sock)


async def test_a_line_flood_does_not_delay_a_player(casino_factory):
    app = await casino_factory(limits={"connections_per_ip": 40})
    me = await Client.open(app.port)
    await login(me, "calm")
    floods = []
    for i in range(20):
        reader, writer = await raw(app.port)
        # never logs in; 20,000 lines each, and a few only telnet commands
        writer.write((bytes([IAC, NOP]) * 20_000) if i % 5 == 0 else b"look\r\n" * 20_000)
        floods.append(writer)
    await until(lambda: sum(s.flood_noticed for s in app.sessions) >= 16)
    # the first reply may share a loop turn with the floods' first reads (their
    # budgets not yet spent); what is measured is the player's time while they flood
    await me.cmd("say warm")
    samples = []
    for _ in range(15):                        # within the player's own rate
        started = time.perf_counter()
        out = await me.cmd("say ping")
        samples.append(time.perf_counter() - started)
        assert 'You say, "ping"' in plain(out)
    assert max(samples) < 0.1, samples
    # Nothing is queued without bound: each flooder's unread input is capped.
    limit = 2 * telnet_edge.READER_LIMIT + telnet_edge.READ_SIZE
    assert all(reader_buffered(s.writer.protocol.reader) <= limit for s in app.sessions)
    for w in floods:
        w.transport.abort()


async def test_a_flooder_hears_one_notice(casino_factory):
    app = await casino_factory()
    reader, writer = await raw(app.port)
    writer.write(b"xx\r\n" * 5000)
    heard = b""
    while heard.count(b"Name: ") < 20:        # one prompt per handled line
        heard += await asyncio.wait_for(reader.read(65536), 10)
    assert heard.count(b"Slow down") == 1
    writer.transport.abort()


async def test_a_client_that_never_reads_is_cut_off_and_its_bet_forfeited(casino_factory):
    app = await casino_factory(seed=7, limits={"max_output": 65536})
    c = await Client.open(app.port)
    await login(c, "deaf")
    await c.cmd("north")
    await c.cmd_expect("play craps", "joins the table")
    await c.cmd_expect("bet pass 30", "Bet accepted")
    session = app.online["deaf"]
    assert app.connections.open_from("127.0.0.1") == 1
    c.writer.transport.pause_reading()         # stops reading; the server keeps talking
    for _ in range(20_000):
        session.tell("x" * 1000)
        await asyncio.sleep(0)                 # let each flush try to write
        if session.closed:
            break
    assert session.closed
    await until(lambda: "deaf" not in app.online)
    await app.tables["bank_craps"].idle()
    assert app.connections.open_from("127.0.0.1") == 0
    assert (await app.ledger.balance("deaf")).wallet == 970         # the disconnect rule: forfeit
    assert check(app.database).open_holds == 0


async def test_a_closing_socket_counts_until_it_is_really_closed(casino_factory, monkeypatch):
    monkeypatch.setattr(lifecycle, "CLOSE_GRACE", 0.2)
    app = await casino_factory(limits={"connections_per_ip": 2})
    reader, writer = await raw(app.port, rcvbuf=4096)
    await until(lambda: len(app.sessions) == 1)
    session = next(iter(app.sessions))
    writer.transport.pause_reading()
    while session.unsent() == 0:               # fill every buffer between us
        session.tell("y" * 4000)
        await asyncio.sleep(0)
    session.close("Goodbye.")                  # polite: it cannot flush
    other = await Client.open(app.port)
    await other.read_until_prompt()
    refused = await Client.open(app.port)
    assert "Too many connections" in await refused.read_until_closed()
    await until(lambda: app.connections.open_from("127.0.0.1") == 1)   # aborted after the grace
    writer.transport.abort()
    await other.close()


async def test_caps_on_all_connections_and_on_those_not_logged_in(casino_factory):
    app = await casino_factory(limits={"max_login_connections": 2, "max_connections": 3})
    a, b = await Client.open(app.port), await Client.open(app.port)
    await a.read_until_prompt()
    await b.read_until_prompt()
    third = await Client.open(app.port)
    assert "logging in" in await third.read_until_closed()
    await a.cmd("create early secret123")
    c = await Client.open(app.port)
    await c.read_until_prompt()
    fourth = await Client.open(app.port)
    assert "full" in await fourth.read_until_closed()
    for x in (a, b, c):
        await x.close()


async def test_the_login_deadline_runs_from_connecting(casino_factory):
    app = await casino_factory(limits={"login_timeout": 10})
    c = await Client.open(app.port)
    await c.read_until_prompt()
    for _ in range(3):
        app.manager.tick_elapsed(app.manager.seconds(3))
        await c.cmd("")                          # an empty line does not restart the clock
    app.manager.tick_elapsed(app.manager.seconds(1))
    assert "took too long" in await c.read_until_closed()


async def test_client_to_server_compression_is_refused(casino_factory):
    app = await casino_factory()
    reader, writer = await raw(app.port)
    writer.write(bytes([IAC, DO, MCCP3]))
    data = b""
    while bytes([IAC, 252, MCCP3]) not in data:   # WONT MCCP3
        data += await asyncio.wait_for(reader.read(65536), 10)
    writer.write(bytes([IAC, SB, MCCP3, IAC, SE]) + zlib.compress(b"look\r\n" * 1_000_000))
    try:
        while await asyncio.wait_for(reader.read(65536), 10):
            pass
    except ConnectionResetError:
        pass
    await until(lambda: not app.sessions and app.connections.open_from("127.0.0.1") == 0)


async def test_logging_in_again_during_the_forfeit_leaves_one_session_and_no_ghost(casino_factory):
    """The interleaving forced step by step: the old connection's bet is being
    forfeited (the ledger write held open) while the account logs in twice more."""
    app = await casino_factory(seed=11)
    a = await Client.open(app.port)
    await login(a, "twice")
    await a.cmd("north")
    await a.cmd_expect("play craps", "joins the table")
    await a.cmd_expect("bet pass 30", "Bet accepted")
    watcher = await Client.open(app.port)
    await login(watcher, "eyes")
    await watcher.cmd("north")

    entered, release = asyncio.Event(), asyncio.Event()
    forfeit = app.ledger.forfeit

    async def held_forfeit(*args):
        entered.set()
        await release.wait()
        await forfeit(*args)
    app.ledger.forfeit = held_forfeit

    await a.close()                                      # the disconnect: forfeit begins
    await asyncio.wait_for(entered.wait(), 10)
    assert "twice" in app.leaving
    b, c = await Client.open(app.port), await Client.open(app.port)
    await b.read_until_prompt()
    await c.read_until_prompt()
    await b.send("connect twice secret123")
    await until(lambda: app.leaving["twice"].waiting == 1)
    await c.send("connect twice secret123")
    await until(lambda: app.leaving["twice"].waiting == 2)
    room = app.world.occupants("6185")
    assert [s.name for s in room] == ["eyes"]             # no ghost while the forfeit runs

    release.set()
    assert "You have 970 chips" in plain(await c.expect("You have"))
    assert "connected from elsewhere" in plain(await b.read_until_closed())
    live = [s for s in app.sessions if s.key == "twice"]
    assert len(live) == 1 and app.online["twice"] is live[0] and not live[0].closed
    assert [s.name for s in app.world.occupants("lobby")] == ["twice"]
    assert app.seat_of("twice") is None
    assert check(app.database).open_holds == 0
    app.ledger.forfeit = forfeit
    await c.close()
    await watcher.close()


async def test_wrong_passwords_from_one_address_never_lock_the_owner_out(casino_factory):
    app = await casino_factory()
    owner = await Client.open(app.port)
    await login(owner, "owner")
    await owner.send("quit")
    await owner.read_until_closed()
    guesser = await Client.open(app.port, source="127.0.0.2")
    await guesser.read_until_prompt()
    answers = [plain(await guesser.cmd(f"connect owner guess{i:04d}")) for i in range(8)]
    assert all("Wrong name or password" in a for a in answers[:5])
    assert all("Too many failed logins" in a for a in answers[5:])
    # the same address is throttled for any name; the owner, elsewhere, is not
    assert "Too many failed logins" in plain(await guesser.cmd("connect other guess0000"))
    back = await Client.open(app.port)
    await back.read_until_prompt()
    assert "You have 1000 chips" in plain(await back.cmd("connect owner secret123"))
    await guesser.close()
    await back.close()


async def test_sign_ups_are_limited_per_address_even_when_they_race(casino_factory):
    app = await casino_factory(limits={"accounts_per_ip_per_hour": 3})
    clients = [await Client.open(app.port) for _ in range(5)]
    for c in clients:
        await c.read_until_prompt()
    for i, c in enumerate(clients):            # all at once
        await c.send(f"create minter{i} secret123")
    answers = [plain(await c.read_until_prompt()) for c in clients]
    assert sum("Welcome, minter" in a for a in answers) == 3
    assert sum("Too many new accounts from your address" in a for a in answers) == 2
    elsewhere = await Client.open(app.port, source="127.0.0.2")
    await elsewhere.read_until_prompt()
    assert "Welcome, fresh" in plain(await elsewhere.cmd("create fresh secret123"))
    tried = await Client.open(app.port)
    await tried.read_until_prompt()
    assert "Too many new accounts" in plain(await tried.cmd("newname"))   # asked before a password
    assert check(app.database).minted == 4 * 1000
    for c in [*clients, elsewhere, tried]:
        await c.close()


async def test_password_hashing_runs_a_bounded_number_at_once(casino_factory):
    app = await casino_factory(limits={"hash_concurrency": 2, "hash_queue": 3})
    first = await Client.open(app.port)
    await login(first, "hashed")
    clients = [await Client.open(app.port, source=f"127.0.0.{10 + i}") for i in range(8)]
    for c in clients:
        await c.read_until_prompt()
    app.passwords.peak = 0
    for c in clients:
        await c.send("connect hashed wrongpass")
    answers = [plain(await c.read_until_prompt()) for c in clients]
    assert app.passwords.load()[1] <= 2                       # never more than two hashes at once
    busy = sum("busy" in a for a in answers)
    assert busy >= 1 and busy + sum("Wrong name or password" in a for a in answers) == 8
    for c in [first, *clients]:
        await c.close()


async def test_a_login_flood_from_one_address_is_told_busy_and_others_still_log_in(casino_factory,
                                                                                  monkeypatch):
    """One address may have `hashes_per_ip` password checks running or waiting:
    its further logins are told "busy" at once, while another address's login
    is still checked, and a logged-in player's commands are answered meanwhile.
    The checks are held open (a gate in the hashing thread) so what is pending
    is known exactly, not raced."""
    import threading

    from server.accounts.passwords import Argon2id
    app = await casino_factory(limits={"hash_concurrency": 1, "hash_queue": 16, "hashes_per_ip": 2})
    player = await Client.open(app.port)
    await login(player, "player")
    owner = await Client.open(app.port)
    await login(owner, "owner")
    await owner.send("quit")
    await owner.read_until_closed()
    gate = threading.Event()
    verify = Argon2id.verify
    monkeypatch.setattr(Argon2id, "verify", lambda hasher, stored, pw: gate.wait(10) and verify(hasher, stored, pw))
    flood = [await Client.open(app.port, source="127.0.0.7") for _ in range(6)]
    for c in flood:
        await c.read_until_prompt()
    for pending, c in enumerate(flood[:2], start=1):          # one at a time: which two wait is known
        await c.send("connect owner wrongpass")
        await until(lambda: app.passwords.load()[0] == pending)
    for c in flood[2:]:
        await c.send("connect owner wrongpass")
    busy = [plain(await c.read_until_prompt()) for c in flood[2:]]
    assert all("busy checking passwords" in b for b in busy)
    back = await Client.open(app.port, source="127.0.0.8")
    await back.read_until_prompt()
    await back.send("connect owner secret123")
    await until(lambda: app.passwords.load()[0] == 3)            # another address: not busy, it waits its turn
    await player.send("balance")                              # the loop answers everyone meanwhile
    assert "Wallet: 1000" in plain(await player.expect("Wallet:"))
    gate.set()
    assert "You have 1000 chips" in plain(await back.read_until_prompt())
    for c in flood[:2]:
        assert "Wrong name or password" in plain(await c.read_until_prompt())
    assert app.passwords.load()[0] == 0
    for c in [player, back, *flood]:
        await c.close()


async def test_a_clean_stop_refunds_every_stake_with_bets_arriving_to_the_end(casino_factory):
    """Bettors keep betting while the casino stops; one bet is in flight (its
    wallet read held open) until the tables have begun closing. A word takes
    its place in the table's queue as it is typed, so the late bet, typed
    before the stop, is taken and then refunded with every other stake."""
    app = await casino_factory(seed=5)
    host = app.tables["bank_craps"]
    clients = {}
    for name in ("early", "late", "busy1", "busy2"):
        c = clients[name] = await Client.open(app.port)
        await login(c, name)
        await c.cmd("north")
        await c.cmd_expect("play craps", "joins the table")
    await clients["early"].cmd_expect("bet pass 10", "Bet accepted")

    entered, gate = asyncio.Event(), asyncio.Event()
    balance = app.ledger.balance

    async def held_balance(key):
        if key == "late" and not gate.is_set():
            entered.set()
            await gate.wait()
        return await balance(key)
    app.ledger.balance = held_balance

    async def keep_betting(c):
        try:
            while True:
                await c.send("bet field 1")
                await asyncio.sleep(0.01)
        except (ConnectionError, OSError):
            pass
    bettors = [asyncio.create_task(keep_betting(clients[n])) for n in ("busy1", "busy2")]
    await until(lambda: len(host.stakes) >= 5)
    await clients["late"].send("bet field 5")
    await asyncio.wait_for(entered.wait(), 10)       # the late bet is in flight
    stopping = asyncio.create_task(app.stop("Closing time."))
    await until(lambda: host.closing)
    gate.set()                                        # ... and its wallet is read now
    await asyncio.wait_for(stopping, 20)
    for task in bettors:
        task.cancel()
    report = check(app.database)
    assert report.ok and report.open_holds == 0, report
    assert "Refunded to your wallet: field 5." in plain(await clients["late"].read_until_closed())


async def test_hanging_up_while_the_password_is_hashed_never_enters(casino_factory):
    app = await casino_factory()
    reader, writer = await raw(app.port)
    await until(lambda: len(app.sessions) == 1)
    writer.write(b"create hangup secret123\r\n")
    await writer.drain()
    await until(lambda: app.passwords.load()[0] > 0)          # the hash is running
    writer.transport.abort()
    await until(lambda: not app.sessions and app.connections.total == 0)
    assert await app.accounts.get("hangup") is not None   # made, but never logged in
    assert "hangup" not in app.online and not app.world.occupants("lobby")
    assert app.connections.anonymous == 0 and app.connections.total == 0
