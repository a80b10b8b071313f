"""The plan: how a job graph runs, decided once, as a value.

``plan(roots, settings) -> Plan`` is pure: no Spark, no I/O. The compiler executes a
``Plan`` (``pystream.compiler``) and the shell renders one (``%explain``); both read the
same decisions. ``JobSettings`` is the snapshot of an environment's settings it starts from.
"""
from pystream.plan.planner import (
    CHAIN,
    CHAIN_BREAK,
    EXCHANGE,
    HASH,
    REBALANCE,
    Operator,
    Plan,
    Stage,
    plan,
)
from pystream.plan.relational import plan_query
from pystream.plan.settings import JobSettings

__all__ = ["Plan", "Stage", "Operator", "plan", "plan_query", "JobSettings", "CHAIN", "REBALANCE",
           "CHAIN_BREAK", "HASH", "EXCHANGE"]
