"""Records between Arrow columns and the Python values user functions see.

A typed stream travels as Spark columns: a ROW/TUPLE type as one column per field, any other
type as one column ``value``. An untyped stream is one binary column ``value`` of pickles.
``decoder(type_info)`` turns the columns of a batch into a list of values (``Row`` for ROW
types, tuples for TUPLE types, ...); ``encoder(type_info)`` turns a list of values back into
columns, raising ``RecordTypeError`` for a value that does not fit the declared type.
"""
from __future__ import annotations

import calendar
import datetime
import decimal
import numbers
import pickle
from operator import itemgetter
from typing import Any, Callable, List, Optional

import pyarrow as pa
import pyarrow.compute as pc

from pystream.common.time import Instant
from pystream.common.typeinfo import (
    BasicType,
    BasicTypeInfo,
    DateTypeInfo,
    InstantTypeInfo,
    LocalTimeTypeInfo,
    MapTypeInfo,
    PickledBytesTypeInfo,
    PrimitiveArrayTypeInfo,
    RowTypeInfo,
    TimestampTypeInfo,
    TimeTypeInfo,
    TupleTypeInfo,
    TypeInformation,
    _CompositeTypeInfo,
    _ElementTypeInfo,
)
from pystream.common.types import Row, RowKind
from pystream.runtime.shapes import shaper

PICKLE_PROTOCOL = pickle.HIGHEST_PROTOCOL
VALUE_COLUMN = "value"
ROW_KIND = "__kind"  # a ROW record's row kind (0 +I, 1 -U, 2 +U, 3 -D), after its fields
NESTED_KIND = "__kind%d"  # the row kind of a TUPLE record's ROW field at that position
_KINDS = list(RowKind)


class RecordTypeError(TypeError):
    """A value does not fit the declared type."""

    def __init__(self, value, type_info: TypeInformation, detail: str = ""):
        self.value = value
        self.type_info = type_info
        super().__init__("value %s (of Python type %s) does not fit the declared type %s%s"
                         % (_short_repr(value), type(value).__name__, type_info,
                            ": " + detail if detail else ""))



def is_missing(value: Any) -> bool:
    """A null as pandas hands it over: None, or NaN in a float column."""
    return value is None or (isinstance(value, float) and value != value)

def epoch_millis(value) -> float:
    """An event time (a datetime, or a number of milliseconds) in epoch milliseconds; a
    TIMESTAMP's naive fields are read as UTC (Spark's session time zone in pystream's jobs)."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return calendar.timegm(value.timetuple()) * 1000 + value.microsecond / 1000
        return value.timestamp() * 1000
    return float(value)


def _short_repr(value, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


# ---------------------------------------------------------------------------------------------
# Column layout of a type


def column_names(type_info: TypeInformation) -> List[str]:
    """The Spark column names a stream of ``type_info`` travels in (a ROW's: its fields', then
    ``__kind``, its records' row kinds; a TUPLE's: its fields', then ``__kind<i>``, the row
    kinds of its ROW fields)."""
    if isinstance(type_info, RowTypeInfo):
        return type_info.get_field_names() + [ROW_KIND]
    if isinstance(type_info, _CompositeTypeInfo):
        return type_info.get_field_names() + [NESTED_KIND % i for i in _row_fields(type_info)]
    return [VALUE_COLUMN]


def _row_fields(type_info: TypeInformation) -> List[int]:
    """The positions of a TUPLE's ROW fields (their row kinds travel beside the fields)."""
    if not isinstance(type_info, TupleTypeInfo):
        return []
    return [i for i, t in enumerate(type_info.get_field_types()) if isinstance(t, RowTypeInfo)]


def column_types(type_info: TypeInformation) -> list:
    """The Spark types of those columns."""
    from pyspark.sql.types import ByteType

    if isinstance(type_info, _CompositeTypeInfo):
        kinds = [ByteType()] * (1 if isinstance(type_info, RowTypeInfo)
                                else len(_row_fields(type_info)))
        return [t.spark_type() for t in type_info.get_field_types()] + kinds
    return [type_info.spark_type()]


def row_kind_column():
    """The ``__kind`` column of ROW records that Spark made (all +I)."""
    from pyspark.sql import functions as F

    return F.lit(0).cast("byte").alias(ROW_KIND)


def row_kind_of(value) -> int:
    """The row kind a ROW record travels with (0, +I, for a tuple)."""
    return value._row_kind.value if type(value) is Row else 0


