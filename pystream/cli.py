"""``pystream run``: run a pystream program, like ``flink run -py``, on the Spark you choose.

    pystream run -py job.py [args...]                      # local Spark (local[*])
    pystream run --master spark://host:7077 -py job.py     # a standalone cluster
    pystream run --remote sc://host:15002 -pym my.job      # a Spark Connect server
    pystream run -pyfs libs/,util.py -pyreq requirements.txt -pyarch venv.zip#venv \\
        -pyexec venv/bin/python --jars a.jar --conf spark.executor.memory=2g -py job.py

The program runs in this process (as ``__main__``) with the session configured from the
options; the Python dependencies given here reach the workers of every job it runs. A failing
job prints its short message and the command exits with status 1. Ctrl-C or SIGTERM stops the
running jobs (a job that keeps its checkpoints: after its current micro-batch, so that the same
command started again resumes) and exits with status 130 or 143.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import platform
import runpy
import signal
import sys
import threading
import traceback
from typing import Dict, List, Optional, Sequence, Tuple

import pystream
from pyshell.entry import main as shell
from pystream import dependencies, jvm_archive, server, session
from pystream.errors import PystreamError
from pystream.session_settings import environment_layer, from_layers
from pystream.table import EnvironmentSettings, TableEnvironment

ENTRY = ("-py", "--python", "-pym", "--pyModule", "--py-module")


def parser() -> argparse.ArgumentParser:
    """The options of ``pystream run`` (PyFlink's ``flink run`` names, mapped to Spark)."""
    p = argparse.ArgumentParser(
        prog="pystream run", allow_abbrev=False,
        description="Run a pystream (PyFlink DataStream API) program on Spark.",
        epilog="Arguments after the program (-py FILE / -pym MODULE) are the program's own.")
    entry = p.add_mutually_exclusive_group(required=True)
    entry.add_argument("-py", "--python", metavar="FILE", help="the program: a Python file")
    entry.add_argument("-pym", "--pyModule", "--py-module", dest="module", metavar="MODULE",
                       help="the program: a module (found on sys.path or in -pyfs)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--master", "-m", metavar="URL",
                       help="Spark master: local[N] (default local[*]) or spark://host:port")
    where.add_argument("--remote", metavar="URL", help="a Spark Connect server: sc://host:port")
    p.add_argument("-pyfs", "--pyFiles", "--py-files", dest="py_files", metavar="FILES",
                   action="append", default=[],
                   help="comma-separated .py files, directories, .zip/.egg/.whl, importable "
                        "by the program and its user functions")
    p.add_argument("-pyreq", "--pyRequirements", "--py-requirements", dest="requirements",
                   metavar="FILE[#DIR]", help="requirements.txt installed for the workers "
                   "(#DIR: offline packages)")
    p.add_argument("-pyarch", "--pyArchives", "--py-archives", dest="archives",
                   metavar="ARCHIVES", action="append", default=[],
                   help="comma-separated archives (zip, tar) extracted in the workers' "
                        "working directory: path[#dir]")
    p.add_argument("-pyexec", "--pyExecutable", "--py-executable", dest="python_executable",
                   metavar="PATH", help="the Python of the workers (may be inside -pyarch)")
    p.add_argument("--conf", "-c", metavar="KEY=VALUE", action="append", default=[],
                   help="a Spark configuration property (repeatable)")
    p.add_argument("--jars", "-j", metavar="JARS", action="append", default=[],
                   help="comma-separated jars for Spark's JVM")
    p.add_argument("--packages", metavar="COORDINATES", action="append", default=[],
                   help="comma-separated Maven coordinates group:artifact:version")
    p.add_argument("-p", "--parallelism", type=int, metavar="N",
                   help="the default parallelism of jobs")
    p.add_argument("--name", metavar="NAME", help="the Spark application name")
    return p


def split_program_args(argv: Sequence[str]) -> Tuple[List[str], List[str]]:
    """Options up to the program (``-py FILE`` / ``-pym MODULE``), and the program's args."""
    argv = list(argv)
    for i, arg in enumerate(argv):
        if arg in ENTRY:
            return argv[:i + 2], argv[i + 2:]
        if arg.startswith(tuple(e + "=" for e in ENTRY if e.startswith("--"))):
            return argv[:i + 1], argv[i + 1:]
    return argv, []


def _commas(values: List[str]) -> List[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _conf(pairs: List[str], p: argparse.ArgumentParser) -> Dict[str, str]:
    conf = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            p.error("--conf expects KEY=VALUE, got %r" % pair)
        conf[key.strip()] = value.strip()
    return conf


def settings_from(options: argparse.Namespace, p: argparse.ArgumentParser):
    """The session settings the options ask for (on top of PYSTREAM_* variables)."""
    conf = _conf(options.conf, p)
    if options.parallelism:
        conf["spark.default.parallelism"] = str(options.parallelism)
    return from_layers(environment_layer(os.environ), {
        "master": options.master, "remote": options.remote, "app_name": options.name,
        "conf": conf, "py_files": [_absolute(f) for f in _commas(options.py_files)],
        "jars": _commas(options.jars), "packages": _commas(options.packages),
        "requirements": _absolute(options.requirements) if options.requirements else None,
        "archives": [_absolute(a) for a in _commas(options.archives)],
        "python_executable": options.python_executable})


def _absolute(spec: str) -> str:
    """A local path (with an optional ``#suffix``) made absolute."""
    path, sep, suffix = spec.partition("#")
    if "://" not in path:
        path = os.path.abspath(path)
    return path + sep + suffix


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread as Ctrl-C's KeyboardInterrupt is, so that it stops
    the running jobs the same way."""


@contextlib.contextmanager
def sigterm_stops_jobs():
    """While inside: SIGTERM of this process raises ``Terminated`` in the main thread, which
    cancels the job being waited for as Ctrl-C does (its streaming queries stop after their
    current micro-batch) and ends the command; a second SIGTERM ends the process at once.
    Outside: the handler there was before."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        raise Terminated("SIGTERM")

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        if previous is not None:  # None: a handler not set from Python, which stays
            signal.signal(signal.SIGTERM, previous)


def _interrupted(interrupt: KeyboardInterrupt, what: str = "") -> int:
    """The message and exit status of Ctrl-C (130) or SIGTERM (143)."""
    terminated = isinstance(interrupt, Terminated)
    print("pystream: %s%s" % ("terminated (SIGTERM)" if terminated else "interrupted", what),
          file=sys.stderr, flush=True)
    return 128 + (signal.SIGTERM if terminated else signal.SIGINT)


def run(argv: Sequence[str]) -> int:
    """``pystream run ...``: the exit status."""
    p = parser()
    options_argv, program_args = split_program_args(argv)
    options = p.parse_args(options_argv)
    if options.remote and options.python_executable:
        p.error("-pyexec is not available with --remote: a Spark Connect server runs user "
                "functions with its own Python (start it with PYSPARK_PYTHON=%s)"
                % options.python_executable)
    if options.python and not os.path.isfile(options.python):
        p.error("no such program file: %s" % options.python)
    with sigterm_stops_jobs():
        return _run_program(options, program_args, p)


def _run_program(options: argparse.Namespace, program_args: List[str],
                 p: argparse.ArgumentParser) -> int:
    s = session.configure(settings_from(options, p))
    try:
        dependencies.client_bundle(s.py_files).install()  # importable here too, as in Flink
        if options.python:
            script = os.path.abspath(options.python)
            sys.argv = [script] + program_args
            sys.path.insert(0, os.path.dirname(script))
            runpy.run_path(script, run_name="__main__")
        else:
            sys.argv = [options.module] + program_args
            sys.path.insert(0, os.getcwd())
            runpy.run_module(options.module, run_name="__main__", alter_sys=True)
        return 0
    except PystreamError as e:
        print("pystream: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        return 1
    except (FileNotFoundError, ConnectionError) as e:
        print("pystream: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt as e:
        return _interrupted(e)
    except SystemExit as e:
        return _exit_status(e.code)
    except Exception as e:  # noqa: BLE001 - the program's own bug: its traceback, shortened
        _print_program_error(e)
        return 1
    finally:
        session.stop_session()


def _exit_status(code) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _print_program_error(error: BaseException) -> None:
    """The traceback from the program's first frame on (not runpy's, not ours)."""
    tb = error.__traceback__
    here = (os.path.abspath(__file__), os.path.abspath(runpy.__file__))
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) in here:
        tb = tb.tb_next
    traceback.print_exception(type(error), error, tb, file=sys.stderr)


USAGE = """usage: pystream run [options] (-py FILE | -pym MODULE) [program args...]
       pystream sql [options] [-f FILE.sql]
       pystream server (start | stop | status)
       pystream jvm-archive
       pystream --version

Commands:
  run     run a pystream program (pystream run --help for its options)
  sql     run a Flink SQL script, like Flink's sql-client.sh -f; without -f, a Flink SQL
          prompt (pystream-shell --sql)
  server  a warm local Spark Connect server: while it runs, jobs that name no master or
          remote use it and start in a fraction of the time (PYSTREAM_SERVER=off: they don't)
  jvm-archive
          make this machine's archive of Spark's classes, from which the local Spark JVMs
          pystream starts load them (they start in about half the time); the bin/ scripts'
          first run makes it
"""


def sql_parser() -> argparse.ArgumentParser:
    """The options of ``pystream sql``: the script, where to run it, and its mode."""
    p = argparse.ArgumentParser(
        prog="pystream sql", allow_abbrev=False,
        description="Run a Flink SQL script (statements separated by ';') on Spark, printing "
                    "each statement's result as Flink's SQL client does in tableau mode.")
    p.add_argument("-f", "--file", metavar="FILE.sql",
                   help="the script (none: a Flink SQL prompt, pystream-shell --sql)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--master", "-m", metavar="URL",
                       help="Spark master: local[N] (default local[*]) or spark://host:port")
    where.add_argument("--remote", metavar="URL", help="a Spark Connect server: sc://host:port")
    p.add_argument("--batch", action="store_true",
                   help="BATCH mode (default STREAMING, as in Flink's SQL client; a script's "
                        "SET 'execution.runtime-mode' = 'batch' also switches)")
    p.add_argument("--conf", "-c", metavar="KEY=VALUE", action="append", default=[],
                   help="a Spark configuration property (repeatable)")
    return p


def run_sql(argv: Sequence[str]) -> int:
    """``pystream sql -f script.sql``: runs the statements in order; the first failing one
    prints its error (with the line and a caret for SQL that does not parse) and exits 1."""
    p = sql_parser()
    options = p.parse_args(list(argv))
    if options.file is None:
        return _sql_prompt(options)
    if not os.path.isfile(options.file):
        p.error("no such SQL script: %s" % options.file)
    with sigterm_stops_jobs():
        return _run_script(options, p)


def _run_script(options: argparse.Namespace, p: argparse.ArgumentParser) -> int:
    from pystream.sql.parse import iter_statements
    from pystream.sql.statements import execute_parsed

    session.configure(from_layers(environment_layer(os.environ), {
        "master": options.master, "remote": options.remote, "conf": _conf(options.conf, p)}))
    settings = (EnvironmentSettings.in_batch_mode() if options.batch
                else EnvironmentSettings.in_streaming_mode())
    t_env = TableEnvironment.create(settings)
    try:
        with open(options.file, encoding="utf-8") as f:
            script = f.read()
        for statement in iter_statements(script):
            execute_parsed(t_env, statement).print()
        return _wait_for_streaming_jobs()
    except PystreamError as e:
        print("pystream: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        return 1
    except KeyboardInterrupt as e:
        return _interrupted(e)
    finally:
        session.stop_session()


def _wait_for_streaming_jobs() -> int:
    """After a script: its streaming INSERTs run until they end (unbounded ones until
    Ctrl-C or SIGTERM, which cancels them), as jobs a SQL client submitted keep running."""
    from pystream.compiler.job import unfinished_jobs

    running = unfinished_jobs()
    if not running:
        return 0
    print("pystream: %d streaming job(s) running; Ctrl-C stops them" % len(running),
          file=sys.stderr, flush=True)
    try:
        for job in running:
            job.result()
    except KeyboardInterrupt as e:
        for job in running:
            job.cancel()
        return _interrupted(e, "; the jobs are stopped")
    except PystreamError as e:
        print("pystream: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        return 1
    return 0


def _sql_prompt(options) -> int:
    """``pystream sql`` without a script: the shell's Flink SQL prompt."""
    where = ["--master", options.master] if options.master else \
        ["--remote", options.remote] if options.remote else []
    conf = [a for kv in options.conf for a in ("--conf", kv)]
    if options.batch:
        print("pystream: the SQL prompt runs in STREAMING mode; SET "
              "'execution.runtime-mode' = 'batch' is not built for it", file=sys.stderr)
    return shell(["--sql", *where, *conf])


def run_server(argv: Sequence[str]) -> int:
    """``pystream server start|stop|status``."""
    return server.main(argv)


def make_jvm_archive(argv: Sequence[str]) -> int:
    """``pystream jvm-archive``: make (again) the class archive of this Java and Spark."""
    if argv:
        print("usage: pystream jvm-archive", file=sys.stderr)
        return 2
    try:
        path = jvm_archive.build_archive(session.find_java(), session.jvm_spark_home())
    except RuntimeError as e:
        print("pystream: %s" % e, file=sys.stderr)
        return 1
    print("pystream: JVMs started on this machine load Spark's classes from %s" % path)
    return 0


def version_text() -> str:
    """pystream's version and those of what it runs on (no Spark is started)."""
    from importlib.metadata import version


    return "pystream %s (pyspark %s, Python %s)" % (
        pystream.__version__, version("pyspark"), platform.python_version())


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The ``pystream`` command."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE, end="")
        return 0 if argv else 2
    if argv[0] in ("--version", "-V"):
        print(version_text())
        return 0
    commands = {"run": run, "sql": run_sql, "server": run_server,
                "jvm-archive": make_jvm_archive}
    if argv[0] not in commands:
        print("pystream: unknown command %r\n%s" % (argv[0], USAGE), end="", file=sys.stderr)
        return 2
    return commands[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main())
