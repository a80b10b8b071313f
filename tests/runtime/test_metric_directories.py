"""The directories of metrics a killed driver left behind are removed when another driver
makes its own; a running driver's stays."""
from __future__ import annotations

import os
import subprocess
import sys

from pystream.runtime import metric_reports
from pystream.runtime.metric_reports import ROOT_PREFIX, remove_orphaned_directories


def test_a_dead_drivers_metrics_directory_is_removed_a_live_ones_is_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(metric_reports.tempfile, "gettempdir", lambda: str(tmp_path))
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    dead = tmp_path / ("%s%s-abc" % (ROOT_PREFIX, ended.stdout.strip()))
    live = tmp_path / ("%s%d-def" % (ROOT_PREFIX, os.getpid()))
    unrelated = tmp_path / "pystream-metrics-xyz"  # no process id: an older pystream's
    for directory in (dead, live, unrelated):
        (directory / "job").mkdir(parents=True)
    remove_orphaned_directories()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, unrelated.name])
