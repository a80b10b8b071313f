"""``Expression``: the Table API's expressions, as in PyFlink (``pyflink.table.expression``).

An Expression wraps a frozen node of ``pystream.relational.expressions``; every method returns a
new Expression over a bigger tree and computes nothing. Aggregates and many functions are
properties, as in PyFlink (``col('a').sum``, ``col('s').upper_case``).
"""
from __future__ import annotations

import datetime
from decimal import Decimal
from enum import Enum
from typing import Any, Generic, TypeVar, Union

from pystream.common import type_rules
from pystream.common.data_types import DataType, DataTypes
from pystream.relational import expressions as ex
from pystream.relational.printing import expression_string

__all__ = ["Expression", "TimeIntervalUnit", "TimePointUnit", "JsonType", "JsonOnNull",
           "JsonExistsOnError", "JsonValueOnEmptyOrError", "JsonQueryWrapper",
           "JsonQueryOnEmptyOrError", "to_node"]

T = TypeVar("T")


class TimeIntervalUnit(Enum):
    """Units of ``extract`` and of intervals."""

    YEAR = 0
    YEAR_TO_MONTH = 1
    QUARTER = 2
    MONTH = 3
    WEEK = 4
    DAY = 5
    DAY_TO_HOUR = 6
    DAY_TO_MINUTE = 7
    DAY_TO_SECOND = 8
    HOUR = 9
    HOUR_TO_MINUTE = 10
    HOUR_TO_SECOND = 11
    MINUTE = 12
    MINUTE_TO_SECOND = 13
    SECOND = 14


class TimePointUnit(Enum):
    """Units of ``floor``/``ceil`` of temporal values and of ``timestamp_diff``."""

    YEAR = 0
    QUARTER = 1
    MONTH = 2
    WEEK = 3
    DAY = 4
    HOUR = 5
    MINUTE = 6
    SECOND = 7
    MILLISECOND = 8
    MICROSECOND = 9


class JsonType(Enum):
    VALUE = 0
    SCALAR = 1
    ARRAY = 2
    OBJECT = 3


class JsonOnNull(Enum):
    NULL = 0
    ABSENT = 1


class JsonExistsOnError(Enum):
    """What ``json_exists`` gives when reading the path fails."""

    TRUE = 0
    FALSE = 1
    UNKNOWN = 2
    ERROR = 3


class JsonValueOnEmptyOrError(Enum):
    """What ``json_value`` gives for a path that finds nothing, or when reading it fails."""

    NULL = 0
    ERROR = 1
    DEFAULT = 2


class JsonQueryWrapper(Enum):
    """Whether ``json_query`` wraps what it finds in an array."""

    WITHOUT_ARRAY = 0
    CONDITIONAL_ARRAY = 1
    UNCONDITIONAL_ARRAY = 2


class JsonQueryOnEmptyOrError(Enum):
    """What ``json_query`` gives for a path that finds nothing, or when reading it fails."""

    NULL = 0
    EMPTY_ARRAY = 1
    EMPTY_OBJECT = 2
    ERROR = 3


def _json_path_call(name: str, json: ex.Expr, path: Any, returning: DataType = None,
                    *behaviours: Any) -> "Expression":
    """JSON_VALUE, JSON_QUERY or JSON_EXISTS: each behaviour an enum member, a default value
    anything ``lit`` takes (None: NULL of the ``returning`` type)."""
    return Expression(ex.json_path_call(
        name, json, path if isinstance(path, str) else to_node(path), returning,
        [b.name if isinstance(b, Enum) else ex.Literal(None, returning) if b is None
         else to_node(b) for b in behaviours]))


def to_node(value: Any) -> ex.Expr:
    """The node of an Expression, or a literal node for a plain Python value."""
    if isinstance(value, Expression):
        return value._node
    if isinstance(value, ex.Expr):
        return value
    if isinstance(value, Enum):
        return ex.Symbol(value.name)
    return ex.Literal(value, type_rules.literal_type(value))


def _call(name: str, *args: Any) -> "Expression":
    return Expression(ex.Call(name, tuple(to_node(a) for a in args)))


