"""Values and rows as Flink prints them: ``TableResult.print()``'s tableau and the ``print``
connector's ``+I[...]`` lines. Java's number formatting, SQL timestamps, ``<NULL>``."""
from __future__ import annotations

import datetime
import unicodedata
from decimal import Decimal
from typing import Iterable, List, Optional

from pystream.common import data_types as T
from pystream.common.formatting import compact_json
from pystream.common.formatting import java_double as java

__all__ = ["flink_string", "tableau_lines", "changelog_line", "java_double", "java_float"]

NULL = "<NULL>"
MAX_COLUMN_WIDTH = 30


def java_double(x: float) -> str:
    """Java's ``Double.toString``: ``1.0``, ``1.0E10``, ``1.0E-4``, ``NaN``, ``Infinity``."""
    return java(x)


def java_float(x: float) -> str:
    """Java's ``Float.toString`` of a 32-bit float (the shortest digits that round-trip)."""
    return java(x, single=True)


def _fraction(value, precision: int) -> str:
    if precision <= 0:
        return ""
    micros = "%06d" % value.microsecond
    nanos = micros + "000"
    return "." + nanos[:precision]


def _day_time_interval(value: datetime.timedelta) -> str:
    """As Flink writes INTERVAL DAY TO SECOND values: ``+0 00:01:30.000``."""
    micros = abs(value.days * 86400_000_000 + value.seconds * 1_000_000 + value.microseconds)
    seconds, micros = divmod(micros, 1_000_000)
    minutes, second = divmod(seconds, 60)
    hours, minute = divmod(minutes, 60)
    days, hour = divmod(hours, 24)
    sign = "-" if value < datetime.timedelta(0) else "+"
    return "%s%d %02d:%02d:%02d.%03d" % (sign, days, hour, minute, second, micros // 1000)


def _map_text(value: dict, data_type, render) -> str:
    """``{k=v, ...}``, keys and values written by ``render(value, type)``."""
    key_type = getattr(data_type, "key_type", None)
    value_type = getattr(data_type, "value_type", None)
    return "{%s}" % ", ".join("%s=%s" % (render(k, key_type), render(v, value_type))
                              for k, v in value.items())


def variant_json(value) -> str:
    """A VARIANT (PySpark's ``VariantVal``) as Flink writes it: compact JSON, keys in order,
    doubles as Java writes them (``3.5E10``), decimals without trailing zeros."""
    def number(v) -> Optional[str]:
        if isinstance(v, float):
            return java_double(v)
        if isinstance(v, Decimal):
            return format(v.normalize(), "f")
        return None
    return compact_json(value.toPython(), number)


def flink_string(value, data_type: T.DataType, null: str = NULL,
                 zone: Optional[str] = None) -> str:
    """A value as Flink's CAST(... AS STRING) writes it (used by tableau and print lines); a
    TIMESTAMP_LTZ in the time zone ``zone`` (``table.local-time-zone``; None: this
    process's)."""
    if value is None:
        return null
    if isinstance(data_type, T.VariantType):
        return variant_json(value)
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(data_type, T.FloatType):
        return java_float(value)
    if isinstance(value, float):
        return java_double(value)
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, datetime.datetime):
        precision = getattr(data_type, "precision", 6)
        if zone is not None and isinstance(data_type, T.LocalZonedTimestampType):
            value = in_time_zone(value, zone)
        text = value.strftime("%Y-%m-%d %H:%M:%S") + _fraction(value, precision)
        return text
    if isinstance(value, datetime.time):
        precision = getattr(data_type, "precision", 0)
        return value.strftime("%H:%M:%S") + _fraction(value, precision)
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return "x'%s'" % bytes(value).hex()
    if isinstance(value, datetime.timedelta):
        return _day_time_interval(value)
    if isinstance(data_type, T.YearMonthIntervalType):
        years, months = divmod(abs(int(value)), 12)
        return "%s%d-%02d" % ("-" if value < 0 else "+", years, months)
    if isinstance(value, dict):
        return _map_text(value, data_type, lambda v, t: flink_string(v, t, "NULL", zone))
    if isinstance(value, (list, tuple)) and not hasattr(value, "get_row_kind"):
        element = getattr(data_type, "element_type", None)
        return "[%s]" % ", ".join(flink_string(v, element, "NULL", zone) for v in value)
    if isinstance(data_type, T.StructuredType):  # (name=Bob, age=21)
        return "(%s)" % ", ".join("%s=%s" % (f.name, flink_string(v, f.data_type, "NULL", zone))
                                  for f, v in zip(data_type.fields, value))
    if hasattr(value, "get_row_kind"):  # a Row
        fields = getattr(data_type, "fields", None) or []
        types = [f.data_type for f in fields] or [None] * len(value)
        return "(%s)" % ", ".join(flink_string(v, t, "NULL", zone)
                                  for v, t in zip(value, types))
    return str(value)


