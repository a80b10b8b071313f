"""Expression nodes -> Spark columns, one translation per built-in function name.

Results take Flink's types (``resolve.type_of``): each call is cast to its Flink type's Spark
type, which Spark's optimizer drops where the types already agree. Where Flink and Spark
compute differently (INT / INT, CAST(TRUE AS STRING), CHAR(n) padding) the translation here
does what Flink does.
"""
from __future__ import annotations

import datetime
import functools
from typing import Any, Callable, Dict, List, Optional, Tuple

from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql import types as T

from pystream.common.data_types import (
    MAX_LENGTH,
    ArrayType,
    BinaryType,
    BooleanType,
    CharType,
    DataType,
    DataTypes,
    DateType,
    DayTimeIntervalType,
    DecimalType,
    DoubleType,
    FloatType,
    IntegralType,
    LocalZonedTimestampType,
    MapType,
    RowType,
    TimestampType,
    TimeType,
    VarBinaryType,
    VarCharType,
    VariantType,
    YearMonthIntervalType,
)
from pystream.compiler.bitmap_functions import BITMAP_AGGREGATES, BITMAP_FUNCTIONS, typeof
from pystream.compiler.collection_and_text_functions import (
    COLLECTION_AND_TEXT_FUNCTIONS,
    JSON_CONSTRUCTORS,
    json_text,
    variant_item,
)
from pystream.compiler.json_path_functions import JSON_PATH_FUNCTIONS
from pystream.compiler.udfs import (
    aggregate_udf_column,
    collected_aggregate_columns,
    scalar_udf_column,
)
from pystream.errors import UnsupportedFeatureError
from pystream.relational import expressions as ex
from pystream.relational.functions import JSON_AGGREGATES
from pystream.relational.resolve import type_of
from pystream.relational.schema import Schema
from pystream.util.exceptions import ValidationException

__all__ = ["to_column", "aggregate_column", "aggregate_arguments", "SPARK_FUNCTIONS", "quoted"]

INTEGRAL = ("TinyIntType", "SmallIntType", "IntType", "BigIntType")


def quoted(name: str) -> Column:
    return F.col("`%s`" % name.replace("`", "``"))


def _is_integral(t: DataType) -> bool:
    return type(t).__name__ in INTEGRAL


def _divide(args: List[Column], types: List[DataType], result: DataType) -> Column:
    """Java's division: an integer one truncates, a DOUBLE or FLOAT one by zero is
    Infinity or NaN (Spark's ANSI division fails); an exact one by zero fails."""
    if _is_integral(types[0]) and _is_integral(types[1]):
        return F.call_function("div", args[0], args[1])  # Java's truncating int division
    if isinstance(result, (DoubleType, FloatType)):
        x, y = args[0].cast("double"), args[1].cast("double")
        return F.when(x.isNull(), F.lit(None)).when(y == 0, F.when(
            x > 0, F.lit(float("inf"))).when(x < 0, F.lit(float("-inf")))
            .otherwise(F.lit(float("nan")))).otherwise(x / y)
    return args[0] / args[1]


def _trim(args: List[Column], types, result) -> Column:
    mode, chars, value = args
    if mode == "BOTH":
        return F.call_function("btrim", value, chars)
    # (Spark's two-argument LTRIM/RTRIM take the characters first)
    return F.call_function({"LEADING": "ltrim", "TRAILING": "rtrim"}[mode], chars, value)


def _substring(args: List[Column], types, result) -> Column:
    if len(args) == 2:
        return F.call_function("substring", args[0], args[1])
    return F.call_function("substring", args[0], args[1], args[2])


def _truncate(x: Column, n: Column = None) -> Column:
    """TRUNCATE(x [, n]): ``x`` cut (towards zero) to ``n`` (0) decimal places."""
    scale = F.pow(F.lit(10), F.lit(0) if n is None else n)
    return F.signum(x) * F.floor(F.abs(x) * scale) / scale


def _null_if_any(args: List[Column], value: Column) -> Column:
    """``value``, or NULL where an argument is NULL (Flink's GREATEST/LEAST; Spark's skip
    NULLs)."""
    return F.when(functools.reduce(lambda a, b: a | b, [c.isNull() for c in args]),
                  F.lit(None)).otherwise(value)


def _if(args, types, result) -> Column:
    return F.when(args[0], args[1]).otherwise(args[2])


def _case(args, types, result) -> Column:
    pairs = args[:-1] if len(args) % 2 else args
    out = None
    for i in range(0, len(pairs), 2):
        out = F.when(pairs[i], pairs[i + 1]) if out is None else out.when(pairs[i], pairs[i + 1])
    return out.otherwise(args[-1]) if len(args) % 2 else out


def _in(args, types, result) -> Column:
    return args[0].isin(*args[1:])


def _between(args, types, result) -> Column:
    return args[0].between(args[1], args[2])


def _extract(args, types, result) -> Column:
    unit, value = args
    return F.call_function("extract", F.lit(unit), value)


def _truncated_time(unit: str, value: Column, kind: DataType) -> Column:
    """FLOOR(value TO unit) of a DATE, TIME or TIMESTAMP: the value cut down to the unit."""
    if isinstance(kind, DateType):
        if unit in ("YEAR", "QUARTER", "MONTH", "WEEK"):
            return F.trunc(value, unit)
        return value
    if isinstance(kind, TimeType):
        return F.time_trunc(F.lit(unit), value)
    return F.date_trunc(unit, value)


def _floor_time(args, types, result) -> Column:
    value, unit = args
    return _truncated_time(unit, value, types[0])


