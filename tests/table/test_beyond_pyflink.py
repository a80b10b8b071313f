"""What PyFlink 2.3 fails on and pystream does (the issue's "Beyond PyFlink" list).

PyFlink cannot run these, so there is no recorded output: each expectation is the value that
went in, or the type the program declared.
"""
import datetime
from decimal import Decimal

from pystream.table import DataTypes, Row
from pystream.table.expressions import col, lit
from tests.table.conftest import rows


def field(name, data_type):
    return DataTypes.FIELD(name, data_type)


def test_collect_gives_back_values_pyflink_cannot_collect(t_env):
    schema = DataTypes.ROW([
        field("ltz", DataTypes.TIMESTAMP_LTZ(3)),
        field("seconds", DataTypes.INTERVAL(DataTypes.SECOND(3))),
        field("arr", DataTypes.ARRAY(DataTypes.INT())),
        field("micros", DataTypes.TIMESTAMP(6)),
        field("raw", DataTypes.BYTES()),
        field("bag", DataTypes.MULTISET(DataTypes.STRING())),
        field("padded", DataTypes.CHAR(5)),
    ])
    value = (datetime.datetime(2024, 1, 1, 1, 2, 3, 456000), datetime.timedelta(seconds=90),
             [1, None, 3], datetime.datetime(2024, 1, 1, 0, 0, 0, 123456), b"\x01\x02",
             ["a", "a", "b"], "ab")
    table = t_env.from_elements([value], schema)
    assert rows(table) == [value[:5] + ({"a": 2, "b": 1}, "ab   ")]


def test_a_typed_literal_and_field_access_beside_flatten(batch_t_env):
    schema = DataTypes.ROW([field("r", DataTypes.ROW([field("a", DataTypes.INT()),
                                                      field("b", DataTypes.STRING())]))])
    table = batch_t_env.from_elements([(Row(1, "x"),)], schema)
    result = table.select(lit(7, DataTypes.BIGINT()), col("r").get("a"), col("r").flatten)
    assert result.get_schema().get_field_names() == ["_c0", "r$a0", "r$a", "r$b"]
    assert result.get_schema().get_field_data_types()[0] == DataTypes.BIGINT(False)
    assert rows(result) == [(7, 1, 1, "x")]


def test_decimal_keeps_its_scale(batch_t_env):
    table = batch_t_env.from_elements(
        [(Decimal("1.5"),)], DataTypes.ROW([field("d", DataTypes.DECIMAL(10, 2))]))
    assert rows(table) == [(Decimal("1.50"),)]
