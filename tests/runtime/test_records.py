import datetime
import decimal

import pytest

from pystream.common import Instant, Row, Types
from pystream.runtime.records import RecordTypeError, batch_decoder, batch_encoder

ROUND_TRIPS = [
    (True, Types.BOOLEAN()), (1, Types.BYTE()), (2, Types.SHORT()), (3, Types.INT()),
    (2 ** 40, Types.LONG()), (1.5, Types.FLOAT()), (2.5, Types.DOUBLE()), ("x", Types.STRING()),
    ("c", Types.CHAR()), (10 ** 20, Types.BIG_INT()), (decimal.Decimal("1.25"), Types.BIG_DEC()),
    (datetime.date(2020, 1, 2), Types.SQL_DATE()), (datetime.time(1, 2, 3), Types.SQL_TIME()),
    (datetime.datetime(2020, 1, 2, 3, 4, 5, 123000), Types.SQL_TIMESTAMP()),
    (datetime.datetime(2021, 5, 6, 7, 8, 9), Types.LOCAL_DATE_TIME()),
    (Instant(5, 1_000_000), Types.INSTANT()), (b"ab", Types.PRIMITIVE_ARRAY(Types.BYTE())),
    ([1, 2], Types.PRIMITIVE_ARRAY(Types.INT())), (["a", None], Types.BASIC_ARRAY(Types.STRING())),
    ({"k": 1}, Types.MAP(Types.STRING(), Types.INT())), ([1.0], Types.LIST(Types.DOUBLE())),
    ({"a": [Row(i=1, s="x")]},
     Types.MAP(Types.STRING(), Types.LIST(Types.ROW_NAMED(["i", "s"],
                                                          [Types.INT(), Types.STRING()])))),
    ({"x": (1, [2])}, Types.PICKLED_BYTE_ARRAY()),
]


@pytest.mark.parametrize("value,type_info", ROUND_TRIPS, ids=[repr(t) for _, t in ROUND_TRIPS])
def test_values_round_trip_through_arrow(value, type_info):
    columns = batch_encoder(type_info)([value, None])
    assert batch_decoder(type_info)(columns) == [value, None]


def test_rows_decode_with_field_names_and_tuples_as_tuples():
    row_type = Types.ROW([Types.INT(), Types.STRING()])
    tuple_type = Types.TUPLE([Types.INT(), Types.STRING()])
    assert (batch_decoder(row_type)(batch_encoder(row_type)([Row(1, "a"), (2, "b")])),
            batch_decoder(tuple_type)(batch_encoder(tuple_type)([(1, "a")]))) == \
        ([Row(f0=1, f1="a"), Row(f0=2, f1="b")], [(1, "a")])


@pytest.mark.parametrize("value,type_info,named", [
    ("a", Types.INT(), ("'a'", "Integer")), (1.5, Types.LONG(), ("1.5", "Long")),
    (True, Types.INT(), ("True", "Integer")), (2 ** 40, Types.INT(), ("1099511627776", "Integer")),
    (1, Types.STRING(), ("1", "String")),
    ((1,), Types.ROW([Types.INT(), Types.STRING()]), ("(1,)", "RowTypeInfo")),
    ({"a": "b"}, Types.MAP(Types.STRING(), Types.INT()), ("'b'", "Integer")),
    ("x", Types.LIST(Types.INT()), ("'x'", "ListTypeInfo<Integer>")),
])
def test_values_that_do_not_fit_raise_naming_value_and_type(value, type_info, named):
    with pytest.raises(RecordTypeError) as error:
        batch_encoder(type_info)([value])
    assert [text in str(error.value) for text in named] == [True, True]


def test_the_row_kinds_of_a_tuples_rows_travel_beside_its_fields():
    """A retract stream's (flag, row): the row keeps its kind (Java prints (false,-U[a, 1]))."""
    from pystream.common import RowKind
    from pystream.runtime.records import column_names

    type_info = Types.TUPLE([Types.BOOLEAN(), Types.ROW([Types.STRING(), Types.LONG()])])
    values = [(True, Row("a", 1)), (False, Row.of_kind(RowKind.UPDATE_BEFORE, "a", 1)),
              (True, Row.of_kind(RowKind.UPDATE_AFTER, "a", 2)), (True, None)]
    assert column_names(type_info) == ["f0", "f1", "__kind1"]
    decoded = batch_decoder(type_info)(batch_encoder(type_info)(values))
    assert [v[1].get_row_kind() if v[1] is not None else None for v in decoded] == [
        RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, None]