def _ceil_time(args, types, result) -> Column:
    """CEIL(value TO unit): the value itself where it is on a unit's boundary, else the next
    boundary."""
    value, unit = args
    floor = _truncated_time(unit, value, types[0])
    if isinstance(types[0], TimeType):
        step = {"HOUR": "hours", "MINUTE": "mins", "SECOND": "secs"}.get(unit)
        if step is None:
            raise UnsupportedFeatureError("CEIL of a TIME to %s" % unit)
        following = floor + F.make_dt_interval(**{step: F.lit(1)})
    elif isinstance(types[0], DateType):
        months = {"YEAR": 12, "QUARTER": 3, "MONTH": 1}.get(unit)
        following = F.add_months(floor, months) if months else \
            F.date_add(floor, 7 if unit == "WEEK" else 1)
    else:
        following = F.timestamp_add(unit, F.lit(1), floor)
    return F.when(floor == value, floor).otherwise(following)


def _timestampadd(args, types, result) -> Column:
    """TIMESTAMPADD(unit, n, datetime)."""
    unit, n, value = args
    return F.timestamp_add(unit, n, value)


MONTHS_PER = {"MONTH": 1, "QUARTER": 3, "YEAR": 12}


def _timestampdiff(args, types, result) -> Column:
    """TIMESTAMPDIFF(unit, start, end): whole units from ``start`` to ``end``. Months
    count as Flink's (Calcite's) do: a month from the 31st of January is the 29th of
    February, the month's last day (Spark's count stops a day short of it)."""
    unit, start, end = args
    start, end = [c.cast("timestamp_ntz") if isinstance(t, DateType) else c
                  for c, t in zip((start, end), types)]
    months = MONTHS_PER.get(unit)
    if months is None:
        return F.timestamp_diff(unit, start, end)

    def forward(a: Column, b: Column) -> Column:  # b >= a
        m = F.timestamp_diff("MONTH", a, b)
        return F.when(F.timestamp_add("MONTH", m + 1, a) <= b, m + 1).otherwise(m)

    total = F.when(end >= start, forward(start, end)).otherwise(-forward(end, start))
    return total if months == 1 else (total / months).cast("int")


def _to_timestamp(args, types, result) -> Column:
    """TO_TIMESTAMP(text[, Java pattern]): NULL where the text does not parse, as in Flink
    (parsed in the session's time zone, read back as the local date-time it names), to the
    millisecond."""
    return fitted(F.try_to_timestamp(*args), result)


def _to_timestamp_ltz(args: List[Column], types: List[DataType], result) -> Column:
    """TO_TIMESTAMP_LTZ(numeric[, precision 3 | 0]) or (string[, format[, time zone]])."""
    value = args[0]
    if isinstance(types[0], (CharType, VarCharType)):
        pattern = args[1] if len(args) > 1 else F.lit("yyyy-MM-dd HH:mm:ss")
        if len(args) > 2:  # the text is a local time in that zone
            return F.to_utc_timestamp(F.call_function("to_timestamp_ntz", value, pattern),
                                      args[2])
        return F.call_function("to_timestamp", value, pattern)
    if len(args) > 1:
        return F.when(args[1] == 0, F.timestamp_seconds(value)).otherwise(
            F.timestamp_millis(value))
    return F.timestamp_millis(value)


def _regexp_extract(args, types, result) -> Column:
    """Flink's REGEXP_EXTRACT: NULL when the pattern does not match (Spark: ''), and the
    whole match without an index (Spark: group 1)."""
    text, pattern = args[0], args[1]
    index = args[2] if len(args) > 2 else F.lit(0)
    return F.when(F.call_function("rlike", text, pattern),
                  F.call_function("regexp_extract", text, pattern, index))


def _split_index(text: Column, separator: Column, index: Column) -> Column:
    """Flink's SPLIT_INDEX: the token at ``index`` of ``text`` split at each ``separator``,
    empty tokens kept (``'  pad'`` at ``' '``, index 1: ``''``); NULL past the last token,
    below 0 and for '' (no token, as Java's splitByWholeSeparatorPreserveAllTokens); Spark's
    split_part gives '' there."""
    width = F.length(separator)
    tokens = F.split(text, _split_pattern(separator), -1)
    part = F.call_function("split_part", text, separator, index + 1)
    # no CASE around the split: Spark then splits a row's text once for all its calls
    token = F.get(tokens, F.when((index < F.size(tokens)) & (F.length(text) > 0) &
                                 (index >= 0), index))
    return F.when(width == 0, F.nullif(part, F.lit(""))).otherwise(token)


def _split_pattern(separator: Column) -> Column:
    """The regular expression of a literal ``separator``: one character as it is, or after a
    backslash where it means something (the forms Java's ``String.split`` takes without
    compiling a pattern for each row); a longer separator quoted (``\\Q...\\E``)."""
    one = F.regexp_replace(separator, r"([.$|()\[\]{}^?*+\\])", r"\\$1")
    quoted_text = F.concat(F.lit("\\Q"), F.replace(separator, F.lit("\\E"),
                                                     F.lit("\\E\\\\E\\Q")), F.lit("\\E"))
    return F.when(F.length(separator) == 1, one).otherwise(quoted_text)


EXACT_DOUBLES = 2.0 ** 52  # a double this large is an integer already


def _floor_or_ceil(name: str) -> Callable:
    """FLOOR/CEIL: of a DOUBLE or FLOAT a DOUBLE, as in Flink (Spark's give a BIGINT, which
    overflows past 2^63); of other types Spark's."""
    def translate(args, types, result) -> Column:
        x = args[0]
        if isinstance(types[0], (DoubleType, FloatType)):
            return F.when(F.abs(x) >= F.lit(EXACT_DOUBLES), x) \
                .otherwise(F.call_function(name, x).cast("double"))
        return F.call_function(name, x)
    return translate


def _plus(args, types, result) -> Column:
    """``+``; with a character string on either side the Table API's concatenation (Flink
    converts such a PLUS into CONCAT, the other operand as its string)."""
    a, b = args
    if isinstance(types[0], (CharType, VarCharType)) or isinstance(types[1], (CharType,
                                                                               VarCharType)):
        return F.concat(a.cast("string"), b.cast("string"))
    return a + b


def _call(name: str) -> Callable:
    return lambda args, types, result: F.call_function(name, *args)


