"""The names the shell preloads: ``env``, ``spark`` and pystream's user-facing API.

Only pystream's API modules are imported here (they import no Spark), so the prompt comes
up at once; ``spark`` is a stand-in until the background session is up, then the session.
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Dict, List, Tuple

# (group, module, names or None for the module's __all__, required)
MODULES: Tuple[Tuple[str, str, Any, bool], ...] = (
    ("core", "pystream.common", ("Types", "Row", "WatermarkStrategy", "Duration", "Time"), True),
    ("core", "pystream.datastream", ("StreamExecutionEnvironment", "DataStream", "KeyedStream",
                                     "RuntimeExecutionMode", "OutputTag"), True),
    ("common", "pystream.common", None, True),
    ("functions", "pystream.datastream.functions", None, True),
    ("state", "pystream.datastream.state", None, True),
    ("windows", "pystream.datastream.window", None, False),
    ("connectors", "pystream.datastream.connectors", None, True),
)
_INTERNAL_CONNECTOR_MODULES = ("base", "client", "collection")


def _public(module) -> List[str]:
    return [n for n in getattr(module, "__all__", []) if not n.startswith("_")]


def _connector_modules() -> List[Any]:
    """Connector modules (kafka, file_system, ...) with their own ``__all__``."""
    import pystream.datastream.connectors as connectors

    found = []
    for info in pkgutil.iter_modules(connectors.__path__):
        if info.name.startswith("_") or info.name in _INTERNAL_CONNECTOR_MODULES:
            continue
        try:
            found.append(importlib.import_module("%s.%s" % (connectors.__name__, info.name)))
        except ImportError:  # a connector whose client library is missing
            continue
    return found


def api_names() -> Dict[str, Dict[str, Any]]:
    """pystream's preloaded API names, by group (core, common, functions, state, ...)."""
    groups: Dict[str, Dict[str, Any]] = {}
    seen = set()
    for group, module_name, names, required in MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            if required:
                raise
            continue
        modules = [module] + (_connector_modules() if group == "connectors" else [])
        for mod in modules:
            for name in (names if names is not None else _public(mod)):
                if name not in seen and hasattr(mod, name):
                    seen.add(name)
                    groups.setdefault(group, {})[name] = getattr(mod, name)
    return groups


def preload(spark: Any = None) -> Dict[str, Any]:
    """The shell's namespace: the API names, ``env`` (a StreamExecutionEnvironment) and
    ``spark`` (the session, or a stand-in for it while it starts)."""
    from pystream.datastream import StreamExecutionEnvironment

    names: Dict[str, Any] = {}
    for group in api_names().values():
        names.update(group)
    names["env"] = StreamExecutionEnvironment.get_execution_environment()
    names["spark"] = spark
    return names


BANNER_FUNCTIONS = ("MapFunction", "FlatMapFunction", "FilterFunction", "ReduceFunction",
                    "ProcessFunction", "KeyedProcessFunction")


def banner_groups() -> List[Tuple[str, List[str]]]:
    """The preloaded names as the banner lists them: (label, names), long groups cut short."""
    groups = api_names()
    functions = [n for n in groups.get("functions", {}) if n.endswith("Function")]
    listed = [
        ("core", ["env", "spark"] + list(groups.get("core", {}))),
        ("functions", [n for n in BANNER_FUNCTIONS if n in functions]
         + ["… (%d in all)" % len(functions)]),
        ("state", [n for n in groups.get("state", {}) if n.endswith("StateDescriptor")
                   and n != "StateDescriptor"] + ["StateTtlConfig"]),
    ]
    for group in ("windows", "connectors"):
        if groups.get(group):
            listed.append((group, list(groups[group])))
    common = list(groups.get("common", {}))
    listed.append(("common", common[:4] + ["… (%d in all)" % len(common)]))
    return listed


class SparkStandIn:
    """``spark`` while the session starts: any use waits for it (saying so), and the shell
    replaces this stand-in with the session once it is up."""

    def __init__(self, session_getter):
        self._get = session_getter

    def __getattr__(self, name: str):
        if name.startswith("_"):  # IPython's display and completion probes must not wait
            raise AttributeError(name)
        return getattr(self._get(), name)

    def __repr__(self) -> str:
        return "<spark: the SparkSession is starting; use it and the shell waits for it>"
