"""Flink SQL's ``jdbc`` connector over the DataStream JdbcSink's writer (PostgreSQL, SQLite).

A scan reads the table with ``SELECT`` in Spark's Python workers (``runtime.jdbc
.JdbcTableRead``, the database's Python driver, as JdbcSink writes). A sink with a primary
key writes upserts (``INSERT ... ON CONFLICT (key) DO UPDATE``) and deletes; without one it
appends, as Flink's JDBC sink does.
"""
from __future__ import annotations

from typing import Dict, List, Tuple

from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F

from pystream.common.typeinfo import Types
from pystream.compiler.source_helpers import read_python_source
from pystream.compiler.table_connectors import required_option
from pystream.compiler.translate import Compiler
from pystream.core.connectors.jdbc import JdbcConnectionOptions, JdbcExecutionOptions, JdbcSink
from pystream.plan import JobSettings, plan
from pystream.relational import operations as ops
from pystream.relational.schema import Schema
from pystream.runtime import records
from pystream.runtime.jdbc import JdbcTableRead, JdbcWriteStage, write_batch

__all__ = ["read_jdbc", "jdbc_writer"]

OP = "__op"


def _connection(options: Dict[str, str], table: str):
    builder = JdbcConnectionOptions.JdbcConnectionOptionsBuilder() \
        .with_url(required_option(options, "url", table))
    if options.get("driver"):
        builder.with_driver_name(options["driver"])
    if options.get("username"):
        builder.with_user_name(options["username"])
    if options.get("password"):
        builder.with_password(options["password"])
    return builder.build()


def read_jdbc(node: ops.ConnectorScan, spark, streaming: bool, compiler=None) -> DataFrame:
    """The rows of a ``jdbc`` table (a bounded scan, in BATCH and STREAMING mode)."""
    from pyspark.sql import types as st


    options = node.options
    schema = st.StructType([st.StructField(f.name, f.data_type.spark_type(), True)
                            for f in node.physical])
    spec = JdbcTableRead(_connection(options, node.name),
                         required_option(options, "table-name", node.name),
                         list(node.physical.names),
                         schema, int(options.get("scan.fetch-size", "0")) or 10000)
    return read_python_source(Compiler(spark, plan((), JobSettings(batch=True))), spec)


def _identifier(name: str) -> str:
    return '"%s"' % name.replace('"', '""')


def _statements(table: str, names: List[str], key: Tuple[str, ...]) -> Tuple[str, str]:
    """(the statement writing a row, the statement deleting a key) in JDBC's ``?`` style."""
    columns = ", ".join(_identifier(n) for n in names)
    values = ", ".join("?" for _ in names)
    insert = "INSERT INTO %s (%s) VALUES (%s)" % (table, columns, values)
    if not key:
        return insert, ""
    others = [n for n in names if n not in key]
    conflict = ", ".join(_identifier(k) for k in key)
    update = ("DO UPDATE SET " + ", ".join("%s = EXCLUDED.%s" % (_identifier(n), _identifier(n))
                                           for n in others)) if others else "DO NOTHING"
    upsert = "%s ON CONFLICT (%s) %s" % (insert, conflict, update)
    delete = "DELETE FROM %s WHERE %s" % (table, " AND ".join("%s = ?" % _identifier(k)
                                                              for k in key))
    return upsert, delete


def jdbc_writer(options: Dict[str, str], schema: Schema, table: str,
                primary_key: Tuple[str, ...] = ()):
    """The function writing a batch of a query's rows to the ``jdbc`` table ``table``:
    ``send(df, batch_id, query)``. A changelog (``__op``) is applied per key: each key's last
    change in the batch is an upsert (+I, +U) or a delete (-D)."""
    connection = _connection(options, table)
    target = required_option(options, "table-name", table)
    names = list(schema.names)
    write_sql, delete_sql = _statements(target, names, primary_key)
    execution = JdbcExecutionOptions.builder().with_batch_size(
        int(options.get("sink.buffer-flush.max-rows", "0")) or 5000) \
        .with_max_retries(int(options.get("sink.max-retries", "3"))).build()
    label = "Sink: %s" % table

    def stage(sql: str, fields: List[str]):
        types = [schema.field(n).data_type.to_type_info() for n in fields]
        type_info = Types.ROW(types)
        columns = [F.col(_quoted(n)).cast(t).alias(c) for n, t, c in zip(
            fields, records.column_types(type_info), records.column_names(type_info))]
        return JdbcWriteStage(JdbcSink.sink(sql, type_info, connection, execution), type_info,
                              label), columns

    writes, write_columns = stage(write_sql, names)
    deletes, delete_columns = stage(delete_sql, list(primary_key)) if primary_key else \
        (None, [])

    def send(df: DataFrame, batch_id=None, query: str = "") -> None:
        if OP not in df.columns:
            write_batch(df.select(*write_columns), writes)
            return
        last = Window.partitionBy(*[F.col(_quoted(k)) for k in primary_key]).orderBy(
            F.col("__order").desc())
        changes = df.withColumn("__order", F.monotonically_increasing_id()) \
            .withColumn("__n", F.row_number().over(last)).where(F.col("__n") == 1)
        write_batch(changes.where(F.col(OP).isin(0, 2)).select(*write_columns), writes)
        write_batch(changes.where(F.col(OP) == 3).select(*delete_columns), deletes)

    return send


def _quoted(name: str) -> str:
    return "`%s`" % name