def _round(args: List[Column], types: List[DataType], result: DataType) -> Column:
    """ROUND: a DECIMAL rounded in one more integral digit (Spark's ROUND keeps the input's
    type, where rounding up 99.99 needs one more: Flink's result type has it)."""
    value = args[0]
    if isinstance(types[0], DecimalType):
        value = value.cast(spark_type(DataTypes.DECIMAL(min(38, types[0].precision + 1),
                                                        types[0].scale)))
    return F.call_function("round", value, *args[1:])


def _logarithm(name: str) -> Callable:
    """LN, LOG10, LOG2, LOG([base,] x) as Java's Math.log: -Infinity at 0 and NaN below (Spark's
    are NULL there)."""
    def translate(args: List[Column], types, result) -> Column:
        x = args[-1].cast("double")
        return F.when(x > 0, F.call_function(name, *args)) \
            .when(x == 0, F.lit(float("-inf"))).when(x < 0, F.lit(float("nan")))
    return translate


def _pad(name: str) -> Callable:
    """LPAD/RPAD: a negative length is NULL (Spark's: '')."""
    return lambda args, types, result: F.when(args[1] >= 0, F.call_function(name, *args))


def _op(fn: Callable) -> Callable:
    return lambda args, types, result: fn(*args)


def _ordering(fn: Callable) -> Callable:
    """``<``, ``<=``, ``>``, ``>=`` as Java compares: false with a DOUBLE or FLOAT NaN (Spark
    orders NaN above every number). (``=`` stays Spark's, NaN = NaN, so that equi-joins on
    such columns stay hash joins.)"""
    def translate(args, types, result) -> Column:
        compared = fn(*args)
        approximate = [a for a, t in zip(args, types) if isinstance(t, (DoubleType, FloatType))]
        if not approximate:
            return compared
        nan = functools.reduce(lambda x, y: x | y, [F.isnan(a) for a in approximate])
        return F.when(nan, F.lit(False)).otherwise(compared)
    return translate


def _init_cap(text: Column) -> Column:
    """INITCAP as Flink's (Calcite's): words are runs of ASCII letters and digits, a word's
    first letter upper case and the others lower; any other character (a space, '-', 'Ä')
    ends a word and stays as it is (Spark's initcap splits at spaces only, in Unicode)."""
    chars = F.split(text, "")

    def each(char: Column, i: Column) -> Column:
        starts = (i == 0) | ~F.get(chars, i - 1).rlike("^[A-Za-z0-9]$")
        return F.when(starts & char.rlike("^[a-z]$"), F.upper(char)) \
            .when(~starts & char.rlike("^[A-Z]$"), F.lower(char)).otherwise(char)

    return F.array_join(F.transform(chars, each), "")


def _replace(text: Column, search: Column, replacement: Column) -> Column:
    """REPLACE as Java's String.replace: an empty search string matches before every
    character and at the end ('x' -> 'anxan'), where Spark's leaves the text as it is."""
    around = F.concat(replacement, F.call_function("array_join", F.split(text, ""), replacement),
                      replacement)
    return F.when(search == F.lit(""), F.when(text == F.lit(""), replacement).otherwise(around)) \
        .otherwise(F.replace(text, search, replacement))


def _unix_timestamp(args: List[Column], types: List[DataType], result: DataType) -> Column:
    """UNIX_TIMESTAMP([text [, pattern]]): a text that does not parse is Long.MIN_VALUE on
    Flink, not an error."""
    if not args:
        return F.unix_timestamp()
    parsed = F.call_function("try_to_timestamp", args[0],
                             args[1] if len(args) > 1 else F.lit("yyyy-MM-dd HH:mm:ss"))
    return F.when(args[0].isNotNull(), F.coalesce(F.unix_timestamp(parsed),
                                                   F.lit(-(1 << 63)).cast("bigint")))


def _item(args: List[Column], types: List[DataType], result: DataType) -> Column:
    """``array[i]``: NULL outside 1..length, as in Flink (Spark's element_at fails there,
    counts negative indices from the end, and gives a constant array's last element at a
    NULL index); ``map[key]``: NULL for a key it does not have, or NULL (then the map, which
    may have a NULL key Spark cannot hold, is not made)."""
    container, index = args
    if isinstance(types[0], VariantType):
        return variant_item(container, index, isinstance(types[1], IntegralType))
    if isinstance(types[0], ArrayType):
        return F.when(index >= 1, F.try_element_at(container, index))
    return F.when(index.isNotNull(), F.element_at(container, index))


