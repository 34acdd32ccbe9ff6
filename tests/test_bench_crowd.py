"""The crowd, command-path and login-storm benches (bench/bench_crowd.py,
bench/bench_commands.py, bench/bench_logins.py),
run with tiny numbers so they cannot rot: a few real telnet clients against
both servers, every command of the mix answered and recognised."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import bench_commands, bench_crowd, bench_logins  # noqa: E402


def test_a_small_crowd_gets_every_reply_from_every_server(capsys):
    results = bench_crowd.main(["--clients", "20", "--seconds", "2", "--procs", "2"])
    run = results[20]["runs"][0]
    for kind in ("bare", "casino", "one"):
        r = run[kind]
        assert r.clients == 20 and not r.setup_errors, (kind, r.setup_errors)
        assert sum(r.sent.values()) >= 20 * 2
        # Every command was answered within the timeout and recognised by its
        # signature: if a reply changes shape, update bench_crowd.SIGNATURES.
        assert r.errors == 0 and r.unanswered == {}, (kind, r.unanswered, r.closed)
        assert {k: len(v) for k, v in r.replies.items()} == r.sent
        assert r.kib_per_conn == r.kib_per_conn and r.cpu_per_second >= 0
    assert set(run["casino"].sent) == set(bench_crowd.MIX) == set(run["one"].sent)
    assert results[20]["cpux"] > 0 and results[20]["portal_p99x"] > 0     # the portal's hop, measured
    out = capsys.readouterr().out
    assert "ratio casino : bare" in out and "targets (issue #16)" in out
    assert "portal : one process" in out and "targets (issue #36" in out


def test_a_small_login_storm_logs_everyone_in_while_another_player_looks(capsys):
    figures = bench_logins.main(["--logins", "6", "--concurrency", "3"])
    assert figures["ok"] == 6 and figures["errors"] == {}
    assert figures["seconds"] > 0 and figures["p99"] >= figures["p50"] > 0
    assert figures["look_idle_p99"] > 0 and figures["look_storm_p99"] > 0
    assert "target (issue #16)" in capsys.readouterr().out


class _Writer:
    def __init__(self) -> None:
        self.sent = b""

    def write(self, data: bytes) -> None:
        self.sent += data

    def close(self) -> None:
        pass


async def test_the_client_refuses_options_and_matches_replies_across_split_chunks():
    done: list[tuple[str, float]] = []
    c = bench_crowd.Client(done)
    c.connection_made(_Writer())
    try:
        c.send("look", "look", bench_crowd.SIGNATURES["look"])
        IAC, GA = 255, 249
        stream = (bytes([IAC, 253, 24]) + b"Ann says, \"hi\"\r\n> " + bytes([IAC, GA])   # someone else's line
                  + b"The Lobby\r\nExits: north\r\n> " + bytes([IAC, GA]))
        for i in range(len(stream)):                     # one byte at a time: splits everywhere
            c._feed(stream[i:i + 1])
        assert c.w.sent == b"look\r\n" + bytes([IAC, 252, 24])   # the line, then DO TTYPE refused
        assert [name for name, _ in done] == ["look"] and not c.waiting
    finally:
        c.close()


def test_the_mix_is_the_same_for_every_server_and_close_to_its_weights():
    a = bench_crowd.plan(1000, 7, 30, bench_crowd.MIX)
    assert a == bench_crowd.plan(1000, 7, 30, bench_crowd.MIX)
    many = [c for g in range(200) for c in bench_crowd.plan(200, g, 30, bench_crowd.MIX)]
    total = sum(bench_crowd.MIX.values())
    for name, weight in bench_crowd.MIX.items():
        assert abs(many.count(name) / len(many) - weight / total) < 0.03


def test_the_command_path_bench_times_every_command_of_the_mix(capsys):
    r = bench_commands.main(["--clients", "40", "--runs", "1", "--rounds", "3"])
    assert r["n"] == 40 and r["total"] > 0
    assert set(r["by"]) <= set(bench_crowd.MIX) and all(v > 0 for v in r["by"].values())
    assert "CPU per command" in capsys.readouterr().out