def arrow_type(type_info: TypeInformation) -> pa.DataType:
    """The Arrow type Spark uses for a column of ``type_info``."""
    from pyspark.sql.pandas.types import to_arrow_type

    return to_arrow_type(type_info.spark_type(), timezone="UTC")


# ---------------------------------------------------------------------------------------------
# Decoding: Arrow column -> Python values

ColumnDecoder = Callable[[pa.Array], list]


def _plain(array: pa.Array) -> list:
    return array.to_pylist()


def _unpickle(array: pa.Array) -> list:
    loads = pickle.loads
    return [None if b is None else loads(b) for b in array.to_pylist()]


def _instants(array: pa.Array) -> list:
    micros = array.cast(pa.int64()).to_pylist()
    return [None if us is None else Instant(us // 1_000_000, (us % 1_000_000) * 1000)
            for us in micros]


def _integers(array: pa.Array) -> list:
    return [None if d is None else int(d) for d in array.to_pylist()]


def _decimals(array: pa.Array) -> list:
    make = decimal.Decimal
    return [None if d is None else make(d) for d in array.to_pylist()]


def _client_floats(array: pa.Array) -> list:
    if not pa.types.is_string(array.type):  # not cast by Spark (see sink_helpers.client_frame)
        array = array.cast(pa.string())
    return [None if f is None else float(f) for f in array.to_pylist()]


def column_decoder(type_info: TypeInformation, client: bool = False) -> ColumnDecoder:
    """A function from one Arrow column of ``type_info`` to a list of Python values.

    ``client``: the values a job hands to its client (collect, print), where FLOAT values
    arrive as Java's text of the 32-bit float (0.43333334) as in PyFlink, not as the exact
    double of those 32 bits (0.4333333373069763) that Python functions see.
    """
    if client and type_info == BasicTypeInfo(BasicType.FLOAT):
        return _client_floats
    if isinstance(type_info, PickledBytesTypeInfo):
        return _unpickle
    if isinstance(type_info, InstantTypeInfo):
        return _instants
    if type_info == BasicTypeInfo(BasicType.BIG_INT):
        return _integers
    if type_info == BasicTypeInfo(BasicType.BIG_DEC):
        return _decimals
    if isinstance(type_info, _CompositeTypeInfo):
        children = [column_decoder(t, client) for t in type_info.get_field_types()]
        make = _record_maker(type_info)

        def decode_struct(array: pa.Array) -> list:
            if isinstance(array, pa.ChunkedArray):
                array = array.combine_chunks()
            fields = [dec(array.field(i)) for i, dec in enumerate(children)]
            records = [make(values) for values in zip(*fields)]
            if array.null_count:
                for i, is_null in enumerate(array.is_null().to_pylist()):
                    if is_null:
                        records[i] = None
            return records

        return decode_struct
    if isinstance(type_info, MapTypeInfo):
        ordered = shaper(type_info)  # read back as Java's HashMap iterates
        plain = _map_decoder(type_info, client)
        return lambda array: [ordered(m) for m in plain(array)]
    if isinstance(type_info, _ElementTypeInfo) and not _is_bytes(type_info):
        if _needs_conversion(type_info.element_type, client):
            elem_dec = column_decoder(type_info.element_type, client)

            def decode_list(array: pa.Array) -> list:
                if isinstance(array, pa.ChunkedArray):
                    array = array.combine_chunks()
                elements = iter(elem_dec(array.flatten()))
                return [None if n is None else [next(elements) for _ in range(n)]
                        for n in array.value_lengths().to_pylist()]
            return decode_list
        return _plain
    return _plain


def _map_decoder(type_info: MapTypeInfo, client: bool) -> ColumnDecoder:
    """Dicts of a MAP column, keys in the order Spark holds them."""
    key_dec = column_decoder(type_info._key_type_info, client)
    val_dec = column_decoder(type_info._value_type_info, client)
    if _needs_conversion(type_info, client):
        def decode_map(array: pa.Array) -> list:
            offsets = array.offsets.to_pylist()
            keys, items = key_dec(array.keys), val_dec(array.items)
            base = offsets[0] if len(keys) == offsets[-1] - offsets[0] else 0
            valid = array.is_valid().to_pylist()
            return [dict(zip(keys[lo - base:hi - base], items[lo - base:hi - base]))
                    if ok else None
                    for ok, lo, hi in zip(valid, offsets, offsets[1:])]
        return decode_map
    return lambda array: [None if kv is None else dict(kv) for kv in array.to_pylist()]


def _is_bytes(type_info: TypeInformation) -> bool:
    return (isinstance(type_info, PrimitiveArrayTypeInfo)
            and type_info.element_type == BasicTypeInfo(BasicType.BYTE))


_CONVERTED_NUMBERS = (BasicTypeInfo(BasicType.BIG_INT), BasicTypeInfo(BasicType.BIG_DEC))


def _needs_conversion(type_info: TypeInformation, client: bool = False) -> bool:
    """Whether Arrow's own ``to_pylist`` would not give the PyFlink value."""
    if isinstance(type_info, (PickledBytesTypeInfo, InstantTypeInfo, _CompositeTypeInfo,
                              MapTypeInfo)) or type_info in _CONVERTED_NUMBERS:
        return True
    if client and type_info == BasicTypeInfo(BasicType.FLOAT):
        return True
    if isinstance(type_info, _ElementTypeInfo):
        return _needs_conversion(type_info.element_type, client)
    return False


def _record_maker(type_info: TypeInformation):
    if isinstance(type_info, TupleTypeInfo):
        return tuple
    names = type_info.get_field_names()
    make = Row._make
    return lambda values: make(list(values), names)


def batch_decoder(type_info: TypeInformation,
                  client: bool = False) -> Callable[[list], list]:
    """A function from the data columns of a batch (a list of Arrow arrays) to values
    (``client``: as the job's client gets them, see ``column_decoder``)."""
    if isinstance(type_info, _CompositeTypeInfo):
        decoders = [column_decoder(t, client) for t in type_info.get_field_types()]
        if isinstance(type_info, TupleTypeInfo):
            nested, arity = _row_fields(type_info), len(decoders)

            def decode_tuples(columns):
                values = list(zip(*[dec(col) for dec, col in zip(decoders, columns)]))
                for field, kinds in zip(nested, columns[arity:]):  # only the rows not +I
                    for i in pc.indices_nonzero(kinds.fill_null(0)).to_pylist():
                        if values[i][field] is not None:
                            values[i][field]._row_kind = _KINDS[kinds[i].as_py()]
                return values
            return decode_tuples
        names = type_info.get_field_names()
        make, arity = Row._make, len(decoders)

        def decode_rows(columns):
            fields = [dec(col) for dec, col in zip(decoders, columns)]
            rows = [make(list(values), names) for values in zip(*fields)]
            if len(columns) > arity:  # the row kinds: only the rows that are not +I
                kinds = columns[arity]
                for i in pc.indices_nonzero(kinds.fill_null(0)).to_pylist():
                    rows[i]._row_kind = _KINDS[kinds[i].as_py()]
            return rows
        return decode_rows
    decoder = column_decoder(type_info, client)
    return lambda columns: decoder(columns[0])


def as_collected(values: list, type_info: TypeInformation) -> list:
    """Values of a stream of ``type_info`` as PyFlink's ``execute_and_collect`` gives them
    (Java's conversion of a top-level value): a BIG_DEC with a positive exponent comes
    without it (1E+3 -> 1000), a SQL_TIME without its fraction of a second. Inside records
    values keep both; a byte array comes as a list of signed ints."""
    if type_info == BasicTypeInfo(BasicType.BIG_DEC):
        integral = decimal.Decimal(1)
        return [d if d is None or d.as_tuple().exponent <= 0 else d.quantize(integral)
                for d in values]
    if isinstance(type_info, TimeTypeInfo):
        return [t if t is None else t.replace(microsecond=0) for t in values]
    if _is_bytes(type_info):  # Java's byte[] as a list of signed bytes
        return [b if b is None else [x - 256 if x > 127 else x for x in b] for b in values]
    return values


# ---------------------------------------------------------------------------------------------
# Encoding: Python values -> Arrow column

ColumnEncoder = Callable[[list], pa.Array]

_INT_TYPES = {BasicType.BYTE, BasicType.SHORT, BasicType.INT, BasicType.LONG}
_NONE = type(None)


def dumps(value) -> bytes:
    """The pickle of a record: by reference, as pickle does, or by value (cloudpickle) for
    what pickle cannot find by name (a class defined inside a function)."""
    try:
        return pickle.dumps(value, PICKLE_PROTOCOL)
    except (pickle.PicklingError, AttributeError):
        from pyspark import cloudpickle

        return cloudpickle.dumps(value, PICKLE_PROTOCOL)


def column_encoder(type_info: TypeInformation) -> ColumnEncoder:
    """A function from a list of Python values to one Arrow column of ``type_info``."""
    target = arrow_type(type_info)

    if isinstance(type_info, PickledBytesTypeInfo):
        def encode_pickled(values):
            return pa.array([None if v is None else dumps(v) for v in values], pa.binary())
        return encode_pickled

    if isinstance(type_info, InstantTypeInfo):
        def encode_instants(values):
            _check_kinds(values, (Instant,), type_info)
            micros = [None if v is None else v.seconds * 1_000_000 + v.nanos // 1000
                      for v in values]
            return pa.array(micros, pa.int64()).cast(target)
        return encode_instants

    if type_info == BasicTypeInfo(BasicType.BIG_DEC):
        def encode_decimals(values):
            _check_kinds(values, (decimal.Decimal, numbers.Integral), type_info)
            return pa.array([None if v is None else str(v) for v in values], pa.string())
        return encode_decimals

    if isinstance(type_info, _CompositeTypeInfo):
        names = type_info.get_field_names()
        children = [column_encoder(t) for t in type_info.get_field_types()]
        arity = len(children)

        def encode_struct(values):
            fields = _transpose(values, arity, type_info)
            arrays = [enc(col) for enc, col in zip(children, fields)]
            mask = pa.array([v is None for v in values], pa.bool_())
            return pa.StructArray.from_arrays(arrays, names, mask=mask)
        return encode_struct

    if isinstance(type_info, MapTypeInfo):
        key_enc = column_encoder(type_info._key_type_info)
        val_enc = column_encoder(type_info._value_type_info)

        def encode_map(values):
            _check_kinds(values, (dict,), type_info)
            offsets, keys, items = [0], [], []
            for v in values:
                if v is not None:
                    keys.extend(v.keys())
                    items.extend(v.values())
                offsets.append(len(keys))
            mask = pa.array([v is None for v in values], pa.bool_())
            offsets_array = pa.array(offsets, pa.int32())
            return pa.MapArray.from_arrays(offsets_array, key_enc(keys), val_enc(items),
                                           type=target, mask=mask)
        return encode_map

    if isinstance(type_info, _ElementTypeInfo) and not _is_bytes(type_info):
        elem_enc = column_encoder(type_info.element_type)

        def encode_list(values):
            _check_kinds(values, (list, tuple), type_info)
            offsets, flat = [0], []
            for v in values:
                if v is not None:
                    flat.extend(v)
                offsets.append(len(flat))
            mask = pa.array([v is None for v in values], pa.bool_())
            return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), elem_enc(flat),
                                            type=target, mask=mask)
        return encode_list

    kinds = _python_kinds(type_info)

    def encode_plain(values):
        if kinds is not None:
            _check_kinds(values, kinds, type_info)
        try:
            return pa.array(values, target)
        except (pa.ArrowException, TypeError, ValueError, OverflowError):
            _raise_for_bad_value(values, target, type_info)
            raise
    return encode_plain


