"""Tables in DataStream jobs: a Table's rows as a source (``to_data_stream``, and the source of
every STREAMING Table job over an unbounded table), and the sinks of such jobs."""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

from pystream.core.connectors.base import Boundedness, Sink, Source

__all__ = ["TableSource", "TableConnectorSink", "TableCollectSink"]


class TableSource(Source):
    """The rows of a table query: ``job`` (a ``TableJob``) runs ``rel`` (a relational plan)."""

    def __init__(self, job: Any, rel: Any, bounded: bool = True):
        self.job = job
        self.rel = rel
        self._bounded = bounded

    def get_boundedness(self) -> Boundedness:
        return Boundedness.BOUNDED if self._bounded else Boundedness.CONTINUOUS_UNBOUNDED


class TableConnectorSink(Sink):
    """The connector table an INSERT writes (print, blackhole, filesystem, kafka,
    upsert-kafka)."""

    def __init__(self, name: str, options: Dict[str, str], physical: Any,
                 partition_keys: Tuple[str, ...] = (), primary_key: Tuple[str, ...] = (),
                 metadata: Optional[Dict[str, str]] = None):
        self.name = name
        self.options = dict(options)
        self.physical = physical  # the columns written: physical and metadata ones
        self.partition_keys = tuple(partition_keys)
        self.primary_key = tuple(primary_key)
        self.metadata = dict(metadata or {})  # metadata column -> its key

    def __repr__(self):
        return "TableSink(%s, %s)" % (self.name, self.options.get("connector"))


class TableCollectSink(Sink):
    """Hands a query's rows (lists of Rows with their row kinds) to its result's iterator."""

    def __init__(self):
        self.consumer: Optional[Callable[[List[Any]], None]] = None
