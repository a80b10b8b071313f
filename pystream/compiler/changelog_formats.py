"""Flink's changelog formats (``debezium-json``, ``canal-json``, ``maxwell-json``) as Spark
expressions: a record read is the list of changes it holds (row kind and row), a change
written is one JSON record. No Python per record.

What each format holds, as Flink reads and writes it:

* debezium-json: ``{"before": row, "after": row, "op": "c"|"r"|"u"|"d"}`` (inside
  ``"payload"`` with ``debezium-json.schema-include``); ``u`` is -U before, +U after.
* canal-json: ``{"data": [row...], "old": [changed fields...], "type": "INSERT"|"UPDATE"|
  "DELETE"}``; other types (DDL) are skipped; ``canal-json.database.include`` /
  ``table.include`` keep the records of matching databases and tables.
* maxwell-json: ``{"data": row, "old": changed fields, "type": "insert"|"update"|"delete"}``.

Written, +I and +U are inserts and -U and -D deletions (Flink writes an update as its two
halves).
"""
from __future__ import annotations

from typing import Dict, List

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F

from pystream.compiler.bad_records import CORRUPT, PARSER_OPTIONS, checked, ignores_errors
from pystream.plan.relational import CHANGELOG_FORMATS
from pystream.relational.schema import Field
from pystream.util.exceptions import ValidationException

__all__ = ["CHANGELOG_FORMATS", "changes", "encoded"]

INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE = 0, 1, 2, 3
TIMESTAMP_FORMAT = "yyyy-MM-dd HH:mm:ss[.SSSSSSSSS]"
CHANGE = "__change"


def _row_ddl(fields: List[Field]) -> str:
    return "struct<%s>" % ", ".join("`%s`: %s" % (f.name, f.data_type.spark_type().simpleString())
                                    for f in fields)


def _change(row: Column, op: int) -> Column:
    return F.struct(row.alias("row"), F.lit(op).alias("op"))


def _overlaid(row: Column, old: Column, fields: List[Field]) -> Column:
    """The row before an update: ``row`` with the fields ``old`` holds (the changed ones)."""
    return F.struct(*[F.coalesce(old[f.name], row[f.name]).alias(f.name) for f in fields])


def _debezium(parsed: Column, fields: List[Field], options: Dict[str, str]) -> Column:
    if options.get("debezium-json.schema-include", "false") == "true":
        parsed = parsed["payload"]
    before, after, op = parsed["before"], parsed["after"], parsed["op"]
    return F.when(op.isin("c", "r"), F.array(_change(after, INSERT))) \
        .when(op == "u", F.array(_change(before, UPDATE_BEFORE), _change(after, UPDATE_AFTER))) \
        .when(op == "d", F.array(_change(before, DELETE)))


def _canal(parsed: Column, fields: List[Field], options: Dict[str, str]) -> Column:
    data, old, kind = parsed["data"], parsed["old"], parsed["type"]
    inserts = F.transform(data, lambda r: _change(r, INSERT))
    deletes = F.transform(data, lambda r: _change(r, DELETE))
    updates = F.flatten(F.transform(data, lambda r, i: F.array(
        _change(_overlaid(r, old[i], fields), UPDATE_BEFORE), _change(r, UPDATE_AFTER))))
    empty = F.array().cast("array<struct<row: %s, op: int>>" % _row_ddl(fields))
    changes = F.when(kind == "INSERT", inserts).when(kind == "UPDATE", updates) \
        .when(kind == "DELETE", deletes).otherwise(empty)  # DDL and others: nothing
    for part, key in (("database", "canal-json.database.include"),
                      ("table", "canal-json.table.include")):
        if key in options:
            changes = F.when(parsed[part].rlike("^(%s)$" % options[key]), changes) \
                .otherwise(empty)
    return changes


def _maxwell(parsed: Column, fields: List[Field], options: Dict[str, str]) -> Column:
    data, old, kind = parsed["data"], parsed["old"], parsed["type"]
    return F.when(kind == "insert", F.array(_change(data, INSERT))) \
        .when(kind == "update", F.array(_change(_overlaid(data, old, fields), UPDATE_BEFORE),
                                        _change(data, UPDATE_AFTER))) \
        .when(kind == "delete", F.array(_change(data, DELETE)))


