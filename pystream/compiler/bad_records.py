"""Records that do not parse, as Flink treats them, in Spark expressions (no Python per row).

By default a record of a ``csv`` or ``json`` table that does not fit its columns fails the job;
the error names the table, where the record is (the file, or the Kafka topic, partition and
offset) and shows its text. With ``<format>.ignore-parse-errors`` the fields that do not parse
are NULL (Flink's rule); a JSON record that is not JSON at all is skipped.

Spark parses in PERMISSIVE mode into the columns plus ``CORRUPT`` (the record's text where it
did not parse); ``checked`` turns that column into Flink's failure or leniency.
``explained`` adds the line number to the failure of a local file, on the driver. In a
streaming query, a lenient source counts the records that did not parse in each micro-batch
(an observed metric, ``unparsed_counts`` of the query's progress).
"""
from __future__ import annotations

import re
import uuid
from typing import Dict, List
from urllib.parse import unquote, urlparse

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as st

__all__ = ["CORRUPT", "PARSER_OPTIONS", "with_corrupt_column", "checked", "explained",
           "unparsed_counts"]

CORRUPT = "__corrupt"
UNPARSED = "pystream.unparsed "  # the observed metric counting a lenient source's bad records
PARSER_OPTIONS = {"mode": "PERMISSIVE", "columnNameOfCorruptRecord": CORRUPT}
_FAILURE = re.compile(r"Table '(?P<table>[^']*)' \((?P<fmt>[\w-]+)\): the record at "
                      r"(?P<where>.*?) (?P<rest>does not parse: '.*)", re.S)


def with_corrupt_column(schema: st.StructType) -> st.StructType:
    """``schema`` plus the column Spark puts a record's text in when it does not parse."""
    return st.StructType(schema.fields + [st.StructField(CORRUPT, st.StringType(), True)])


def ignores_errors(options: dict, fmt: str, prefix: str = "") -> bool:
    return options.get("%s%s.ignore-parse-errors" % (prefix, fmt), "false") == "true"


def checked(df: DataFrame, table: str, fmt: str, names: List[str], where: Column,
            lenient: bool) -> DataFrame:
    """``df`` (``names`` and ``CORRUPT``) without ``CORRUPT``: a record that did not parse
    fails the query (naming ``table`` and ``where`` the record is), or with ``lenient`` keeps
    the fields that parsed (a JSON text that is not JSON at all is dropped)."""
    bad = F.col(CORRUPT).isNotNull()
    if lenient:
        df = df.observe(UNPARSED + "%s (%s) %s" % (table, fmt, uuid.uuid4().hex[:8]),
                        F.count_if(bad).alias("records"))
        if fmt == "json":
            df = df.where(~bad | F.get_json_object(F.col(CORRUPT), "$").isNotNull())
        return df.drop(CORRUPT)
    # the parsed values are in the message: it shows what went NULL, and Spark parses every
    # column (a column no one read would not be parsed, nor its error found)
    parsed = F.concat_ws(", ", *[F.coalesce(F.col("`%s`" % n).cast("string"), F.lit("NULL"))
                                 for n in names])
    message = F.concat(
        F.lit("Table '%s' (%s): the record at " % (table, fmt)), where,
        F.lit(" does not parse: '"), F.col(CORRUPT), F.lit("' (read as ("), parsed,
        F.lit("); set '%s.ignore-parse-errors' = 'true' to read its fields that parse "
              "and NULL for the others)" % fmt))
    # not deterministic on purpose: Spark then moves no filter of the query below this one,
    # where it could drop a bad record unseen (e.g. the IS NOT NULL it infers from 'n > 0')
    barrier = F.spark_partition_id() >= 0
    return df.where(F.when(bad & barrier, F.raise_error(message)).isNull()).drop(CORRUPT)


def file_location() -> Column:
    """Where a record of a file source is: its file (a line number is added on failure)."""
    return F.col("_metadata.file_path")


def kafka_location() -> Column:
    return F.concat(F.lit("topic "), F.col("topic"), F.lit(" partition "),
                    F.col("partition").cast("string"), F.lit(" offset "),
                    F.col("offset").cast("string"))


def explained(message: str) -> str:
    """The failure ``checked`` raised, with the record's line number when its file is local
    (the first line of that text)."""
    found = _FAILURE.search(message)
    if not found:
        return message
    where = found.group("where")
    text = found.group("rest")[len("does not parse: '"):].split("' (read as", 1)[0]
    url = urlparse(where)
    if url.scheme == "file" and url.path:
        try:
            with open(unquote(url.path), encoding="utf-8", errors="replace") as lines:
                for number, line in enumerate(lines, 1):
                    if line.rstrip("\r\n") == text:
                        where = "line %d of %s" % (number, unquote(url.path))
                        break
        except OSError:
            pass
    return "Table '%s' (%s): the record at %s %s" % (
        found.group("table"), found.group("fmt"), where, found.group("rest").strip())


def unparsed_counts(progress) -> Dict[str, int]:
    """Records that did not parse in the micro-batch of a streaming query's ``progress``, per
    lenient table (``"products (csv)"``); only tables that had some."""
    counts: Dict[str, int] = {}
    for name, row in (progress.get("observedMetrics") or {}).items():
        if name.startswith(UNPARSED) and row["records"]:
            table = name[len(UNPARSED):].rsplit(" ", 1)[0]
            counts[table] = counts.get(table, 0) + int(row["records"])
    return counts