def _python_kinds(type_info: TypeInformation):
    """The Python types a plain column accepts, where Arrow alone would be too lenient."""
    if isinstance(type_info, BasicTypeInfo):
        t = type_info._basic_type
        if t in _INT_TYPES or t is BasicType.BIG_INT:
            return (numbers.Integral,)
        if t in (BasicType.FLOAT, BasicType.DOUBLE):
            return (numbers.Real,)
        if t in (BasicType.STRING, BasicType.CHAR):
            return (str,)
        if t is BasicType.BOOLEAN:
            return (bool,)
        if t is BasicType.BIG_DEC:
            return (decimal.Decimal, numbers.Integral)
    if isinstance(type_info, PrimitiveArrayTypeInfo):  # bytes
        return (bytes, bytearray)
    if isinstance(type_info, DateTypeInfo):
        return (datetime.date,)
    if isinstance(type_info, TimeTypeInfo):
        return (datetime.time,)
    if isinstance(type_info, TimestampTypeInfo):
        return (datetime.datetime,)
    if isinstance(type_info, LocalTimeTypeInfo):
        return {LocalTimeTypeInfo.TimeType.LOCAL_DATE: (datetime.date,),
                LocalTimeTypeInfo.TimeType.LOCAL_TIME: (datetime.time,),
                LocalTimeTypeInfo.TimeType.LOCAL_DATE_TIME: (datetime.datetime,)}[
            type_info._time_type]
    return None


