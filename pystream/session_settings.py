"""``SessionSettings``: how the Spark session starts, read once from its layers.

A layer is a dict with ``SessionSettings``' field names, made by one reader per source: the
shell's config file (``pyshell.launcher``), the ``PYSTREAM_*`` environment variables
(``environment_layer``, the only reader of those variables) and a command line
(``pystream run``, ``pystream sql``, ``pystream-shell``). ``from_layers`` merges them, later
layers winning: ``conf`` key by key, ``master`` and ``remote`` replacing each other, and lists
of dependencies added up. The result is passed down (``session.configure``); nothing else
reads settings.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from typing import Dict, List, Mapping, Optional

__all__ = ["SessionSettings", "environment_layer", "from_layers", "read_environment",
           "public_url"]

LISTS = ("py_files", "jars", "packages", "archives", "classpaths")


@dataclass(frozen=True)
class SessionSettings:
    """How to start the session (from CLI options, PYSTREAM_* variables or a config file).

    ``py_files``, ``requirements``, ``archives`` and ``python_executable`` are the Python
    dependencies of every job of the process (``pystream run -pyfs/-pyreq/-pyarch/-pyexec``),
    in PyFlink's formats (``requirements.txt#cache_dir``, ``venv.zip#alias``); ``jars``,
    ``packages`` (Maven coordinates) and ``classpaths`` go to the session's JVM.
    """

    master: Optional[str] = None
    remote: Optional[str] = None
    app_name: str = "pystream"
    conf: Dict[str, str] = field(default_factory=dict)
    py_files: List[str] = field(default_factory=list)
    jars: List[str] = field(default_factory=list)
    packages: List[str] = field(default_factory=list)
    requirements: Optional[str] = None
    archives: List[str] = field(default_factory=list)
    python_executable: Optional[str] = None
    classpaths: List[str] = field(default_factory=list)

    @property
    def effective_master(self) -> str:
        return self.master or "local[*]"

    @property
    def is_remote(self) -> bool:
        return bool(self.remote)


def public_url(url: str) -> str:
    """A Spark Connect URL as it may be shown: ``sc://host:port`` without its parameters
    (``/;token=...`` is a secret)."""
    return url.split("/;", 1)[0].rstrip("/") if url.startswith("sc://") else url


def _items(text: str, sep: str) -> List[str]:
    return [item.strip() for item in text.split(sep) if item.strip()]


def conf_pairs(items: List[str], what: str) -> Dict[str, str]:
    """``KEY=VALUE`` items as a dict; ``ValueError`` naming ``what`` for a malformed one."""
    conf = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError("%s: expected KEY=VALUE, got %r" % (what, item))
        conf[key.strip()] = value.strip()
    return conf


def environment_layer(environ: Mapping[str, str]) -> dict:
    """The settings given by ``PYSTREAM_*`` variables (only those that are set)."""
    layer: dict = {}
    for key, name in (("master", "PYSTREAM_MASTER"), ("app_name", "PYSTREAM_NAME"),
                      ("requirements", "PYSTREAM_REQUIREMENTS"),
                      ("python_executable", "PYSTREAM_PYTHON_EXECUTABLE")):
        if environ.get(name):
            layer[key] = environ[name]
    remote = environ.get("PYSTREAM_REMOTE") or environ.get("SPARK_REMOTE")
    if remote:
        layer["remote"] = remote
    for key in LISTS:
        name = "PYSTREAM_" + key.upper()
        if environ.get(name):
            layer[key] = _items(environ[name], ",")
    if environ.get("PYSTREAM_CONF"):
        layer["conf"] = conf_pairs(_items(environ["PYSTREAM_CONF"], ";"), "PYSTREAM_CONF item")
    return layer


def from_layers(*layers: Mapping) -> SessionSettings:
    """The settings of ``layers`` merged, later ones winning (see the module's docstring)."""
    names = {f.name for f in fields(SessionSettings)}
    merged: dict = {"conf": {}}
    for layer in layers:
        unknown = set(layer) - names
        if unknown:
            raise ValueError("not a session setting: %s" % ", ".join(sorted(unknown)))
        if layer.get("master") or layer.get("remote"):
            merged.pop("master", None)
            merged.pop("remote", None)
        for key, value in layer.items():
            if value is None:
                continue
            if key == "conf":
                merged["conf"].update(value)
            elif key in LISTS:
                merged[key] = list(dict.fromkeys(merged.get(key, []) + list(value)))
            else:
                merged[key] = value
    return SessionSettings(**merged)


def read_environment(environ: Mapping[str, str] = os.environ) -> SessionSettings:
    """The settings of a process that was given none: its ``PYSTREAM_*`` variables."""
    return from_layers(environment_layer(environ))
