"""The names the shell preloads: ``env``, ``spark`` and pystream's user-facing API.

Only pystream's API modules are imported here (they import no Spark), so the prompt comes
up at once; ``spark`` is a stand-in until the background session is up, then the session.
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Dict, List, Tuple

from pystream.datastream import StreamExecutionEnvironment
from pystream.table import EnvironmentSettings, StreamTableEnvironment, TableEnvironment

CORE = ("env", "spark", "Types", "Row", "WatermarkStrategy", "Duration", "Time",
        "StreamExecutionEnvironment", "DataStream", "KeyedStream", "WindowedStream",
        "RuntimeExecutionMode", "OutputTag")

# (group, module or package of modules, the names the banner shows): every public name
# (``__all__``) of each module is preloaded, in the first group that has it (CORE's in core)
GROUPS: Tuple[Tuple[str, str, Tuple[str, ...]], ...] = (
    ("common", "pystream.common", ("Configuration", "SimpleStringSchema", "JobStatus")),
    ("functions", "pystream.datastream.functions",
     ("MapFunction", "FlatMapFunction", "ReduceFunction", "AggregateFunction",
      "KeyedProcessFunction", "ProcessWindowFunction")),
    ("state", "pystream.datastream.state",
     ("ValueStateDescriptor", "ListStateDescriptor", "MapStateDescriptor",
      "ReducingStateDescriptor", "AggregatingStateDescriptor", "StateTtlConfig")),
    ("windows", "pystream.datastream.window",
     ("TumblingEventTimeWindows", "SlidingEventTimeWindows", "EventTimeSessionWindows",
      "TumblingProcessingTimeWindows", "CountTumblingWindowAssigner", "GlobalWindows")),
    ("connectors", "pystream.datastream.connectors",
     ("DataGeneratorSource", "NumberSequenceSource", "FileSource", "FileSink", "KafkaSource",
      "KafkaSink", "JdbcSink")),
    ("formats", "pystream.datastream.formats",
     ("CsvSchema", "CsvReaderFormat", "JsonReaderFormat", "AvroSchema")),
    ("datastream", "pystream.datastream", ()),
    ("datastream", "pystream.datastream.windowing", ()),
)
_INTERNAL_MODULES = ("base", "client", "collection")

# The Table API, name by name (pystream.table's modules hold internal names too); the table
# environments PyFlink's own shell preloaded are added by ``preload``.
TABLE_NAMES: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("pystream.table", ("TableEnvironment", "StreamTableEnvironment", "EnvironmentSettings",
                        "DataTypes", "Schema", "TableDescriptor", "FormatDescriptor",
                        "TableConfig", "ResultKind", "Table")),
    ("pystream.table.expressions", ("col", "lit", "call", "call_sql", "if_then_else",
                                    "row_interval", "null_of", "and_", "or_", "range_",
                                    "with_columns", "without_columns")),
    ("pystream.table.window", ("Tumble", "Slide", "Session", "Over")),
    ("pystream.table.udf", ("udf", "udtf", "udaf", "udtaf")),
)
TABLE_SHOWN = ("t_env", "bt_env", "DataTypes", "col", "lit", "Tumble", "Over", "udf")
TABLE_ENVS = ("t_env", "st_env", "bt_env")


def _modules(name: str) -> List[Any]:
    """The module ``name``, then the public modules of the package (connectors, formats)
    that import (a connector whose client library is missing is left out)."""
    package = importlib.import_module(name)
    found = [package]
    for info in pkgutil.iter_modules(getattr(package, "__path__", [])):
        if info.name.startswith("_") or info.name in _INTERNAL_MODULES:
            continue
        try:
            found.append(importlib.import_module("%s.%s" % (name, info.name)))
        except ImportError:
            continue
    return found


def api_names() -> Dict[str, Dict[str, Any]]:
    """pystream's preloaded API names, by group (core, common, functions, state, ...)."""
    groups: Dict[str, Dict[str, Any]] = {}
    found: Dict[str, Tuple[str, Any]] = {}
    for group, module_name, _ in GROUPS:
        for module in _modules(module_name):
            for name in getattr(module, "__all__", ()):
                if not name.startswith("_") and name not in found and hasattr(module, name):
                    found[name] = ("core" if name in CORE else group, getattr(module, name))
    for module_name, names in TABLE_NAMES:
        module = importlib.import_module(module_name)
        for name in names:
            if hasattr(module, name):
                found.setdefault(name, ("table", getattr(module, name)))
    for name, (group, value) in found.items():
        groups.setdefault(group, {})[name] = value
    return groups


def preload(spark: Any = None) -> Dict[str, Any]:
    """The shell's namespace: the API names, ``env`` (a StreamExecutionEnvironment) and
    ``spark`` (the session, or a stand-in for it while it starts)."""
    names: Dict[str, Any] = {}
    for group in api_names().values():
        names.update(group)
    names["env"] = StreamExecutionEnvironment.get_execution_environment()
    names["spark"] = spark
    names.update(table_environments(names["env"]))
    return names


def table_environments(env: Any) -> Dict[str, Any]:
    """``t_env`` (and PyFlink's shell's name for it, ``st_env``): a StreamTableEnvironment
    over ``env`` in STREAMING mode; ``bt_env`` a TableEnvironment in BATCH mode."""
    t_env = StreamTableEnvironment.create(env, EnvironmentSettings.in_streaming_mode())
    return {"t_env": t_env, "st_env": t_env, "s_env": env,
            "bt_env": TableEnvironment.create(EnvironmentSettings.in_batch_mode())}


def banner_groups() -> List[Tuple[str, List[str]]]:
    """The preloaded names as the banner lists them: (label, names); the core names, then
    a few of each group and how many it has."""
    groups = api_names()
    listed = [("core", [n for n in CORE if n in groups["core"] or n in ("env", "spark")])]
    for group, _, shown in GROUPS:
        names = groups.get(group, {})
        featured = [n for n in shown if n in names]
        if not featured:
            continue
        more = "… (%d in all)" % len(names) if len(names) > len(featured) else None
        listed.append((group, featured + ([more] if more else [])))
    table = groups.get("table", {})
    listed.append(("table", list(TABLE_SHOWN) + ["… (%d in all)" % (len(table) +
                                                                   len(TABLE_ENVS))]))
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