def _check_kinds(values: list, kinds: tuple, type_info: TypeInformation) -> None:
    """Raise for the first value whose Python type is not one of ``kinds`` (bool is no int)."""
    present = set(map(type, values))
    present.discard(_NONE)
    for kind in present:
        if kind in kinds or (issubclass(kind, kinds) and (kind is not bool or bool in kinds)):
            continue
        bad = next(v for v in values if type(v) is kind)
        raise RecordTypeError(bad, type_info)


def _transpose(values: list, arity: int, type_info: TypeInformation) -> list:
    kinds = set(map(type, values))
    if kinds == {tuple} and set(map(len, values)) == {arity}:  # the common case, at C speed
        return [list(map(itemgetter(i), values)) for i in range(arity)]
    rows = []
    for v in values:
        if v is None:
            rows.append((None,) * arity)
        elif type(v) is Row:
            if len(v._values) != arity:
                raise RecordTypeError(v, type_info, "expected %d fields" % arity)
            rows.append(v._values)
        elif isinstance(v, (tuple, list, Row)):
            if len(v) != arity:
                raise RecordTypeError(v, type_info, "expected %d fields" % arity)
            rows.append(v)
        else:
            raise RecordTypeError(v, type_info, "expected a Row or a tuple")
    if not rows:
        return [[] for _ in range(arity)]
    return [list(col) for col in zip(*rows)]


