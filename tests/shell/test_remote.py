"""``pystream-shell --remote``: a preview over a Spark Connect server started for the test."""
import os
import re
import subprocess
import sys

from tests.shell.driver import ROOT

ROW = re.compile(r"^[|│]\s*(\d+) [|│]\s*(\d+) [|│]$")  # a terminal gets box lines
CODE = """\
env.set_parallelism(1)
pairs = Types.TUPLE([Types.LONG(), Types.LONG()])
ds = env.from_source(DataGeneratorSource(lambda i: (i % 3, i), rows_per_second=20),
                     WatermarkStrategy.no_watermarks(), 'gen', pairs)
%preview ds -n 3 --timeout 120
assert not spark.streams.active
"""


def test_preview_over_spark_connect(connect_url, tmp_path):
    done = subprocess.run([sys.executable, "-m", "pyshell", "--remote", connect_url, "-c", CODE],
                          capture_output=True, text=True, cwd=str(tmp_path), timeout=600,
                          env=dict(os.environ, PYTHONPATH=ROOT, IPYTHONDIR=str(tmp_path)))
    rows = [tuple(map(int, m.groups())) for m in map(ROW.match, done.stdout.splitlines()) if m]
    assert (done.returncode, rows) == (0, [(0, 0), (1, 1), (2, 2)]), done.stdout + done.stderr
