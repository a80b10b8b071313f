"""Every source and sink pystream runs, in two explicit tables (as Beam's direct runner maps
primitives to evaluators).

``SOURCES`` maps a source class to its translation ``(source, compiler, node: graph.Source)
-> Flow``, ``SINKS`` a sink class to its planner ``(sink, compiler, node: graph.Sink) ->
SinkPlan``; ``compiler.sources`` and ``compiler.sinks`` look them up with ``lookup``. The
tables are built from plain imports: nothing registers itself when imported, and the modules
here import only ``source_helpers``/``sink_helpers``, never ``sources``/``sinks``.
"""
from __future__ import annotations

from typing import Callable, Dict, Optional

from pystream.compiler.connectors import builtin, files, jdbc, kafka, table
from pystream.core.connectors.client import CollectSink, PrintSink
from pystream.core.connectors.collection import CollectionSource, SocketSource
from pystream.core.connectors.datagen import DataGeneratorSource
from pystream.core.connectors.discarding import DiscardingSink
from pystream.core.connectors.file_system import FileSink, FileSource
from pystream.core.connectors.jdbc import JdbcSink
from pystream.core.connectors.kafka import KafkaSink, KafkaSource
from pystream.core.connectors.number_seq import NumberSequenceSource
from pystream.core.connectors.table import TableCollectSink, TableConnectorSink, TableSource

SOURCES: Dict[type, Callable] = {
    CollectionSource: builtin.collection_source,
    NumberSequenceSource: builtin.number_sequence_source,
    DataGeneratorSource: builtin.data_generator_source,
    SocketSource: builtin.socket_source,
    TableSource: table.table_source,
    FileSource: files.file_source,
    KafkaSource: kafka.kafka_source,  # also FlinkKafkaConsumer
}

SINKS: Dict[type, Callable] = {
    PrintSink: builtin.print_sink,
    CollectSink: builtin.collect_sink,
    DiscardingSink: builtin.discarding_sink,
    TableCollectSink: table.table_collect_sink,
    TableConnectorSink: table.table_connector_sink,
    FileSink: files.file_sink,  # also StreamingFileSink
    JdbcSink: jdbc.jdbc_sink,
    KafkaSink: kafka.kafka_sink,  # also FlinkKafkaProducer
}


def lookup(entries: Dict[type, Callable], obj: object) -> Optional[Callable]:
    """The entry of ``obj``'s class, or of its nearest base class that has one (a subclass of
    a connector runs as the connector), or None."""
    for cls in type(obj).__mro__:
        if cls in entries:
            return entries[cls]
    return None
