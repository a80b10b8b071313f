"""Lines of CSV as Flink's ``csv`` format writes them, as one Spark string column.

Flink writes CSV with Jackson's loose quoting: a text value is quoted when it is longer than
24 characters or has a character below the "safe" one (the largest of the field delimiter,
the quote character and the line feed, plus one: ``-`` for the defaults), so ``TEA`` stays
bare and ``x y`` or a timestamp (it has a space) is quoted, a quote inside doubled. NULL and
the empty string are both an empty field; numbers and booleans are bare, DOUBLE/FLOAT as
Java prints them, DECIMAL without trailing zeros as Java's ``BigDecimal`` prints that
(``12.30`` → ``12.3``, ``10.00`` → ``1E+1``); timestamps are ``yyyy-MM-dd HH:mm:ss`` and
the fraction without its trailing zeros. (Recorded on PyFlink 2.3: the oracle program
``tests/sql/programs/csv_as_flink_writes.py``.) Spark's own CSV writer can do none of the
rules above, hence the line is built here and written as text.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F

from pystream.common import data_types as T
from pystream.relational.schema import Field

LONGEST_UNQUOTED = 24
NUMBERS = (T.TinyIntType, T.SmallIntType, T.IntType, T.BigIntType, T.FloatType, T.DoubleType)
TEXTS = (T.CharType, T.VarCharType, T.DateType, T.TimeType, T.TimestampType,
         T.LocalZonedTimestampType)


def unpartitioned(fields: Sequence[Field], partition_keys: Sequence[str]) -> List[Field]:
    return [f for f in fields if f.name not in partition_keys]


def csv_lines(df: DataFrame, fields: Sequence[Field], partition_keys: Sequence[str],
              options: Dict[str, str]) -> DataFrame:
    """The partition columns and ``value``: each row's line of Flink's CSV."""
    line = csv_line(unpartitioned(fields, partition_keys), options)
    return df.select(*[F.col("`%s`" % k) for k in partition_keys], line.alias("value"))


def writes(fields: Sequence[Field]) -> bool:
    """Whether every field is of a type this module writes (else Spark's writer does)."""
    return all(isinstance(f.data_type, NUMBERS + TEXTS + (T.BooleanType, T.DecimalType))
               for f in fields)


def csv_line(fields: Sequence[Field], options: Dict[str, str]) -> Column:
    """The CSV line of each row's ``fields`` under the table's format options."""
    delimiter = options.get("csv.field-delimiter", ",")
    quote: Optional[str] = None if options.get("csv.disable-quote-character") == "true" \
        else options.get("csv.quote-character", '"')
    null = options.get("csv.null-literal", "")
    cells: List[Column] = []
    for f in fields:
        column = F.col("`%s`" % f.name)
        if isinstance(f.data_type, TEXTS):
            text = _quoted(_text(column, f.data_type), delimiter, quote)
        elif isinstance(f.data_type, T.DecimalType):
            text = _decimal(column)
        else:
            text = column.cast("string")
        cells.append(F.coalesce(text, F.lit(null)))
    return F.concat_ws(delimiter, *cells)


def _text(column: Column, data_type) -> Column:
    if isinstance(data_type, (T.TimestampType, T.LocalZonedTimestampType)):
        return _without_trailing_zeros(F.date_format(column, "yyyy-MM-dd HH:mm:ss.SSSSSS"))
    if isinstance(data_type, T.DateType):
        return F.date_format(column, "yyyy-MM-dd")
    return column.cast("string")


def _without_trailing_zeros(text: Column) -> Column:
    """``12.300`` → ``12.3``, ``5.000`` → ``5`` (the text has a fraction)."""
    return F.regexp_replace(F.regexp_replace(text, "0+$", ""), r"\.$", "")


def _quoted(text: Column, delimiter: str, quote: Optional[str]) -> Column:
    if quote is None:
        return text
    safe = max(ord(delimiter[0]), ord(quote), ord("\n")) + 1
    needs_quotes = (F.length(text) > LONGEST_UNQUOTED) | text.rlike(
        "[\\x00-\\x%02x]" % (safe - 1))
    doubled = F.concat(F.lit(quote), F.replace(text, F.lit(quote), F.lit(quote * 2)),
                       F.lit(quote))
    return F.when(needs_quotes, doubled).otherwise(text)


def _decimal(column: Column) -> Column:
    """As Java's ``BigDecimal.stripTrailingZeros().toString()``: ``12.30`` → ``12.3``,
    ``10.00`` → ``1E+1``, ``2500`` → ``2.5E+3``, ``0.00`` → ``0``."""
    plain = column.cast("string")
    stripped = F.when(plain.contains("."), _without_trailing_zeros(plain)).otherwise(plain)
    stripped = F.when(stripped.rlike("^-?0$"), F.lit("0")).otherwise(stripped)
    pattern = r"^(-?)([1-9][0-9]*?)(0+)$"  # an integer with trailing zeros: Java's E form
    sign, digits = F.regexp_extract(stripped, pattern, 1), F.regexp_extract(stripped, pattern, 2)
    zeros = F.length(F.regexp_extract(stripped, pattern, 3))
    mantissa = F.concat(F.substring(digits, 1, 1),
                        F.when(F.length(digits) > 1,
                               F.concat(F.lit("."), F.substring(digits, 2, 1 << 20)))
                        .otherwise(F.lit("")))
    exponent = (F.length(digits) - 1 + zeros).cast("string")
    return F.when(stripped.rlike(pattern), F.concat(sign, mantissa, F.lit("E+"), exponent)) \
        .otherwise(stripped)