SPARK_FUNCTIONS: Dict[str, Callable[[List[Column], List[DataType], DataType], Column]] = {
    "plus": _plus, "minus": _op(lambda a, b: a - b),
    "times": _op(lambda a, b: a * b), "divide": _divide,
    "mod": _op(lambda a, b: a % b), "negate": _op(lambda a: -a), "unary_plus": _op(lambda a: a),
    "equals": _op(lambda a, b: a == b), "not_equals": _op(lambda a, b: a != b),
    "greater_than": _ordering(lambda a, b: a > b),
    "greater_than_or_equal": _ordering(lambda a, b: a >= b),
    "less_than": _ordering(lambda a, b: a < b),
    "less_than_or_equal": _ordering(lambda a, b: a <= b),
    "between": _between, "not_between": lambda a, t, r: ~_between(a, t, r),
    "in": _in, "not_in": lambda a, t, r: ~_in(a, t, r),
    "is_distinct_from": _op(lambda a, b: ~a.eqNullSafe(b)),
    "is_not_distinct_from": _op(lambda a, b: a.eqNullSafe(b)),
    "and": _op(lambda a, b: a & b), "or": _op(lambda a, b: a | b), "not": _op(lambda a: ~a),
    "is_null": _op(lambda a: a.isNull()), "is_not_null": _op(lambda a: a.isNotNull()),
    "is_true": _op(lambda a: F.coalesce(a, F.lit(False))),
    "is_false": _op(lambda a: F.coalesce(~a, F.lit(False))),
    "is_not_true": _op(lambda a: ~F.coalesce(a, F.lit(False))),
    "is_not_false": _op(lambda a: ~F.coalesce(~a, F.lit(False))),
    "if": _if, "case": _case, "coalesce": _call("coalesce"), "nullif": _call("nullif"),
    "concat": _call("concat"), "concat_ws": _call("concat_ws"),
    "upper": _call("upper"), "lower": _call("lower"), "init_cap": _op(_init_cap),
    "char_length": _call("char_length"), "substring": _substring, "trim": _trim,
    "ltrim": _op(lambda s, *chars: F.call_function("ltrim", *chars, s)),  # (chars first)
    "rtrim": _op(lambda s, *chars: F.call_function("rtrim", *chars, s)), "replace": _op(_replace),
    "like": _op(lambda *a: F.call_function("like", *a)),  # (value, pattern [, escape])
    "not_like": _op(lambda *a: ~F.call_function("like", *a)),
    "similar": _op(lambda a, b: F.call_function("rlike", a, F.concat(
        F.lit("^(?:"), F.regexp_replace(F.regexp_replace(b, "%", ".*"), "_", "."),
        F.lit(")$")))),  # SQL's SIMILAR TO: the whole value, % and _ as in LIKE
    "position": _op(lambda *a: F.call_function("position", *a)),  # (sub, s [, from])
    "greatest": lambda a, t, r: _null_if_any(a, F.greatest(*[c.cast(spark_type(r)) for c in a])),
    "least": lambda a, t, r: _null_if_any(a, F.least(*[c.cast(spark_type(r)) for c in a])),
    "locate": _call("locate"), "instr": _call("instr"),
    "lpad": _pad("lpad"), "rpad": _pad("rpad"), "repeat": _call("repeat"),
    "reverse": _call("reverse"), "left": _call("left"), "right": _call("right"),
    "regexp_replace": _call("regexp_replace"), "regexp_extract": _regexp_extract,
    "regexp": _call("regexp"),
    "split_index": _op(_split_index),
    "ascii": _call("ascii"), "chr": _call("chr"), "to_base64": _op(lambda a: F.base64(a)),
    "from_base64": _op(lambda a: F.unbase64(a).cast("string")),
    "md5": _call("md5"), "sha1": _call("sha1"),
    "sha224": _op(lambda a: F.sha2(a, 224)), "sha256": _op(lambda a: F.sha2(a, 256)),
    "sha384": _op(lambda a: F.sha2(a, 384)), "sha512": _op(lambda a: F.sha2(a, 512)),
    "sha2": _call("sha2"), "uuid": _call("uuid"),
    "overlay": _op(lambda s, *rest: F.when(  # from past the end: the text as it is
        rest[1] > F.char_length(s), s).otherwise(F.overlay(s, *rest))),
    "hex": _call("hex"), "bin": _call("bin"),
    "abs": _call("abs"), "sign": _call("sign"), "floor": _floor_or_ceil("floor"),
    "ceil": _floor_or_ceil("ceil"),
    "round": _round, "truncate": _op(_truncate),
    "power": _call("power"), "sqrt": _call("sqrt"), "exp": _call("exp"), "ln": _logarithm("ln"),
    "log10": _logarithm("log10"), "log2": _logarithm("log2"), "log": _logarithm("log"),
    "sin": _call("sin"),
    "cos": _call("cos"), "tan": _call("tan"), "asin": _call("asin"), "acos": _call("acos"),
    "atan": _call("atan"), "atan2": _call("atan2"), "sinh": _call("sinh"),
    "cosh": _call("cosh"), "tanh": _call("tanh"), "cot": _call("cot"),
    "degrees": _call("degrees"), "radians": _call("radians"), "pi": _call("pi"),
    "e": _call("e"), "rand": _call("rand"),
    "rand_integer": lambda a, t, r: (F.rand() * a[-1]).cast("int"),
    "current_date": _call("current_date"), "current_timestamp": _call("current_timestamp"),
    "now": _call("current_timestamp"), "proctime": _call("current_timestamp"),
    "local_timestamp": _call("localtimestamp"),
    "current_time": lambda args, types, result: F.call_function("current_time", F.lit(0)),
    "local_time": lambda args, types, result: F.call_function("current_time", F.lit(0)),
    "current_row_timestamp": _call("current_timestamp"),
    "to_date": _call("to_date"), "to_time": _call("to_time"), "to_timestamp": _to_timestamp,
    "to_timestamp_ltz": _to_timestamp_ltz,
    "date_format": _call("date_format"), "extract": _extract,
    "floor_time": _floor_time, "ceil_time": _ceil_time, "timestampadd": _timestampadd,
    "timestampdiff": _timestampdiff,
    "year": _call("year"), "quarter": _call("quarter"), "month": _call("month"),
    "week": _call("weekofyear"), "dayofyear": _call("dayofyear"),
    "dayofmonth": _call("dayofmonth"), "dayofweek": _call("dayofweek"),
    "hour": _call("hour"), "minute": _call("minute"), "second": _call("second"),
    "unix_timestamp": _unix_timestamp, "from_unixtime": _call("from_unixtime"),
    "array": _call("array"), "map": _call("map"), "cardinality": _call("size"),
    # the only element; NULL for an empty array; more than one fails the job, as on Flink
    "element": _op(lambda a: F.when(F.size(a) == 1, F.get(a, 0)).when(
        F.size(a) > 1, F.raise_error(F.lit("ELEMENT of an array of more than one element")))),
    "item": _item,
    # NULL is an element like any other (Spark's: NULL where no element matches and one is NULL)
    "array_contains": _op(lambda array, x: F.when(
        array.isNotNull(), F.exists(array, lambda e: e.eqNullSafe(x)))),
    "starts_with": _call("startswith"), "ends_with": _call("endswith"),
    # Java's Character.isLetter / isDigit for every character, BigDecimal's number syntax;
    # NULL and '' are false
    "is_alpha": _op(lambda s: F.coalesce(s.rlike(r"^\p{L}+$"), F.lit(False))),
    "is_digit": _op(lambda s: F.coalesce(s.rlike(r"^\p{Nd}+$"), F.lit(False))),
    "is_decimal": _op(lambda s: F.coalesce(
        s.rlike(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$"), F.lit(False))),
    "convert_tz": _op(lambda s, source, target: F.date_format(F.convert_timezone(
        source, target, F.to_timestamp_ntz(s)), "yyyy-MM-dd HH:mm:ss")),
    **COLLECTION_AND_TEXT_FUNCTIONS,
    **JSON_PATH_FUNCTIONS,
    **BITMAP_FUNCTIONS,
    "typeof": typeof,
    "sink_not_null": lambda args, types, result: F.when(
        args[0].isNull(), F.raise_error(args[1])).otherwise(args[0]),
    # in a plain GROUP BY (grouping sets give their values: relational.build._groupings)
    **{name: lambda args, types, result: F.lit(0) for name in (
        "grouping", "grouping_id", "group_id")},
}

AGGREGATES: Dict[str, Callable[[List[Column], bool], Column]] = {
    "sum": lambda a, d: F.sum_distinct(a[0]) if d else F.sum(a[0]),
    "sum0": lambda a, d: F.coalesce(F.sum_distinct(a[0]) if d else F.sum(a[0]), F.lit(0)),
    "count": lambda a, d: (F.count_distinct(*a) if d else F.count(a[0])) if a else F.count(
        F.lit(1)),
    "avg": lambda a, d: F.avg(a[0]),
    "min": lambda a, d: F.min(a[0]), "max": lambda a, d: F.max(a[0]),
    "stddev_pop": lambda a, d: F.stddev_pop(a[0]), "stddev_samp": lambda a, d: F.stddev_samp(a[0]),
    "var_pop": lambda a, d: F.var_pop(a[0]), "var_samp": lambda a, d: F.var_samp(a[0]),
    "first_value": lambda a, d: F.first(a[0], ignorenulls=True),
    "last_value": lambda a, d: F.last(a[0], ignorenulls=True),
    "percentile": lambda a, d: F.percentile(*a),
}

# Aggregates that are a function of Spark's aggregate (its window form too): name ->
# (the aggregate of the arguments, the result of it and the arguments). The JSON aggregates
# get their values as JSON text (``_aggregated``).
FINISHED_AGGREGATES = {
    # COLLECT: a MULTISET, Spark's map of each value (not NULL) to its count
    "collect": (lambda a: F.collect_list(a[0]), lambda c, a: _counts(c)),
    # ARRAY_AGG keeps NULLs (RESPECT NULLS) unless IGNORE NULLS; NULL for no rows
    "array_agg": (lambda a: F.collect_list(F.struct(a[0].alias("v"))),
                  lambda c, a: F.when(F.size(c) > 0, F.transform(c, lambda s: s["v"]))),
    "array_agg_ignore_nulls": (lambda a: F.collect_list(a[0]),
                               lambda c, a: F.when(F.size(c) > 0, c)),
    "listagg": (lambda a: F.collect_list(a[0]), lambda c, a: F.when(
        F.size(c) > 0, F.call_function("array_join", c, a[1] if len(a) > 1 else F.lit(",")))),
    "json_arrayagg_absent_on_null": (lambda a: F.collect_list(a[0]),
                                     lambda c, a: _json_array_text(c)),
    "json_arrayagg_null_on_null": (lambda a: F.collect_list(F.coalesce(a[0], F.lit("null"))),
                                   lambda c, a: _json_array_text(c)),
    "json_objectagg_absent_on_null": (
        lambda a: F.collect_list(F.when(a[1].isNotNull(),
                                        F.struct(a[0].alias("k"), a[1].alias("v")))),
        lambda c, a: _json_object_text(c)),
    "json_objectagg_null_on_null": (
        lambda a: F.collect_list(F.struct(a[0].alias("k"),
                                          F.coalesce(a[1], F.lit("null")).alias("v"))),
        lambda c, a: _json_object_text(c)),
    **BITMAP_AGGREGATES,
}


def _float_values(value: Column, pane: Optional[Column] = None) -> Column:
    """The values of a SUM of FLOATs, each with its pane (a slice of a sliding window's time;
    one pane for any other aggregate)."""
    return F.collect_list(F.when(value.isNotNull(), F.struct(
        (F.lit(0).cast("bigint") if pane is None else pane).alias("p"), value.alias("v"))))


def _float_sum(values: Column) -> Column:
    """The sum of FLOATs added as FLOATs, as Flink adds them: in order within each pane, then
    the panes' sums in time order (86.399994 where a sum of doubles rounded at the end gives
    86.4); NULL for none."""
    def plus(a: Column, b: Column) -> Column:
        return F.when(a.isNull(), b).otherwise((a + b).cast("float"))

    def step(state: Column, x: Column) -> Column:
        same = state["p"].eqNullSafe(x["p"])
        return F.struct(F.when(same, state["t"]).otherwise(plus(state["t"], state["part"]))
                        .alias("t"),
                        F.when(same, plus(state["part"], x["v"])).otherwise(x["v"])
                        .cast("float").alias("part"),
                        x["p"].alias("p"))
    start = F.struct(F.lit(None).cast("float").alias("t"), F.lit(None).cast("float")
                     .alias("part"), F.lit(None).cast("bigint").alias("p"))
    by_pane = F.array_sort(values, lambda a, b: F.when(a["p"] < b["p"], -1).when(
        a["p"] > b["p"], 1).otherwise(0))  # a stable sort: arrival order within a pane
    return F.aggregate(by_pane, start, step, lambda state: plus(state["t"], state["part"]))


FLOAT_SUMS = {"sum": (lambda a: _float_values(a[0]), lambda c, a: _float_sum(c)),
              "sum0": (lambda a: _float_values(a[0]),
                       lambda c, a: F.coalesce(_float_sum(c), F.lit(0.0).cast("float")))}


def _finished(name: str, result: DataType):
    """The (aggregate, finish) pair of an aggregate that is a function of Spark's (a SUM of
    FLOATs too), else None."""
    if isinstance(result, FloatType) and name in FLOAT_SUMS:
        return FLOAT_SUMS[name]
    return FINISHED_AGGREGATES.get(name)


def _counts(values: Column) -> Column:
    """A map of each of ``values`` to how often it is there."""
    return F.map_from_entries(F.transform(F.array_distinct(values), lambda v: F.struct(
        v.alias("key"), F.size(F.filter(values, lambda w: w == v)).alias("value"))))


def _json_array_text(items: Column) -> Column:
    """A JSON array of ``items``, each a JSON text."""
    return F.concat(F.lit("["), F.array_join(items, ","), F.lit("]"))


def _json_object_text(entries: Column) -> Column:
    """A JSON object of ``entries`` (structs of a key ``k`` and a value's JSON text ``v``),
    keys sorted, as Flink writes it; a key given twice fails the query, as in Flink."""
    entries = F.array_sort(entries)
    keys = F.transform(entries, lambda e: e["k"])
    text = F.concat(F.lit("{"), F.array_join(F.transform(
        entries, lambda e: F.concat(json_text(e["k"]), F.lit(":"), e["v"])), ","), F.lit("}"))
    return F.when(F.size(F.array_distinct(keys)) < F.size(keys), F.raise_error(F.lit(
        "Duplicate keys are not allowed in JSON_OBJECTAGG. Please ensure that keys are "
        "unique."))).otherwise(text)

# Running (windowed) forms of DISTINCT aggregates, which Spark has no window form of: over
# the set of the frame's distinct values (``collect_set`` skips NULLs).
RUNNING_DISTINCT = {
    "count": lambda values, zero: F.size(values),
    "sum": lambda values, zero: F.when(F.size(values) > 0, F.aggregate(
        values, zero, lambda total, x: total + x)),
}


def spark_type(data_type: DataType):
    return data_type.spark_type()


def to_column(expr: ex.Expr, schema: Schema) -> Column:
    """The Spark column computing ``expr`` over a DataFrame with ``schema``'s columns."""
    if isinstance(expr, ex.Alias):
        return to_column(expr.expr, schema)
    if isinstance(expr, ex.Column):
        schema.field(expr.name)
        return quoted(expr.name)
    if isinstance(expr, ex.Literal):
        return literal(expr.value, expr.data_type)
    if isinstance(expr, ex.Cast):
        return cast(to_column(expr.expr, schema), type_of(expr.expr, schema), expr.to, expr.safe)
    if isinstance(expr, ex.Symbol):
        return F.lit(expr.name)
    if isinstance(expr, ex.Call):
        return _call_column(expr, schema)
    if isinstance(expr, ex.UserCall):
        return scalar_udf_column(expr.function, [to_column(a, schema) for a in expr.args],
                                 [type_of(a, schema) for a in expr.args])
    raise UnsupportedFeatureError("expression %s in a Spark plan" % (expr,))


def _call_column(expr: ex.Call, schema: Schema) -> Column:
    if expr.name == "get":
        row = to_column(expr.args[0], schema)
        key = expr.args[1].value
        if isinstance(key, int):
            key = type_of(expr.args[0], schema).fields[key].name
        return row.getField(key)
    if expr.name == "row":
        result = type_of(expr, schema)
        return F.struct(*[to_column(a, schema).alias(f.name)
                          for a, f in zip(expr.args, result.fields)])
    if expr.name in ("object_of", "object_update"):
        return _structured(expr, schema)
    if expr.name == "array":  # elements of one type (rows of other field names too)
        element = spark_type(type_of(expr, schema).element_type)
        return F.array(*[to_column(a, schema).cast(element) for a in expr.args])
    translate = SPARK_FUNCTIONS.get(expr.name)
    if translate is None:
        raise UnsupportedFeatureError("the function %s() on Spark" % expr.name.upper())
    args = [a.name if isinstance(a, ex.Symbol) else to_column(a, schema)  # a unit or mode
            for a in expr.args]
    if expr.name in JSON_CONSTRUCTORS:  # a JSON value inside another goes in as JSON
        args = [_as_json(a, c) for a, c in zip(expr.args, args)]
    types = [type_of(a, schema) for a in expr.args if not isinstance(a, ex.Symbol)]
    result = type_of(expr, schema)
    return translate(args, types, result).cast(spark_type(result))


def _structured(expr: ex.Call, schema: Schema) -> Column:
    """OBJECT_OF's struct of its values; OBJECT_UPDATE's of the object's fields, some
    replaced."""
    result = type_of(expr, schema)
    given = {k.value: v for k, v in zip(expr.args[1::2], expr.args[2::2])}
    source = None if expr.name == "object_of" else to_column(expr.args[0], schema)
    return F.struct(*[
        (to_column(given[f.name], schema) if f.name in given else source.getField(f.name))
        .cast(spark_type(f.data_type)).alias(f.name) for f in result.fields])


def _is_json_constructor(node: ex.Expr) -> bool:
    return isinstance(node, ex.Call) and node.name in JSON_CONSTRUCTORS


def _as_json(node: ex.Expr, column: Column) -> Column:
    """A value going into a JSON constructor: a JSON function's result (JSON_OBJECT,
    JSON_ARRAY) or a JSON(text) as the JSON value it is (JSON of a text that is not JSON:
    NULL), anything else as itself."""
    if _is_json_constructor(node):
        return F.parse_json(column)
    if isinstance(node, ex.Call) and node.name == "json":
        return F.try_parse_json(column)
    return column


def aggregate_column(call: ex.Call, schema: Schema, pane: Optional[Column] = None) -> Column:
    """An aggregate call as a Spark aggregate column of its Flink type (a user-defined one:
    a grouped-aggregate pandas UDF); ``pane``: the slice of a sliding window a row is in
    (a SUM of FLOATs adds each slice's sum)."""
    if isinstance(call, ex.UserCall):
        return _user_aggregate(call, schema)
    result = type_of(call, schema)
    args = _aggregated(call, aggregate_arguments(call, schema), result)
    if pane is not None and isinstance(result, FloatType) and call.name in FLOAT_SUMS:
        return FLOAT_SUMS[call.name][1](_float_values(args[0], pane), args)
    finished = _finished(call.name, result)
    if finished is not None:
        aggregate, finish = finished
        collected = aggregate(args)  # a list: DISTINCT keeps each value's first
        return finish(F.array_distinct(collected) if call.distinct else collected,
                      args).cast(spark_type(result))
    make = AGGREGATES.get(call.name)
    if make is None:
        raise UnsupportedFeatureError("the aggregate function %s() on Spark" % call.name.upper())
    return make(args, call.distinct).cast(spark_type(result))


def aggregate_arguments(call: ex.Call, schema: Schema) -> List[Column]:
    """The columns of an aggregate call's arguments: a JSON aggregate's value as JSON text
    (a JSON function's as it is)."""
    args = [to_column(a, schema) for a in call.args]
    if call.name in JSON_AGGREGATES:
        args[-1] = json_text(_as_json(call.args[-1], args[-1]))
    return args


def _aggregated(call: ex.Call, args: List[Column], result: DataType) -> List[Column]:
    """The columns an aggregate call aggregates, from its arguments' columns. AVG of
    DECIMALs averages them in its result's type (Flink's DECIMAL(38, s)): Spark's AVG adds
    only four digits of scale and rounds there (33333334.333300 where Flink has
    33333334.333333)."""
    if call.name == "avg" and isinstance(result, DecimalType):
        return [args[0].cast(spark_type(result))]
    if call.name == "percentile":  # Spark's takes DOUBLE percentages
        percentage = "array<double>" if isinstance(result, ArrayType) else "double"
        return [args[0], args[1].cast(percentage), *args[2:]]
    return args


def _user_aggregate(call: ex.UserCall, schema: Schema) -> Column:
    return aggregate_udf_column(call.function, [to_column(a, schema) for a in call.args],
                                [type_of(a, schema) for a in call.args])


def collected_user_aggregate(call: ex.UserCall, schema: Schema) -> Tuple[Column, Any]:
    """A user-defined aggregate as Spark's own ``collect_list`` of its arguments and the
    function folding such a list into its value (see ``udfs.CollectedAggregate``)."""
    return collected_aggregate_columns(call.function, [to_column(a, schema) for a in call.args],
                                       [type_of(a, schema) for a in call.args])


RANKING = {"row_number": F.row_number, "rank": F.rank, "dense_rank": F.dense_rank,
           "cume_dist": F.cume_dist, "percent_rank": F.percent_rank}
OFFSETS = {"lag": F.lag, "lead": F.lead}  # over a window of ranks too: no frame


def running_aggregate_column(call: ex.Call, schema: Schema, window) -> Column:
    """The aggregate over ``window`` (a Spark window spec), for OVER and running changelogs."""
    if isinstance(call, ex.UserCall):  # a growing frame: one call per row of the frame
        return _user_aggregate(call, schema).over(window)
    args = [to_column(a, schema) for a in call.args]
    result = type_of(call, schema)
    if call.name in RANKING:
        return RANKING[call.name]().over(window).cast(spark_type(result))
    if call.name == "ntile":
        return F.ntile(call.args[0].value).over(window).cast(spark_type(result))
    if call.name in OFFSETS:
        offset_type = spark_type(result)
        offset = call.args[1].value if len(call.args) > 1 else 1
        default = args[2].cast(offset_type) if len(call.args) > 2 else None
        shifted = OFFSETS[call.name](args[0].cast(offset_type), offset).over(window)
        return shifted if default is None else F.when(
            OFFSETS[call.name](F.lit(1), offset).over(window).isNull(), default
        ).otherwise(shifted)
    if call.distinct and call.name in RUNNING_DISTINCT:
        values = F.collect_set(args[0]).over(window)
        zero = F.lit(0).cast(spark_type(type_of(call.args[0], schema)))
        column = RUNNING_DISTINCT[call.name](values, zero)
    elif _finished(call.name, result) is not None:
        aggregate, finish = _finished(call.name, result)
        args = _aggregated(call, args, result)
        collected = aggregate(args).over(window)
        column = finish(F.array_distinct(collected) if call.distinct else collected, args)
    else:
        make = AGGREGATES.get(call.name)
        if make is None:
            raise UnsupportedFeatureError("the aggregate function %s() over a window"
                                          % call.name.upper())
        column = make(_aggregated(call, args, result), False).over(window)
    return column.cast(spark_type(result))


def literal(value, data_type: DataType) -> Column:
    if value is None:
        return F.lit(None).cast(spark_type(data_type))
    if isinstance(data_type, CharType):
        return F.lit(value)
    if isinstance(value, datetime.timedelta) or isinstance(data_type, DecimalType):
        return F.lit(value).cast(spark_type(data_type))
    if isinstance(value, dict) and isinstance(data_type, MapType):  # F.lit takes no dict
        entries = [(literal(k, data_type.key_type), literal(v, data_type.value_type))
                   for k, v in value.items()]
        return F.create_map(*[c for entry in entries for c in entry]) \
            .cast(spark_type(data_type))
    return F.lit(data_type.spark_value(value) if hasattr(data_type, "spark_value") else
                 value).cast(spark_type(data_type))


def cast(column: Column, source: DataType, target: DataType, safe: bool) -> Column:
    """CAST as Flink does it: TRUE -> 'TRUE', '1.5' -> 1, the value cut to the target's
    length or precision (``fitted``), TRY_CAST gives NULL."""
    if isinstance(target, (CharType, VarCharType)):
        return fitted(as_text(column, source), target, source)
    if isinstance(target, IntegralType) and isinstance(source, (CharType, VarCharType)):
        column = _integral_text(column, spark_type(target), safe)
    converted = column.try_cast(spark_type(target)) if safe else column.cast(spark_type(target))
    return fitted(converted, target, source)


def _integral_text(column: Column, integral, safe: bool) -> Column:
    """A text as an integer as Flink reads it: '1.5' is 1 (Spark's cast refuses it); a
    text that is no number fails in the integer cast, with its words."""
    decimal = column.try_cast("decimal(38, 18)").try_cast(integral)
    if safe:
        return F.coalesce(column.try_cast(integral), decimal)
    return F.coalesce(column.try_cast(integral), decimal, column.cast(integral))


def fitted(column: Column, target: DataType, source: Optional[DataType] = None) -> Column:
    """``column`` cut to ``target`` as Flink's CAST cuts: VARCHAR(n) and VARBINARY(n) to n,
    CHAR(n) padded with spaces and BINARY(n) with zero bytes, a timestamp's or a time's
    fraction to its precision (truncated); inside arrays, maps and rows too. ``source``:
    the value's type, when it already fits (a TIMESTAMP(3) cast to TIMESTAMP(3))."""
    if source == target or not _cuts(target):
        return column
    if isinstance(target, CharType):
        return F.rpad(column, target.length, " ")
    if isinstance(target, BinaryType):
        return F.rpad(column, target.length, F.lit(b"\0"))
    if isinstance(target, (VarCharType, VarBinaryType)):
        return F.substring(column, 1, target.length)
    if isinstance(target, (TimestampType, LocalZonedTimestampType)):
        if isinstance(source, type(target)) and source.precision <= target.precision:
            return column
        second = F.extract(F.lit("SECOND"), column)
        scale = 10 ** target.precision
        return column - F.make_dt_interval(F.lit(0), F.lit(0), F.lit(0),
                                           second - F.floor(second * scale) / scale)
    if isinstance(target, TimeType):
        return column.cast(T.TimeType(target.precision)).cast(spark_type(target))
    if isinstance(target, ArrayType):
        return F.transform(column, lambda e: fitted(e, target.element_type))
    if isinstance(target, MapType):
        keyed = F.transform_keys(column, lambda k, _: fitted(k, target.key_type))
        return F.transform_values(keyed, lambda _, v: fitted(v, target.value_type))
    return F.when(column.isNotNull(), F.struct(*[
        fitted(column[f.name], f.data_type).alias(f.name) for f in target.fields]))


def _cuts(data_type: DataType) -> bool:
    """Whether a value cast to ``data_type`` may be cut or padded (``fitted``)."""
    if isinstance(data_type, (CharType, BinaryType)):
        return True
    if isinstance(data_type, (VarCharType, VarBinaryType)):
        return data_type.length < MAX_LENGTH
    if isinstance(data_type, (TimestampType, LocalZonedTimestampType, TimeType)):
        return data_type.precision < 6
    if isinstance(data_type, ArrayType):
        return _cuts(data_type.element_type)
    if isinstance(data_type, MapType):
        return _cuts(data_type.key_type) or _cuts(data_type.value_type)
    if isinstance(data_type, RowType):
        return any(_cuts(f.data_type) for f in data_type.fields)
    return False


def as_text(column: Column, source: DataType) -> Column:
    """``column`` (of type ``source``) as Flink's CAST to STRING writes it: TRUE, a
    timestamp with every fraction digit of its precision, '[1, NULL]', '{a=1}', '(1, x)',
    '+2 00:00:00.000', '+1-02'."""
    if isinstance(source, BooleanType):
        return F.when(column, F.lit("TRUE")).when(~column, F.lit("FALSE"))
    if isinstance(source, (TimestampType, LocalZonedTimestampType)):
        fraction = "." + "S" * source.precision if source.precision else ""
        return F.date_format(column, "yyyy-MM-dd HH:mm:ss" + fraction)
    if isinstance(source, ArrayType):
        element = source.element_type
        return F.concat(F.lit("["), F.array_join(F.transform(
            column, lambda e: F.coalesce(as_text(e, element), F.lit("NULL"))), ", "), F.lit("]"))
    if isinstance(source, MapType):
        key, value = source.key_type, source.value_type
        entries = F.transform(F.map_entries(column), lambda e: F.concat(
            F.coalesce(as_text(e["key"], key), F.lit("NULL")), F.lit("="),
            F.coalesce(as_text(e["value"], value), F.lit("NULL"))))
        return F.concat(F.lit("{"), F.array_join(entries, ", "), F.lit("}"))
    if isinstance(source, RowType):
        fields = [F.coalesce(as_text(column[f.name], f.data_type), F.lit("NULL"))
                  for f in source.fields]
        return F.when(column.isNotNull(), F.concat(F.lit("("), F.concat_ws(", ", *fields),
                                                   F.lit(")")))
    if isinstance(source, DayTimeIntervalType):
        days, hours, minutes, seconds = [F.extract(F.lit(unit), column)
                                         for unit in ("DAY", "HOUR", "MINUTE", "SECOND")]
        return F.format_string("%s%d %02d:%02d:%06.3f", _sign(days, hours, minutes, seconds),
                               F.abs(days), F.abs(hours), F.abs(minutes),
                               F.abs(seconds).cast("double"))
    if isinstance(source, YearMonthIntervalType):
        years, months = F.extract(F.lit("YEAR"), column), F.extract(F.lit("MONTH"), column)
        return F.format_string("%s%d-%02d", _sign(years, months), F.abs(years), F.abs(months))
    return column.cast("string")


def _sign(*parts: Column) -> Column:
    """'-' for an interval whose parts are negative, else '+'."""
    negative = functools.reduce(lambda a, b: a | b, [p < 0 for p in parts])
    return F.when(negative, F.lit("-")).otherwise(F.lit("+"))


def check_supported(expr: ex.Expr) -> None:
    for node in ex.walk(expr):
        if isinstance(node, ex.Call) and node.name not in SPARK_FUNCTIONS and \
                node.name not in AGGREGATES and node.name not in FINISHED_AGGREGATES and \
                node.name not in ("get", "row"):
            raise ValidationException("Unsupported function %s." % node.name)
