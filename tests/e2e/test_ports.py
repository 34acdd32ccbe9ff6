"""Ports: `make test` passes beside a running `make run`, and a port that is
taken is one line from `casino serve`, not a traceback."""
from __future__ import annotations

import ast
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"


def held_port() -> socket.socket:
    """A socket listening on a free port: the port is in use while it is open."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    return s


def serve(tmp_path: Path, port: int, web_port: int) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "server.cli", "serve", "--data", str(tmp_path / "c.db"),
                           "--port", str(port), "--web-port", str(web_port)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("web, words", [
    (False, "the telnet port; choose another with --port (make run: PORT=)"),
    (True, "the browser page's port; choose another with --web-port (make run: WEB_PORT=)"),
])
def test_a_port_in_use_is_one_line_and_exit_code_1(tmp_path, web, words):
    with held_port() as taken:
        port = taken.getsockname()[1]
        done = serve(tmp_path, 0, port) if web else serve(tmp_path, port, 0)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last == (f"port {port} is in use: another program (a casino already running?) "
                    f"listens on 127.0.0.1:{port}, {words}")
    assert done.stdout == ""


def test_make_run_takes_PORT_and_WEB_PORT():
    ran = subprocess.run(["make", "-n", "-C", str(ROOT), "run", "PORT=4101", "WEB_PORT=4181"],
                         capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    serve_line = [line for line in ran.stdout.splitlines() if "casino serve" in line]
    assert serve_line and "--port 4101 --web-port 4181" in serve_line[0], ran.stdout
    default = subprocess.run(["make", "-n", "-C", str(ROOT), "run"], capture_output=True, text=True)
    assert "--port 4000 --web-port 4080" in default.stdout


def _server_launches(tree: ast.AST):
    """Every function that runs `python -m server` (or `casino serve`) as a process."""
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.List):
                words = [e.value for e in node.elts if isinstance(e, ast.Constant)]
                pairs = list(zip(words, words[1:]))
                if ("-m", "server") in pairs or "serve" in words:
                    yield fn, node


def test_no_test_starts_a_server_on_the_configs_fixed_ports():
    """The shipped config listens on 4000 and 4080, where `make run` does: a
    test's server names both ports (a free one, or 0) itself."""
    found = 0
    for path in sorted(TESTS.rglob("*.py")):
        text = path.read_text()
        tree = ast.parse(text)
        for fn, _launch in _server_launches(tree):
            found += 1
            body = ast.get_source_segment(text, fn) or ""
            where = f"{path.relative_to(ROOT)}:{fn.lineno} {fn.name}"
            assert '"--port"' in body and '"--web-port"' in body, f"{where} starts a server on a config port"
        for node in ast.walk(tree):    # in-process casinos: app.start(host, port, web_port=...)
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "start"
                    and len(node.args) == 2):
                port = node.args[1]
                assert not (isinstance(port, ast.Constant) and port.value in (4000, 4080)), path
                for kw in node.keywords:
                    if kw.arg == "web_port":
                        assert not (isinstance(kw.value, ast.Constant) and kw.value.value in (4000, 4080)), path
    assert found >= 3        # the process, crash and soak tests at least
