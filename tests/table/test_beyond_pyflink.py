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


def test_table_api_functions_pyflink_cannot_call_give_what_their_sql_gives(batch_t_env):
    """PyFlink 2.3's Python methods of these functions fail to reach Java; their SQL forms
    (recorded on PyFlink in collection_functions and json_constructors) are the reference."""
    from pystream.table.expressions import JsonOnNull, json_array, json_object

    schema = DataTypes.ROW([field("id", DataTypes.INT()),
                            field("xs", DataTypes.ARRAY(DataTypes.INT())),
                            field("ys", DataTypes.ARRAY(DataTypes.INT())),
                            field("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
                            field("s", DataTypes.STRING()), field("d", DataTypes.DOUBLE())])
    t = batch_t_env.from_elements([(1, [3, 1, None, 1], [2, 5], {"a": 1}, "x", None),
                                   (2, None, [7], {"b": 2}, 'q"', 2.5)], schema)
    batch_t_env.create_temporary_view("t", t)
    xs, ys, m, s, d = col("xs"), col("ys"), col("m"), col("s"), col("d")
    table_api = t.select(
        col("id"), xs.array_concat(ys), xs.array_distinct(), xs.array_reverse(),
        xs.array_slice(2, 3), xs.array_slice(-2), xs.array_sort(), xs.array_sort(False, True),
        xs.array_sort(null_first=False),
        m.map_union(m), json_object(JsonOnNull.ABSENT, "s", s, "d", d),
        json_object(JsonOnNull.NULL, "d", d), json_array(JsonOnNull.NULL, col("id"), d),
        json_array(JsonOnNull.ABSENT, col("id"), d))
    sql = batch_t_env.sql_query(
        "SELECT id, ARRAY_CONCAT(xs, ys), ARRAY_DISTINCT(xs), ARRAY_REVERSE(xs), "
        "ARRAY_SLICE(xs, 2, 3), ARRAY_SLICE(xs, -2), ARRAY_SORT(xs), ARRAY_SORT(xs, FALSE, TRUE), "
        "ARRAY_SORT(xs, TRUE, FALSE), "
        "MAP_UNION(m, m), JSON_OBJECT('s' VALUE s, 'd' VALUE d ABSENT ON NULL), "
        "JSON_OBJECT('d' VALUE d), JSON_ARRAY(id, d NULL ON NULL), JSON_ARRAY(id, d) FROM t")
    assert rows(table_api) == rows(sql)


def test_an_array_of_dates_converts_its_sql_values_back_to_dates():
    """PyFlink 2.3's ARRAY and MULTISET ``from_sql_type`` call their elements'
    ``to_sql_type`` (an AttributeError for an array of DATE); pystream's undo
    ``to_sql_type``."""
    days = [datetime.date(1970, 1, 2), None]
    for data_type in (DataTypes.ARRAY(DataTypes.DATE()), DataTypes.MULTISET(DataTypes.DATE())):
        assert data_type.from_sql_type(data_type.to_sql_type(days)) == days


def test_bitmap_aggregates_in_batch_mode_and_bitmaps_collected(batch_t_env):
    """PyFlink 2.3's BATCH mode cannot compile BITMAP_BUILD_AGG (its sort aggregate's
    generated code assigns an Object to a Bitmap) nor collect a BITMAP (``Unsupported type:
    BITMAP``): pystream gives what its STREAMING mode leaves (recorded on PyFlink in
    programs/bitmap_functions.py) and a ``Bitmap`` of the values."""
    from pystream.common.bitmap import Bitmap

    batch_t_env.execute_sql("""
        CREATE TEMPORARY VIEW t AS SELECT * FROM (VALUES
            ('a', 1, ARRAY[1, 2, 3]), ('a', 3, ARRAY[3, 4]), ('a', -1, CAST(NULL AS ARRAY<INT>)),
            ('c', CAST(NULL AS INT), CAST(NULL AS ARRAY<INT>))) AS v(k, v, xs)""")
    result = batch_t_env.execute_sql("""
        SELECT k, BITMAP_TO_STRING(BITMAP_BUILD_AGG(v)),
               BITMAP_OR_CARDINALITY_AGG(BITMAP_BUILD(xs)),
               BITMAP_TO_STRING(BITMAP_AND_AGG(BITMAP_BUILD(xs))),
               BITMAP_TO_STRING(BITMAP_XOR_AGG(BITMAP_BUILD(xs))), BITMAP_BUILD_AGG(v)
        FROM t GROUP BY k ORDER BY k""")
    assert [tuple(r) for r in result.collect()] == [
        ("a", "{1,3,4294967295}", 4, "{3}", "{1,2,4}", Bitmap([1, 3, -1])),
        ("c", None, None, None, None, None)]


def test_object_of_and_object_update_in_the_table_api(batch_t_env):
    """PyFlink 2.3's Table API object_of fails in Py4J (no Java method matches its
    arguments): pystream's gives what its SQL gives (programs/structured_objects.py)."""
    from pystream.table.expressions import object_of

    table = batch_t_env.from_elements([("Bob", 21)], ["name", "age"])
    user = object_of("com.example.User", "name", col("name"), "age", col("age"))
    result = table.select(user.alias("u"), user.object_update("age", 30).get("age").alias("a"))
    assert result.get_schema().get_field_data_type("u").summary_string() == \
        "STRUCTURED<'com.example.User', `name` STRING, `age` BIGINT>"
    assert [tuple(r) for r in result.execute().collect()] == [(Row("Bob", 21), 30)]


def test_from_pandas_reads_pandas_missing_markers_as_null(batch_t_env):
    """A nullable ``Int64`` column (``pd.NA``) and a ``NaT``: PyFlink 2.3 fails in its Arrow
    conversion ("Cannot specify a mask ...")."""
    import pandas as pd

    pdf = pd.DataFrame({"i": pd.array([1, None, 3], dtype="Int64"),
                        "ts": pd.to_datetime(["2024-01-02 03:04:05", None, None])})
    table = batch_t_env.from_pandas(pdf)
    assert [f.data_type for f in table.get_schema().to_row_data_type().fields] == [
        DataTypes.BIGINT(), DataTypes.TIMESTAMP(3)]
    assert rows(table) == [(1, datetime.datetime(2024, 1, 2, 3, 4, 5)), (None, None),
                           (3, None)]
