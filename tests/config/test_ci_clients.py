"""A fresh root machine gets the real clients the end-to-end tests drive: one
list of Debian packages (.ci/test-packages), installed by the one script that
both .ci/run and `make test-packages` call."""
from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NEEDED = ("tmux", "inetutils-telnet", "tintin++", "chromium", "chromium-driver", "postgresql",
          "nats-server", "espeak-ng", "sox", "prometheus")


def listed() -> dict[str, str]:
    rows = {}
    for line in (ROOT / ".ci" / "test-packages").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            package, check = line.split(None, 1)
            rows[package] = check
    return rows


def test_one_list_names_every_package_with_its_check() -> None:
    assert set(listed()) == set(NEEDED)
    for check in listed().values():
        assert check.strip()


def test_ci_and_make_both_install_from_the_one_list() -> None:
    assert "bash .ci/install-test-packages" in (ROOT / ".ci" / "run").read_text()
    makefile = (ROOT / "Makefile").read_text()
    assert "test-packages" in makefile.split("test:", 1)[1].splitlines()[0]
    assert "bash .ci/install-test-packages" in makefile.split("test-packages:", 1)[1]
    for text in ((ROOT / ".ci" / "run").read_text(), makefile):
        for package in NEEDED:
            assert package not in text.replace("test-packages", ""), package   # written once only


def test_the_installer_installs_what_a_failing_check_says_is_missing(tmp_path: Path) -> None:
    (tmp_path / "install-test-packages").write_text((ROOT / ".ci" / "install-test-packages").read_text())
    (tmp_path / "test-packages").write_text("# comment\npresent  true\nabsent   false\n")
    run = subprocess.run(["bash", str(tmp_path / "install-test-packages"), "--dry-run"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["apt-get", "install", "-y", "-q", "absent"]


def test_on_this_machine_nothing_is_missing() -> None:
    run = subprocess.run(["bash", str(ROOT / ".ci" / "install-test-packages"), "--dry-run"],
                         capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout == "", (run.stdout, run.stderr)
