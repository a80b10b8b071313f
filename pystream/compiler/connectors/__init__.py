"""Translations of the connector sources and sinks (files, Kafka, JDBC, ...).

Each module registers its functions on ``sources.translate_source`` and ``sinks.sink_plan``;
importing this package registers them all.
"""
from pystream.compiler.connectors import files, jdbc, kafka, table  # noqa: F401
