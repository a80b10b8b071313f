import subprocess
import sys

import pytest

from pyshell.errors import StartupError
from pyshell.launcher import master_problem, parse_connect, parse_options
from tests.shell.driver import ROOT, free_port


def test_command_line_beats_environment_beats_config_file(tmp_path):
    config = tmp_path / "shell.ini"
    config.write_text("[shell]\nmaster = local[1]\nname = from-file\npy_files = a.py, b.zip\n"
                      "[conf]\nspark.a = file\nspark.b = file\nspark.CaseKept = x\n")
    environ = {"PYSTREAM_SHELL_CONFIG": str(config), "PYSTREAM_MASTER": "local[3]",
               "PYSTREAM_CONF": "spark.b=env;spark.c=env"}
    options = parse_options(["--conf", "spark.c=cli", "--name", "cli", "--no-banner"], environ)
    s = options.settings
    got = (s.master, s.remote, s.app_name, s.py_files, s.conf, options.banner)
    assert got == ("local[3]", None, "cli", [str(tmp_path / "a.py"), str(tmp_path / "b.zip")],
                   {"spark.a": "file", "spark.b": "env", "spark.CaseKept": "x",
                    "spark.c": "cli"}, False)


def test_remote_on_the_command_line_replaces_a_master_from_the_environment():
    options = parse_options(["--remote", "sc://h:1"], {"PYSTREAM_MASTER": "local[3]"})
    assert (options.settings.master, options.settings.remote) == (None, "sc://h:1")


def test_defaults():
    options = parse_options([], {})
    s = options.settings
    assert (s.effective_master, s.app_name, options.banner, options.code) == \
        ("local[*]", "pystream-shell", True, None)


def test_bad_conf_item():
    with pytest.raises(StartupError, match="expected KEY=VALUE"):
        parse_options(["--conf", "spark.x"], {})


@pytest.mark.parametrize("url", ["local", "local[*]", "local[4]", "local[2,3]", "yarn",
                                 "spark://h:7077", "spark://a:1,b:2", "k8s://https://h:6443"])
def test_good_master_urls(url):
    assert master_problem(url) is None


@pytest.mark.parametrize("url", ["locl[2]", "spark://h", "local[x]", "sc://h:15002", ""])
def test_bad_master_urls(url):
    assert "Bad master URL" in master_problem(url)


def test_connect_urls():
    assert [parse_connect(u) for u in ("sc://h", "sc://h:1/;token=x")] == [("h", 15002),
                                                                           ("h", 1)]


def run_shell(*args, **environ):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": ROOT, "HOME": "/tmp", **environ}
    return subprocess.run([sys.executable, "-m", "pyshell", *args], capture_output=True,
                          text=True, env=env, timeout=60)


def test_connect_server_down_is_a_one_screen_message():
    port = free_port()
    done = run_shell("--remote", "sc://127.0.0.1:%d" % port)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith("pystream-shell: cannot start Spark.\n  The Spark Connect "
                                  "server at sc://127.0.0.1:%d is not reachable" % port)
    assert len(done.stderr.splitlines()) < 10


def test_bad_master_url_is_a_one_screen_message():
    done = run_shell("--master", "spark//nowhere")
    assert (done.returncode, done.stderr.splitlines()[:2]) == (
        1, ["pystream-shell: cannot start Spark.", "  Bad master URL 'spark//nowhere'."])


def test_missing_init_file(tmp_path):
    done = run_shell("-i", str(tmp_path / "init.py"))
    assert (done.returncode, done.stderr.splitlines()[1:]) == (
        1, ["  File %s (from -i) does not exist." % (tmp_path / "init.py")])


def test_unreachable_standalone_master():
    done = run_shell("--master", "spark://127.0.0.1:%d" % free_port())
    assert done.returncode == 1 and "is not reachable" in done.stderr


def test_too_old_java_is_a_one_screen_message(tmp_path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "java").write_text("")
    (tmp_path / "release").write_text('JAVA_VERSION="11.0.2"\n')
    done = run_shell(JAVA_HOME=str(tmp_path))
    assert (done.returncode, done.stderr.splitlines()[:2]) == (
        1, ["pystream-shell: cannot start Spark.",
            "  Java 11 found at %s, but Spark 4 needs Java 17 or 21." % tmp_path])


def test_version_starts_nothing():
    done = run_shell("--version")
    assert (done.returncode, done.stdout.split()[0]) == (0, "pystream-shell")
