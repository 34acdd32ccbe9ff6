"""docs/prometheus/alerts.yml, proven with Debian's `promtool test rules`: each alert fires
when it should and stays silent when it should not (tests/metrics/alerts_test.yml)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.mark.skipif(shutil.which("promtool") is None, reason="Debian's prometheus (.ci/test-packages)")
def test_every_alert_fires_and_stays_silent_when_it_should() -> None:
    rules = subprocess.run(["promtool", "check", "rules", str(HERE.parents[1] / "docs" / "prometheus" / "alerts.yml")],
                           capture_output=True, text=True, timeout=60)
    assert rules.returncode == 0, rules.stdout + rules.stderr
    tested = subprocess.run(["promtool", "test", "rules", "alerts_test.yml"], cwd=HERE,
                            capture_output=True, text=True, timeout=60)
    assert tested.returncode == 0 and "SUCCESS" in tested.stdout, tested.stdout + tested.stderr