def _unary(name: str, doc: str = ""):
    def method(self) -> "Expression":
        return _call(name, self)
    method.__doc__ = doc or "``%s`` of this expression." % name.upper()
    return property(method)


def _binary(name: str, reverse: bool = False):
    def method(self, other) -> "Expression":
        return _call(name, other, self) if reverse else _call(name, self, other)
    return method


def _interval(unit: str, months: int = 0, millis: int = 0):
    """``lit(10).minutes``: an interval literal of this many units."""
    def method(self) -> "Expression":
        node = self._node
        if not (isinstance(node, ex.Literal) and isinstance(node.value, int)):
            return _call("interval_" + unit, self)
        if months:
            return Expression(ex.Literal(node.value * months,
                                         DataTypes.INTERVAL(DataTypes.MONTH()).not_null()))
        value = datetime.timedelta(milliseconds=node.value * millis)
        return Expression(ex.Literal(value, DataTypes.INTERVAL(DataTypes.SECOND(3)).not_null()))
    method.__doc__ = "An interval of this many %s." % unit
    return property(method)


_DAY = 24 * 3600 * 1000


class Expression(Generic[T]):
    """A tree computing a value from a table's fields: a field, a literal or a function call."""

    __slots__ = ("_node",)

    def __init__(self, node: ex.Expr):
        object.__setattr__(self, "_node", node)

    # comparison (these build expressions: `col('a') == 1`, not Python booleans)
    __eq__ = _binary("equals")  # type: ignore[assignment]
    __ne__ = _binary("not_equals")  # type: ignore[assignment]
    __lt__ = _binary("less_than")
    __gt__ = _binary("greater_than")
    __le__ = _binary("less_than_or_equal")
    __ge__ = _binary("greater_than_or_equal")
    __hash__ = None  # type: ignore[assignment]

    # logic
    __and__ = _binary("and")
    __or__ = _binary("or")
    __rand__ = _binary("and", True)
    __ror__ = _binary("or", True)

    def __invert__(self) -> "Expression":
        return _call("is_not_true", self)

    # arithmetic
    __add__ = _binary("plus")
    __sub__ = _binary("minus")
    __mul__ = _binary("times")
    __truediv__ = _binary("divide")
    __mod__ = _binary("mod")
    __pow__ = _binary("power")
    __radd__ = _binary("plus", True)
    __rsub__ = _binary("minus", True)
    __rmul__ = _binary("times", True)
    __rtruediv__ = _binary("divide", True)
    __rmod__ = _binary("mod", True)
    __rpow__ = _binary("power", True)

    def __neg__(self) -> "Expression":
        return _call("negate", self)

    def __abs__(self) -> "Expression":
        return _call("abs", self)

    def __bool__(self):
        raise TypeError("An Expression has no truth value: combine conditions with & and |, "
                        "not 'and' and 'or'.")

    def __getattr__(self, name: str) -> "Expression":
        if name.startswith("__"):
            raise AttributeError(name)
        return self.get(name)

    def __getitem__(self, index) -> "Expression":
        return self.at(index)

    def __str__(self) -> str:
        return expression_string(self._node)

    __repr__ = __str__

    # math
    exp = _unary("exp")
    log10 = _unary("log10")
    log2 = _unary("log2")
    ln = _unary("ln")
    cosh = _unary("cosh")
    sinh = _unary("sinh")
    sin = _unary("sin")
    cos = _unary("cos")
    tan = _unary("tan")
    cot = _unary("cot")
    asin = _unary("asin")
    acos = _unary("acos")
    atan = _unary("atan")
    tanh = _unary("tanh")
    degrees = _unary("degrees")
    radians = _unary("radians")
    sqrt = _unary("sqrt")
    abs = _unary("abs")
    sign = _unary("sign")
    bin = _unary("bin")
    hex = _unary("hex")

    def log(self, base=None) -> "Expression":
        return _call("ln", self) if base is None else _call("log", base, self)

    def round(self, places: Union[int, "Expression"]) -> "Expression":
        return _call("round", self, places)

    def truncate(self, n: Union[int, "Expression"] = 0) -> "Expression":
        return _call("truncate", self, n)

    # conditionals and null tests
    is_null = _unary("is_null")
    is_not_null = _unary("is_not_null")
    is_true = _unary("is_true")
    is_false = _unary("is_false")
    is_not_true = _unary("is_not_true")
    is_not_false = _unary("is_not_false")

    def between(self, lower_bound, upper_bound) -> "Expression":
        return _call("between", self, lower_bound, upper_bound)

    def not_between(self, lower_bound, upper_bound) -> "Expression":
        return _call("not_between", self, lower_bound, upper_bound)

    def then(self, if_true, if_false) -> "Expression":
        return _call("if", self, if_true, if_false)

    def if_null(self, null_replacement) -> "Expression":
        return _call("coalesce", self, null_replacement)

    def in_(self, first_element_or_table, *remaining_elements) -> "Expression":
        if hasattr(first_element_or_table, "_rel"):  # a Table: IN (sub-query)
            return Expression(ex.SubQuery("in", self._node, first_element_or_table._rel))
        return _call("in", self, first_element_or_table, *remaining_elements)

    # aggregates
    @property
    def distinct(self) -> "Expression":
        node = self._node
        if isinstance(node, ex.Call):
            return Expression(ex.Call(node.name, node.args, distinct=True))
        return _call("distinct", self)

    sum = _unary("sum")
    sum0 = _unary("sum0")
    min = _unary("min")
    max = _unary("max")
    count = _unary("count")
    avg = _unary("avg")
    first_value = _unary("first_value")
    last_value = _unary("last_value")
    stddev_pop = _unary("stddev_pop")
    stddev_samp = _unary("stddev_samp")
    var_pop = _unary("var_pop")
    var_samp = _unary("var_samp")
    collect = _unary("collect")
    array_agg = _unary("array_agg")

    def list_agg(self, separator: Union[str, "Expression", None] = None) -> "Expression":
        return _call("listagg", self) if separator is None else _call("listagg", self, separator)

    def percentile(self, percentage, frequency=None) -> "Expression":
        """The exact percentile of this expression's values at ``percentage`` (0.0 to 1.0,
        or an array of them: an array of percentiles), interpolated linearly between the two
        nearest values; each value counted ``frequency`` times."""
        args = (self, percentage) if frequency is None else (self, percentage, frequency)
        return _call("percentile", *args)

    def object_update(self, *kv) -> "Expression":
        """This structured object with fields replaced: alternating field names (string
        literals of existing fields) and new values."""
        return _call("object_update", self, *kv)

    # bitmaps (32-bit RoaringBitmaps; values ordered as unsigned integers)
    def bitmap_build(self) -> "Expression":
        """The bitmap of this array of INTs (its NULL elements left out)."""
        return _call("bitmap_build", self)

    def bitmap_and(self, bitmap2) -> "Expression":
        return _call("bitmap_and", self, bitmap2)

    def bitmap_andnot(self, bitmap2) -> "Expression":
        return _call("bitmap_andnot", self, bitmap2)

    def bitmap_or(self, bitmap2) -> "Expression":
        return _call("bitmap_or", self, bitmap2)

    def bitmap_xor(self, bitmap2) -> "Expression":
        return _call("bitmap_xor", self, bitmap2)

    def bitmap_cardinality(self) -> "Expression":
        """The number of values in the bitmap (a BIGINT)."""
        return _call("bitmap_cardinality", self)

    def bitmap_to_array(self) -> "Expression":
        """The bitmap's values as an ARRAY<INT>, in unsigned order."""
        return _call("bitmap_to_array", self)

    def bitmap_to_string(self) -> "Expression":
        """``{1,2,4294967295}``: the values, unsigned; cut with ``...`` when very long."""
        return _call("bitmap_to_string", self)

    def bitmap_to_bytes(self) -> "Expression":
        """The bitmap in the 32-bit RoaringBitmap format."""
        return _call("bitmap_to_bytes", self)

    def bitmap_from_bytes(self) -> "Expression":
        """The bitmap of these bytes in the 32-bit RoaringBitmap format."""
        return _call("bitmap_from_bytes", self)

    def bitmap_build_agg(self) -> "Expression":
        """The bitmap of this INT's values in the group."""
        return _call("bitmap_build_agg", self)

    def bitmap_build_cardinality_agg(self) -> "Expression":
        return _call("bitmap_build_cardinality_agg", self)

    def bitmap_and_agg(self) -> "Expression":
        """The intersection of the group's bitmaps."""
        return _call("bitmap_and_agg", self)

    def bitmap_and_cardinality_agg(self) -> "Expression":
        return _call("bitmap_and_cardinality_agg", self)

    def bitmap_or_agg(self) -> "Expression":
        """The union of the group's bitmaps."""
        return _call("bitmap_or_agg", self)

    def bitmap_or_cardinality_agg(self) -> "Expression":
        return _call("bitmap_or_cardinality_agg", self)

    def bitmap_xor_agg(self) -> "Expression":
        """The symmetric difference of the group's bitmaps."""
        return _call("bitmap_xor_agg", self)

    def bitmap_xor_cardinality_agg(self) -> "Expression":
        return _call("bitmap_xor_cardinality_agg", self)

    # naming, types, ordering
    def alias(self, name: str, *extra_names: str) -> "Expression":
        return Expression(ex.Alias(self._node, (name,) + extra_names))

    def cast(self, data_type: DataType) -> "Expression":
        return Expression(ex.Cast(self._node, _data_type(data_type)))

    def try_cast(self, data_type: DataType) -> "Expression":
        return Expression(ex.Cast(self._node, _data_type(data_type), safe=True))

    @property
    def asc(self) -> "Expression":
        return Expression(ex.Ordering(self._node, True))

    @property
    def desc(self) -> "Expression":
        return Expression(ex.Ordering(self._node, False))

    def over(self, alias) -> "Expression":
        window = to_node(alias)
        if isinstance(window, ex.Column):
            window = ex.WindowRef(window.name)
        return Expression(ex.OverCall(self._node, window))

    # window properties (`col('w').start`)
    @property
    def start(self) -> "Expression":
        return Expression(ex.Call("window_start", (_window_ref(self),)))

    @property
    def end(self) -> "Expression":
        return Expression(ex.Call("window_end", (_window_ref(self),)))

    @property
    def rowtime(self) -> "Expression":
        return Expression(ex.Call("window_rowtime", (_window_ref(self),)))

    @property
    def proctime(self) -> "Expression":
        if isinstance(self._node, ex.Column):
            return Expression(ex.Call("declare_proctime", (self._node,)))
        return Expression(ex.Call("window_proctime", (_window_ref(self),)))

    # strings
    char_length = _unary("char_length")
    upper_case = _unary("upper")
    lower_case = _unary("lower")
    init_cap = _unary("init_cap")
    from_base64 = _unary("from_base64")
    to_base64 = _unary("to_base64")
    ascii = _unary("ascii")
    chr = _unary("chr")
    reverse = _unary("reverse")
    md5 = _unary("md5")
    sha1 = _unary("sha1")
    sha224 = _unary("sha224")
    sha256 = _unary("sha256")
    sha384 = _unary("sha384")
    sha512 = _unary("sha512")

    def sha2(self, hash_length) -> "Expression":
        return _call("sha2", self, hash_length)

    def concat(self, other) -> "Expression":
        return _call("concat", self, other)

    def substring(self, begin_index, length=None) -> "Expression":
        args = (self, begin_index) if length is None else (self, begin_index, length)
        return _call("substring", *args)

    substr = substring

    def trim(self, character=None) -> "Expression":
        return _call("trim", ex.Symbol("BOTH"), " " if character is None else character, self)

    def trim_leading(self, character=None) -> "Expression":
        return _call("trim", ex.Symbol("LEADING"), " " if character is None else character, self)

    def trim_trailing(self, character=None) -> "Expression":
        return _call("trim", ex.Symbol("TRAILING"), " " if character is None else character,
                     self)

    def ltrim(self, trim_str=None) -> "Expression":
        return _call("ltrim", self) if trim_str is None else _call("ltrim", self, trim_str)

    def rtrim(self, trim_str=None) -> "Expression":
        return _call("rtrim", self) if trim_str is None else _call("rtrim", self, trim_str)

    def replace(self, search=None, replacement=None) -> "Expression":
        return _call("replace", self, search, replacement)

    def json_value(self, path: str, returning_type: DataType = None,
                   on_empty: JsonValueOnEmptyOrError = JsonValueOnEmptyOrError.NULL,
                   default_on_empty=None,
                   on_error: JsonValueOnEmptyOrError = JsonValueOnEmptyOrError.NULL,
                   default_on_error=None) -> "Expression":
        """The scalar at a JSON path (``'$.addr.city'``, ``'strict $.a[0]'``) as
        ``returning_type`` (STRING); NULL, an error or a default where the path finds
        nothing (``on_empty``) or reading it fails (``on_error``)."""
        return _json_path_call("json_value", self._node, path,
                               returning_type or DataTypes.STRING(), on_empty,
                               default_on_empty, on_error, default_on_error)

    def json_query(self, path: str,
                   wrapping_behavior: JsonQueryWrapper = JsonQueryWrapper.WITHOUT_ARRAY,
                   on_empty: JsonQueryOnEmptyOrError = JsonQueryOnEmptyOrError.NULL,
                   on_error: JsonQueryOnEmptyOrError = JsonQueryOnEmptyOrError.NULL
                   ) -> "Expression":
        """The JSON text of the object or array at a path (a scalar only wrapped in an
        array: ``wrapping_behavior``)."""
        return _json_path_call("json_query", self._node, path, DataTypes.STRING(),
                               wrapping_behavior, on_empty, on_error)

    def json_exists(self, path: str, on_error: JsonExistsOnError = None) -> "Expression":
        """Whether the path finds a value (not a JSON null) in this JSON text."""
        return _json_path_call("json_exists", self._node, path, None,
                               on_error or JsonExistsOnError.FALSE)

    def like(self, pattern=None, escape=None) -> "Expression":
        return _call("like", self, pattern)

    def similar(self, pattern=None) -> "Expression":
        return _call("similar", self, pattern)

    def position(self, haystack=None) -> "Expression":
        return _call("position", self, haystack)

    def lpad(self, length, pad) -> "Expression":
        return _call("lpad", self, length, pad)

    def rpad(self, length, pad) -> "Expression":
        return _call("rpad", self, length, pad)

    def overlay(self, new_string, starting, length=None) -> "Expression":
        args = (self, new_string, starting) + (() if length is None else (length,))
        return _call("overlay", *args)

    def regexp(self, regex) -> "Expression":
        return _call("regexp", self, regex)

    def regexp_replace(self, regex, replacement) -> "Expression":
        return _call("regexp_replace", self, regex, replacement)

    def regexp_extract(self, regex, extract_index=None) -> "Expression":
        args = (self, regex) if extract_index is None else (self, regex, extract_index)
        return _call("regexp_extract", *args)

    def left(self, length) -> "Expression":
        return _call("left", self, length)

    def right(self, length) -> "Expression":
        return _call("right", self, length)

    def instr(self, s) -> "Expression":
        return _call("instr", self, s)

    def locate(self, s, pos=None) -> "Expression":
        return _call("locate", s, self) if pos is None else _call("locate", s, self, pos)

    def repeat(self, n) -> "Expression":
        return _call("repeat", self, n)

    def split_index(self, separator, index) -> "Expression":
        return _call("split_index", self, separator, index)

    def starts_with(self, start_expr) -> "Expression":
        return _call("starts_with", self, start_expr)

    def ends_with(self, end_expr) -> "Expression":
        return _call("ends_with", self, end_expr)

    # temporal
    to_date = _unary("to_date")
    to_time = _unary("to_time")
    to_timestamp = _unary("to_timestamp")

    def extract(self, time_interval_unit: TimeIntervalUnit) -> "Expression":
        return _call("extract", time_interval_unit, self)

    def floor(self, time_interval_unit: TimeIntervalUnit = None) -> "Expression":
        if time_interval_unit is None:
            return _call("floor", self)
        return _call("floor_time", self, time_interval_unit)

    def ceil(self, time_interval_unit: TimeIntervalUnit = None) -> "Expression":
        if time_interval_unit is None:
            return _call("ceil", self)
        return _call("ceil_time", self, time_interval_unit)

    year = years = _interval("years", months=12)
    quarter = quarters = _interval("quarters", months=3)
    month = months = _interval("months", months=1)
    week = weeks = _interval("weeks", millis=7 * _DAY)
    day = days = _interval("days", millis=_DAY)
    hour = hours = _interval("hours", millis=3600 * 1000)
    minute = minutes = _interval("minutes", millis=60 * 1000)
    second = seconds = _interval("seconds", millis=1000)
    milli = millis = _interval("millis", millis=1)

    # rows and collections
    def get(self, name_or_index: Union[str, int]) -> "Expression":
        return _call("get", self, name_or_index)

    @property
    def flatten(self) -> "Expression":
        return _call("flatten", self)

    def at(self, index) -> "Expression":
        return _call("item", self, index)

    cardinality = _unary("cardinality")
    element = _unary("element")

    def array_contains(self, needle) -> "Expression":
        return _call("array_contains", self, needle)

    def array_append(self, addition) -> "Expression":
        """The array with ``addition`` appended."""
        return _call("array_append", self, addition)

    def array_prepend(self, addition) -> "Expression":
        """The array with ``addition`` in front."""
        return _call("array_prepend", self, addition)

    def array_concat(self, *arrays) -> "Expression":
        """This array followed by the elements of ``arrays``."""
        return _call("array_concat", self, *arrays)

    def array_distinct(self) -> "Expression":
        """The array without repeated elements, in the order they first appear."""
        return _call("array_distinct", self)

    def array_remove(self, needle) -> "Expression":
        """The array without the elements equal to ``needle``."""
        return _call("array_remove", self, needle)

    def array_reverse(self) -> "Expression":
        return _call("array_reverse", self)

    def array_position(self, needle) -> "Expression":
        """The 1-based position of ``needle``'s first occurrence, 0 if it is not there."""
        return _call("array_position", self, needle)

    def array_max(self) -> "Expression":
        return _call("array_max", self)

    def array_min(self) -> "Expression":
        return _call("array_min", self)

    def array_join(self, delimiter, null_replacement=None) -> "Expression":
        """The elements joined by ``delimiter``; NULL elements left out, or replaced."""
        extra = () if null_replacement is None else (null_replacement,)
        return _call("array_join", self, delimiter, *extra)

    def array_slice(self, start_offset, end_offset=None) -> "Expression":
        """The elements from ``start_offset`` to ``end_offset`` (1-based, inclusive;
        negative offsets count from the end)."""
        extra = () if end_offset is None else (end_offset,)
        return _call("array_slice", self, start_offset, *extra)

    def array_sort(self, ascending_order=None, null_first=None) -> "Expression":
        """The array sorted (ascending, NULLs first, unless told otherwise)."""
        if null_first is not None:
            return _call("array_sort", self,
                         True if ascending_order is None else ascending_order, null_first)
        extra = () if ascending_order is None else (ascending_order,)
        return _call("array_sort", self, *extra)

    def array_union(self, array) -> "Expression":
        return _call("array_union", self, array)

    def array_intersect(self, array) -> "Expression":
        return _call("array_intersect", self, array)

    def array_except(self, array) -> "Expression":
        return _call("array_except", self, array)

    def split(self, delimiter) -> "Expression":
        """The string split at each ``delimiter`` (taken literally) into an array."""
        return _call("split", self, delimiter)

    @property
    def map_keys(self) -> "Expression":
        return _call("map_keys", self)

    @property
    def map_values(self) -> "Expression":
        return _call("map_values", self)

    @property
    def map_entries(self) -> "Expression":
        """The map's entries as an array of (key, value) rows."""
        return _call("map_entries", self)

    def map_union(self, *maps) -> "Expression":
        """The union of this map and ``maps``: a later map's value wins for a key."""
        return _call("map_union", self, *maps)

    # more strings, JSON and network addresses
    def translate(self, from_str, to_str) -> "Expression":
        """Each character of ``from_str`` replaced by the one at its place in ``to_str``
        (removed where ``to_str`` is shorter)."""
        return _call("translate", self, from_str, to_str)

    def btrim(self, trim_str=None) -> "Expression":
        """The string without the characters of ``trim_str`` (a space) at both ends."""
        return _call("btrim", self, " " if trim_str is None else trim_str)

    def regexp_count(self, regex) -> "Expression":
        return _call("regexp_count", self, regex)

    def regexp_extract_all(self, regex, extract_index=None) -> "Expression":
        extra = () if extract_index is None else (extract_index,)
        return _call("regexp_extract_all", self, regex, *extra)

    def regexp_instr(self, regex) -> "Expression":
        """The 1-based position of ``regex``'s first match, 0 if none."""
        return _call("regexp_instr", self, regex)

    def regexp_substr(self, regex) -> "Expression":
        """The first match of ``regex``, NULL if none."""
        return _call("regexp_substr", self, regex)

    def url_encode(self) -> "Expression":
        return _call("url_encode", self)

    def url_decode(self) -> "Expression":
        return _call("url_decode", self)

    def parse_url(self, part_to_extract, key=None) -> "Expression":
        """A part of the URL (HOST, PATH, QUERY, REF, PROTOCOL, FILE, AUTHORITY, USERINFO);
        with ``key`` the value of that query parameter."""
        extra = () if key is None else (key,)
        return _call("parse_url", self, part_to_extract, *extra)

    def str_to_map(self, list_delimiter=None, key_value_delimiter=None) -> "Expression":
        """A map of the string's pairs (regex delimiters, ',' and '=' by default)."""
        return _call("str_to_map", self, "," if list_delimiter is None else list_delimiter,
                     "=" if key_value_delimiter is None else key_value_delimiter)

    def printf(self, *obj) -> "Expression":
        """This format string (Java's ``String.format``) applied to ``obj``."""
        return _call("printf", self, *obj)

    def elt(self, expr, *exprs) -> "Expression":
        """The index-th (this expression, 1-based) of ``expr, *exprs``; NULL if none."""
        return _call("elt", self, expr, *exprs)

    def encode(self, charset) -> "Expression":
        return _call("encode", self, charset)

    def decode(self, charset) -> "Expression":
        return _call("decode", self, charset)

    @property
    def unhex(self) -> "Expression":
        return _call("unhex", self)

    def is_json(self, json_type: "JsonType" = None) -> "Expression":
        """Whether the string is valid JSON (of ``json_type``); FALSE for NULL."""
        extra = () if json_type is None else (json_type,)
        return _call("is_json", self, *extra)

    def json_quote(self) -> "Expression":
        return _call("json_quote", self)

    def json_unquote(self) -> "Expression":
        return _call("json_unquote", self)

    def inet_aton(self) -> "Expression":
        """The number of a dotted IPv4 address, NULL if it is not one."""
        return _call("inet_aton", self)

    def inet_ntoa(self) -> "Expression":
        """The dotted IPv4 address of a number."""
        return _call("inet_ntoa", self)


def _window_ref(expr: Expression) -> ex.Expr:
    node = expr._node
    return ex.WindowRef(node.name) if isinstance(node, ex.Column) else node


def _data_type(data_type) -> DataType:
    if isinstance(data_type, str):  # a DDL string; the SQL parser is imported when needed
        from pystream.sql.types import parse_data_type

        return parse_data_type(data_type)
    return data_type


# Python values a literal accepts (documentation for `lit`)
LITERAL_TYPES = (bool, int, float, str, bytes, Decimal, datetime.date, datetime.time,
                 datetime.datetime, datetime.timedelta, list, dict, type(None))