def _envelope(fmt: str, fields: List[Field], options: Dict[str, str]) -> List[str]:
    """The fields of a record of ``fmt`` (``name: type``) that its changes are read from."""
    row = _row_ddl(fields)
    if fmt == "debezium-json":
        body = ["before: %s" % row, "after: %s" % row, "op: string"]
        if options.get("debezium-json.schema-include", "false") == "true":
            return ["payload: struct<%s>" % ", ".join(body)]
        return body
    if fmt == "canal-json":
        return ["data: array<%s>" % row, "old: array<%s>" % row, "type: string",
                "database: string", "`table`: string"]
    return ["data: %s" % row, "old: %s" % row, "type: string"]


READERS = {"debezium-json": _debezium, "canal-json": _canal, "maxwell-json": _maxwell}


def changes(df: DataFrame, text: Column, fields: List[Field], fmt: str,
            options: Dict[str, str], table: str, where: Column,
            prefix: str = "") -> DataFrame:
    """Per record of ``df`` (its ``text`` in changelog format ``fmt``), its changes: the
    ``fields`` then ``__op`` and ``__sub`` (their order within the record); the columns of
    ``df`` other than ``value`` (the raw record) are kept. A record that does not parse (or
    holds no kind of change the format knows) fails as ``bad_records.checked`` says."""
    envelope = _envelope(fmt, fields, options) + ["`%s`: string" % CORRUPT]
    parsed = F.from_json(text, "struct<%s>" % ", ".join(envelope),
                         {**PARSER_OPTIONS, "timestampFormat": TIMESTAMP_FORMAT})
    found = READERS[fmt](parsed, fields, options)
    unknown = parsed[CORRUPT].isNull() & found.isNull()  # JSON, but no change of the format
    kept = [c for c in df.columns if c != "value"]
    df = df.select(*[F.col("`%s`" % c) for c in kept], found.alias(CHANGE),
                   F.when(unknown, text).otherwise(parsed[CORRUPT]).alias(CORRUPT),
                   where.alias("__where"))
    df = checked(df, table, fmt, [CHANGE], F.col("__where"),
                 ignores_errors(options, fmt, prefix)).drop("__where")
    exploded = df.select(*[F.col("`%s`" % c) for c in kept],
                         F.posexplode(CHANGE).alias("__sub", "__c"))
    return exploded.select(*[F.col("`%s`" % c) for c in kept],
                           *[F.col("__c.row")[f.name].alias(f.name) for f in fields],
                           F.col("__c.op").alias("__op"), F.col("__sub"))


def encoded(fields: List[Field], fmt: str, op: Column) -> Column:
    """The JSON record of one change (row kind ``op``) of the ``fields``."""
    row = F.struct(*[F.col("`%s`" % f.name) for f in fields])
    inserted = op.isin(INSERT, UPDATE_AFTER)
    options = {"ignoreNullFields": "false", "timestampFormat": "yyyy-MM-dd HH:mm:ss.SSS",
               "timestampNTZFormat": "yyyy-MM-dd HH:mm:ss.SSS"}
    if fmt == "debezium-json":
        none = F.lit(None).cast(_row_ddl(fields))
        record = F.struct(F.when(inserted, none).otherwise(row).alias("before"),
                          F.when(inserted, row).otherwise(none).alias("after"),
                          F.when(inserted, "c").otherwise("d").alias("op"))
    elif fmt == "canal-json":
        record = F.struct(F.array(row).alias("data"),
                          F.when(inserted, "INSERT").otherwise("DELETE").alias("type"))
    elif fmt == "maxwell-json":
        record = F.struct(row.alias("data"),
                          F.when(inserted, "insert").otherwise("delete").alias("type"))
    else:
        raise ValidationException("'%s' is not a changelog format (%s)." %
                                  (fmt, ", ".join(CHANGELOG_FORMATS)))
    return F.to_json(record, options)
