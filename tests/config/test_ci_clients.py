"""A fresh root machine gets the real clients the end-to-end tests drive:
.ci/run and `make test-packages` install tmux, inetutils-telnet, tintin++ and postgresql."""
from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("tmux", "inetutils-telnet", "tintin++", "postgresql")


def test_ci_and_make_install_every_client_package():
    for path in (ROOT / ".ci" / "run", ROOT / "Makefile"):
        text = path.read_text()
        for package in PACKAGES:
            assert f'missing="$' in text and package in text, (path.name, package)
    make = subprocess.run(["make", "-n", "-C", str(ROOT), "test-packages"], capture_output=True, text=True)
    assert make.returncode == 0, make.stderr
    assert "apt-get install" in make.stdout and "tt++" in make.stdout
    assert "test-packages" in (ROOT / "Makefile").read_text().split("test:", 1)[1].splitlines()[0]
