"""A Table's rows as the source of a DataStream (``StreamTableEnvironment.to_data_stream``)."""
from __future__ import annotations

from typing import Any

from pystream.datastream.connectors.base import Source


class TableSource(Source):
    """The rows of an insert-only table query: ``job`` runs ``rel`` (a relational plan)."""

    def __init__(self, job: Any, rel: Any):
        self.job = job
        self.rel = rel
