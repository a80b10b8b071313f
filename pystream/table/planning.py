"""The plan of a Table's query (for the shell's previews, ``%watch`` and ``%explain``): the
same ``Plan`` value a DataStream job has, made by ``pystream.plan.plan_query``."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional

from pystream.plan import JobSettings, Plan, plan_query
from pystream.relational import operations as ops
from pystream.table.table import Table
from pystream.table.table_config import TableConfig

__all__ = ["TableQuery", "plan_of", "query_plan"]


@dataclass(frozen=True, eq=False)
class TableQuery:
    """What runs a table environment's queries: its mode and configuration, and the settings
    of the stream environment its unbounded queries run in as streaming jobs (a
    StreamTableEnvironment's, else a default one's) (a query's ``Plan.query``)."""

    streaming: bool
    config: TableConfig
    env_parallelism: Optional[int] = None  # a StreamExecutionEnvironment's own setting
    stream_settings: JobSettings = field(default_factory=JobSettings)

    @property
    def parallelism(self) -> int:
        """``parallelism.default``, else the stream environment's parallelism, else the number
        of cores, as Flink's local default."""
        value = self.config.get("parallelism.default")
        if value:
            return int(value)
        return self.env_parallelism or os.cpu_count() or 1


def plan_of(table: Table) -> Plan:
    """The plan of ``table``'s query in its environment. Pure: no Spark.

    >>> plan_of(t_env.sql_query("SELECT 1")).stages            # doctest: +SKIP
    """
    return query_plan(table._rel, table._t_env._query())


def query_plan(rel: ops.Rel, query: TableQuery) -> Plan:
    """The plan of the relational query ``rel``, run by ``query`` (its environment's mode and
    configuration): what ``pystream.compiler.table_job.TableJob`` executes."""
    settings = JobSettings(job_name=query.config.get("pipeline.name") or "collect",
                           runtime_mode="STREAMING" if query.streaming else "BATCH",
                           batch=not query.streaming, parallelism=query.parallelism)
    return plan_query(rel, settings, query)
