"""The plan of what one DataStream computes (for the shell's previews, ``%watch`` and
``%explain``): the same ``pystream.plan.plan`` a job's ``execute()`` starts from."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Optional, Tuple

from pystream import graph
from pystream.datastream.data_stream import DataStream
from pystream.datastream.execution_mode import RuntimeExecutionMode
from pystream.datastream.keyed_functions import RollingReduce
from pystream.plan import Plan, plan

__all__ = ["plan_of", "record_key"]


def plan_of(ds: DataStream, runtime_mode: Optional[RuntimeExecutionMode] = None) -> Plan:
    """The plan of ``ds``'s records (a KeyedStream's values) with its environment's settings;
    ``runtime_mode`` overrides the environment's (STREAMING keeps streaming queries: a
    bounded stateless stream then does not run as a batch job either). Pure: no Spark.

    >>> plan_of(env.from_collection([1, 2]).map(str)).stages    # doctest: +SKIP
    """
    settings = ds.get_execution_environment().job_settings()
    if runtime_mode is not None:
        settings = replace(settings, runtime_mode=runtime_mode.name,
                           may_run_as_batch=runtime_mode is not RuntimeExecutionMode.STREAMING
                           and settings.may_run_as_batch)
    return plan([ds._values_node()], settings)


def record_key(ds: DataStream) -> Tuple[Callable, str]:
    """The key of a stream's records and its words for it (for a view of the latest record
    per key): a KeyedStream's key selector; the key of a rolling reduce or aggregation
    (``sum``, ``max``...: its results are records of its input's type); else the first
    field."""
    from pystream.runtime.stage import bind

    node = ds._node
    if isinstance(node, graph.KeyBy):
        return bind("key", node.key_selector), "the stream's key"
    if isinstance(node, graph.Keyed) and isinstance(node.function, RollingReduce):
        return bind("key", node.input.key_selector), "the key of %s" % node.meta.name
    return _first_field, "the first field"


def _first_field(record):
    if isinstance(record, (tuple, list)) or hasattr(record, "_values"):
        return record[0] if len(record) else None
    return record
