"""Tables and DataStreams mix in one job: ``from_data_stream``, ``to_data_stream``."""
import pytest

from pystream.common import Row, Types
from pystream.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pystream.table import Schema, StreamTableEnvironment
from pystream.table.expressions import col
from pystream.util.exceptions import ValidationException
from tests.table.conftest import changelog, rows

ORDERS = Types.ROW_NAMED(["id", "name"], [Types.INT(), Types.STRING()])


@pytest.fixture(params=["streaming", "batch"])
def env(request):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(RuntimeExecutionMode[request.param.upper()])
    env.set_parallelism(1)
    return env


def test_a_stream_of_rows_is_a_table_with_its_fields(env):
    t_env = StreamTableEnvironment.create(env)
    ds = env.from_collection([(1, "a"), (2, "b")], type_info=ORDERS)
    table = t_env.from_data_stream(ds)
    assert table.get_schema().get_field_names() == ["id", "name"]
    assert sorted(rows(table.where(col("id") > 1))) == [(2, "b")]


def test_fields_rename_and_a_schema_adds_computed_columns(env):
    t_env = StreamTableEnvironment.create(env)
    ds = env.from_collection([(1, "a")], type_info=ORDERS)
    assert rows(t_env.from_data_stream(ds, col("k"), col("v"))) == [(1, "a")]
    schema = Schema.new_builder().column_by_expression("twice", "id * 2").build()
    table = t_env.from_data_stream(ds, schema)
    assert table.get_schema().get_field_names() == ["id", "name", "twice"]
    assert rows(table) == [(1, "a", 2)]


def test_an_atomic_stream_is_one_column_f0(env):
    t_env = StreamTableEnvironment.create(env)
    table = t_env.from_data_stream(env.from_collection([5, 6], type_info=Types.LONG()))
    assert table.get_schema().get_field_names() == ["f0"]
    assert sorted(rows(table)) == [(5,), (6,)]


def test_a_streaming_aggregate_over_a_stream_emits_the_changelog():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    t_env = StreamTableEnvironment.create(env)
    ds = env.from_collection([(1, "a"), (2, "b"), (3, "a")], type_info=ORDERS)
    totals = t_env.from_data_stream(ds).group_by(col("name")).select(
        col("name"), col("id").sum)
    assert changelog(totals) == [("+I", "a", 1), ("+I", "b", 2), ("-U", "a", 1),
                                 ("+U", "a", 4)]


def test_a_table_feeds_a_data_stream_job(env, tmp_path):
    t_env = StreamTableEnvironment.create(env)
    table = t_env.from_elements([(1, "a"), (2, "b"), (3, "c")], ["id", "name"])
    stream = t_env.to_data_stream(table.where(col("id") > 1))
    with stream.map(lambda r: Row(r.name, r.id * 10),
                    Types.ROW([Types.STRING(), Types.INT()])).execute_and_collect() as results:
        assert sorted(tuple(r) for r in results) == [("b", 20), ("c", 30)]


def test_an_updating_table_is_not_a_data_stream():
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env)
    table = t_env.from_elements([(1, "a")], ["id", "name"]).group_by(col("name")).select(
        col("name"), col("id").count)
    with pytest.raises(ValidationException, match="update changes"):
        t_env.to_data_stream(table)


def test_an_untyped_stream_asks_for_a_type():
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env)
    with pytest.raises(TypeError, match="type_info"):
        t_env.from_data_stream(env.from_collection([(1, "a")]))