def in_time_zone(value: datetime.datetime, zone: str) -> datetime.datetime:
    """An instant collected as this process's local time (as PyFlink gives a TIMESTAMP_LTZ
    to Python), as the wall-clock time of ``zone``."""
    from zoneinfo import ZoneInfo

    return value.astimezone(ZoneInfo(zone)).replace(tzinfo=None)


def changelog_line(row, types: List[T.DataType]) -> str:
    """A row as the print connector writes it (Java's toString of each value):
    ``+I[1, Hi, 2024-01-02T03:04:05.678, true]``."""
    return "%s[%s]" % (row.get_row_kind(),
                       ", ".join(java_string(v, t) for v, t in zip(row, types)))


def _java_fraction(micros: int) -> str:
    """java.time's fraction: milliseconds when they suffice, else microseconds."""
    if micros == 0:
        return ""
    return ".%03d" % (micros // 1000) if micros % 1000 == 0 else ".%06d" % micros


def _java_time(value: datetime.time) -> str:
    """LocalTime.toString: seconds only when there are any."""
    text = "%02d:%02d" % (value.hour, value.minute)
    if value.second or value.microsecond:
        text += ":%02d" % value.second + _java_fraction(value.microsecond)
    return text


def java_string(value, data_type: Optional[T.DataType]) -> str:
    """A value as Flink's print connector writes it (RowData's toString): ``true``,
    ``2024-01-02T03:04:05.678``, an instant in UTC as ``1970-01-01T00:00:01Z``, a nested
    row as ``+I[1, x]``, bytes as ``[1, 2]``, ``null``."""
    if value is None:
        return "null"
    if isinstance(data_type, T.VariantType):
        return variant_json(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(data_type, T.FloatType):
        return java_float(value)
    if isinstance(value, float):
        return java_double(value)
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, datetime.datetime):
        if isinstance(data_type, T.LocalZonedTimestampType):
            utc = value.astimezone(datetime.timezone.utc)  # naive values are local time
            return "%sT%02d:%02d:%02d%sZ" % (utc.date().isoformat(), utc.hour, utc.minute,
                                             utc.second, _java_fraction(utc.microsecond))
        return "%sT%s" % (value.date().isoformat(), _java_time(value.time()))
    if isinstance(value, datetime.time):
        return _java_time(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return "[%s]" % ", ".join(str(b - 256 if b > 127 else b) for b in bytes(value))
    if isinstance(value, datetime.timedelta):
        return _day_time_interval(value)
    if isinstance(value, dict):
        return _map_text(value, data_type, java_string)
    if hasattr(value, "get_row_kind"):  # a Row
        fields = getattr(data_type, "fields", None) or []
        types = [f.data_type for f in fields] or [None] * len(value)
        return "%s[%s]" % (value.get_row_kind(),
                           ", ".join(java_string(v, t) for v, t in zip(value, types)))
    if isinstance(value, (list, tuple)):
        element = getattr(data_type, "element_type", None)
        return "[%s]" % ", ".join(java_string(v, element) for v in value)
    return str(value)


def _display_width(text: str) -> int:
    return len(text) + sum(1 for ch in text if unicodedata.east_asian_width(ch) in "FW")


def _width_by_type(name: str, t: T.DataType) -> int:
    widths = {T.TinyIntType: 4, T.SmallIntType: 6, T.IntType: 11, T.BigIntType: 20,
              T.BooleanType: 5, T.DateType: 10}
    if type(t) in widths:
        width = widths[type(t)]
    elif isinstance(t, T.DecimalType):
        width = t.precision + 2
    elif isinstance(t, T.TimeType):
        width = 8 if t.precision == 0 else t.precision + 9
    elif isinstance(t, (T.TimestampType, T.LocalZonedTimestampType)):
        p = t.precision
        width = 19 if p == 0 else 23 if p <= 3 else 26 if p <= 6 else 29
    else:
        width = MAX_COLUMN_WIDTH
    return max(len(name), width, len(NULL))


def _cell(text: str, width: int) -> str:
    shown = _display_width(text)
    if shown <= width:
        return " " * (width - shown) + text
    cut, used = [], 0
    for ch in text:
        used += _display_width(ch)
        if used > width - 3:
            break
        cut.append(ch)
    return "".join(cut).rjust(width - 3) + "..."


def tableau_lines(schema, rows: Iterable, op_column: bool, widths_by_type: bool,
                  max_width: Optional[int] = MAX_COLUMN_WIDTH,
                  zone: Optional[str] = None) -> List[str]:
    """PyFlink's ``TableResult.print()``: a query's columns are as wide as their types (with
    an ``op`` column in STREAMING mode), other results' (SHOW, DESCRIBE) as their content, up
    to ``max_width``; ``Empty set`` when there are no rows. TIMESTAMP_LTZ values are shown
    in ``zone``."""
    rows = list(rows)
    if not rows:
        return ["Empty set"]
    names = schema.get_field_names()
    types = schema.get_field_data_types()
    content = [[flink_string(v, t, zone=zone) for v, t in zip(row, types)] for row in rows]
    if op_column:
        names = ["op"] + names
        content = [[str(row.get_row_kind())] + cells for row, cells in zip(rows, content)]
    if widths_by_type:
        widths = [_width_by_type(n, t) for n, t in zip(schema.get_field_names(), types)]
        widths = ([2] if op_column else []) + widths
    else:
        widths = [len(n) for n in names]
        for cells in content:
            widths = [max(w, _display_width(c)) for w, c in zip(widths, cells)]
        widths = [min(w, max_width or w) for w in widths]
    border = "+" + "".join("-" * (w + 2) + "+" for w in widths)

    def line(cells):
        return "|" + "".join(" %s |" % _cell(c, w) for c, w in zip(cells, widths))

    out = [border, line(names), border] + [line(c) for c in content] + [border]
    out.append(rows_in_set(len(rows)))
    return out


def rows_in_set(count: int) -> str:
    return "%d %s in set" % (count, "rows" if count > 1 else "row")


class TableauWriter:
    """A query's rows printed as they come (an unbounded query): the header at once, a line
    per row, and the border and count when it ends. Columns are as wide as their types."""

    def __init__(self, schema, op_column: bool, zone: Optional[str] = None):
        self.types = schema.get_field_data_types()
        self.zone = zone
        names = schema.get_field_names()
        self.names = (["op"] if op_column else []) + names
        self.op_column = op_column
        self.widths = ([2] if op_column else []) + [_width_by_type(n, t)
                                                    for n, t in zip(names, self.types)]
        self.border = "+" + "".join("-" * (w + 2) + "+" for w in self.widths)
        self.count = 0

    def _line(self, cells) -> str:
        return "|" + "".join(" %s |" % _cell(c, w) for c, w in zip(cells, self.widths))

    def header(self) -> List[str]:
        return [self.border, self._line(self.names), self.border]

    def row(self, row) -> str:
        self.count += 1
        cells = [flink_string(v, t, zone=self.zone) for v, t in zip(row, self.types)]
        if self.op_column:
            cells = [str(row.get_row_kind())] + cells
        return self._line(cells)

    def footer(self) -> List[str]:
        if not self.count:
            return [self.border, "Empty set"]
        return [self.border, rows_in_set(self.count)]
