"""``pystream run``: its options, a program with every kind of dependency on local Spark, a
module program whose job fails."""
from __future__ import annotations

import pytest

from pystream.cli import main, parser, settings_from, split_program_args
from tests.remote.materials import materials, pystream_run, result_of, write


def test_the_program_arguments_follow_the_program():
    argv = ["--master", "local[2]", "-py", "job.py", "-p", "3", "--conf", "x"]
    assert split_program_args(argv) == (["--master", "local[2]", "-py", "job.py"],
                                        ["-p", "3", "--conf", "x"])


def test_version_names_pystream_pyspark_and_python(capsys):
    from importlib.metadata import version

    import pystream

    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("pystream %s (pyspark %s, Python " % (
        pystream.__version__, version("pyspark")))
    assert version("pystream-spark") == pystream.__version__  # one version string


def test_options_become_session_settings(monkeypatch):
    for name in ("PYSTREAM_MASTER", "PYSTREAM_REMOTE", "SPARK_REMOTE", "PYSTREAM_CONF"):
        monkeypatch.delenv(name, raising=False)
    p = parser()
    options = p.parse_args([
        "--master", "spark://127.0.0.1:7077", "--conf", "spark.executor.memory=1g", "-p", "3",
        "-pyfs", "/a.py,/libs", "-pyfs", "/b.zip", "-pyreq", "/r.txt#/cache",
        "-pyarch", "/venv.zip#venv", "-pyexec", "venv/bin/python", "--jars", "/x.jar",
        "--packages", "g:a:1", "--name", "job", "-pym", "my.job"])
    s = settings_from(options, p)
    assert (s.master, s.remote, s.app_name, s.conf, s.py_files, s.requirements, s.archives,
            s.python_executable, s.jars, s.packages, options.module) == (
        "spark://127.0.0.1:7077", None, "job",
        {"spark.executor.memory": "1g", "spark.default.parallelism": "3"},
        ["/a.py", "/libs", "/b.zip"], "/r.txt#/cache", ["/venv.zip#venv"], "venv/bin/python",
        ["/x.jar"], ["g:a:1"], "my.job")


@pytest.mark.parametrize("argv, message", [
    ([], "pystream run: error: one of the arguments -py/--python -pym/--pyModule/--py-module "
         "is required"),
    (["--remote", "sc://127.0.0.1:15002", "-pyexec", "/usr/bin/python3", "-py", "job.py"],
     "pystream run: error: -pyexec is not available with --remote: a Spark Connect server runs "
     "user functions with its own Python (start it with PYSPARK_PYTHON=/usr/bin/python3)"),
    (["-py", "no_such_job.py"], "pystream run: error: no such program file: no_such_job.py"),
])
def test_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["run", *argv])
    assert (exit_.value.code, capsys.readouterr().err.splitlines()[-1]) == (2, message)


def test_run_a_program_with_dependencies(tmp_path):
    """deps_job.py on local Spark: -pyfs, -pyreq, -pyarch, -pyexec inside an archive, and the
    environment's add_python_file, register_cached_file, add_jars and add_classpaths before
    the session starts (also run on a cluster and over Spark Connect by tests/remote)."""
    shipped = materials(tmp_path)
    done = pystream_run(["--master", "local[2]", *shipped.run_options("archive")],
                        {"PYSTREAM_CACHE_DIR": str(tmp_path / "cache")})
    assert result_of(done) == shipped.expected(python="wrapper")


def test_a_failing_job_exits_with_its_short_message(tmp_path):
    write(tmp_path / "mods" / "failing_job.py",
          "from pystream.datastream import StreamExecutionEnvironment\n\n"
          "env = StreamExecutionEnvironment.get_execution_environment()\n"
          "env.from_collection([2, 0]).map(lambda x: 10 // x).print()\n"
          "env.execute('failing')\n")
    done = pystream_run(["--master", "local[1]", "-pyfs", "mods", "-pym", "failing_job"],
                        cwd=tmp_path)
    assert (done.returncode, done.stderr.splitlines()[:2]) == (1, [
        "pystream: JobExecutionError: ZeroDivisionError: integer division or modulo by zero "
        "(in operator 'Map' (failing_job.py:4))",
        "  record: 0"])


def _pystream(args, cwd):
    import os
    import subprocess
    import sys

    import pystream

    repo = os.path.dirname(os.path.dirname(os.path.abspath(pystream.__file__)))
    env = dict(os.environ, PYTHONPATH=repo)
    return subprocess.run([sys.executable, "-m", "pystream", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_pystream_sql_runs_a_script_and_stops_at_a_parse_error(tmp_path):
    """``pystream sql -f``: each statement's result as the SQL client prints it; a statement
    that does not parse prints its line and caret and exits 1."""
    write(tmp_path / "job.sql", """-- totals per parity
SET 'parallelism.default' = '1';
CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '4',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '4');
CREATE TABLE sink (k BIGINT, n BIGINT) WITH ('connector' = 'print');
BEGIN STATEMENT SET;
INSERT INTO sink SELECT id % 2, COUNT(*) FROM src GROUP BY id % 2;
END;
SELEC oops;
""")
    done = _pystream(["sql", "--batch", "--master", "local[1]", "-f", "job.sql"], tmp_path)
    out = done.stdout.splitlines()
    assert out[:3] == ["OK", "OK", "OK"]
    assert sorted(out[3:5]) == ["+I[0, 2]", "+I[1, 2]"]
    assert done.returncode == 1
    assert "SqlParserException: SQL parse failed." in done.stderr
    assert "line 9, column" in done.stderr and "SELEC oops" in done.stderr


def test_a_sql_script_streaming_into_a_sink_runs_until_ctrl_c(tmp_path):
    """An unbounded INSERT keeps running after the script's last statement (as a job a SQL
    client submitted does); Ctrl-C stops it and ``pystream sql`` exits 130."""
    import os
    import re
    import signal
    import subprocess
    import sys
    import time

    import pystream

    write(tmp_path / "job.sql", """
CREATE TABLE ticks (n INT) WITH ('connector' = 'datagen', 'rows-per-second' = '20',
  'fields.n.min' = '1', 'fields.n.max' = '9');
CREATE TABLE out (n INT) WITH ('connector' = 'print', 'print-identifier' = 'tick');
INSERT INTO out SELECT n FROM ticks;
""")
    repo = os.path.dirname(os.path.dirname(os.path.abspath(pystream.__file__)))
    job = subprocess.Popen([sys.executable, "-m", "pystream", "sql", "--master", "local[1]",
                            "-f", "job.sql"], env=dict(os.environ, PYTHONPATH=repo),
                           cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
    lines = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len([x for x in lines if x.startswith("tick")]) < 3:
        lines.append(job.stdout.readline())
    job.send_signal(signal.SIGINT)
    _, err = job.communicate(timeout=120)
    assert lines[:2] == ["OK\n", "OK\n"]
    assert len([x for x in lines if re.match(r"tick(:\d)?> \+I\[\d\]$", x)]) >= 3
    assert "streaming job(s) running; Ctrl-C stops them" in err
    assert job.returncode == 130