def _raise_for_bad_value(values: list, target: pa.DataType, type_info: TypeInformation) -> None:
    for v in values:
        try:
            pa.array([v], target)
        except (pa.ArrowException, TypeError, ValueError, OverflowError) as e:
            raise RecordTypeError(v, type_info, str(e)) from None


def spark_row_fields(type_info: TypeInformation) -> Optional[Callable[[Any], dict]]:
    """For a type whose values PySpark converts to its columns as they are (basic types and
    composites of them), a function from a value to ``{column: value}``; else None."""
    if isinstance(type_info, _CompositeTypeInfo):
        if not all(_plain_for_spark(t) for t in type_info.get_field_types()):
            return None
        names = type_info.get_field_names()
        if isinstance(type_info, RowTypeInfo):
            return lambda value: {**dict(zip(names, value)), ROW_KIND: row_kind_of(value)}
        return lambda value: dict(zip(names, value))
    if _plain_for_spark(type_info):
        return lambda value: {VALUE_COLUMN: value}
    return None


def _plain_for_spark(type_info: TypeInformation) -> bool:
    if isinstance(type_info, BasicTypeInfo):
        return type_info._basic_type not in (BasicType.INSTANT, BasicType.BIG_INT,
                                             BasicType.BIG_DEC)
    if isinstance(type_info, (DateTypeInfo, TimestampTypeInfo)):
        return True
    if isinstance(type_info, LocalTimeTypeInfo):
        return type_info._time_type is not LocalTimeTypeInfo.TimeType.LOCAL_TIME
    if isinstance(type_info, MapTypeInfo):
        return _plain_for_spark(type_info._key_type_info) and \
            _plain_for_spark(type_info._value_type_info)
    if isinstance(type_info, _ElementTypeInfo):
        return _is_bytes(type_info) or _plain_for_spark(type_info.element_type)
    return False


def batch_encoder(type_info: TypeInformation) -> Callable[[list], List[pa.Array]]:
    """A function from a list of values to the data columns of a batch."""
    if isinstance(type_info, _CompositeTypeInfo):
        children = [column_encoder(t) for t in type_info.get_field_types()]
        arity = len(children)
        rows = isinstance(type_info, RowTypeInfo)
        nested = _row_fields(type_info)

        def encode_records(values):
            for v in values:
                if v is None:
                    raise RecordTypeError(v, type_info, "a record cannot be None")
            fields = _transpose(values, arity, type_info)
            columns = [enc(col) for enc, col in zip(children, fields)]
            if rows:  # the row kinds, at a list comprehension's speed
                columns.append(pa.array([v._row_kind.value if type(v) is Row else 0
                                         for v in values], pa.int8()))
            for field in nested:  # a tuple's ROW fields' kinds
                columns.append(pa.array([row_kind_of(v[field]) for v in values], pa.int8()))
            return columns
        return encode_records
    encoder = column_encoder(type_info)
    return lambda values: [encoder(values)]


__all__ = ["RecordTypeError", "column_names", "column_types", "arrow_type", "column_decoder",
           "column_encoder", "batch_decoder", "batch_encoder", "as_collected", "is_missing",
           "PICKLE_PROTOCOL", "VALUE_COLUMN", "ROW_KIND", "row_kind_of", "row_kind_column"]
